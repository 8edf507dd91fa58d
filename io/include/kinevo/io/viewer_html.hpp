// The 3D viewer page: one self-contained HTML file that plays a motion_scene with three.js
// (Debian's libjs-three, its three.min.js and OrbitControls.js inlined; nothing fetched from
// the network). Orbit camera (drag: turn, wheel: zoom, right drag: pan), floor grid and world
// axes with units, labels on demand, trails, play/pause, time slider and speed (docs/animation.md).
// The page reads #t=0.5 (show that time paused), &labels=1 and &trail=NAME from its address and,
// once drawn paused, writes what it drew into <script id="scene-state"> (window.kinevo_scene):
// each solid's position and rotation, each joint's point, the camera's view-projection matrix and
// the canvas's place, so a headless browser can check it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "kinevo/io/motion_scene.hpp"

namespace kinevo::io {

// The two scripts the page inlines: three.js and its orbit control.
struct three_js_files {
  std::filesystem::path library, orbit_controls;
};

// Where three.js is: $KINEVO_THREE_JS (a three.min.js; OrbitControls.js is looked for under
// examples/js/controls/ beside it) or Debian's /usr/share/javascript/three. nullopt when either
// file is missing (the caller then writes the 2D page and says so).
std::optional<three_js_files> find_three_js();

// The page's text (the scene validated first). Throws io_error when a script cannot be read.
std::string viewer_html(const motion_scene& scene, const three_js_files& three);
// Writes the page atomically (io/atomic_file.hpp).
void save_viewer_html(const motion_scene& scene, const three_js_files& three,
                      const std::filesystem::path& path);

}  // namespace kinevo::io
