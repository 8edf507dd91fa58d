#include "kinevo/mechanics/kinematics/detail/sparse_rank_qr.hpp"

#include <SuiteSparseQR.hpp>
#include <algorithm>
#include <limits>

#include "kinevo/core/resource_error.hpp"
#include "kinevo/mechanics/solvers/detail/cholmod_view.hpp"

namespace kinevo::mechanics {

namespace {

// CHOLMOD's workspace, started and finished once per factorisation.
class cholmod_workspace {
 public:
  cholmod_workspace() { cholmod_l_start(&common_); }
  ~cholmod_workspace() { cholmod_l_finish(&common_); }
  cholmod_workspace(const cholmod_workspace&) = delete;
  cholmod_workspace& operator=(const cholmod_workspace&) = delete;
  cholmod_common* get() { return &common_; }

 private:
  cholmod_common common_{};
};

}  // namespace

sparse_rank_columns sparse_rank_qr(const Eigen::SparseMatrix<double>& a, double threshold,
                                   bool fill_reducing) {
  sparse_rank_columns out;
  const auto n = static_cast<int>(a.cols());
  if (a.rows() == 0 || n == 0) {
    for (int c = 0; c < n; ++c) out.free.push_back(c);
    return out;
  }
  // A compressed column-major copy with SuiteSparse's long indices, viewed as a cholmod_sparse.
  Eigen::SparseMatrix<double, Eigen::ColMajor, SuiteSparse_long> compressed = a.cast<double>();
  compressed.makeCompressed();
  cholmod_sparse view = cholmod_view(
      static_cast<std::size_t>(compressed.rows()), static_cast<std::size_t>(compressed.cols()),
      compressed.outerIndexPtr(), compressed.innerIndexPtr(), compressed.valuePtr());

  cholmod_workspace workspace;
  cholmod_sparse* r = nullptr;
  SuiteSparse_long* e = nullptr;
  // A zero threshold (a zero matrix) still counts exact zeros as dead: SPQR reads a negative
  // one as "no rank detection".
  const double tol = std::max(threshold, std::numeric_limits<double>::min());
  const SuiteSparse_long rank =
      SuiteSparseQR<double>(fill_reducing ? SPQR_ORDERING_COLAMD : SPQR_ORDERING_FIXED, tol, 0,
                            &view, &r, &e, workspace.get());
  const bool failed =
      r == nullptr || r->packed == 0 || rank < 0 || workspace.get()->status < CHOLMOD_OK;
  if (failed) {
    cholmod_l_free_sparse(&r, workspace.get());
    if (e != nullptr) cholmod_l_free(view.ncol, sizeof(SuiteSparse_long), e, workspace.get());
    // SPQR fails on memory (CHOLMOD_OUT_OF_MEMORY) or an internal limit, not on the model.
    throw core::resource_error(
        "rank analysis: the sparse QR factorisation failed (out of memory?)");
  }
  out.rank = static_cast<int>(rank);
  // Q R = A E with R "squeezed" upper trapezoidal (rank rows): column k of R (column E[k] of A,
  // E null when the identity) is live when it has the next pivot row, i.e. an entry in row p
  // after p live columns; a dead column has entries only in the rows of earlier pivots. (E does
  // not move the dead columns to the end under the fixed ordering.)
  const auto* rp = static_cast<const SuiteSparse_long*>(r->p);
  const auto* ri = static_cast<const SuiteSparse_long*>(r->i);
  const auto* rx = static_cast<const double*>(r->x);
  SuiteSparse_long live = 0;
  for (int k = 0; k < n; ++k) {
    const int c = e == nullptr ? k : static_cast<int>(e[k]);
    bool pivot = false;
    for (SuiteSparse_long q = rp[k]; q < rp[k + 1] && !pivot; ++q) {
      pivot = ri[q] == live && rx[q] != 0.0;
    }
    if (pivot && live < rank) {
      ++live;
      out.pivots.push_back(c);
    } else {
      out.free.push_back(c);
    }
  }
  cholmod_l_free_sparse(&r, workspace.get());
  if (live != rank) {
    if (e != nullptr) cholmod_l_free(view.ncol, sizeof(SuiteSparse_long), e, workspace.get());
    throw std::logic_error("rank analysis: the sparse QR's factor R is not in the expected form");
  }
  if (e != nullptr) cholmod_l_free(view.ncol, sizeof(SuiteSparse_long), e, workspace.get());
  return out;
}

}  // namespace kinevo::mechanics
