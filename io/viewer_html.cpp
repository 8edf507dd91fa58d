#include "kinevo/io/viewer_html.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/detail/html_page.hpp"
#include "kinevo/io/detail/viewer_script.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::io {

namespace {

const char* shape_name(solid_shape s) {
  switch (s) {
    case solid_shape::box:
      return "box";
    case solid_shape::cylinder:
      return "cylinder";
    case solid_shape::sphere:
      return "sphere";
  }
  return "box";
}

nlohmann::json point_json(const scene_point& p) {
  return {{"solid", p.solid}, {"at", p.at}};
}

// The scene without its poses (written apart, with fewer digits: see scene_json).
nlohmann::json scene_frame_json(const motion_scene& s) {
  nlohmann::json solids = nlohmann::json::array(), joints = nlohmann::json::array(),
                 links = nlohmann::json::array();
  for (const auto& b : s.solids) {
    solids.push_back({{"name", b.name},
                      {"particle", b.particle},
                      {"shape", shape_name(b.shape)},
                      {"size", b.size},
                      {"rot", b.shape_rotation},
                      {"sized_by", b.sized_by}});
  }
  for (const auto& j : s.joints) {
    joints.push_back({{"name", j.name},
                      {"type", j.type},
                      {"i", point_json(j.i)},
                      {"j", point_json(j.j)},
                      {"axis", j.axis}});
  }
  for (const auto& l : s.links) {
    links.push_back(
        {{"name", l.name}, {"spring", l.spring}, {"i", point_json(l.i)}, {"j", point_json(l.j)}});
  }
  nlohmann::json panels = nlohmann::json::array();
  for (const auto& p : s.panels) {
    panels.push_back({{"title", p.title}, {"shift", p.shift}, {"caption_at", p.caption_at}});
  }
  return {{"title", s.title},
          {"planar", s.planar},
          {"up", s.up},
          {"times", s.times},
          {"label", s.time_label},
          {"unit", s.time_unit},
          {"length_unit", s.length_unit},
          {"solids", solids},
          {"joints", joints},
          {"links", links},
          {"trails", s.trails},
          {"panels", panels}};
}

// The poses with 9 significant digits (a part in 1e9 of the motion: far below a pixel, and
// about half the size of the 17 digits a double needs to round-trip).
std::string poses_json(const motion_scene& s) {
  std::string out = "[";
  for (std::size_t k = 0; k < s.poses.size(); ++k) {
    out += k ? ",[" : "[";
    for (std::size_t i = 0; i < s.poses[k].size(); ++i) {
      if (i) out += ',';
      out += fmt::format("{:.9g}", s.poses[k][i]);
    }
    out += ']';
  }
  return out + "]";
}

std::string scene_json(const motion_scene& s) {
  std::string text = scene_frame_json(s).dump();
  text.pop_back();  // the closing brace: the poses follow
  return text + ",\"poses\":" + poses_json(s) + "}";
}

std::string read_script(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty()) {
    throw input_error(
        fmt::format("{}: cannot read three.js for the 3D page (Debian package "
                    "libjs-three, or $KINEVO_THREE_JS)",
                    path.string()));
  }
  return text.str();
}

}  // namespace

std::optional<three_js_files> find_three_js() {
  std::filesystem::path library = "/usr/share/javascript/three/three.min.js";
  if (const char* env = std::getenv("KINEVO_THREE_JS"); env != nullptr && *env != '\0') {
    library = env;
  }
  const std::filesystem::path controls =
      library.parent_path() / "examples" / "js" / "controls" / "OrbitControls.js";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(library, ec) ||
      !std::filesystem::is_regular_file(controls, ec)) {
    return std::nullopt;
  }
  return three_js_files{library, controls};
}

std::string viewer_html(const motion_scene& scene, const three_js_files& three) {
  scene.validate();
  html_page_parts page;
  page.title = scene.title;
  page.style = viewer_style;
  page.extra_controls =
      "<label><input id=\"show-labels\" type=\"checkbox\"> labels</label>\n"
      "<button id=\"home\">reset view</button>\n"
      "<details><summary>trails</summary><div id=\"trails\"><div id=\"trail-list\"></div>"
      "</div></details>\n";
  page.body =
      "<div id=\"error\"></div>\n<div id=\"view\"><div id=\"labels\"></div></div>\n"
      "<div id=\"legend\"></div>\n"
      "<script type=\"application/json\" id=\"scene-state\"></script>";
  page.data_id = "scene-data";
  page.data = scene_json(scene);
  page.scripts = {read_script(three.library), read_script(three.orbit_controls), viewer_script};
  return html_page(page);
}

void save_viewer_html(const motion_scene& scene, const three_js_files& three,
                      const std::filesystem::path& path) {
  write_text_atomically(path, viewer_html(scene, three));
}

}  // namespace kinevo::io
