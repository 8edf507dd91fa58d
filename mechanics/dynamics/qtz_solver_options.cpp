#include "kinevo/mechanics/dynamics/detail/qtz_solver_options.hpp"

namespace kinevo::mechanics {

direct_solver_options qtz_solver_options(const formulation_options& options) {
  direct_solver_options s;
  s.rank_tolerance = options.rank_tolerance;
  return s;
}

}  // namespace kinevo::mechanics
