// Eigen's KLU (SuiteSparse's sparse LU) with the two KLU calls Eigen's wrapper does not offer and
// that need the factorisation's handles it keeps protected: klu_condest (coordinate
// partitioning's check, sparse_block_rcond.hpp), klu_tsolve (qtz-state's Schur complement,
// stacked_schur.hpp) and klu_refactor (the sparse position correction,
// sparse_position_correction.hpp).
#pragma once

#include <Eigen/Core>
#include <Eigen/KLUSupport>
#include <Eigen/SparseCore>
#include <cmath>
#include <limits>
#include <optional>

namespace kinevo::mechanics::detail {

class klu_factor : public Eigen::KLU<Eigen::SparseMatrix<double>> {
 public:
  // 1 / (||A||_1 est ||A^-1||_1) of the factored `matrix` (KLU's condest), or nothing when there
  // is no factorisation or the estimate fails.
  std::optional<double> rcond(Eigen::SparseMatrix<double>& matrix) {
    if (m_numeric == nullptr || m_symbolic == nullptr) return std::nullopt;
    if (klu_condest(matrix.outerIndexPtr(), matrix.valuePtr(), m_symbolic, m_numeric, &m_common) !=
            1 ||
        !std::isfinite(m_common.condest) || m_common.condest <= 0.0) {
      return std::nullopt;
    }
    return 1.0 / m_common.condest;
  }

  // Factors `matrix` (of the pattern analysed) with the previous factorisation's pivot order,
  // without its pivot search and allocations (klu_refactor), as SUNDIALS' SUNLinSol_KLU does
  // between setups; and as there, with partial pivoting again (factorize) when there is no
  // previous factorisation, or when the new pivots spread beyond eps^(2/3) (klu_rcond: min / max
  // |U_kk|), the sign that the old order no longer suits. info() tells the outcome.
  void refactorize(Eigen::SparseMatrix<double>& matrix) {
    static const double min_rcond = std::pow(std::numeric_limits<double>::epsilon(), 2.0 / 3.0);
    if (m_numeric != nullptr && m_info == Eigen::Success && rows() == matrix.rows() &&
        klu_refactor(matrix.outerIndexPtr(), matrix.innerIndexPtr(), matrix.valuePtr(), m_symbolic,
                     m_numeric, &m_common) == 1 &&
        klu_rcond(m_symbolic, m_numeric, &m_common) == 1 && m_common.rcond >= min_rcond) {
      grab(matrix);
      return;
    }
    factorize(matrix);
  }

  // x <- A^-T x for every column of x; false when there is no factorisation or KLU fails.
  bool transpose_solve_in_place(Eigen::MatrixXd& x) {
    if (info() != Eigen::Success || x.size() == 0) return info() == Eigen::Success;
    return Eigen::klu_tsolve(m_symbolic, m_numeric, x.rows(), x.cols(), x.data(), &m_common,
                             double()) != 0;
  }
};

}  // namespace kinevo::mechanics::detail
