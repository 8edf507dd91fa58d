#include "kinevo/ga/search_box.hpp"

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
    m << "search box has " << lower.size() << " lower and " << upper.size()
      << " upper bounds for a problem of dimension " << dimension;
    throw std::invalid_argument(m.str());
  }
  for (int j = 0; j < dimension; ++j) {
    if (!std::isfinite(lower[j]) || !std::isfinite(upper[j]) || !(lower[j] < upper[j])) {
      std::ostringstream m;
      m.precision(17);
      m << "bad bounds for variable " << j << ": [" << lower[j] << ", " << upper[j]
        << "]; bounds must be finite with lower < upper";
      throw std::invalid_argument(m.str());
    }
  }
}

}  // namespace kinevo::ga
