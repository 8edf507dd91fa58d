// The Cholesky factor of a small diagonal block of M (a spatial body's 1 x 1 translational and
// 4 x 4 Euler-parameter blocks) in fixed-size storage, and its triangular solves. At these sizes
// Eigen's dynamic-size LLT and triangular kernels spend more in dispatch and bookkeeping than in
// arithmetic (a quarter of a spatial two-body GIGSP step). The factor is Eigen's LLT; the
// loops below do the operations of Eigen's triangular kernels in Eigen's order
// (Core/products/TriangularSolverVector.h for vectors, TriangularSolverMatrix.h for matrices, which
// multiply by the diagonal's reciprocal where the vector kernel divides), so the results are the
// same to the last bit as LLT<MatrixXd>'s.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <cmath>

namespace kinevo::mechanics {

class small_cholesky {
 public:
  static constexpr Eigen::Index max_size = 4;

  // Factors the size x size block of `m` at (start, start); false when it is not positive
  // definite (as Eigen's LLT reports it).
  bool compute(const Eigen::MatrixXd& m, Eigen::Index start, Eigen::Index size) {
    size_ = size;
    if (size == 1) {
      // LLT's unblocked step for one coefficient: refuse x <= 0, else sqrt(x).
      const double x = m(start, start);
      if (x <= 0.0) return false;
      l_(0, 0) = std::sqrt(x);
    } else if (size == max_size) {
      fixed_.compute(m.block<4, 4>(start, start));
      if (fixed_.info() != Eigen::Success) return false;
      l_ = fixed_.matrixLLT();
    } else {
      bounded_.compute(m.block(start, start, size, size));
      if (bounded_.info() != Eigen::Success) return false;
      l_.topLeftCorner(size, size) = bounded_.matrixLLT();
    }
    for (Eigen::Index i = 0; i < size; ++i) inverse_diagonal_[i] = 1.0 / l_(i, i);
    return true;
  }

  Eigen::Index size() const { return size_; }

  // x <- L^-1 x, x contiguous (Eigen's column-major lower vector kernel).
  void solve_lower(double* x) const {
    for (Eigen::Index i = 0; i < size_; ++i) {
      if (x[i] == 0.0) continue;
      x[i] /= l_(i, i);
      for (Eigen::Index t = i + 1; t < size_; ++t) x[t] -= x[i] * l_(t, i);
    }
  }

  // x <- L^-T x (Eigen's row-major upper vector kernel on L's transpose).
  void solve_upper(double* x) const {
    for (Eigen::Index i = size_ - 1; i >= 0; --i) {
      if (i + 1 < size_) {
        double sum = l_(i + 1, i) * x[i + 1];
        for (Eigen::Index t = i + 2; t < size_; ++t) sum += l_(t, i) * x[t];
        x[i] -= sum;
      }
      if (x[i] != 0.0) x[i] /= l_(i, i);
    }
  }

  // y <- L^-1 y for y a column of a matrix right-hand side, y[k * stride] its k-th entry
  // (Eigen's column-major lower matrix kernel).
  void solve_lower_strided(double* y, Eigen::Index stride) const {
    for (Eigen::Index i = 0; i < size_; ++i) {
      double& yi = y[i * stride];
      yi *= inverse_diagonal_[i];
      const double b = yi;
      for (Eigen::Index t = i + 1; t < size_; ++t) y[t * stride] -= b * l_(t, i);
    }
  }

  // y <- L^-T y for y a column of a matrix right-hand side (Eigen's row-major upper matrix
  // kernel on L's transpose).
  void solve_upper_strided(double* y, Eigen::Index stride) const {
    for (Eigen::Index i = size_ - 1; i >= 0; --i) {
      double b = 0.0;
      for (Eigen::Index t = i + 1; t < size_; ++t) b += l_(t, i) * y[t * stride];
      y[i * stride] = (y[i * stride] - b) * inverse_diagonal_[i];
    }
  }

 private:
  Eigen::Matrix4d l_ = Eigen::Matrix4d::Zero();  // L in the lower triangle of the top-left size_
  double inverse_diagonal_[max_size] = {};
  Eigen::Index size_ = 0;
  Eigen::LLT<Eigen::Matrix4d> fixed_;
  Eigen::LLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>> bounded_;
};

}  // namespace kinevo::mechanics
