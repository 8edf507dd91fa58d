// The Lagrange-multiplier solver's small-system path (detail/small_gram_ldlt.hpp): the Gram
// matrix by loops that skip Â's zeros and its unpivoted envelope LDL^T. Its answers must be the
// general path's (Eigen's product and pivoting LDLT, as lagrange_multiplier_solver.cpp computes
// them) to 1e-14 relative, on every example model's states and on random full-rank systems; a
// redundant or an inconsistent row must be refused by the small factor, so that the general path
// reports it as before.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <random>
#include <string>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/detail/small_gram_ldlt.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"
#include "mechanics_test_support.hpp"
#include "random_gigsp_systems.hpp"

namespace kinevo::mechanics {
namespace {

struct reference_answer {
  Eigen::VectorXd acceleration, constraint_force;
};

// The general path of lagrange_multiplier_solver::solve_into for a full-rank system, written out
// with the same Eigen expressions.
reference_answer general_path(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  EXPECT_FALSE(start_solve(s, "lm", mf, a_f).has_value());
  Eigen::VectorXd residual = s.rhs;
  residual.noalias() -= s.jacobian * a_f;
  Eigen::MatrixXd a_hat, work;
  mf.right_solve_upper(s.jacobian, a_hat, work);
  Eigen::MatrixXd gram;
  gram.noalias() = a_hat * a_hat.transpose();
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(gram);
  const Eigen::VectorXd lambda = ldlt.solve(residual);
  Eigen::VectorXd y;
  y.noalias() = a_hat.transpose() * lambda;
  mf.solve_upper_in_place(y);
  acceleration_result r;
  r.acceleration = a_f + y;
  set_constraint_force(s, a_f, r);
  return {r.acceleration, r.constraint_force};
}

double relative_difference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return 1.0;
  const double scale = std::max(b.cwiseAbs().maxCoeff(), 1e-300);
  return (a - b).cwiseAbs().maxCoeff() / scale;
}

// Whether LM's solve of `s` took the small path (the same factor on the same Â).
bool takes_small_path(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (start_solve(s, "lm", mf, a_f).has_value()) return false;
  if (!small_gram_ldlt::prefer(s.constraints(), s.coordinates()) && sparse_gram::applicable(s))
    return false;
  Eigen::MatrixXd a_hat, work;
  mf.right_solve_upper(s.jacobian, a_hat, work);
  small_gram_ldlt small;
  return small.factor(a_hat, direct_solver_options{}.rank_tolerance);
}

// LM against the general path; returns whether the small path was taken.
bool expect_lm_matches_general_path(const constrained_system& s, const std::string& what) {
  const acceleration_result lm = make_solver("lm")->solve(s);
  EXPECT_EQ(lm.status, solve_status::ok) << what << ": " << lm.message;
  EXPECT_EQ(lm.rank, s.constraints()) << what;
  const reference_answer ref = general_path(s);
  EXPECT_LE(relative_difference(lm.acceleration, ref.acceleration), 1e-14) << what;
  EXPECT_LE(relative_difference(lm.constraint_force, ref.constraint_force), 1e-14) << what;
  // And against another method: GIGSP's sweep forms no Gram matrix, so the two agree to the
  // system's conditioning, not to round-off (1.2e-10 at the parallelogram's perturbed state 1,
  // the general path's difference too; the Gram matrix squares the condition number).
  const acceleration_result gigsp = make_solver("gigsp")->solve(s);
  EXPECT_EQ(gigsp.status, solve_status::ok) << what;
  EXPECT_LE(relative_difference(lm.acceleration, gigsp.acceleration), 1e-9) << what;
  return takes_small_path(s);
}

TEST(SmallGramLdlt, EveryExampleModelAgreesWithTheGeneralPath) {
  int small = 0, systems = 0;
  for (const auto& path : test::example_model_paths()) {
    const model m = test::load_unassembled(test::read_text(path.string()), path.string());
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise(0.0, 0.05);
    Eigen::VectorXd q = m.initial_positions();
    Eigen::VectorXd qd = m.initial_velocities();
    // The initial state and a few states around it (the solve does not need them consistent).
    for (int k = 0; k < 4; ++k) {
      constrained_system s;
      m.evaluate(q, qd, 0.1 * k, s);
      // Systems of the sparse Gram path are compared with the dense path by its own tests.
      if (s.constraints() == 0 || (!small_gram_ldlt::prefer(s.constraints(), s.coordinates()) &&
                                   sparse_gram::applicable(s)))
        break;
      const acceleration_result general = make_solver("lm")->solve(s);
      if (general.status != solve_status::ok) break;  // a redundant example: the test below
      ++systems;
      const std::string what = path.filename().string() + " state " + std::to_string(k);
      if (expect_lm_matches_general_path(s, what)) ++small;
      for (Eigen::Index i = 0; i < q.size(); ++i) {
        q[i] += noise(rng);
        qd[i] += noise(rng);
      }
    }
  }
  EXPECT_GT(systems, 20);
  // Nearly every state is well conditioned: the small path is the common one.
  EXPECT_GE(small, systems * 3 / 4) << small << " of " << systems;
}

// A planar chain of 10 links (10 rows of 20, A sparse): below before_sparse_entries the small
// path is taken before the sparse Gram path, and agrees with the dense general path.
TEST(SmallGramLdlt, ShortChainTakesTheSmallPathBeforeTheSparseOne) {
  chain_options c;
  c.links = 10;
  const model m = load_model_from_string(chain_model_text(c), "chain");
  Eigen::VectorXd q = m.initial_positions();
  Eigen::VectorXd qd = m.initial_velocities();
  std::mt19937_64 rng(11);
  std::normal_distribution<double> noise(0.0, 0.05);
  for (int k = 0; k < 4; ++k) {
    constrained_system s;
    m.evaluate(q, qd, 0.0, s);
    ASSERT_TRUE(sparse_gram::applicable(s));
    ASSERT_TRUE(small_gram_ldlt::prefer(s.constraints(), s.coordinates()));
    EXPECT_TRUE(expect_lm_matches_general_path(s, "chain state " + std::to_string(k)));
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      q[i] += noise(rng);
      qd[i] += noise(rng);
    }
  }
}

TEST(SmallGramLdlt, RandomFullRankSystemsAgreeWithTheGeneralPath) {
  int small = 0, systems = 0;
  for (const int n : {3, 9, 14, 30, 60}) {
    for (const int m : {1, n / 3, n / 2, (2 * n) / 3}) {
      if (m < 1) continue;
      for (const bool dense_mass : {false, true}) {
        const test::random_gigsp_system r(m, n, 1000u + static_cast<unsigned>(n * 100 + m), {}, {},
                                          dense_mass);
        const constrained_system s = r.system();
        ++systems;
        const std::string what = "m " + std::to_string(m) + " n " + std::to_string(n) +
                                 (dense_mass ? " dense M" : " diagonal M");
        if (expect_lm_matches_general_path(s, what)) ++small;
      }
    }
  }
  EXPECT_EQ(small, systems);
}

// Redundant and inconsistent rows (a row repeated, with the same or another right-hand side):
// the small factor refuses them, and LM's report is the general path's, the refusal with the
// rank of the sweep. (A row that is a combination of others only to round-off can pass the
// general path's squared-pivot test, which then solves it as today:
// lagrange_multiplier_solver.cpp.)
TEST(SmallGramLdlt, RankDeficientSystemsTakeTheGeneralPath) {
  for (const bool inconsistent : {false, true}) {
    const test::random_gigsp_system r(8, 12, 42u, {}, {}, false);
    constrained_system s = r.system();
    s.jacobian.row(6) = s.jacobian.row(2);
    s.rhs[6] = s.rhs[2] + (inconsistent ? 1.0 : 0.0);
    EXPECT_FALSE(takes_small_path(s));
    const acceleration_result lm = make_solver("lm")->solve(s);
    EXPECT_EQ(lm.status, solve_status::singular);
    EXPECT_EQ(lm.rank, 7);
    EXPECT_EQ(lm.acceleration.size(), 0);
    EXPECT_EQ(lm.message,
              "lm: the constraint Jacobian has rank 7 < 8 rows (redundant or degenerate "
              "constraints), so A M^-1 A^T is singular and the multipliers are not unique; use "
              "gigsp or uk, which handle redundant rows");
  }
}

// A zero row and a row with a NaN: refused by the small factor (the general path and the finite
// check report them).
TEST(SmallGramLdlt, ZeroAndNonFiniteRowsAreRefused) {
  Eigen::MatrixXd a_hat = Eigen::MatrixXd::Identity(3, 5);
  small_gram_ldlt small;
  EXPECT_TRUE(small.factor(a_hat, 1e-9));
  a_hat.row(1).setZero();
  EXPECT_FALSE(small.factor(a_hat, 1e-9));
  a_hat(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(small.factor(a_hat, 1e-9));
  EXPECT_FALSE(small.factor(Eigen::MatrixXd::Identity(small_gram_ldlt::max_rows + 1, 200), 1e-9));
}

}  // namespace
}  // namespace kinevo::mechanics
