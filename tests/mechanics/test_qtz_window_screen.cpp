// The sparse screen of qtz-reduced's singular windows (detail/qtz_window_screen.hpp) against the
// exact tests it stands in for: whenever it says that no combination is in a window, the
// column-pivoted QR pivots of Phi_q^T and the eigenvalues of Phi_q M^-1 Phi_q^T (Eigen's dense
// decompositions) must say so too; and it must say so on well-conditioned systems.
#include <gtest/gtest.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/qtz_window_screen.hpp"

namespace kinevo::mechanics {
namespace {

constexpr double pivot_ratio = 1e-3;  // the formulation's pivot window
constexpr double window = 2e-3;       // and its M-weighted window

// Phi_q = U diag(s) V^T with random orthogonal U, V and singular values from 1 down to
// `smallest` (log-spaced).
Eigen::MatrixXd jacobian_with(int m, int n, double smallest, std::mt19937& rng) {
  std::normal_distribution<double> normal;
  auto random = [&](int r, int c) {
    Eigen::MatrixXd x(r, c);
    for (int j = 0; j < c; ++j)
      for (int i = 0; i < r; ++i) x(i, j) = normal(rng);
    return x;
  };
  const Eigen::MatrixXd u = Eigen::HouseholderQR<Eigen::MatrixXd>(random(m, m)).householderQ();
  const Eigen::MatrixXd v = Eigen::HouseholderQR<Eigen::MatrixXd>(random(n, n)).householderQ() *
                            Eigen::MatrixXd::Identity(n, m);
  Eigen::VectorXd s(m);
  for (int i = 0; i < m; ++i) s[i] = std::pow(smallest, m > 1 ? double(i) / (m - 1) : 0.0);
  return u * s.asDiagonal() * v.transpose();
}

struct exact_windows {
  bool pivots_clear = false;
  bool weighted_clear = false;
};

// The screen of Phi_q = jac with every entry in the pattern (dense, row by row), with `screen`
// (structures kept from earlier calls) and with a fresh one; the two must agree.
bool screen_clear(detail::qtz_window_screen& screen, const Eigen::MatrixXd& jac,
                  constrained_system s) {
  std::vector<std::pair<int, int>> pattern;
  for (int i = 0; i < jac.rows(); ++i)
    for (int j = 0; j < jac.cols(); ++j) pattern.emplace_back(i, j);
  s.jacobian = jac;
  s.jacobian_pattern = pattern;
  s.rhs = Eigen::VectorXd::Zero(jac.rows());
  s.force = Eigen::VectorXd::Zero(jac.cols());
  const bool kept = screen.clear(s, pivot_ratio, window);
  detail::qtz_window_screen fresh;
  EXPECT_EQ(kept, fresh.clear(s, pivot_ratio, window));
  return kept;
}

bool screen_clear(const Eigen::MatrixXd& jac, const constrained_system& s) {
  detail::qtz_window_screen screen;
  return screen_clear(screen, jac, s);
}

exact_windows exact(const Eigen::MatrixXd& jac, const Eigen::MatrixXd& mass) {
  exact_windows e;
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(jac.transpose());
  const Eigen::VectorXd p = qr.matrixR().diagonal().cwiseAbs();
  e.pivots_clear = (p.array() > pivot_ratio * p[0]).all();
  const Eigen::MatrixXd g = jac * mass.llt().solve(jac.transpose());
  const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(g).eigenvalues();
  e.weighted_clear = lambda.minCoeff() > window * window * lambda.maxCoeff();
  return e;
}

TEST(QtzWindowScreen, ClearOnlyWhenTheExactTestsAreClear) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0.5, 2.0);
  int cleared = 0, cases = 0;
  detail::qtz_window_screen screen;  // one for every case: its structures follow the sizes
  for (const bool blocks : {false, true}) {
    for (const int m : {16, 21, 30}) {
      for (const double smallest : {1.0, 1e-1, 3e-3, 1.5e-3, 1e-3, 5e-4, 1e-6}) {
        for (int rep = 0; rep < 3; ++rep) {
          const int n = m + 3 * (rep + 1) + (blocks ? 3 - (m + 3 * (rep + 1)) % 3 : 0);
          const Eigen::MatrixXd jac = jacobian_with(m, n, smallest, rng);
          constrained_system s;
          s.mass.setZero(n, n);
          std::vector<std::pair<int, int>> layout;
          if (blocks) {  // full 3 x 3 SPD blocks (a body's block, as the model declares it)
            for (int b = 0; b < n; b += 3) {
              Eigen::Matrix3d r = Eigen::Matrix3d::Random();
              s.mass.block(b, b, 3, 3) =
                  r * r.transpose() + unit(rng) * Eigen::Matrix3d::Identity();
              layout.emplace_back(b, 3);
            }
            s.mass_blocks = layout;
          } else {
            for (int i = 0; i < n; ++i) s.mass(i, i) = unit(rng);
            s.mass_is_diagonal = true;
          }
          const bool clear = screen_clear(screen, jac, s);
          const exact_windows e = exact(jac, s.mass);
          ++cases;
          if (clear) {
            ++cleared;
            EXPECT_TRUE(e.pivots_clear && e.weighted_clear)
                << "m " << m << ", n " << n << ", smallest " << smallest << ", blocks " << blocks;
          }
          // Well conditioned: the screen must show it (else it would save nothing).
          if (smallest >= 1e-1) {
            EXPECT_TRUE(clear) << "m " << m << ", n " << n << ", smallest " << smallest;
          }
        }
      }
    }
  }
  EXPECT_GT(cleared, cases / 4);
  EXPECT_LT(cleared, cases);  // and it must leave the near-singular ones to the exact test
}

TEST(QtzWindowScreen, LeavesOtherSystemsToTheExactTest) {
  std::mt19937 rng(6);
  constrained_system s;
  s.mass = Eigen::MatrixXd::Identity(40, 40);
  s.mass_is_diagonal = true;
  // Fewer than 16 rows, more rows than coordinates, a redundant row.
  EXPECT_FALSE(screen_clear(jacobian_with(10, 40, 1.0, rng), s));
  constrained_system wide = s;
  wide.mass = Eigen::MatrixXd::Identity(20, 20);
  EXPECT_FALSE(screen_clear(Eigen::MatrixXd::Random(24, 20), wide));
  Eigen::MatrixXd redundant = jacobian_with(20, 40, 1.0, rng);
  redundant.row(19) = redundant.row(3);
  EXPECT_FALSE(screen_clear(redundant, s));
  // A value that is not finite, a mass that is not positive: not shown.
  Eigen::MatrixXd not_finite = jacobian_with(20, 40, 1.0, rng);
  EXPECT_TRUE(screen_clear(not_finite, s));
  not_finite(7, 11) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(screen_clear(not_finite, s));
  constrained_system massless = s;
  massless.mass(5, 5) = 0.0;
  EXPECT_FALSE(screen_clear(jacobian_with(20, 40, 1.0, rng), massless));
  // A dense M (no blocks known): not shown.
  constrained_system dense = s;
  dense.mass_is_diagonal = false;
  EXPECT_FALSE(screen_clear(jacobian_with(20, 40, 1.0, rng), dense));
}

}  // namespace
}  // namespace kinevo::mechanics
