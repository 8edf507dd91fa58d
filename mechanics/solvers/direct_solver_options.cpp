#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

#include "kinevo/io/option_error.hpp"

namespace kinevo::mechanics {

void direct_solver_options::validate() const {
  io::require_real("rank_tolerance", rank_tolerance, {0.0, 1.0, true, true});
  io::require_real("consistency_tolerance", consistency_tolerance, io::positive());
  io::require_real("degenerate_tolerance", degenerate_tolerance, {0.0, 1.0, true, true});
  io::require_integer("threads", threads, 0, 4096);  // the GA's islands.threads rule
}

}  // namespace kinevo::mechanics
