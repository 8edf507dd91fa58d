#include "kinevo/mechanics/dynamics/recorded_trajectory.hpp"

#include <fmt/format.h>

#include "kinevo/io/errors.hpp"

namespace kinevo::mechanics {

void recorded_trajectory::check_finite(const std::string& source) const {
  if (!first_non_finite) return;
  const cell& c = *first_non_finite;
  // The CSV's line of the row: the header is line 1. The value as the CSV writer prints it.
  throw io::input_error(
      fmt::format("{}:{}: column '{}': '{}' is not a finite number in the range of doubles", source,
                  c.row + 2, io::excerpt(c.column, 40), io::excerpt(fmt::format("{}", c.value))));
}

}  // namespace kinevo::mechanics
