// A spatial model's mass matrix is block-diagonal (1 x 1 for each centre-of-mass coordinate,
// 4 x 4 for each body's Euler parameters). The model reports the blocks, only their entries are
// compiled, and the direct solvers factor M block by block and take the sparse Gram path;
// every answer must equal the dense path's (one Cholesky of the whole M) to round-off.
#include <gtest/gtest.h>

#include <cmath>

#include <Eigen/Cholesky>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {
namespace {

model spatial_chain(int links) {
  chain_options o;
  o.links = links;
  o.spatial = true;
  return load_model_from_string(chain_model_text(o), "chain.toml");
}

TEST(BlockMass, SpatialChainReportsItsBlocks) {
  const model m = spatial_chain(3);
  EXPECT_FALSE(m.mass_is_diagonal());
  // Per link: x, y, z (1 x 1 each), then e0..e3 (4 x 4).
  const std::vector<std::pair<int, int>> expected{{0, 1},  {1, 1},  {2, 1},  {3, 4},
                                                  {7, 1},  {8, 1},  {9, 1},  {10, 4},
                                                  {14, 1}, {15, 1}, {16, 1}, {17, 4}};
  EXPECT_EQ(m.mass_blocks(), expected);
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  // Nothing outside the blocks.
  Eigen::MatrixXd outside = s.mass;
  for (const auto& [start, size] : m.mass_blocks())
    outside.block(start, start, size, size).setZero();
  EXPECT_EQ(outside.cwiseAbs().maxCoeff(), 0.0);
}

TEST(BlockMass, BlockFactorEqualsTheDenseCholesky) {
  const model m = spatial_chain(4);
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  mass_factor blocks;
  ASSERT_TRUE(blocks.compute(s));
  EXPECT_TRUE(blocks.blocked());
  const Eigen::LLT<Eigen::MatrixXd> dense(s.mass);
  const Eigen::VectorXd f = s.force;
  EXPECT_LT((blocks.solve(f) - dense.solve(f)).norm(), 1e-12 * dense.solve(f).norm());
  EXPECT_LT((blocks.solve_lower(f) - dense.matrixL().solve(f)).norm(), 1e-12 * f.norm());
  EXPECT_LT((blocks.solve_upper(f) - dense.matrixU().solve(f)).norm(), 1e-12 * f.norm());
  const Eigen::MatrixXd a_hat = dense.matrixL().solve(s.jacobian.transpose()).transpose();
  EXPECT_LT((blocks.right_solve_upper(s.jacobian) - a_hat).norm(), 1e-12 * a_hat.norm());
  EXPECT_LT((mass_times(s, f) - s.mass * f).norm(), 1e-12 * (s.mass * f).norm());
}

// Blocks of up to 4 rows are factored and solved with fixed-size kernels that do Eigen's
// operations in Eigen's order: every result equals, to the last bit, the one of Eigen's
// dynamic-size LLT of each block (blocks of 1 to 5 rows, the 5 x 5 on the dynamic path).
TEST(BlockMass, SmallBlockKernelsEqualEigensLltToTheBit) {
  const std::vector<std::pair<int, int>> blocks{{0, 1}, {1, 2}, {3, 3}, {6, 4}, {10, 5}, {15, 1}};
  const int n = 16, m = 5;
  constrained_system s;
  s.mass = Eigen::MatrixXd::Zero(n, n);
  std::srand(7);
  for (const auto& [start, size] : blocks) {
    const Eigen::MatrixXd r = Eigen::MatrixXd::Random(size, size);
    s.mass.block(start, start, size, size) =
        r * r.transpose() + 0.1 * Eigen::MatrixXd::Identity(size, size);
  }
  s.mass_blocks = blocks;
  s.force = Eigen::VectorXd::Random(n);
  s.force[4] = 0.0;  // the kernels skip zero entries as Eigen's do
  s.jacobian = Eigen::MatrixXd::Random(m, n);
  // Zeros of both signs, in 1 x 1 columns and on whole rows of a block: the right solve keeps
  // them as the triangular solve does.
  s.jacobian(1, 0) = 0.0;
  s.jacobian(2, 0) = -0.0;
  s.jacobian.row(3).segment(6, 4).setZero();
  s.jacobian(4, 7) = -0.0;
  s.rhs = Eigen::VectorXd::Random(m);
  mass_factor f;
  ASSERT_TRUE(f.compute(s));
  Eigen::VectorXd x(n), lower(n), upper(n);
  Eigen::MatrixXd a_hat(m, n);
  for (const auto& [start, size] : blocks) {
    const Eigen::LLT<Eigen::MatrixXd> llt(s.mass.block(start, start, size, size));
    x.segment(start, size) = llt.solve(s.force.segment(start, size));
    lower.segment(start, size) = llt.matrixL().solve(s.force.segment(start, size));
    upper.segment(start, size) = llt.matrixU().solve(s.force.segment(start, size));
    a_hat.middleCols(start, size) =
        llt.matrixL().solve(s.jacobian.middleCols(start, size).transpose()).transpose();
  }
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(f.solve(s.force)[i], x[i]) << i;
    EXPECT_EQ(f.solve_lower(s.force)[i], lower[i]) << i;
    EXPECT_EQ(f.solve_upper(s.force)[i], upper[i]) << i;
  }
  Eigen::MatrixXd out, work;
  f.right_solve_upper(s.jacobian, out, work);
  EXPECT_EQ(out, a_hat);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) EXPECT_EQ(std::signbit(out(i, j)), std::signbit(a_hat(i, j)));
  }
  EXPECT_EQ(f.right_solve_upper(s.jacobian), a_hat);
  // Only small blocks: the direct path on A's rows.
  s.mass_blocks = std::span(blocks.data(), 4);
  s.force.conservativeResize(10);
  s.mass.conservativeResize(10, 10);
  s.jacobian.conservativeResize(m, 10);
  ASSERT_TRUE(f.compute(s));
  f.right_solve_upper(s.jacobian, out, work);
  EXPECT_EQ(out, a_hat.leftCols(10));
  for (int j = 0; j < 10; ++j) {
    for (int i = 0; i < m; ++i)
      EXPECT_EQ(std::signbit(out(i, j)), std::signbit(a_hat(i, j))) << i << j;
  }
}

// A non-positive-definite block is refused, as the dense Cholesky would.
TEST(BlockMass, NonPositiveBlockIsRefused) {
  const model m = spatial_chain(2);
  constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  s.mass.block(3, 3, 4, 4) *= -1.0;
  mass_factor blocks;
  EXPECT_FALSE(blocks.compute(s));
}

// GIGSP and LM on the block/sparse path against their dense path (allow_sparse = false and
// M treated as one block), at a moving state of a 12-link chain.
TEST(BlockMass, SolversAgreeWithTheDensePath) {
  const model m = spatial_chain(12);
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.3);
  constrained_system dense = s;
  dense.mass_blocks = {};
  for (const std::string name : {"gigsp", "lm"}) {
    solver_options fast;
    solver_options slow;
    slow.direct.allow_sparse = false;
    const acceleration_result a = make_solver(name, fast)->solve(s);
    const acceleration_result b = make_solver(name, slow)->solve(dense);
    ASSERT_EQ(a.status, solve_status::ok) << name << ": " << a.message;
    ASSERT_EQ(b.status, solve_status::ok) << name << ": " << b.message;
    EXPECT_LT((a.acceleration - b.acceleration).norm(), 1e-10 * b.acceleration.norm()) << name;
    EXPECT_LT((a.constraint_force - b.constraint_force).norm(), 1e-10 * b.constraint_force.norm())
        << name;
  }
}

}  // namespace
}  // namespace kinevo::mechanics
