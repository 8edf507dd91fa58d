// The motion page of `kinevo animate` and `simulate --animate`: a run on its model, written by
// io::save_motion_page (the 3D viewer, or the 2D page without three.js).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/motion_page.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"

namespace kinevo::cli {

using io::motion_page_report;
using io::motion_view;

// Writes `path` atomically. Throws io::input_error naming `run_name` when the run does not fit
// the drawing (a missing column, a non-finite value) or a trail names nothing drawn.
motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const io::csv_table& run, const std::string& run_name,
                                     const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path);
// The same from the run in the drawing's coordinates (simulate --animate: the trajectory it
// recorded), made when the page is (once).
motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const std::function<mechanics::drawing_motion()>& run,
                                     const std::string& run_name, const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path);

}  // namespace kinevo::cli
