#include "kinevo/ga/search_box.hpp"
#include "kinevo/io/errors.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace kinevo::ga {

search_box search_box::of(const problem& p) {
  return {p.lower_bounds(), p.upper_bounds()};
}

search_box search_box::around(const Eigen::VectorXd& centre, const Eigen::VectorXd& radii) {
  return {centre - radii, centre + radii};
}

void search_box::validate(int dimension) const {
  if (lower.size() != dimension || upper.size() != dimension) {
    std::ostringstream m;
    m << "has " << lower.size() << " lower and " << upper.size()
      << " upper bounds for a problem of dimension " << dimension;
    throw io::option_error("box", m.str());
  }
  for (int j = 0; j < dimension; ++j) {
    if (!std::isfinite(lower[j]) || !std::isfinite(upper[j]) || !(lower[j] < upper[j])) {
      std::ostringstream m;
      m.precision(17);
      m << "must be below upper, both finite: variable " << j << " has [" << lower[j] << ", "
        << upper[j] << "]";
      throw io::option_error("lower", m.str());
    }
  }
}

}  // namespace kinevo::ga
