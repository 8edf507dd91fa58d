#include "kinevo/numerics/newton_options.hpp"

#include <limits>

#include "kinevo/io/option_error.hpp"

namespace kinevo::numerics {

newton_options newton_options::gauss_newton_defaults() {
  newton_options o;
  o.tol_x = 1e-10;
  o.max_iterations = 100;
  o.max_halvings = 30;
  return o;
}

void newton_options::validate() const {
  io::require_real("tol_x", tol_x, {0.0, std::numeric_limits<double>::infinity()});
  io::require_real("tol_f", tol_f, {0.0, std::numeric_limits<double>::infinity()});
  io::require_real("damping", damping, {0.0, 1.0, true, true});
  io::require_integer("max_halvings", max_halvings, 0);
  io::require_integer("max_iterations", max_iterations, 0);
  io::require_real("min_rcond", min_rcond, {0.0, 1.0, false, true});
}

}  // namespace kinevo::numerics
