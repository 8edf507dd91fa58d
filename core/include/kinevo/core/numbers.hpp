// Constants every module uses, defined once: the degree in radians, and the NaN that marks a
// field with no value (a state where a loop cannot be assembled, a screw axis that does not
// exist). One definition also keeps the modules' unity builds free of clashing copies.
#pragma once

#include <limits>
#include <numbers>

namespace kinevo {

inline constexpr double degree = std::numbers::pi / 180.0;
inline constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

}  // namespace kinevo
