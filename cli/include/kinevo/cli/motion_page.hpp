// The motion page of `kinevo animate` and `simulate --animate`: the 3D viewer
// (io/viewer_html.hpp) when three.js is installed, else the 2D SVG page (io/animation_html.hpp)
// with a warning on stderr naming the missing package, so a page is always written.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"

namespace kinevo::cli {

enum class motion_view { three_d, two_d };

struct motion_page_report {
  nlohmann::json json;  // frames, time span, view ("3d" or "2d"), bytes, solids or panels
  std::string text;     // one line
};

// Writes `path` atomically. Throws io::input_error naming `run_name` when the run does not fit
// the drawing (a missing column, a non-finite value) or a trail names nothing drawn.
motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const io::csv_table& run, const std::string& run_name,
                                     const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path);

}  // namespace kinevo::cli
