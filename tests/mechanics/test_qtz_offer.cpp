// qtz_solver::offer: a decomposition made elsewhere (a formulation's correction at the state the
// next step starts from), with M Q2 and the LLT of M^ = Q2^T M Q2 formed there too, is taken
// only when the solve's Phi_q and M are the offered ones bit for bit, and only by the next
// solve. The answers are a fresh solver's, bit for bit, whether the offer is taken or not: on a
// chain the sparse (SuiteSparseQR) path takes and on small random systems the dense one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"
#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"

namespace kinevo::mechanics {
namespace {

bool same_bits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

void expect_fresh_answer(const acceleration_result& r, const constrained_system& s,
                         const std::string& what) {
  const acceleration_result fresh = qtz_solver().solve(s);
  ASSERT_EQ(fresh.status, solve_status::ok) << what << ": " << fresh.message;
  ASSERT_EQ(r.status, fresh.status) << what;
  EXPECT_TRUE(same_bits(r.acceleration, fresh.acceleration)) << what;
  EXPECT_TRUE(same_bits(r.constraint_force, fresh.constraint_force)) << what;
}

// The offer of `from` (its Phi_q's decomposition and, with `with_mass`, its reduced mass).
void offer_from(qtz_solver& solver, const constrained_system& from, bool with_mass) {
  qtz_workspace workspace;
  qtz_decomposition d =
      decompose_qtz(from.jacobian, direct_solver_options{}.rank_tolerance, workspace);
  std::optional<qtz_reduced_mass_factor> mass;
  if (with_mass) mass = factor_reduced_mass(from, d.q2);
  solver.offer(from.jacobian, std::move(d), std::move(mass));
}

void expect_offers_answer_freshly(const constrained_system& s, const std::string& what) {
  {
    qtz_solver solver;
    offer_from(solver, s, true);
    expect_fresh_answer(solver.solve(s), s, what + ": taken");
    // The offer went with that solve: the next one decomposes afresh.
    expect_fresh_answer(solver.solve(s), s, what + ": after it");
  }
  {
    qtz_solver solver;
    offer_from(solver, s, false);
    expect_fresh_answer(solver.solve(s), s, what + ": decomposition only");
  }
  // Another M (one diagonal entry a few ulps larger): the decomposition is still taken, the
  // reduced mass of the other M must not be.
  constrained_system other = s;
  other.mass(1, 1) = std::nextafter(std::nextafter(s.mass(1, 1), 2.0), 2.0);
  {
    qtz_solver solver;
    offer_from(solver, other, true);
    expect_fresh_answer(solver.solve(s), s, what + ": another M");
  }
  // The same M flagged the other way (a factor formed from its diagonal only, or not).
  other = s;
  other.mass_is_diagonal = !s.mass_is_diagonal;
  {
    qtz_solver solver;
    offer_from(solver, other, true);
    expect_fresh_answer(solver.solve(s), s, what + ": the other mass flag");
  }
  // Another Phi_q (one entry changed): nothing offered is taken.
  other = s;
  other.jacobian(0, 0) += 0.25;
  {
    qtz_solver solver;
    offer_from(solver, other, true);
    expect_fresh_answer(solver.solve(s), s, what + ": another Phi_q");
  }
}

TEST(QtzSolverOffer, ChainAnswersAreAFreshSolversBitForBit) {
  for (const int links : {10, 40}) {
    chain_options c;
    c.links = links;
    const model m = load_model_from_string(chain_model_text(c), "chain.toml");
    Eigen::VectorXd qd = m.initial_velocities();
    qd.setConstant(0.3);
    const constrained_system s = m.evaluate(m.initial_positions(), qd, 0.0);
    ASSERT_TRUE(s.mass_is_diagonal);
    if (links == 40) {
      ASSERT_GE(s.jacobian.rows(), spqr_min_rows);  // the SuiteSparseQR path
    }
    expect_offers_answer_freshly(s, std::to_string(links) + "-link chain");
  }
}

TEST(QtzSolverOffer, DenseSystemAnswersAreAFreshSolversBitForBit) {
  for (const bool diagonal : {false, true}) {
    const int n = 9, m = 4;
    constrained_system s;
    s.mass = Eigen::MatrixXd::Identity(n, n);
    for (int i = 0; i < n; ++i) s.mass(i, i) = 1.0 + 0.1 * i;
    if (!diagonal) {
      for (int i = 0; i + 1 < n; ++i) s.mass(i, i + 1) = s.mass(i + 1, i) = 0.2;
    }
    s.mass_is_diagonal = diagonal;
    s.jacobian.resize(m, n);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) s.jacobian(i, j) = u(rng);
    }
    s.force = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    s.rhs = Eigen::VectorXd::LinSpaced(m, 0.5, -0.5);
    expect_offers_answer_freshly(s, diagonal ? "diagonal M" : "full M");
  }
}

}  // namespace
}  // namespace kinevo::mechanics
