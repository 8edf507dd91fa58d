// The projector of Yoo, Kim and Kim, "A hybrid scheme using LU decomposition and projection
// matrix for dynamic analysis of constrained multibody systems", P_N = I - A^+ A (eq. 11) with
// A^+ = A^T (A A^T)^-1 (eq. 10 for A of full row rank), applied through the sparse A and the
// sparse LDL^T of A A^T (sparse_pseudo_inverse) instead of being formed:
//   P_T = P_N B = B - A^T (A A^T)^-1 A B            (eq. 12, the k chosen columns of P_N)
//   M11 = P_T^T M P_T = B^T P_N (M P_T)             (eqs. 16-19; P_N is symmetric)
// The dense blocks are row-major, so that each entry of A or of the LDL^T factor updates a whole
// row of k values at once (vectorised) rather than k scattered entries: forming M11 costs
// O(k (nnz(A) + nnz(L))) instead of the dense k x k x n product P_T^T (M P_T).
// For a diagonal M (particles) P_T need not be formed at all: with U = (A A^T)^-1 A B (m x k),
// P_T = B - A^T U, so A (M P_T) = A M B - (A M A^T) U, whose A M A^T has the structure of A A^T,
// and B^T (M P_T) = M_B (I - (A^T U)_B): M11 then takes one n x k pass less than through P_T
// (columns_implicit; P_T^T v and P_T z through U).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

namespace kinevo::mechanics {

class sparse_null_space_projector {
 public:
  // P_T = P_N B for the columns B (eq. 12) of the factored A (n x k); kept for reduced_mass.
  const row_major_matrix& columns(const sparse_pseudo_inverse& a_plus, const std::vector<int>& b);
  // The same kept implicit, as U = (A A^T)^-1 A B, for a system with a diagonal M.
  void columns_implicit(const sparse_pseudo_inverse& a_plus, const std::vector<int>& b);
  // M11 = B^T P_N (M P_T) for the P_T of the last columns(): its lower triangle, which is what
  // LLT reads (M11 is symmetric to round-off only, so the upper triangle would be other
  // numbers); the strict upper triangle is zero.
  const Eigen::MatrixXd& reduced_mass(const sparse_pseudo_inverse& a_plus,
                                      const constrained_system& s);
  // The same lower triangle into `out` (k x k; resized and zeroed when not k x k, otherwise its
  // strict upper triangle is left as it is): e.g. straight into a factor's storage.
  void reduced_mass(const sparse_pseudo_inverse& a_plus, const constrained_system& s,
                    Eigen::MatrixXd& out);
  // P_T^T v (size k) and P_T z (size n) for the P_T of the last columns() or columns_implicit().
  Eigen::VectorXd transpose_times(const sparse_pseudo_inverse& a_plus,
                                  const Eigen::VectorXd& v) const;
  Eigen::VectorXd times(const sparse_pseudo_inverse& a_plus, const Eigen::VectorXd& z) const;

 private:
  // The lower triangle of B^T P_N X = rows B of X - A_B^T (A A^T)^-1 (A X), X n x k (row-major),
  // into out (k x k, column-major): row j of it from the first j + 1 values of the rows.
  void project_rows_lower(const sparse_pseudo_inverse& a_plus, const row_major_matrix& x,
                          Eigen::MatrixXd& out);
  // Takes b as B (b_ and position_in_b_).
  void choose(const sparse_pseudo_inverse& a_plus, const std::vector<int>& b);
  // (A A^T)^-1 A B into u (m x k, row-major).
  void gram_solve_of_columns(const sparse_pseudo_inverse& a_plus, row_major_matrix& u) const;
  // M11's lower triangle from U for a diagonal M (the header's identities).
  void reduced_mass_implicit(const sparse_pseudo_inverse& a_plus, const constrained_system& s,
                             Eigen::MatrixXd& out);

  std::vector<int> b_;
  std::vector<int> position_in_b_;  // j for the coordinate b_[j], -1 for the others
  bool implicit_ = false;           // the last columns were columns_implicit()'s: U, not P_T
  row_major_matrix p_t_, m_p_t_, range_, u_;
  std::vector<double> scaled_a_, amat_;  // A's values times M at their columns; A M A^T's lower
  Eigen::MatrixXd m11_;
  Eigen::VectorXd row_;        // one row of M11's lower triangle
  std::vector<char> touched_;  // the rows of A (M P_T) assigned so far
};

}  // namespace kinevo::mechanics
