// Writing a model file back with other initial values (an assembled state), keeping the user's
// text as it is: comments, order, layout, parameters and every other value stay byte for byte.
// Only the numbers of the initial values that changed are replaced in place (toml++ gives each
// value's source position): [[coordinate]] initial/velocity, [[particle]] position/velocity
// components, [[body]] position/angle/velocity/angular_velocity. An expression string
// (`angle = "pi/2"`) that changed becomes a number; a velocity that was left out (default 0) and
// is now non-zero is added as a new line `velocity = ...` after the table's last key.
#pragma once

#include <Eigen/Core>
#include <string>

#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

struct rewritten_model_file {
  std::string text;
  int replaced = 0;  // values replaced in place
  int added = 0;     // keys added (velocities that were left out)
};

// `text` is the model file `m` was loaded from (`source` names it in messages). Values whose
// new number equals m's initial one (bit for bit) are not touched. Throws io::input_error naming
// the file and line when a value cannot be placed: a coordinate not found among the sections
// above, or a velocity to add to an inline table.
rewritten_model_file rewrite_initial_values(const std::string& text, const std::string& source,
                                            const model& m, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& qd);

// A double as a TOML float that reads back to the same double ("1.0", "-0.25", "1e-17").
std::string toml_number(double v);

}  // namespace kinevo::mechanics
