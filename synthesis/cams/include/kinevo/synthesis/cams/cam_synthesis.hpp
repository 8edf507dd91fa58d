// `kinevo synth cam`: a cam problem (cam_file.hpp) solved for its follower, with the source's
// own design beside it, as a result that reports itself (text, JSON, CSV and SVG files).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/synthesis/cams/cam_analysis.hpp"
#include "kinevo/synthesis/cams/cam_drawing.hpp"
#include "kinevo/synthesis/cams/cam_file.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"

namespace kinevo::synthesis {

struct cam_figure {
  std::string name;  // JSON key, snake_case
  double value = 0.0;
  std::string unit;  // "deg", "mm", ... (shown in the text report)
};

struct cam_result {
  std::string follower;  // translating_roller, oscillating_roller, flat_face
  std::string sense;     // of the cam's rotation
  bool found = false;    // a design meeting every bound in the box
  std::string status;
  // ok when found, else infeasible with `status` as its message (no design meets the bounds).
  core::summary summary;
  std::vector<cam_figure> design;  // the design found and its checks
  std::vector<cam_figure> source;  // the source's method on the same problem
  std::vector<std::string> notes;  // findings: what the source's design breaks, what binds
  cam_analysis analysis;           // of the design found (empty when none)
  cam_drawing drawing;
  // s = position_offset + sigma in cam_programme.csv: c for the translating follower, r_b for the
  // flat face, the arm angle c (radians) for the oscillating one.
  double position_offset = 0.0;
  double seconds = 0.0;

  std::string full_report() const;
  nlohmann::json to_json() const;
  // cam_profile.csv, cam_programme.csv and cam.svg of the design found (nothing when none).
  void save_files(output_folder& folder) const;
};

cam_result synthesize_cam(const cam_problem& problem);

}  // namespace kinevo::synthesis
