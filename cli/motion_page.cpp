#include "kinevo/cli/motion_page.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::cli {

namespace {

void check_trails(const io::motion_scene& scene, const std::vector<std::string>& trails) {
  for (const auto& name : trails) {
    const auto named = [&](const auto& e) { return e.name == name; };
    if (std::none_of(scene.solids.begin(), scene.solids.end(), named) &&
        std::none_of(scene.joints.begin(), scene.joints.end(), named)) {
      throw io::input_error(
          fmt::format("--trail: '{}' is no body, particle or joint of the model", name));
    }
  }
}

}  // namespace

motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const io::csv_table& run, const std::string& run_name,
                                     const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path) {
  return write_motion_page(
      drawing, [&] { return drawing.motion(run); }, run_name, title, trails, view, path);
}

motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const std::function<mechanics::drawing_motion()>& run,
                                     const std::string& run_name, const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path) {
  const auto scene = [&] {
    io::motion_scene s = mechanics::animate_scene(drawing, run(), title);
    check_trails(s, trails);
    s.trails = trails;
    s.validate();
    return s;
  };
  const auto flat = [&] {
    io::animation a = mechanics::animate_run(drawing, run(), title);
    a.validate();
    return a;
  };
  try {
    return io::save_motion_page(scene, flat, view, path);
  } catch (const io::output_error&) {
    throw;
  } catch (const io::input_error& e) {
    // The scene's checks name what is wrong, not the run it came from.
    throw io::input_error(fmt::format("{}: {}", run_name, e.what()));
  }
}

}  // namespace kinevo::cli
