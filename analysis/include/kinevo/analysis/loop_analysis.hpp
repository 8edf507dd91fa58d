// The result of a loop analysis (one loop or a chain of them) over an input motion, which
// reports itself: a text summary, one JSON object, a CSV table and an SVG chart.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/analysis/planar_loop.hpp"
#include "kinevo/core/outcome.hpp"

namespace kinevo::analysis {

struct stage_result {
  std::string name;
  std::string kind;
  std::string description;
  std::string input_name;
  std::vector<std::string> output_names;
  std::vector<bool> output_is_angle;
  loop_mobility mobility;
  std::vector<loop_state> states;  // one per motion sample
};

// A point (motion sample) where some stage could not be assembled or was at a dead point.
struct loop_failure {
  std::size_t index;
  double t;
  std::string stage;
  loop_status status;
  std::string quantity;  // status non_finite: the quantity that is NaN or infinite
};

struct loop_analysis {
  std::vector<motion_sample> motion;
  std::vector<stage_result> stages;

  std::vector<loop_failure> failures() const;  // first failing stage of each failed point
  bool all_assembled() const { return failures().empty(); }
  // ok when every point was analysed, else failed with the message "<n> of <m> points not
  // analysed: t = ... (<stage> <status>[: <quantity>]), ..." (the first five).
  core::summary summary() const;

  std::string full_report() const;
  // points, assembled, failed (count), failures (first 100: t, stage, status), stages (name,
  // kind, description, mobility {kind, description, limits}, dead_points, out_of_range,
  // min/max_transmission_deg), final (the last sample's outputs of the last stage).
  nlohmann::json to_json() const;
  // t, input, input_rate, input_accel, then per stage and output <out>, <out>_dot, <out>_ddot
  // (prefixed "<stage>." in a chain of several), mu (transmission angle, rad) and status
  // (0 ok, 1 out_of_range, 2 dead_point, 3 no_input).
  std::string csv() const;
  // The angle outputs and transmission angles (degrees) against t.
  std::string svg() const;
};

}  // namespace kinevo::analysis
