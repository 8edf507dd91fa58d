// The one writer of every motion page (kinevo animate, simulate --animate, synth fourbar
// --animate, the synthesis's path_animation.html, the study's motion.html): the 3D viewer
// (io/viewer_html.hpp) when three.js is installed, else the 2D SVG page (io/animation_html.hpp)
// with a warning on stderr naming the missing package, so that a page is always written
// (docs/animation.md).
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/motion_scene.hpp"

namespace kinevo::io {

enum class motion_view { three_d, two_d };

struct motion_page_report {
  motion_view view = motion_view::three_d;
  nlohmann::json json;  // the scene's or the animation's to_json(), "view" ("3d"/"2d"), "bytes"
  std::string text;     // one line
};

// Writes `path` atomically: the 3D page of `scene()` when `asked` is three_d and three.js is
// found, else the 2D page of `flat()` (a warning on stderr when 3D was asked). Only the page
// written is built. Exceptions of the builders (io::input_error) pass through.
motion_page_report save_motion_page(const std::function<motion_scene()>& scene,
                                    const std::function<animation()>& flat, motion_view asked,
                                    const std::filesystem::path& path);
// A 2D animation: in 3D through io::animation_scene, else the 2D page of `a` itself.
motion_page_report save_motion_page(const animation& a, const std::filesystem::path& path);

}  // namespace kinevo::io
