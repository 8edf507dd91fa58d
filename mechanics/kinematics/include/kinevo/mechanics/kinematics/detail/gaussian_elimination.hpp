// Gaussian elimination with row (partial) or full pivoting on a dense m x n matrix, for the rank
// and the general solution of A x = b, and Crout's compact LU factorisation (Haug,
// Computer-Aided Kinematics and Dynamics of Mechanical Systems, sections 4.4.1-4.4.5).
// Small dense systems (kinematic Jacobians); the rank decision is what matters here, so the
// elimination is written out rather than delegated, with a documented relative tolerance.
//
// Rank: a candidate pivot p is zero when |p| <= relative_tolerance * max|a_ij| (the largest
// entry of the original matrix). Elimination stops (full pivoting) or moves to the next column
// (row pivoting) when no candidate exceeds that threshold; the pivots taken are the rank.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace kinevo::mechanics {

enum class pivoting {
  row,   // partial pivoting: the largest entry of the current column (Haug, Example 4.4.2);
         // a column without a pivot is skipped and its variable becomes free
  full,  // the largest entry of the remaining submatrix (Haug, Example 4.4.3)
};

struct elimination_options {
  pivoting pivot = pivoting::full;
  // A pivot |p| <= relative_tolerance * max|a_ij| counts as zero. Must be finite, in [0, 1).
  double relative_tolerance = 1e-10;

  // Throws io::option_error naming the field.
  void validate() const;
};

// P A Q = L U: rows of A in `row_order`, columns in `column_order` (row_order[k] is the row of
// A in position k). L is m x r unit lower trapezoidal, U is r x n upper trapezoidal (r = rank);
// for a non-singular square A these are the usual factors.
struct elimination_result {
  int rows = 0, columns = 0;
  int rank = 0;
  double threshold = 0.0;         // the absolute pivot threshold used
  std::vector<int> row_order;     // size m: pivot rows first, in pivot order
  std::vector<int> column_order;  // size n: pivot (dependent) columns first, in pivot order
  std::vector<double> pivots;     // size rank, in order
  Eigen::MatrixXd lower;          // m x rank
  Eigen::MatrixXd upper;          // rank x n (columns in column_order)

  // Columns of A that took a pivot (the dependent variables) and those that did not (free).
  std::vector<int> pivot_columns() const;
  std::vector<int> free_columns() const;
  // Rows of A that took a pivot, and the others (dependent rows: combinations of pivot rows).
  std::vector<int> pivot_rows() const;
  std::vector<int> dependent_rows() const;
};

// Throws io::option_error for invalid options, std::invalid_argument for NaN/infinite entries.
elimination_result eliminate(const Eigen::MatrixXd& a, const elimination_options& options = {});

// The solution set of A x = b (Haug, Example 4.4.4): when consistent,
//   x[dependent] = particular[dependent] + coefficients * x[free],
// with `particular` the solution whose free variables are zero.
struct linear_solution {
  int rank = 0;
  bool consistent = false;       // A x = b has a solution
  double inconsistency = 0.0;    // largest |reduced b| in the rows without a pivot
  Eigen::VectorXd particular;    // size n (valid when consistent)
  std::vector<int> dependent;    // variables that took a pivot
  std::vector<int> free;         // the others (arbitrary in the general solution)
  Eigen::MatrixXd coefficients;  // dependent.size() x free.size()
};

// Eliminates [A | b] with A's pivots (b never pivots). The reduced b rows past the rank must be
// zero to |b_k| <= relative_tolerance * max(max|a_ij|, max|b_i|) for consistency.
linear_solution solve_linear(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                             const elimination_options& options = {});

// Crout's compact LU without pivoting (Haug, section 4.4.5, Example 4.4.5): A = L U with L unit
// lower triangular and U upper triangular, computed row of U then column of L. Throws
// io::option_error ("a") naming the step when a pivot is zero (pivoting is then needed).
struct lu_factors {
  Eigen::MatrixXd lower, upper;
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;  // forward then back substitution
};
lu_factors crout_lu(const Eigen::MatrixXd& a);

}  // namespace kinevo::mechanics
