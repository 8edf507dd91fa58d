#include "kinevo/cli/motion_page.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/viewer_html.hpp"

namespace kinevo::cli {

motion_page_report write_motion_page(const mechanics::model_drawing& drawing,
                                     const io::csv_table& run, const std::string& run_name,
                                     const std::string& title,
                                     const std::vector<std::string>& trails, motion_view view,
                                     const std::string& path) {
  const auto three = view == motion_view::three_d ? io::find_three_js() : std::nullopt;
  if (view == motion_view::three_d && !three) {
    fmt::print(stderr,
               "kinevo: warning: three.js not found (Debian package libjs-three, "
               "/usr/share/javascript/three/three.min.js, or $KINEVO_THREE_JS): {} is the 2D "
               "page instead of the 3D viewer\n",
               path);
  }
  motion_page_report r;
  try {
    if (three) {
      io::motion_scene scene = mechanics::animate_scene(drawing, run, title);
      for (const auto& name : trails) {
        const auto named = [&](const auto& e) { return e.name == name; };
        if (std::none_of(scene.solids.begin(), scene.solids.end(), named) &&
            std::none_of(scene.joints.begin(), scene.joints.end(), named)) {
          throw io::input_error(
              fmt::format("--trail: '{}' is no body, particle or joint of the model", name));
        }
      }
      scene.trails = trails;
      scene.validate();
      io::save_viewer_html(scene, *three, path);
      r.text = scene.report();
      r.json = {{"frames", scene.times.size()},
                {"start", scene.times.front()},
                {"end", scene.times.back()},
                {"solids", scene.solids.size()},
                {"joints", scene.joints.size()},
                {"links", scene.links.size()},
                {"view", "3d"}};
    } else {
      const io::animation anim = mechanics::animate_run(drawing, run, title);
      anim.validate();
      io::save_animation_html(anim, path);
      r.text = anim.report();
      r.json = anim.to_json();
      r.json["view"] = "2d";
    }
  } catch (const io::input_error& e) {
    // The scene's checks name what is wrong, not the run it came from.
    throw io::input_error(fmt::format("{}: {}", run_name, e.what()));
  }
  const auto bytes = std::filesystem::file_size(path);
  r.json["bytes"] = bytes;
  r.text += fmt::format(", {} view, {:.2f} MB", three ? "3D" : "2D", bytes / 1e6);
  return r;
}

}  // namespace kinevo::cli
