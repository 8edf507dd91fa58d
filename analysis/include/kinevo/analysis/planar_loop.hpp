// What the single-loop planar analysers have in common (Angeles et al., Diseño cinemático de
// maquinaria, paper "Software para el análisis digital de sistemas mecánicos", RESC11-13): an
// input motion sample in, one state out with every output's value, rate and acceleration, and a
// status instead of NaN when the loop cannot be assembled there.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "kinevo/core/numbers.hpp"

namespace kinevo::analysis {

// Relative round-off accepted at a limit position (|cos| or |sin| of a closure angle just past 1,
// the double root of a quadratic).
inline constexpr double limit_round_off = 1e-12;
// Below this |sine| (or cosine) of the transmission angle a loop is at a dead point: at a limit
// computed in floating point it is about sqrt(round-off), not 0.
inline constexpr double dead_point_tolerance = 1e-7;

// The input at one time: value (angle or length), its first and second time derivatives.
struct motion_sample {
  double t = 0.0;
  double value = 0.0;
  double rate = 0.0;
  double accel = 0.0;
};

struct kinematic_value {
  double value = not_a_number;
  double rate = not_a_number;
  double accel = not_a_number;
};

enum class loop_status {
  ok,
  out_of_range,  // no real root: the input is outside the mobility range
  dead_point,    // assembled, but at a dead point: rates and accelerations do not exist
  no_input,      // a chained loop whose driving loop has no rates at this point
  non_finite     // assembled, but an output, rate or acceleration is NaN or infinite (inputs or
                 // dimensions beyond double precision: a link of 1e308, -e "1e308*t")
};
const char* to_string(loop_status s);

struct loop_state {
  loop_status status = loop_status::out_of_range;
  std::vector<kinematic_value> outputs;      // in the order of planar_loop::output_names()
  double transmission_angle = not_a_number;  // rad, wrapped to (-pi, pi]
  std::string non_finite_quantity;           // status non_finite: the first such ("phi_ddot")
};

// Where the input may move: the closed-form limits of the input (dead points of the output,
// Angeles et al., RESC paper, eqs. (8)-(12) and (36a,b)).
struct loop_mobility {
  std::string kind;            // "crank" or "rocker"
  std::string description;     // one line: which case and the limit inputs
  std::vector<double> limits;  // input values at the limits (rad or length), ascending
};

// A single-loop analyser: one input (the driving angle or length), named outputs.
class planar_loop {
 public:
  virtual ~planar_loop() = default;
  virtual std::string kind() const = 0;  // "rrrr", "rprr", "rrrp"
  virtual std::string input_name() const = 0;
  virtual std::vector<std::string> output_names() const = 0;
  // Which outputs are angles (a chained loop may only take an angle as its input).
  virtual std::vector<bool> output_is_angle() const = 0;
  virtual loop_state state_at(const motion_sample& input) const = 0;
  virtual loop_mobility mobility() const = 0;
  virtual std::string describe() const = 0;  // dimensions and branch, one line
};

// Rate and acceleration of y(x) defined implicitly by f(x, y) = 0, for x moving with xdot,
// xddot (Angeles et al., RESC paper, eq. (16), (17) as corrected in the reference:
// y'' = -(f_xx + 2 f_xy y' + f_yy y'^2) / f_y, and the chain rule (19)-(20)).
struct implicit_partials {
  double fx, fy, fxx, fxy, fyy;
};
kinematic_value implicit_motion(double y, const implicit_partials& f, const motion_sample& x);

// Throws io::option_error ("branch") unless branch is 1 or -1.
void validate_branch(int branch);

// An angle wrapped to (-pi, pi].
double wrap_angle(double a);

}  // namespace kinevo::analysis
