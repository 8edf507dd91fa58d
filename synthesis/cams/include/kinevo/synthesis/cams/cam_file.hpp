// The cam problem file `kinevo synth cam` reads (TOML): the follower, the displacement programme
// as [[phase]] tables, the bounds and the search box. See examples/cam_*.toml and docs/cams.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "kinevo/synthesis/cams/cam_flat_face.hpp"
#include "kinevo/synthesis/cams/cam_motion_programme.hpp"
#include "kinevo/synthesis/cams/cam_oscillating_roller.hpp"
#include "kinevo/synthesis/cams/cam_translating_roller.hpp"

namespace kinevo::synthesis {

enum class cam_follower { translating_roller, oscillating_roller, flat_face };

struct cam_problem {
  std::string source;  // file name, for messages
  cam_follower follower = cam_follower::translating_roller;
  std::string unit = "mm";  // of lengths (the oscillating follower's are in units of a)
  std::optional<cam_motion_programme> programme;
  translating_roller_options translating;
  oscillating_roller_options oscillating;
  flat_face_options flat_face;
};

// Throws io::input_error naming the file, the line and the field.
cam_problem parse_cam_file(const std::string& text, const std::string& source);
cam_problem read_cam_file(const std::filesystem::path& path);

}  // namespace kinevo::synthesis
