#include "kinevo/mechanics/dynamics/detail/sparse_position_correction.hpp"

#include <algorithm>

#include "kinevo/core/max_abs.hpp"

namespace kinevo::mechanics {

namespace {

// The sparse path is taken only when every row's remainder is this factor clear of the rank
// tolerance: between the two the dense rank decision stays in charge.
constexpr double regular_margin = 1e3;

}  // namespace

// h_'s pattern: (i, k) wherever rows i and k of Phi_q share a column.
void sparse_position_correction::analyse_product(const Eigen::SparseMatrix<double>& jacobian_0) {
  const Eigen::Index m = jacobian_0.rows();
  const int* outer = jacobian_0.outerIndexPtr();
  const int* inner = jacobian_0.innerIndexPtr();
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index c = 0; c < jacobian_0.cols(); ++c) {
    for (int a = outer[c]; a < outer[c + 1]; ++a) {
      for (int b = outer[c]; b < outer[c + 1]; ++b) entries.emplace_back(inner[a], inner[b], 0.0);
    }
  }
  h_.resize(m, m);
  h_.setFromTriplets(entries.begin(), entries.end());
  h_.makeCompressed();
  product_at_.clear();
  product_at_.reserve(entries.size());
  for (const Eigen::Triplet<double>& e : entries) {
    const int* begin = h_.innerIndexPtr() + h_.outerIndexPtr()[e.col()];
    const int* end = h_.innerIndexPtr() + h_.outerIndexPtr()[e.col() + 1];
    product_at_.push_back(
        static_cast<int>(std::lower_bound(begin, end, e.row()) - h_.innerIndexPtr()));
  }
}

void sparse_position_correction::multiply(const Eigen::SparseMatrix<double>& jacobian) {
  const Eigen::SparseMatrix<double>& jacobian_0 = pseudo_inverse_.matrix();
  const int* outer = jacobian_0.outerIndexPtr();
  const double* value = jacobian.valuePtr();
  const double* value_0 = jacobian_0.valuePtr();
  double* h = h_.valuePtr();
  std::fill(h, h + h_.nonZeros(), 0.0);
  const int* at = product_at_.data();
  for (Eigen::Index c = 0; c < jacobian_0.cols(); ++c) {
    for (int a = outer[c]; a < outer[c + 1]; ++a) {
      for (int b = outer[c]; b < outer[c + 1]; ++b) h[*at++] += value[a] * value_0[b];
    }
  }
}

std::optional<bool> sparse_position_correction::correct(const model& m, Eigen::VectorXd& q,
                                                        double t,
                                                        const formulation_options& options) {
  // pseudo_inverse_ keeps Phi_q(q_0): no copy of it (or of its transpose) here.
  if (!pseudo_inverse_.factor(m.position_jacobian_sparse(q, t),
                              regular_margin * options.rank_tolerance)) {
    return std::nullopt;
  }
  const Eigen::SparseMatrix<double>& jacobian_0 = pseudo_inverse_.matrix();
  Eigen::VectorXd x = q;
  Eigen::VectorXd phi = m.position_violation(x, t);
  bool moved = false;
  double violation = max_abs(phi);
  for (int it = 0; it < options.newton_iterations && violation > 0.0; ++it) {
    // x_new = x - dx, h y = Phi, dx = Phi_q(q_0)^T y: the same x_new as with -Phi (negation is
    // exact), without the temporary.
    Eigen::VectorXd dx;
    if (it == 0) {
      // x = q_0: h = Phi_q(q_0) Phi_q(q_0)^T, factored by the rank test.
      dx = pseudo_inverse_.solve(phi);
    } else {
      const Eigen::SparseMatrix<double> jacobian = m.position_jacobian_sparse(x, t);
      // Phi_q's pattern is the model's, the same at every step: h_'s pattern, KLU's ordering
      // and analysis once for it.
      if (!analysed_.matches(jacobian_0)) {
        analyse_product(jacobian_0);
        lu_.analyzePattern(h_);
        if (lu_.info() != Eigen::Success) {
          analysed_.forget();
          return std::nullopt;
        }
        analysed_.remember(jacobian_0);
      }
      if (!analysed_.matches(jacobian)) return std::nullopt;
      multiply(jacobian);
      lu_.refactorize(h_);
      if (lu_.info() != Eigen::Success) return std::nullopt;
      dx = jacobian_0.transpose() * lu_.solve(phi);
    }
    if (!dx.allFinite()) return std::nullopt;
    Eigen::VectorXd x_new = x - dx;
    Eigen::VectorXd phi_new = m.position_violation(x_new, t);
    // The dense path's stopping rule (projection_formulation::correct_positions).
    const double violation_new = max_abs(phi_new);
    if (violation <= options.newton_tolerance && !(violation_new <= 0.5 * violation)) break;
    moved = true;
    x.swap(x_new);
    phi.swap(phi_new);
    violation = violation_new;
  }
  if (!(violation <= options.newton_tolerance)) return std::nullopt;
  q = x;
  return moved;
}

}  // namespace kinevo::mechanics
