// A recorded trajectory (mechanics/dynamics/recorded_trajectory.hpp) as the motion a model's
// drawing animates (mechanics/model/model_drawing.hpp): `simulate --animate` draws the run it
// recorded in memory, with no CSV text between the two.
#pragma once

#include <string>

#include "kinevo/mechanics/dynamics/recorded_trajectory.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"

namespace kinevo::mechanics {

// The drawing's coordinates at each recorded time (times that do not increase left out). Throws
// io::input_error naming `source` when the trajectory lacks a coordinate the drawing needs.
drawing_motion trajectory_motion(const model_drawing& drawing, const recorded_trajectory& run,
                                 const std::string& source);

}  // namespace kinevo::mechanics
