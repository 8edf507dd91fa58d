// The five direct solvers against each other and against an independent solve of the augmented
// system (generalized-inverse dissertation (GIGSP), eq. 2.6) by full-pivoting LU.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <random>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::mechanics {
namespace {

constrained_system random_constrained_system(int n, int m, bool diagonal, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rnd = [&](int r, int c) {
    Eigen::MatrixXd x(r, c);
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < c; ++j) x(i, j) = u(rng);
    }
    return x;
  };
  constrained_system s;
  if (diagonal) {
    s.mass = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) s.mass(i, i) = 0.5 + u(rng) * u(rng) + 1.0;
  } else {
    const Eigen::MatrixXd b = rnd(n, n);
    s.mass = b * b.transpose() + Eigen::MatrixXd::Identity(n, n);
  }
  s.mass_is_diagonal = diagonal;
  s.force = rnd(n, 1);
  s.jacobian = rnd(m, n);
  s.rhs = rnd(m, 1);
  return s;
}

Eigen::VectorXd augmented_solution(const constrained_system& s) {
  const int n = s.coordinates(), m = s.constraints();
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(n + m, n + m);
  k.topLeftCorner(n, n) = s.mass;
  k.topRightCorner(n, m) = s.jacobian.transpose();
  k.bottomLeftCorner(m, n) = s.jacobian;
  Eigen::VectorXd r(n + m);
  r << s.force, s.rhs;
  return Eigen::FullPivLU<Eigen::MatrixXd>(k).solve(r).head(n);
}

TEST(DirectSolvers, AllAgreeOnRandomFullRankSystems) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    for (bool diagonal : {false, true}) {
      const int n = 4 + static_cast<int>(seed % 7), m = 1 + static_cast<int>(seed % 4);
      const constrained_system s = random_constrained_system(n, m, diagonal, seed);
      const Eigen::VectorXd expected = augmented_solution(s);
      for (const auto& name : direct_solver_names()) {
        const acceleration_result r = make_solver(name)->solve(s);
        ASSERT_EQ(r.status, solve_status::ok) << name << " seed " << seed;
        EXPECT_EQ(r.rank, m) << name;
        EXPECT_LT((r.acceleration - expected).cwiseAbs().maxCoeff(), 1e-10)
            << name << " seed " << seed;
        // f_c = M (a - a_f) is in the range of A^T (eq. 2.18): M a - f - f_c = 0.
        EXPECT_LT((s.mass * r.acceleration - s.force - r.constraint_force).norm(), 1e-10) << name;
      }
    }
  }
}

TEST(DirectSolvers, RedundantRowsAgreeAndLagrangeMultipliersReportSingular) {
  constrained_system s = random_constrained_system(7, 3, false, 42);
  // Row 4 = row 1 + 2 row 2 with the matching right-hand side: redundant, consistent.
  s.jacobian.conservativeResize(4, Eigen::NoChange);
  s.jacobian.row(3) = s.jacobian.row(0) + 2.0 * s.jacobian.row(1);
  s.rhs.conservativeResize(4);
  s.rhs[3] = s.rhs[0] + 2.0 * s.rhs[1];
  constrained_system full = s;
  full.jacobian.conservativeResize(3, Eigen::NoChange);
  full.rhs.conservativeResize(3);
  const Eigen::VectorXd expected = augmented_solution(full);
  for (const auto& name : {"uk", "gigsp", "sl", "kv"}) {
    const acceleration_result r = make_solver(name)->solve(s);
    ASSERT_EQ(r.status, solve_status::ok) << name;
    EXPECT_EQ(r.rank, 3) << name;
    EXPECT_EQ(r.redundant.size(), 1u) << name;
    EXPECT_LT((r.acceleration - expected).cwiseAbs().maxCoeff(), 1e-10) << name;
  }
  const acceleration_result lm = make_solver("lm")->solve(s);
  EXPECT_EQ(lm.status, solve_status::singular);
  EXPECT_EQ(lm.acceleration.size(), 0);
  EXPECT_NE(lm.message.find("rank 3 < 4"), std::string::npos) << lm.message;
}

TEST(DirectSolvers, DegenerateZeroRowIsDropped) {
  constrained_system s = random_constrained_system(5, 2, true, 7);
  s.jacobian.conservativeResize(3, Eigen::NoChange);
  s.jacobian.row(2).setZero();
  s.rhs.conservativeResize(3);
  s.rhs[2] = 0.0;
  const acceleration_result u = make_solver("uk")->solve(s);
  const acceleration_result g = make_solver("gigsp")->solve(s);
  ASSERT_EQ(g.status, solve_status::ok);
  EXPECT_EQ(g.redundant, std::vector<int>{2});
  EXPECT_LT((u.acceleration - g.acceleration).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(make_solver("lm")->solve(s).status, solve_status::singular);
}

TEST(DirectSolvers, InconsistentRowsAreNamed) {
  constrained_system s = random_constrained_system(6, 2, false, 11);
  s.jacobian.conservativeResize(3, Eigen::NoChange);
  s.jacobian.row(2) = 3.0 * s.jacobian.row(1);
  s.rhs.conservativeResize(3);
  s.rhs[2] = 3.0 * s.rhs[1] + 0.5;  // disagrees
  const std::vector<std::string> names{"first", "second", "typo"};
  s.constraint_names = names;
  const acceleration_result g = make_solver("gigsp")->solve(s);
  EXPECT_EQ(g.status, solve_status::inconsistent);
  EXPECT_EQ(g.acceleration.size(), 0);
  EXPECT_EQ(g.inconsistent, std::vector<int>{2});
  EXPECT_NE(g.message.find("'typo'"), std::string::npos) << g.message;
  const acceleration_result u = make_solver("uk")->solve(s);
  EXPECT_EQ(u.status, solve_status::least_squares);
  EXPECT_EQ(u.acceleration.size(), 6);
  EXPECT_NE(u.message.find("least-squares"), std::string::npos) << u.message;
  EXPECT_EQ(make_solver("kv")->solve(s).status, solve_status::inconsistent);
}

TEST(DirectSolvers, SparseChainPathMatchesDenseSweep) {
  chain_options c;
  c.links = 30;
  const model m = load_model_from_string(chain_model_text(c), "chain.toml");
  Eigen::VectorXd qd = Eigen::VectorXd::Zero(m.coordinates());
  // A moving state: rotate the straight chain rigidly about the origin.
  for (int k = 0; k < c.links; ++k) {
    qd[2 * k] = -0.7 * m.initial_positions()[2 * k + 1];
    qd[2 * k + 1] = 0.7 * m.initial_positions()[2 * k];
  }
  const constrained_system s = m.evaluate(m.initial_positions(), qd, 0.0);
  solver_options dense;
  dense.direct.allow_sparse = false;
  for (const auto& name : {"gigsp", "lm"}) {
    const acceleration_result sparse = make_solver(name)->solve(s);
    const acceleration_result full = make_solver(name, dense)->solve(s);
    ASSERT_EQ(sparse.status, solve_status::ok);
    EXPECT_LT((sparse.acceleration - full.acceleration).cwiseAbs().maxCoeff(), 1e-10) << name;
    EXPECT_LT((s.jacobian * sparse.acceleration - s.rhs).cwiseAbs().maxCoeff(), 1e-10) << name;
  }
}

TEST(SolverFactory, UnknownNamesAndTheGaHook) {
  try {
    (void)make_solver("newton");
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("gigsp"), std::string::npos);
  }
  register_solver("test-copy", "test",
                  [](const solver_options& o) { return make_solver("uk", o); });
  EXPECT_TRUE(solver_available("test-copy"));
  EXPECT_EQ(make_solver("test-copy")->name(), "uk");
}

}  // namespace
}  // namespace kinevo::mechanics
