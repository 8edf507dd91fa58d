#include "kinevo/io/motion_page.hpp"

#include <fmt/format.h>

#include "kinevo/io/animation_scene.hpp"
#include "kinevo/io/viewer_html.hpp"

namespace kinevo::io {

motion_page_report save_motion_page(const std::function<motion_scene()>& scene,
                                    const std::function<animation()>& flat, motion_view asked,
                                    const std::filesystem::path& path) {
  const auto three = asked == motion_view::three_d ? find_three_js() : std::nullopt;
  if (asked == motion_view::three_d && !three) {
    fmt::print(stderr,
               "kinevo: warning: three.js not found (Debian package libjs-three, "
               "/usr/share/javascript/three/three.min.js, or $KINEVO_THREE_JS): {} is the 2D "
               "page instead of the 3D viewer\n",
               path.string());
  }
  motion_page_report r;
  if (three) {
    const motion_scene s = scene();
    save_viewer_html(s, *three, path);
    r.text = s.report();
    r.json = s.to_json();
    r.view = motion_view::three_d;
  } else {
    const animation a = flat();
    save_animation_html(a, path);
    r.text = a.report();
    r.json = a.to_json();
    r.view = motion_view::two_d;
  }
  const bool three_d = r.view == motion_view::three_d;
  r.json["view"] = three_d ? "3d" : "2d";
  const auto bytes = std::filesystem::file_size(path);
  r.json["bytes"] = bytes;
  r.text +=
      fmt::format(", {} view, {:.2f} MB", three_d ? "3D" : "2D", static_cast<double>(bytes) / 1e6);
  return r;
}

motion_page_report save_motion_page(const animation& a, const std::filesystem::path& path) {
  return save_motion_page([&] { return animation_scene(a); }, [&] { return a; },
                          motion_view::three_d, path);
}

}  // namespace kinevo::io
