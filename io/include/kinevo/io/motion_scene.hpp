// What the 3D viewer page (io/viewer_html.hpp) draws: the solids of a mechanism (bodies sized
// from their inertia, particles), its joints with their axes, rods and springs, the points fixed
// to ground, and each solid's pose at every frame of a run. Planar models are laid in the
// scene's XY plane (z = 0), their bodies turning about z.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kinevo::io {

// A solid's shape in its own frame: a box (size = full edges along x, y, z), a cylinder (size =
// diameter, diameter, length along z) or a sphere (size = diameter x3).
enum class solid_shape { box, cylinder, sphere };

struct scene_solid {
  std::string name;
  bool particle = false;  // a point mass (sphere), else a rigid body
  solid_shape shape = solid_shape::box;
  std::array<double, 3> size{0.0, 0.0, 0.0};
  // The shape's axes in the solid's frame (the principal axes of a full inertia matrix): a unit
  // quaternion w, x, y, z.
  std::array<double, 4> shape_rotation{1.0, 0.0, 0.0, 0.0};
  std::string sized_by;  // why this size, e.g. "cylinder of equal inertia"
};

// A point of a joint, spring or rod: on solid `solid` (its frame), or fixed to ground (-1,
// global coordinates).
struct scene_point {
  int solid = -1;
  std::array<double, 3> at{0.0, 0.0, 0.0};
};

struct scene_joint {
  std::string name, type;  // type as the model file spells it (revolute, spherical, ...)
  scene_point i, j;
  // The joint's axis on body i (global when i is ground); zero when the joint has none.
  std::array<double, 3> axis{0.0, 0.0, 0.0};
};

// A line between two points: a rod (distance joint) or a spring (spring_damper force).
struct scene_link {
  std::string name;
  bool spring = false;
  scene_point i, j;
};

// A group of solids drawn beside the others (a panel of a 2D animation, io/animation_scene.hpp):
// its title, shown at `caption_at`, and the shift added to its positions to place it there.
struct scene_panel {
  std::string title;
  std::array<double, 3> shift{0.0, 0.0, 0.0}, caption_at{0.0, 0.0, 0.0};
};

struct motion_scene {
  std::string title;
  bool planar = false;
  std::array<double, 3> up{0.0, 0.0, 1.0};  // against gravity (or z: spatial, y: planar)
  std::vector<double> times;                // strictly increasing
  std::string time_label = "t", time_unit = "s", length_unit = "m";
  std::vector<scene_solid> solids;
  std::vector<scene_joint> joints;
  std::vector<scene_link> links;
  // poses[k] holds, for each solid, x y phi (planar) or x y z e0 e1 e2 e3 (spatial) at times[k].
  std::vector<std::vector<double>> poses;
  // Names of solids or joints whose paths the page draws from the start (others on demand).
  std::vector<std::string> trails;
  std::vector<scene_panel> panels;  // empty for a model's run (one mechanism, unshifted)

  std::size_t pose_size() const { return planar ? 3 : 7; }
  // Throws std::invalid_argument naming what is inconsistent (sizes, indices, non-finite or
  // negative sizes and poses, an unknown trail name).
  void validate() const;
  std::string report() const;  // one line: frames, time span, solids, joints
  // What the page shows (for a command's report): frames, time span, solids, joints, links.
  nlohmann::json to_json() const;
};

}  // namespace kinevo::io
