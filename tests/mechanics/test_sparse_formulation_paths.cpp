// The sparse paths of the formulations and of the solvers they bring (issue 30, item 3): on a
// chain of more than 8 links they are taken, and they give what the dense factorisations give.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kinevo/core/householder_q.hpp"
#include "kinevo/core/max_abs.hpp"
#include "kinevo/mechanics/dynamics/detail/coordinate_partitioning.hpp"
#include "kinevo/mechanics/dynamics/detail/iteration_matrix_lu.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"
#include "kinevo/mechanics/dynamics/detail/sparse_block_rcond.hpp"
#include "kinevo/mechanics/dynamics/detail/sparse_position_correction.hpp"
#include "kinevo/mechanics/dynamics/detail/stacked_schur.hpp"
#include "kinevo/mechanics/dynamics/detail/stacked_solve.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/detail/unblocked_llt.hpp"
#include "kinevo/mechanics/solvers/null_space_projection.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/sparse_null_space_projector.hpp"
#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"
#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::test {
namespace {

using namespace kinevo::mechanics;

model chain(int links, bool spatial = false) {
  chain_options c;
  c.links = links;
  c.spatial = spatial;
  return load_model_from_string(chain_model_text(c), "chain.toml");
}

// A state near the initial one, moved along seeded pseudo-random directions and left off the
// constraints: the projector identities hold at any q.
void random_state(const model& m, std::mt19937& rng, constrained_system& s) {
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  Eigen::VectorXd q = m.initial_positions(), qd = m.initial_velocities();
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    q[i] += u(rng);
    qd[i] += u(rng);
  }
  m.evaluate(q, qd, 0.0, s);
}

// Phi_q at a configuration moved from the initial one by seeded pseudo-random amounts of up to
// `amplitude` in every coordinate.
Eigen::MatrixXd jacobian_near_start(const model& m, std::mt19937& rng, double amplitude) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q = m.initial_positions();
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += amplitude * u(rng);
  return m.position_jacobian(q, 0.0);
}

// P_T and M11 of the sparse projector (eqs. 12, 16-19 applied through A and the LDL^T of A A^T)
// against the dense P_N = I - A^+ A of the COD path, for the same columns B.
void expect_projector_matches_dense(const constrained_system& s, const std::string& what) {
  sparse_pseudo_inverse a_plus;
  ASSERT_TRUE(a_plus.factor(s.jacobian, s.jacobian_pattern, 1e-7)) << what;
  const Eigen::MatrixXd p_n = null_space_projector(s.jacobian, 1e-10);
  const int k = s.coordinates() - s.constraints();
  const std::vector<int> b = independent_null_space_columns(p_n, k);
  Eigen::MatrixXd p_t(s.coordinates(), k);
  for (int j = 0; j < k; ++j) p_t.col(j) = p_n.col(b[static_cast<std::size_t>(j)]);
  const Eigen::MatrixXd m11 = p_t.transpose() * s.mass * p_t;
  sparse_null_space_projector projector;
  EXPECT_LT(max_abs(Eigen::MatrixXd(projector.columns(a_plus, b)) - p_t), 1e-13) << what;
  // The lower triangle, the strict upper one zero.
  const Eigen::MatrixXd sparse_m11 = projector.reduced_mass(a_plus, s);
  const Eigen::MatrixXd m11_lower = m11.triangularView<Eigen::Lower>();
  EXPECT_LT(max_abs(sparse_m11 - m11_lower), 1e-13 * (1.0 + max_abs(m11))) << what;
  // P_T^T v and P_T z, with P_T formed and, for a diagonal M, kept implicit through U.
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd v(s.coordinates()), z(k);
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = u(rng);
  for (Eigen::Index i = 0; i < z.size(); ++i) z[i] = u(rng);
  const Eigen::VectorXd ptv = p_t.transpose() * v, ptz = p_t * z;
  EXPECT_LT(max_abs(projector.transpose_times(a_plus, v) - ptv), 1e-13 * max_abs(ptv)) << what;
  EXPECT_LT(max_abs(projector.times(a_plus, z) - ptz), 1e-13 * max_abs(ptz)) << what;
  if (!s.mass_is_diagonal) return;
  sparse_null_space_projector implicit;
  implicit.columns_implicit(a_plus, b);
  const Eigen::MatrixXd implicit_m11 = implicit.reduced_mass(a_plus, s);
  EXPECT_LT(max_abs(implicit_m11 - m11_lower), 1e-13 * (1.0 + max_abs(m11))) << what;
  // Into storage of the right size: the same lower triangle, the strict upper one untouched.
  Eigen::MatrixXd storage = Eigen::MatrixXd::Constant(k, k, 7.0);
  implicit.reduced_mass(a_plus, s, storage);
  EXPECT_EQ(Eigen::MatrixXd(storage.triangularView<Eigen::Lower>()), implicit_m11) << what;
  EXPECT_EQ(
      Eigen::MatrixXd(storage.triangularView<Eigen::StrictlyUpper>()),
      Eigen::MatrixXd(Eigen::MatrixXd::Constant(k, k, 7.0).triangularView<Eigen::StrictlyUpper>()))
      << what;
  EXPECT_LT(max_abs(implicit.transpose_times(a_plus, v) - ptv), 1e-13 * max_abs(ptv)) << what;
  EXPECT_LT(max_abs(implicit.times(a_plus, z) - ptz), 1e-13 * max_abs(ptz)) << what;
}

// The same system with one more coordinate that no constraint reaches (a free particle's x):
// its column of P_N is a unit column, which the chosen columns B include.
constrained_system with_free_coordinate(const constrained_system& s, double mass) {
  constrained_system t = s;
  const Eigen::Index n = s.coordinates() + 1, m = s.constraints();
  t.mass = Eigen::MatrixXd::Zero(n, n);
  t.mass.topLeftCorner(n - 1, n - 1) = s.mass;
  t.mass(n - 1, n - 1) = mass;
  t.force.conservativeResize(n);
  t.force[n - 1] = 0.3;
  t.jacobian = Eigen::MatrixXd::Zero(m, n);
  t.jacobian.leftCols(n - 1) = s.jacobian;
  return t;
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

// The sparse QTZ decompositions (Eigen's SparseQR below spqr_min_rows rows, SuiteSparseQR from
// there) against the dense column-pivoted one at pseudo-random states of planar and spatial
// chains: the same range and null-space projectors and the same Q1^ C =
// Phi_q^+ (other orthonormal bases), C a permutation; and a rank-deficient Phi_q (a repeated row)
// is refused by the sparse path and decided by the dense one.
TEST(SparseFormulationPaths, SparseQtzAgreesWithDenseOnRandomStates) {
  std::mt19937 generator(20261129);
  for (const bool spatial : {false, true}) {
    for (const int links : {9, 40}) {  // Eigen's SparseQR, SuiteSparseQR (planar)
      const model m = chain(links, spatial);
      for (int state = 0; state < 3; ++state) {
        const Eigen::MatrixXd a = jacobian_near_start(m, generator, 0.2);
        const auto sparse = decompose_qtz_sparse(a, 1e-9);
        ASSERT_TRUE(sparse.has_value()) << links << (spatial ? " spatial" : " planar");
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a.transpose());
        cod.setThreshold(1e-9);
        const Eigen::MatrixXd q_dense = householder_q(cod);
        const Eigen::Index r = a.rows(), n = a.cols();
        const Eigen::MatrixXd q2_dense = q_dense.rightCols(n - r);
        const double scale = 1.0 + max_abs(a);
        EXPECT_LT(max_abs(sparse->q2 * sparse->q2.transpose() - q2_dense * q2_dense.transpose()),
                  1e-12 * scale);
        EXPECT_LT(
            max_abs(sparse->q2.transpose() * sparse->q2 - Eigen::MatrixXd::Identity(n - r, n - r)),
            1e-13);
        const Eigen::MatrixXd pinv = cod.pseudoInverse().transpose();  // (Phi_q^T)^+^T = Phi_q^+
        EXPECT_LT(max_abs(sparse->q1_hat * sparse->combination - pinv),
                  1e-11 * (1.0 + max_abs(pinv)));
        EXPECT_TRUE((sparse->combination.array().abs().colwise().sum() == 1.0).all());
        // The workspace path applies the same Q1^.
        qtz_workspace workspace;
        const qtz_decomposition light = decompose_qtz(a, 1e-9, workspace);
        ASSERT_TRUE(light.sparse != nullptr);
        EXPECT_EQ(light.sparse->multifrontal(), a.rows() >= spqr_min_rows) << a.rows() << " rows";
        const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(r, -1.0, 1.0);
        EXPECT_LT(max_abs(light.q1_hat_times(x) - sparse->q1_hat * x), 1e-12 * (1.0 + max_abs(x)));
        EXPECT_TRUE(light.q2 == sparse->q2);
      }
    }
  }
  const model m = chain(20);
  Eigen::MatrixXd a = m.position_jacobian(m.initial_positions(), 0.0);
  a.row(7) = a.row(6);
  EXPECT_FALSE(decompose_qtz_sparse(a, 1e-9).has_value());
  qtz_workspace workspace;
  const qtz_decomposition d = decompose_qtz(a, 1e-9, workspace);
  EXPECT_EQ(d.sparse, nullptr);
  EXPECT_EQ(d.rank, a.rows() - 1);
}

// Q2 by the reflections each unit column can reach (the pattern's reach kept across calls) is
// Q2 with every reflection applied, to the bit: planar and spatial chains at random states, one
// factor object across sizes and states (the reach remade when the pattern changes).
TEST(SparseFormulationPaths, QtzQ2ByReachableReflectionsIsEveryReflectionsToTheBit) {
  std::mt19937 generator(20261130);
  sparse_qtz_factor factor;
  int compared = 0;
  for (const bool spatial : {false, true}) {
    // From spqr_min_rows rows (SuiteSparseQR's path): planar chains of 40 and 55 links, spatial
    // ones of 12 and 16 (4 rows a link).
    for (const int links : spatial ? std::vector<int>{12, 16, 12} : std::vector<int>{40, 55, 40}) {
      const model m = chain(links, spatial);
      for (int state = 0; state < 2; ++state) {
        const Eigen::MatrixXd a = jacobian_near_start(m, generator, 0.3);
        ASSERT_TRUE(factor.compute(a, 1e-9)) << links;
        ASSERT_TRUE(factor.multifrontal());
        const Eigen::MatrixXd reach = factor.q2();
        const Eigen::MatrixXd every = factor.q2_every_reflection();
        ASSERT_EQ(reach.rows(), every.rows());
        ASSERT_EQ(reach.cols(), every.cols());
        EXPECT_EQ(std::memcmp(reach.data(), every.data(),
                              static_cast<std::size_t>(reach.size()) * sizeof(double)),
                  0)
            << links << (spatial ? " spatial" : " planar") << " state " << state;
        EXPECT_LT(max_abs(a * reach), 1e-12 * (1.0 + max_abs(a)));
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 12);
}

// The workspace path (Q1 and Q1^ not formed, the pattern's analysis reused) gives what the
// whole sparse decomposition gives, at a second configuration too (same pattern, new values).
TEST(SparseFormulationPaths, QtzWorkspacePathAppliesTheSameDecomposition) {
  const model m = chain(20);
  Eigen::VectorXd q = m.initial_positions();
  qtz_workspace workspace;
  for (int pass = 0; pass < 2; ++pass) {
    const Eigen::MatrixXd a = m.position_jacobian(q, 0.0);
    const qtz_decomposition whole = decompose_qtz(a, 1e-9);
    const qtz_decomposition light = decompose_qtz(a, 1e-9, workspace);
    ASSERT_TRUE(light.sparse != nullptr) << "pass " << pass;
    EXPECT_EQ(light.q1_hat.size(), 0);
    EXPECT_EQ(light.rank, whole.rank);
    EXPECT_TRUE(light.q2 == whole.q2) << "pass " << pass;
    EXPECT_TRUE(light.combination == whole.combination) << "pass " << pass;
    Eigen::VectorXd x(a.rows());
    for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = 0.3 - 0.01 * static_cast<double>(i);
    const Eigen::VectorXd expected = whole.q1_hat * x;
    EXPECT_LT(max_abs(light.q1_hat_times(x) - expected), 1e-12 * (1.0 + max_abs(expected)));
    for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += 1e-3 * static_cast<double>(i % 5);
  }
}

// The QTZ solver's sparse path (a 20-link chain) against the dense null-space projection
// solver: the constrained accelerations are unique.
TEST(SparseFormulationPaths, QtzSolverSparsePathAgreesWithDenseProjection) {
  const model m = chain(20);
  Eigen::VectorXd qd = m.initial_velocities();
  for (Eigen::Index i = 0; i < qd.size(); ++i) qd[i] = 0.1 * static_cast<double>(i % 3);
  constrained_system s;
  m.evaluate(m.initial_positions(), qd, 0.0, s);
  direct_solver_options dense_options;
  dense_options.allow_sparse = false;
  null_space_projection_solver dense(dense_options);
  qtz_solver qtz;
  for (int pass = 0; pass < 2; ++pass) {  // the second reuses the analysed pattern
    const acceleration_result rq = qtz.solve(s), rd = dense.solve(s);
    ASSERT_EQ(rq.status, solve_status::ok);
    ASSERT_EQ(rd.status, solve_status::ok);
    const double scale = 1.0 + max_abs(rd.acceleration);
    EXPECT_LT(max_abs(rq.acceleration - rd.acceleration), 1e-12 * scale) << "pass " << pass;
  }
}

// qtz-reduced's iteration-matrix LU: the sparse path (a large, sparse matrix) solves what the
// dense LU solves, also after the pattern widens (an entry zero at the first setup).
TEST(SparseFormulationPaths, IterationMatrixSparseLuAgreesWithDense) {
  const Eigen::Index size = 240;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(size, size);
  for (Eigen::Index i = 0; i < size; ++i) {
    a(i, i) = 4.0 + 0.01 * static_cast<double>(i);
    if (i + 1 < size) a(i, i + 1) = -1.0;
    if (i + 7 < size) a(i + 7, i) = 0.5;
  }
  Eigen::VectorXd b(size);
  for (Eigen::Index i = 0; i < size; ++i) b[i] = std::sin(static_cast<double>(i));
  iteration_matrix_lu lu;
  for (int pass = 0; pass < 2; ++pass) {
    ASSERT_TRUE(lu.factorize(a));
    EXPECT_TRUE(lu.sparse());
    const Eigen::VectorXd expected = a.partialPivLu().solve(b);
    EXPECT_LT(max_abs(lu.solve(b) - expected), 1e-12 * (1.0 + max_abs(expected)))
        << "pass " << pass;
    a(3, 190) = 0.25;  // outside the first pattern
  }
  Eigen::MatrixXd singular = a;
  singular.row(5).setZero();
  EXPECT_FALSE(lu.factorize(singular));
}

// The iteration-matrix LU's pattern test (one vectorised pass over |a| outside the pattern)
// sees a subnormal entry outside the pattern as well as a large one; a small matrix, and a
// large one more than a quarter filled, take the dense LU, which solves the same.
TEST(SparseFormulationPaths, IterationMatrixLuWidensForSubnormalsAndFallsBackToDense) {
  const Eigen::Index size = 220;
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(size, size);
  for (Eigen::Index i = 0; i < size; ++i) {
    a(i, i) = 3.0 + 0.02 * static_cast<double>(i);
    if (i + 3 < size) a(i + 3, i) = -0.7;
  }
  Eigen::VectorXd b(size);
  for (Eigen::Index i = 0; i < size; ++i) b[i] = std::cos(0.7 * static_cast<double>(i));
  iteration_matrix_lu lu;
  ASSERT_TRUE(lu.factorize(a));
  ASSERT_TRUE(lu.sparse());
  // A subnormal coupling outside the pattern, then a large one at the same place: the second
  // solve is only right when the pattern took the entry in at the first.
  a(2, 200) = 1e-310;
  ASSERT_TRUE(lu.factorize(a));
  a(2, 200) = 2.5;
  ASSERT_TRUE(lu.factorize(a));
  Eigen::VectorXd expected = a.partialPivLu().solve(b);
  EXPECT_LT(max_abs(lu.solve(b) - expected), 1e-12 * (1.0 + max_abs(expected)));
  a(7, 150) = -1.5;  // outside the pattern, directly
  ASSERT_TRUE(lu.factorize(a));
  expected = a.partialPivLu().solve(b);
  EXPECT_LT(max_abs(lu.solve(b) - expected), 1e-12 * (1.0 + max_abs(expected)));

  for (const bool small : {true, false}) {
    const Eigen::Index k = small ? 150 : size;
    Eigen::MatrixXd d = Eigen::MatrixXd::Zero(k, k);
    for (Eigen::Index j = 0; j < k; ++j) {
      for (Eigen::Index i = 0; i < k; ++i) {
        if (small ? (i == j || i == j + 1) : (i + j) % 3 != 0) {
          d(i, j) = std::sin(static_cast<double>(3 * i + j));
        }
      }
      d(j, j) += static_cast<double>(k);
    }
    iteration_matrix_lu dense;
    ASSERT_TRUE(dense.factorize(d));
    EXPECT_FALSE(dense.sparse()) << (small ? "small" : "dense fill");
    const Eigen::VectorXd rhs = b.head(k);
    EXPECT_TRUE(dense.solve(rhs) == d.partialPivLu().solve(rhs)) << (small ? "small" : "dense");
  }
}

// M^ = Q2^T M Q2 formed by its lower triangle from qtz_lower_mass_min_columns columns of Q2: the
// same bits as the full product there (LLT reads no more), and the full product below that.
TEST(SparseFormulationPaths, QtzReducedMassLowerTriangleIsTheFullProducts) {
  for (const Eigen::Index n : {6, 9, 40, 100, 160}) {
    const model m = chain(static_cast<int>(n / 2));
    const Eigen::MatrixXd a = m.position_jacobian(m.initial_positions(), 0.0);
    const qtz_decomposition d = decompose_qtz(a, 1e-9);
    Eigen::VectorXd mass(d.q2.rows());
    for (Eigen::Index i = 0; i < mass.size(); ++i) mass[i] = 1.0 + 0.1 * static_cast<double>(i % 7);
    const Eigen::MatrixXd m_q2 = mass.asDiagonal() * d.q2;
    const Eigen::MatrixXd full = d.q2.transpose() * m_q2;
    const Eigen::MatrixXd lower = qtz_reduced_mass(d.q2, m_q2);
    const Eigen::MatrixXd full_lower = full.triangularView<Eigen::Lower>();
    const Eigen::MatrixXd got_lower = lower.triangularView<Eigen::Lower>();
    EXPECT_TRUE(got_lower == full_lower) << "n = " << n;
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(full.rows(), -1.0, 2.0);
    EXPECT_TRUE(Eigen::VectorXd(lower.llt().solve(x)) == Eigen::VectorXd(full.llt().solve(x)))
        << "n = " << n;
  }
}

// [Phi_q; B] with a dense B = Q2^T M (qtz-state's) at a pseudo-random state of a chain, a random
// diagonal M and right-hand side, and the dense LU's solution of the whole.
struct stacked_case {
  Eigen::MatrixXd jacobian, basis;
  Eigen::SparseMatrix<double> sparse;
  Eigen::VectorXd rhs, expected;
};

stacked_case random_stacked_case(const model& m, std::mt19937& generator) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  stacked_case c;
  Eigen::VectorXd q = m.initial_positions();
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += 0.3 * unit(generator);
  c.jacobian = m.position_jacobian(q, 0.0);
  c.sparse = m.position_jacobian_sparse(q, 0.0);
  const qtz_decomposition d = decompose_qtz(c.jacobian, 1e-9);
  Eigen::VectorXd mass(q.size());
  for (Eigen::Index i = 0; i < mass.size(); ++i) mass[i] = 1.0 + 0.5 * (1.0 + unit(generator));
  c.basis = d.q2.transpose() * mass.asDiagonal();
  Eigen::MatrixXd whole(q.size(), q.size());
  whole << c.jacobian, c.basis;
  c.rhs.resize(q.size());
  for (Eigen::Index i = 0; i < c.rhs.size(); ++i) c.rhs[i] = unit(generator);
  c.expected = whole.partialPivLu().solve(c.rhs);
  return c;
}

// Block elimination on a sparse block of Phi_q for a large sparse Phi_q: the same solutions as
// the dense LU of the whole at pseudo-random states (D chosen at the first and kept while the
// solutions stay at round-off); the dense LU for fewer than stacked_schur::min_rows rows.
TEST(SparseFormulationPaths, StackedSchurAgreesWithDenseLu) {
  std::mt19937 generator(20261129);
  for (const int links : {10, 40}) {
    const model m = chain(links);
    stacked_solve stacked;
    for (int state = 0; state < 4; ++state) {
      const stacked_case c = random_stacked_case(m, generator);
      stacked.set_basis(c.basis);
      stacked.factor(c.sparse);
      EXPECT_EQ(stacked.schur(), c.jacobian.rows() >= stacked_schur::min_rows) << links << " links";
      EXPECT_FALSE(stacked.sparse());
      EXPECT_LT(max_abs(stacked.solve(c.rhs) - c.expected), 1e-11 * (1.0 + max_abs(c.expected)))
          << links << " links, state " << state;
    }
  }
  // Redundant rows (more rows than coordinates): not square, so not the block elimination.
  const model m = chain(40);
  Eigen::SparseMatrix<double> jac = m.position_jacobian_sparse(m.initial_positions(), 0.0);
  const Eigen::MatrixXd basis = Eigen::MatrixXd::Identity(jac.cols() - jac.rows() + 1, jac.cols());
  EXPECT_FALSE(stacked_schur::suits(jac, basis));
}

// The block elimination itself, without stacked_solve's residual check (which would hide a wrong
// Schur complement behind the dense LU it falls back to): Y = B_D Phi_D^-1 by KLU's transposed
// solve, S = B_I - Y Phi_I, against the dense LU of the whole [Phi_q; B], at states where the
// chain's Phi_D is far from symmetric (a plain solve in place of the transposed one fails here).
TEST(SparseFormulationPaths, StackedSchurEliminationEqualsTheDenseLu) {
  std::mt19937 generator(20261130);
  for (const int links : {40, 60}) {
    const model m = chain(links);
    stacked_schur schur;
    for (int state = 0; state < 3; ++state) {
      const stacked_case c = random_stacked_case(m, generator);
      ASSERT_TRUE(stacked_schur::suits(c.sparse, c.basis)) << links << " links";
      ASSERT_TRUE(schur.factor(c.sparse, c.basis)) << links << " links, state " << state;
      EXPECT_LT(max_abs(schur.solve(c.rhs) - c.expected), 1e-11 * (1.0 + max_abs(c.expected)))
          << links << " links, state " << state;
    }
  }
}

// [Phi_q; B] of coordinate partitioning: the stacked matrix is assembled from B's nonzeros kept
// by set_basis, and SparseLU's symbolic analysis is kept while the pattern stays; a new basis
// (another selection: another pattern), a new value of Phi_q and the first basis again must
// each be solved as the dense LU solves them.
TEST(SparseFormulationPaths, StackedSolveFollowsBasisAndPatternChanges) {
  const Eigen::Index m = 40, n = 60;
  Eigen::MatrixXd jac = Eigen::MatrixXd::Zero(m, n);
  for (Eigen::Index i = 0; i < m; ++i) {
    jac(i, i) = 2.0 + std::cos(static_cast<double>(i));
    jac(i, i + 10) = 0.5 * std::sin(static_cast<double>(i) + 1.0);
    jac(i, i + 20) = -0.75;
  }
  const auto selection = [&](Eigen::Index first) {
    Eigen::MatrixXd b = Eigen::MatrixXd::Zero(n - m, n);
    for (Eigen::Index i = 0; i < n - m; ++i) b(i, first + i) = 1.0;
    return b;
  };
  Eigen::VectorXd rhs(n);
  for (Eigen::Index i = 0; i < n; ++i) rhs[i] = std::cos(0.3 * static_cast<double>(i));
  stacked_solve stacked;
  const Eigen::Index firsts[] = {40, 0, 0, 40};
  for (int pass = 0; pass < 4; ++pass) {
    const Eigen::MatrixXd b = selection(firsts[pass]);
    if (pass == 2) jac(7, 27) = 1.5;  // a new value at a stored entry: the same pattern
    stacked.set_basis(b);
    stacked.factor(jac.sparseView());
    EXPECT_TRUE(stacked.sparse()) << "pass " << pass;
    Eigen::MatrixXd dense(n, n);
    dense << jac, b;
    const Eigen::VectorXd expected = dense.partialPivLu().solve(rhs);
    EXPECT_LT(max_abs(stacked.solve(rhs) - expected), 1e-12 * (1.0 + max_abs(expected)))
        << "pass " << pass;
  }
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

// The projection solver's reduced mass factored by Eigen's unblocked kernel
// (detail/unblocked_llt.hpp): the factor, solve() and rcond() of Eigen's LLT::compute to
// round-off on SPD matrices of the sizes where compute() blocks (from 32 rows).
TEST(SparseFormulationPaths, UnblockedLltIsEigensLlt) {
  std::mt19937 rng(21);
  std::normal_distribution<double> normal;
  for (const int k : {8, 32, 50, 90}) {
    Eigen::MatrixXd x(k, k);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) x(i, j) = normal(rng);
    const Eigen::MatrixXd a = x * x.transpose() + 0.1 * Eigen::MatrixXd::Identity(k, k);
    const Eigen::LLT<Eigen::MatrixXd> eigen(a);
    detail::unblocked_llt ours;
    ours.compute_unblocked(a);
    ASSERT_EQ(ours.info(), Eigen::Success) << k;
    const Eigen::MatrixXd l_eigen = eigen.matrixL(), l_ours = ours.matrixL();
    EXPECT_LT(max_abs(l_ours - l_eigen), 1e-13 * max_abs(l_eigen)) << k;
    const Eigen::VectorXd b = Eigen::VectorXd::Ones(k);
    const Eigen::VectorXd y_eigen = eigen.solve(b);
    EXPECT_LT(max_abs(ours.solve(b) - y_eigen), 1e-10 * max_abs(y_eigen)) << k;
    EXPECT_NEAR(ours.rcond(), eigen.rcond(), 1e-6 * eigen.rcond()) << k;
    EXPECT_GE(ours.pivot_ratio(), ours.rcond() / k) << k;  // an upper bound of 1 / kappa_2
  }
  Eigen::MatrixXd indefinite = Eigen::MatrixXd::Identity(40, 40);
  indefinite(39, 39) = -1.0;
  detail::unblocked_llt ours;
  ours.compute_unblocked(indefinite);
  EXPECT_EQ(ours.info(), Eigen::NumericalIssue);
}

// The projection solver's ways to the same factor: the matrix written into the factor's storage
// (its lower triangle only, the strict upper one left as it was) and factored in place, the L1
// norm taken from the storage before or from the matrix after; against compute_unblocked, bit for
// bit, and Eigen's LLT to round-off.
TEST(SparseFormulationPaths, UnblockedLltInPlaceIsTheSameFactor) {
  std::mt19937 rng(22);
  std::normal_distribution<double> normal;
  for (const int k : {8, 50}) {
    Eigen::MatrixXd x(k, k);
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) x(i, j) = normal(rng);
    const Eigen::MatrixXd a = x * x.transpose() + 0.1 * Eigen::MatrixXd::Identity(k, k);
    detail::unblocked_llt reference;
    reference.compute_unblocked(a);
    const Eigen::LLT<Eigen::MatrixXd> eigen(a);
    detail::unblocked_llt in_place;
    in_place.storage() = Eigen::MatrixXd::Constant(k, k, 7.0);  // the upper triangle: not read
    in_place.storage().triangularView<Eigen::Lower>() = a;
    in_place.norm_of_stored();
    in_place.factor_in_place();
    ASSERT_EQ(in_place.info(), Eigen::Success) << k;
    const Eigen::MatrixXd l_reference = reference.matrixL(), l_in_place = in_place.matrixL();
    EXPECT_EQ(l_in_place, l_reference) << k;
    EXPECT_EQ(in_place.rcond(), reference.rcond()) << k;
    EXPECT_NEAR(in_place.rcond(), eigen.rcond(), 1e-6 * eigen.rcond()) << k;
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(k, -1.0, 1.0);
    EXPECT_EQ(in_place.solve(b), reference.solve(b)) << k;
    detail::unblocked_llt later;
    later.factor_unblocked(a);
    EXPECT_EQ(Eigen::MatrixXd(later.matrixL()), l_reference) << k;
    EXPECT_EQ(later.rcond_of(a), reference.rcond()) << k;
  }
}

// sparse_pseudo_inverse factors A A^T from the upper triangle it keeps with the pattern: its
// solves against the dense (A A^T)^-1 R, through pattern changes (other chains, and back), each
// change analysed anew.
TEST(SparseFormulationPaths, SparsePseudoInverseSolvesWithTheDenseGramMatrix) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  sparse_pseudo_inverse a_plus;
  for (const model& m : {chain(10), chain(12, true), chain(10), chain(30)}) {
    for (int trial = 0; trial < 2; ++trial) {
      constrained_system s;
      random_state(m, rng, s);
      ASSERT_TRUE(a_plus.factor(s.jacobian, s.jacobian_pattern, 1e-7)) << m.name();
      const Eigen::MatrixXd g = s.jacobian * s.jacobian.transpose();
      const Eigen::LLT<Eigen::MatrixXd> dense(g);
      const Eigen::Index rows = s.constraints();
      Eigen::MatrixXd r(rows, 5);
      for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = u(rng);
      const Eigen::MatrixXd expected = dense.solve(r);
      const double scale = max_abs(expected);
      EXPECT_LT(max_abs(a_plus.gram_solve(r) - expected), 1e-11 * scale) << m.name();
      row_major_matrix x = r;
      a_plus.gram_solve_in_place(x);
      EXPECT_LT(max_abs(Eigen::MatrixXd(x) - expected), 1e-11 * scale) << m.name();
      const Eigen::VectorXd b = r.col(0);
      const Eigen::VectorXd minimum_norm = s.jacobian.transpose() * dense.solve(b);
      EXPECT_LT(max_abs(a_plus.solve(b) - minimum_norm), 1e-11 * max_abs(minimum_norm)) << m.name();
    }
  }
}

// model::position_jacobian_sparse fills Phi_q's structure, made once: the dense Jacobian's
// numbers at every state, every pattern entry stored (zeros included), compressed, rows sorted.
TEST(SparseFormulationPaths, PositionJacobianSparseIsTheDenseJacobian) {
  std::mt19937 rng(24);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  for (const model& m : {chain(12), chain(6, true)}) {
    int holonomic_entries = 0;
    for (const auto& [r, c] : m.jacobian_pattern())
      holonomic_entries += r < m.holonomic_constraints();
    Eigen::VectorXd q = m.initial_positions();
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::SparseMatrix<double> sparse = m.position_jacobian_sparse(q, 0.0);
      EXPECT_TRUE(sparse.isCompressed());
      EXPECT_EQ(sparse.nonZeros(), holonomic_entries);
      EXPECT_EQ(Eigen::MatrixXd(sparse), m.position_jacobian(q, 0.0)) << m.name();
      for (Eigen::Index c = 0; c < sparse.outerSize(); ++c) {
        for (int p = sparse.outerIndexPtr()[c] + 1; p < sparse.outerIndexPtr()[c + 1]; ++p) {
          EXPECT_LT(sparse.innerIndexPtr()[p - 1], sparse.innerIndexPtr()[p]);
        }
      }
      for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += u(rng);
    }
  }
}

// The conditioning check on a schedule: chains of 20 and 40 links whose upper half turns from
// hanging to nearly horizontal over 400 solves, with one solver object (the columns of P_N kept
// from solve to solve, the rcond estimate every 40th solve or on a tenfold fall of the pivot
// ratio), against GIGSP at every state (positions off the constraints do not matter to the solve).
TEST(SparseFormulationPaths, ProjectionSolverKeepsItsAccuracyWithTheScheduledCheck) {
  for (const int links : {20, 40}) {  // M11 of 20 and 40 rows (the unblocked factor from 32)
    const model m = chain(links);
    null_space_projection_solver projection;
    auto gigsp = make_solver("gigsp");
    const Eigen::VectorXd q0 = m.initial_positions();
    double worst = 0.0;
    for (int step = 0; step < 400; ++step) {
      // The upper half of the links turned from the vertical towards the horizontal (0 to
      // 1.55 rad), the lower half hanging from it: the columns of P_N of the upper particles' x
      // coordinates, chosen at the start, fade, and M11 loses its conditioning.
      const double angle = 1.55 * step / 399.0;
      Eigen::VectorXd q(q0.size()), qd = Eigen::VectorXd::Zero(q0.size());
      double x = 0.0, y = 0.0;
      for (int i = 0; i < links; ++i) {
        const double a = i < links / 2 ? angle : 0.0;
        x += std::sin(a);
        y -= std::cos(a);
        q[2 * i] = x;
        q[2 * i + 1] = y;
      }
      constrained_system s;
      m.evaluate(q, qd, 0.0, s);
      const acceleration_result rp = projection.solve(s), rg = gigsp->solve(s);
      ASSERT_EQ(rp.status, solve_status::ok) << step;
      const double scale = 1.0 + max_abs(rg.acceleration);
      worst = std::max(worst, max_abs(rp.acceleration - rg.acceleration) / scale);
    }
    // Measured: the check at every solve chooses the columns 3 times here, with the same worst
    // difference (1.0e-13, 2.9e-13); never checking keeps the first columns and loses a decade
    // (6.4e-13, 3.1e-12).
    EXPECT_EQ(projection.column_selections(), 3) << links << " links";
    EXPECT_LT(worst, 1e-12) << links << " links";
  }
}

// The sparse projector on random states of a planar chain (diagonal M), a spatial chain (M by
// blocks) and the planar chain with a dense, non-diagonal M (the general product).
TEST(SparseFormulationPaths, SparseProjectorAgreesWithTheDenseProjector) {
  std::mt19937 rng(30);
  for (const bool spatial : {false, true}) {
    const model m = chain(spatial ? 6 : 20, spatial);
    for (int trial = 0; trial < 3; ++trial) {
      constrained_system s;
      random_state(m, rng, s);
      expect_projector_matches_dense(s, spatial ? "spatial" : "planar");
      if (spatial) EXPECT_FALSE(s.mass_blocks.empty());
      if (!spatial) expect_projector_matches_dense(with_free_coordinate(s, 1.5), "free coordinate");
      if (!spatial) {
        // A full symmetric positive definite M with no block structure declared.
        std::uniform_real_distribution<double> u(-0.1, 0.1);
        Eigen::MatrixXd r(s.coordinates(), s.coordinates());
        for (Eigen::Index i = 0; i < r.size(); ++i) r.data()[i] = u(rng);
        s.mass = s.mass + r * r.transpose();
        s.mass_is_diagonal = false;
        s.mass_blocks = {};
        expect_projector_matches_dense(s, "dense mass");
      }
    }
  }
}

// Where the sparse path is refused (a repeated row: A A^T is singular, the LDL^T's remainder of
// the copy is zero), the solver takes the dense COD path, which names the redundant row.
TEST(SparseFormulationPaths, ProjectionSolverFallsBackToDenseOnRedundantRows) {
  const model m = chain(20);
  constrained_system s;
  m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0, s);
  const Eigen::Index rows = s.constraints();
  Eigen::MatrixXd a(rows + 1, s.coordinates());
  a << s.jacobian, s.jacobian.row(rows - 1);
  Eigen::VectorXd b(rows + 1);
  b << s.rhs, s.rhs[rows - 1];
  std::vector<std::pair<int, int>> pattern(s.jacobian_pattern.begin(), s.jacobian_pattern.end());
  for (const auto& [row, col] : s.jacobian_pattern) {
    if (row == rows - 1) pattern.emplace_back(static_cast<int>(rows), col);
  }
  std::vector<std::string> names(s.constraint_names.begin(), s.constraint_names.end());
  names.push_back("copy");
  s.jacobian = a;
  s.rhs = b;
  s.jacobian_pattern = pattern;
  s.constraint_names = names;
  sparse_pseudo_inverse a_plus;
  EXPECT_FALSE(a_plus.factor(a, pattern, 1e-7));
  null_space_projection_solver solver;
  const acceleration_result r = solver.solve(s);
  ASSERT_EQ(r.status, solve_status::ok) << r.message;
  EXPECT_EQ(r.rank, static_cast<int>(rows));
  EXPECT_EQ(r.redundant.size(), 1u);
  EXPECT_LT(max_abs(a * r.acceleration - b), 1e-9);
}

// Every formulation with a sparse path follows full + GIGSP (with projection) on a 12-link chain
// as the QTZ tests ask of the five-link chain, and keeps it on its constraints.
// 1 / (||B||_1 ||B^-1||_1) from the explicit inverse: the quantity both estimates approach.
double exact_one_norm_rcond(const Eigen::MatrixXd& b) {
  const auto one_norm = [](const Eigen::MatrixXd& x) {
    return x.cwiseAbs().colwise().sum().maxCoeff();
  };
  return 1.0 / (one_norm(b) * one_norm(b.inverse()));
}

// Partitioning's check of Phi_u between full-pivot LUs: KLU's condest on the sparse block. It
// is checked against the exact 1-norm condition (Hager's estimate never exceeds ||B^-1||_1, so
// the estimate is never below the exact rcond) and against the dense LU estimate.
TEST(SparseFormulationPaths, SparseBlockRcondIsTheOneNormConditionOfTheBlock) {
  for (int links : {12, 30}) {
    const model m = chain(links);
    Eigen::VectorXd q = m.initial_positions();
    sparse_block_rcond sparse;
    for (int state = 0; state < 4; ++state) {
      const Eigen::MatrixXd dense = m.position_jacobian(q, 0.0);
      const coordinate_partition p = partition_by_lu(dense, -1, 1e-9);
      const std::optional<double> rcond = sparse(m.position_jacobian_sparse(q, 0.0), p.dependent);
      ASSERT_TRUE(rcond.has_value()) << links << " links, state " << state;
      Eigen::MatrixXd block(dense.rows(), static_cast<Eigen::Index>(p.dependent.size()));
      for (Eigen::Index j = 0; j < block.cols(); ++j) {
        block.col(j) = dense.col(p.dependent[static_cast<std::size_t>(j)]);
      }
      const double exact = exact_one_norm_rcond(block);
      EXPECT_GE(*rcond, exact * (1.0 - 1e-12)) << links << " links, state " << state;
      EXPECT_LE(*rcond, 3.0 * exact) << links << " links, state " << state;
      EXPECT_NEAR(*rcond, p.rcond, 1e-12 + 2.0 * p.rcond) << links << " links, state " << state;
      q += 0.3 * Eigen::VectorXd::Ones(q.size()) * static_cast<double>(state + 1) /
           static_cast<double>(q.size());
    }
  }
}

TEST(SparseFormulationPaths, SparseBlockRcondLeavesOtherBlocksToTheDenseEstimate) {
  const model m = chain(12);
  const Eigen::VectorXd q = m.initial_positions();
  const Eigen::SparseMatrix<double> jac = m.position_jacobian_sparse(q, 0.0);
  const coordinate_partition p = partition_by_lu(Eigen::MatrixXd(jac), -1, 1e-9);
  sparse_block_rcond sparse;
  // Not square: one column short of the rows.
  std::vector<int> short_block(p.dependent.begin(), p.dependent.end() - 1);
  EXPECT_FALSE(sparse(jac, short_block).has_value());
  // Singular: the same column twice.
  std::vector<int> repeated = p.dependent;
  repeated.back() = repeated.front();
  EXPECT_FALSE(sparse(jac, repeated).has_value());
  // Dense (a two-link chain's 2 x 2 block is full): the dense estimate decides.
  const model small = chain(2);
  const Eigen::VectorXd q2 = small.initial_positions();
  const coordinate_partition p2 = partition_by_lu(small.position_jacobian(q2, 0.0), -1, 1e-9);
  EXPECT_FALSE(sparse(small.position_jacobian_sparse(q2, 0.0), p2.dependent).has_value());
  // And after all of these, the regular block again (its pattern analysed anew).
  EXPECT_TRUE(sparse(jac, p.dependent).has_value());
}

// q moved off the constraints along seeded pseudo-random directions of size `size`.
Eigen::VectorXd off_constraints(const model& m, std::mt19937& rng, double size) {
  std::uniform_real_distribution<double> u(-size, size);
  Eigen::VectorXd q = m.initial_positions();
  for (Eigen::Index i = 0; i < q.size(); ++i) q[i] += u(rng);
  return q;
}

// q0 as `correction` leaves it, which must report that it moved q.
Eigen::VectorXd corrected(sparse_position_correction& correction, const model& m,
                          const Eigen::VectorXd& q0, const formulation_options& options) {
  Eigen::VectorXd q = q0;
  const std::optional<bool> moved = correction.correct(m, q, 0.0, options);
  EXPECT_TRUE(moved.has_value() && *moved);
  return q;
}

// The first Newton iteration of the sparse position correction solves with the LDL^T of
// Phi_q Phi_q^T its rank test made: one iteration (newton_iterations = 1, a tolerance it meets)
// is the step -Phi_q^+ Phi of the dense complete orthogonal decomposition, to round-off.
TEST(SparseFormulationPaths, SparsePositionCorrectionFirstIterationIsThePseudoInverseStep) {
  std::mt19937 rng(11);
  formulation_options options;
  options.newton_iterations = 1;
  options.newton_tolerance = 1e-2;
  for (const model& m : {chain(20), chain(10, true)}) {
    sparse_position_correction correction;
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q0 = off_constraints(m, rng, 1e-3);
      const Eigen::VectorXd q = corrected(correction, m, q0, options);
      const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(
          m.position_jacobian(q0, 0.0));
      const Eigen::VectorXd step = -cod.solve(m.position_violation(q0, 0.0));
      // Round-off of q (|q| up to 20) against a step of ~1e-3.
      EXPECT_LT(max_abs(q - (q0 + step)), 1e-14 * max_abs(q0)) << trial;
    }
  }
}

// The whole correction (later iterations through KLU, refactored with the previous step's pivot
// order, and a new pattern analysed when the model changes) against the dense Newton iteration
// of eq. 20 in the range of Phi_q(q_0)^T: the same point, on the constraints.
TEST(SparseFormulationPaths, SparsePositionCorrectionIsTheDenseNewtonCorrection) {
  std::mt19937 rng(12);
  const formulation_options options;
  sparse_position_correction correction;  // one object: patterns and pivot orders carried over
  for (const model& m : {chain(20), chain(10, true), chain(20)}) {
    for (int trial = 0; trial < 3; ++trial) {
      const Eigen::VectorXd q0 = off_constraints(m, rng, 1e-2);
      const Eigen::VectorXd q = corrected(correction, m, q0, options);
      const Eigen::MatrixXd range = m.position_jacobian(q0, 0.0).transpose();
      Eigen::VectorXd x = q0;
      for (int it = 0; it < 10; ++it) {
        const Eigen::MatrixXd h = m.position_jacobian(x, 0.0) * range;
        x -= range * h.partialPivLu().solve(m.position_violation(x, 0.0));
      }
      EXPECT_LE(max_abs(m.position_violation(q, 0.0)), options.newton_tolerance) << trial;
      EXPECT_LT(max_abs(q - x), 1e-12 * (1.0 + max_abs(x - q0))) << trial;
    }
  }
}

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

// qtz-reduced with the sparse iteration-matrix LU (a 35-link chain: 210 unknowns) follows
// full + GIGSP to IDA's accuracy and keeps the constraints.
TEST(SparseFormulationPaths, QtzReducedWithSparseLuFollowsFullGigsp) {
  const model m = chain(35);
  const simulation_result full = run_formulation(m, formulation_kind::full, 0.1, 1e-3, "gigsp",
                                                 stabilization_kind::projection);
  ASSERT_TRUE(full.completed) << full.message;
  const simulation_result r = run_formulation(m, formulation_kind::qtz_reduced, 0.1, 1e-3);
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.records.size(), full.records.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    worst = std::max(worst, max_abs(r.records[i].q - full.records[i].q));
  }
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(r.max_position_violation, 1e-9);
}

// The same DAE driven directly: its iteration matrix (2 (2 n + 2 m) = 210 unknowns) is
// factorised by the sparse LU, and its differenced part by column groups of the chain's banded
// pattern, far fewer than the 2 n = 140 columns; a 10-link chain (60 unknowns) keeps the dense
// LU.
TEST(SparseFormulationPaths, QtzReducedReportsSparseLuAndColumnGroups) {
  const model m = chain(35);
  qtz_reduced_dae dae(m, {}, simulation_options{}, m.initial_positions(), m.initial_velocities(),
                      0.0);
  Eigen::VectorXd q, qd;
  ASSERT_TRUE(dae.advance_to(0.02, q, qd)) << dae.message();
  EXPECT_TRUE(dae.sparse_lu());
  EXPECT_GT(dae.column_groups(), 0);
  EXPECT_LT(dae.column_groups(), 20);
  EXPECT_GT(dae.differenced_evaluations(), 0);
  const model small = chain(10);
  qtz_reduced_dae small_dae(small, {}, simulation_options{}, small.initial_positions(),
                            small.initial_velocities(), 0.0);
  ASSERT_TRUE(small_dae.advance_to(0.02, q, qd)) << small_dae.message();
  EXPECT_FALSE(small_dae.sparse_lu());
}

}  // namespace
}  // namespace kinevo::test
