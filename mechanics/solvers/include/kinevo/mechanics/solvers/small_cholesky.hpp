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
#include <type_traits>

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

  double inverse_diagonal(Eigen::Index i) const { return inverse_diagonal_[i]; }

  // The solves below dispatch on the size: for 1 and max_size (a spatial body's blocks) the trip
  // counts are constants and the loops unroll; the operations are the same in every case.

  // x <- L^-1 x, x contiguous (Eigen's column-major lower vector kernel).
  EIGEN_ALWAYS_INLINE void solve_lower(double* x) const {
    dispatch([&](auto size) { lower(x, size()); });
  }

  // x <- L^-T x (Eigen's row-major upper vector kernel on L's transpose).
  EIGEN_ALWAYS_INLINE void solve_upper(double* x) const {
    dispatch([&](auto size) { upper(x, size()); });
  }

  // y <- L^-1 y for y a column of a matrix right-hand side, y[k * stride] its k-th entry
  // (Eigen's column-major lower matrix kernel).
  EIGEN_ALWAYS_INLINE void solve_lower_strided(double* y, Eigen::Index stride) const {
    dispatch([&](auto size) { lower_strided(y, stride, size()); });
  }

  // y <- L^-T y for y a column of a matrix right-hand side (Eigen's row-major upper matrix
  // kernel on L's transpose).
  EIGEN_ALWAYS_INLINE void solve_upper_strided(double* y, Eigen::Index stride) const {
    dispatch([&](auto size) { upper_strided(y, stride, size()); });
  }

 private:
  // f(size) with size() the block's size, a compile-time constant for 1 and max_size.
  // Inlined into each caller, or the size test and call cost as much as a 4 x 4 solve.
  template <class F>
  EIGEN_ALWAYS_INLINE void dispatch(F&& f) const {
    if (size_ == max_size) {
      f(std::integral_constant<Eigen::Index, max_size>{});
    } else if (size_ == 1) {
      f(std::integral_constant<Eigen::Index, 1>{});
    } else {
      const Eigen::Index n = size_;
      f([n] { return n; });
    }
  }

  EIGEN_ALWAYS_INLINE void lower(double* x, Eigen::Index n) const {
    for (Eigen::Index i = 0; i < n; ++i) {
      if (x[i] == 0.0) continue;
      x[i] /= l_(i, i);
      for (Eigen::Index t = i + 1; t < n; ++t) x[t] -= x[i] * l_(t, i);
    }
  }

  EIGEN_ALWAYS_INLINE void upper(double* x, Eigen::Index n) const {
    for (Eigen::Index i = n - 1; i >= 0; --i) {
      if (i + 1 < n) {
        double sum = l_(i + 1, i) * x[i + 1];
        for (Eigen::Index t = i + 2; t < n; ++t) sum += l_(t, i) * x[t];
        x[i] -= sum;
      }
      if (x[i] != 0.0) x[i] /= l_(i, i);
    }
  }

  EIGEN_ALWAYS_INLINE void lower_strided(double* y, Eigen::Index stride, Eigen::Index n) const {
    for (Eigen::Index i = 0; i < n; ++i) {
      double& yi = y[i * stride];
      yi *= inverse_diagonal_[i];
      const double b = yi;
      for (Eigen::Index t = i + 1; t < n; ++t) y[t * stride] -= b * l_(t, i);
    }
  }

  EIGEN_ALWAYS_INLINE void upper_strided(double* y, Eigen::Index stride, Eigen::Index n) const {
    for (Eigen::Index i = n - 1; i >= 0; --i) {
      double b = 0.0;
      for (Eigen::Index t = i + 1; t < n; ++t) b += l_(t, i) * y[t * stride];
      y[i * stride] = (y[i * stride] - b) * inverse_diagonal_[i];
    }
  }

  Eigen::Matrix4d l_ = Eigen::Matrix4d::Zero();  // L in the lower triangle of the top-left size_
  double inverse_diagonal_[max_size] = {};
  Eigen::Index size_ = 0;
  Eigen::LLT<Eigen::Matrix4d> fixed_;
  Eigen::LLT<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>> bounded_;
};

}  // namespace kinevo::mechanics
