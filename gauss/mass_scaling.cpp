#include "kinevo/gauss/mass_scaling.hpp"
#include "kinevo/io/errors.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <stdexcept>

namespace kinevo::gauss {

namespace {

// Contiguous diagonal blocks of a dense symmetric M: a block ends at j when no row in it has
// an entry beyond column j.
std::vector<std::pair<int, int>> scan_blocks(const Eigen::MatrixXd& m) {
  const int n = static_cast<int>(m.rows());
  std::vector<std::pair<int, int>> out;
  int start = 0, reach = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = n - 1; j > reach; --j) {
      if (m(i, j) != 0.0) {
        reach = j;
        break;
      }
    }
    reach = std::max(reach, i);
    if (reach == i) {
      out.emplace_back(start, i - start + 1);
      start = i + 1;
      reach = i + 1;
    }
  }
  return out;
}

std::vector<std::pair<int, int>> blocks_of(const mechanics::constrained_system& s) {
  const int n = s.coordinates();
  if (s.mass_is_diagonal) {
    std::vector<std::pair<int, int>> out;
    for (int i = 0; i < n; ++i) out.emplace_back(i, 1);
    return out;
  }
  if (!s.mass_blocks.empty()) return {s.mass_blocks.begin(), s.mass_blocks.end()};
  return scan_blocks(s.mass);
}

}  // namespace

mass_scaling mass_scaling::of(const mechanics::constrained_system& s) {
  const int n = s.coordinates();
  mass_scaling out;
  out.blocks = blocks_of(s);
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& [first, size] : out.blocks) {
    const Eigen::MatrixXd block = s.mass.block(first, first, size, size);
    const Eigen::LLT<Eigen::MatrixXd> llt(block);
    if (llt.info() != Eigen::Success || !(block.diagonal().array() > 0.0).all()) {
      throw io::option_error("mass", "matrix must be positive definite (gauss objective)");
    }
    // L^-T: the upper-triangular inverse of L^T, column by column.
    const Eigen::MatrixXd inv_lt = llt.matrixU().solve(Eigen::MatrixXd::Identity(size, size));
    for (int j = 0; j < size; ++j) {
      for (int i = 0; i <= j; ++i) {
        if (inv_lt(i, j) != 0.0) entries.emplace_back(first + i, first + j, inv_lt(i, j));
      }
    }
  }
  out.basis.resize(n, n);
  out.basis.setFromTriplets(entries.begin(), entries.end());
  out.basis.makeCompressed();
  out.axis_width.resize(n);
  for (int j = 0; j < n; ++j) out.axis_width(j) = out.basis.col(j).norm();
  return out;
}

Eigen::VectorXd mass_scaling::inverse_times(const Eigen::VectorXd& v) const {
  const Eigen::VectorXd t = basis.transpose() * v;
  return basis * t;
}

Eigen::VectorXd row_scales(const Eigen::SparseMatrix<double>& jacobian, const mass_scaling& ms) {
  const auto m = jacobian.rows();
  Eigen::VectorXd d(m);
  if (m == 0) return d;
  const Eigen::SparseMatrix<double> c = ms.basis.transpose() * jacobian.transpose();  // n x m
  for (Eigen::Index i = 0; i < m; ++i) d(i) = c.col(i).squaredNorm();
  const double largest = d.maxCoeff();
  Eigen::VectorXd out(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    out(i) = d(i) > 1e-300 && d(i) > 1e-14 * largest ? 1.0 / d(i) : 1.0;
  }
  return out;
}

}  // namespace kinevo::gauss
