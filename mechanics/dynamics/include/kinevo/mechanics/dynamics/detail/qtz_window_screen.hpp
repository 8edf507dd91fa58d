// The qtz-reduced formulation drops a combination of constraint rows while it is near a singular
// configuration (qtz_reduced_dae.cpp: the unweighted QTZ pivots below a pivot threshold, or the
// singular values of the M-weighted Jacobian Phi_q M^-1/2 below a window times the largest).
// Deciding that exactly takes a dense column-pivoted QR of Phi_q^T and the eigenvalue count of
// Phi_q M^-1 Phi_q^T after every IDA step: 44 % of the 50-link chain's time. Almost always no
// combination is near, and two sparse Cholesky factorisations show it:
//   - every pivot |r_kk| of the column-pivoted QR of Phi_q^T is at least sigma_min(R) =
//     sigma_min(Phi_q) (R^-1 has 1 / r_kk on its diagonal), and the first pivot p_0 is the
//     largest row norm of Phi_q; so Phi_q Phi_q^T - (pivot_ratio p_0)^2 I positive definite keeps
//     every pivot above pivot_ratio p_0;
//   - the largest eigenvalue of G = Phi_q M^-1 Phi_q^T is at most its infinity norm, so
//     G - window^2 ||G||_inf I positive definite keeps every eigenvalue above window^2 times the
//     largest.
// When either factorisation fails the caller decides exactly; the screen never drops anything.
// The two Gram matrices are formed through structures made once per pattern (sparse_row_gram,
// sparse_gram) and the factorisations' symbolic analyses are kept while the patterns are: a
// simulation screens every step by loops over flat arrays.
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"
#include "kinevo/mechanics/solvers/sparse_row_gram.hpp"

namespace kinevo::mechanics::detail {

// Below this many rows the screen returns false: on the slider-crank (8 rows) the sparse test
// cost 4.5 % more per record than the dense one.
inline constexpr Eigen::Index qtz_window_screen_min_rows = 16;

class qtz_window_screen {
 public:
  // True when Phi_q (system.jacobian, m x n, its nonzeros within system.jacobian_pattern) has
  // full row rank with every unweighted QTZ pivot above pivot_ratio times the first and every
  // singular value of Phi_q M^-1/2 above `window` times the largest, M the dense `system.mass`
  // (diagonal, or block-diagonal in system.mass_blocks with blocks of at most 16). False when that
  // is not shown: M of another structure, m > n, a failed factorisation, a value that is not
  // finite, or fewer than qtz_window_screen_min_rows rows (the dense test is cheaper there).
  bool clear(const constrained_system& system, double pivot_ratio, double window);

 private:
  // Whether the symmetric matrix with lower triangle `lower` minus shift I is positive definite:
  // its sparse Cholesky factorisation in the natural order (a chain's Gram matrix is banded in
  // it; the fill-reducing ordering cost more than it saved) meets no pivot <= 0.
  class shifted_cholesky {
   public:
    bool positive_definite(const Eigen::SparseMatrix<double>& lower,
                           const std::vector<int>& diagonal, double shift);

   private:
    Eigen::SparseMatrix<double> shifted_;
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
        llt_;
    sparse_pattern analysed_;  // the pattern llt_ was analysed for
  };

  sparse_row_gram euclidean_;  // Phi_q Phi_q^T
  sparse_gram weighted_;       // Phi_q M^-1 Phi_q^T
  shifted_cholesky euclidean_test_, weighted_test_;
};

}  // namespace kinevo::mechanics::detail
