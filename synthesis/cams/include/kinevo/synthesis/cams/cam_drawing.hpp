// SVG of a cam: the profile, the pitch curve, the base circle and the follower at psi = 0 (where
// the cam frame is the fixed frame), with a title, a scale bar and a legend.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::synthesis {

struct cam_drawing {
  std::string title;
  std::string unit;                      // of lengths, for the scale bar ("mm")
  std::vector<Eigen::Vector2d> profile;  // closed
  std::vector<Eigen::Vector2d> pitch;    // closed; empty for a flat face (contact = profile)
  double base_radius = 0.0;              // circle about the cam centre
  // The follower: segments (stem, arm, face), an optional roller and an optional pivot.
  std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> follower;
  Eigen::Vector2d roller_centre = Eigen::Vector2d::Zero();
  double roller_radius = 0.0;  // 0: no roller
  bool has_pivot = false;
  Eigen::Vector2d pivot = Eigen::Vector2d::Zero();
};

void save_cam_drawing(const std::filesystem::path& path, const cam_drawing& d);

}  // namespace kinevo::synthesis
