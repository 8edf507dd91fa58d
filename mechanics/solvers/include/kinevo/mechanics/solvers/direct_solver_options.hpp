// The options of the direct acceleration solvers (LM, U-K, GIGSP, S-L, K-V, QTZ, the projection
// and the approximate inverse); each solver reads the fields it understands. Solvers that higher
// modules register own their options (the GA solver's: gauss/ga_solver_options.hpp).
#pragma once

namespace kinevo::mechanics {

struct direct_solver_options {
  // A row of A is redundant when its remainder after orthogonalisation against the earlier rows
  // is below `rank_tolerance` times its own norm (GIGSP, relative to each row) or a singular
  // value is below rank_tolerance * sigma_max (U-K, S-L, K-V, LM).
  double rank_tolerance = 1e-9;
  // A redundant row whose right-hand side remainder exceeds `consistency_tolerance` times
  // (1 + |b_i|) is inconsistent.
  double consistency_tolerance = 1e-7;
  // A row whose remainder is below degenerate_tolerance times the largest row norm of A L^-T
  // is treated as a zero row (degenerate configurations, e.g. the five-bar at th = 0 or pi).
  double degenerate_tolerance = 1e-8;
  // Exploit the sparsity of A (chains) when the dense flop counts would lose; dense otherwise.
  bool allow_sparse = true;
  // GIGSP runs its dense row process and A L^-T on `threads` threads when > 1 (0 and 1: serial).
  int threads = 0;

  // Throws io::option_error naming the field and its allowed range: the tolerances finite, rank
  // and degenerate ones in (0, 1), consistency > 0 (a NaN or huge rank tolerance would silently
  // call every constraint redundant), threads in [0, 4096].
  void validate() const;
};

}  // namespace kinevo::mechanics
