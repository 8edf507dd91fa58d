// A cholmod_sparse header over compressed columns (long indices, sorted, packed) stored
// elsewhere: the input of SuiteSparseQR for the sparse QTZ decomposition and the kinematics'
// sparse rank analysis. Only files compiled outside the unity batches include it (cholmod.h's
// macros); the storage must outlive the view.
#pragma once

#include <cholmod.h>

#include <cstddef>

namespace kinevo::mechanics {

inline cholmod_sparse cholmod_view(std::size_t rows, std::size_t cols, SuiteSparse_long* outer,
                                   SuiteSparse_long* inner, double* values) {
  cholmod_sparse view{};
  view.nrow = rows;
  view.ncol = cols;
  view.nzmax = static_cast<std::size_t>(outer[cols]);
  view.p = outer;
  view.i = inner;
  view.x = values;
  view.stype = 0;  // unsymmetric: every entry stored
  view.itype = CHOLMOD_LONG;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  return view;
}

}  // namespace kinevo::mechanics
