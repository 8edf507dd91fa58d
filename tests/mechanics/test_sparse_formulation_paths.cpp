// The sparse paths of the formulations and of the solvers they bring (issue 30, item 3): on a
// chain of more than 8 links they are taken, and they give what the dense factorisations give.
#include <gtest/gtest.h>

#include <Eigen/QR>
#include <string>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/null_space_projection.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::test {
namespace {

using namespace kinevo::mechanics;

model chain(int links) {
  chain_options c;
  c.links = links;
  return load_model_from_string(chain_model_text(c), "chain.toml");
}

TEST(SparseFormulationPaths, QtzDecompositionOfAChainIsAQtzDecomposition) {
  const model m = chain(20);
  const Eigen::MatrixXd a = m.position_jacobian(m.initial_positions(), 0.0);
  ASSERT_TRUE(decompose_qtz_sparse(a, 1e-9).has_value());
  const qtz_decomposition d = decompose_qtz(a, 1e-9);
  const Eigen::Index n = a.cols(), r = a.rows();
  ASSERT_EQ(d.rank, r);
  // Phi_q = C^T T^T Q1^T, Q = [Q1 Q2] orthogonal, Phi_q Q2 = 0, Q1^ C = Phi_q^+.
  EXPECT_LT(max_abs(d.combination.transpose() * d.t.transpose() * d.q1.transpose() - a), 1e-13);
  Eigen::MatrixXd q(n, n);
  q << d.q1, d.q2;
  EXPECT_LT(max_abs(q.transpose() * q - Eigen::MatrixXd::Identity(n, n)), 1e-13);
  EXPECT_LT(max_abs(a * d.q2), 1e-13);
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
  EXPECT_LT(max_abs(d.q1_hat * d.combination - cod.pseudoInverse()), 1e-12);
}

TEST(SparseFormulationPaths, ProjectionSolverSparseAndDenseAgree) {
  const model m = chain(20);
  Eigen::VectorXd qd = m.initial_velocities();
  for (Eigen::Index i = 0; i < qd.size(); ++i) qd[i] = 0.1 * static_cast<double>(i % 3);
  constrained_system s;
  m.evaluate(m.initial_positions(), qd, 0.0, s);
  direct_solver_options dense_options;
  dense_options.allow_sparse = false;
  null_space_projection_solver sparse, dense(dense_options);
  // Twice: the second solve reuses the columns of P_N chosen by the first.
  for (int pass = 0; pass < 2; ++pass) {
    const acceleration_result rs = sparse.solve(s), rd = dense.solve(s);
    ASSERT_EQ(rs.status, solve_status::ok);
    ASSERT_EQ(rd.status, solve_status::ok);
    EXPECT_EQ(rs.rank, rd.rank);
    const double scale = 1.0 + max_abs(rd.acceleration);
    EXPECT_LT(max_abs(rs.acceleration - rd.acceleration), 1e-12 * scale) << "pass " << pass;
    const double lambda_scale = 1.0 + max_abs(dense.multipliers());
    EXPECT_LT(max_abs(sparse.multipliers() - dense.multipliers()), 1e-12 * lambda_scale)
        << "pass " << pass;
  }
}

// Every formulation with a sparse path follows full + GIGSP (with projection) on a 12-link chain
// as the QTZ tests ask of the five-link chain, and keeps it on its constraints.
TEST(SparseFormulationPaths, FormulationsFollowFullGigspOnATwelveLinkChain) {
  const model m = chain(12);
  const simulation_result full = run_formulation(m, formulation_kind::full, 0.3, 1e-3, "gigsp",
                                                 stabilization_kind::projection);
  ASSERT_TRUE(full.completed) << full.message;
  for (formulation_kind kind :
       {formulation_kind::partitioning, formulation_kind::hybrid, formulation_kind::projection,
        formulation_kind::qtz_orthogonal, formulation_kind::qtz_state}) {
    const simulation_result r = run_formulation(m, kind, 0.3, 1e-3);
    ASSERT_TRUE(r.completed) << to_string(kind) << ": " << r.message;
    ASSERT_EQ(r.records.size(), full.records.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < r.records.size(); ++i) {
      worst = std::max(worst, max_abs(r.records[i].q - full.records[i].q));
    }
    EXPECT_LT(worst, 1e-8) << to_string(kind);
    EXPECT_LT(r.max_position_violation, 1e-10) << to_string(kind);
  }
}

}  // namespace
}  // namespace kinevo::test
