#include "kinevo/io/viewer_html.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/detail/markup_escape.hpp"
#include "kinevo/io/detail/viewer_script.hpp"

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
          {"trails", s.trails}};
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

// Text inside a <script> element: "</" would end the element early.
std::string inside_script(std::string text) {
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3)) {
    text.replace(at, 2, "<\\/");
  }
  return text;
}

std::string read_script(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in || text.str().empty()) {
    throw std::runtime_error(
        fmt::format("cannot read {} (three.js for the 3D page)", path.string()));
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
  const std::string title = markup_escape(scene.title);
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<title>{0}</title>\n<style>{1}</style>\n</head>\n<body>\n<h1>{0}</h1>\n"
      "<div id=\"controls\"><button id=\"play\">Play</button>\n"
      "<input id=\"time\" type=\"range\" min=\"0\" step=\"1\" value=\"0\">\n"
      "<span id=\"clock\"></span>\n<label>speed <select id=\"speed\">"
      "<option value=\"0.1\">0.1x</option><option value=\"0.25\">0.25x</option>"
      "<option value=\"0.5\">0.5x</option><option value=\"1\" selected>1x</option>"
      "<option value=\"2\">2x</option><option value=\"4\">4x</option></select></label>\n"
      "<label><input id=\"show-labels\" type=\"checkbox\"> labels</label>\n"
      "<button id=\"home\">reset view</button>\n"
      "<details><summary>trails</summary><div id=\"trails\"><div id=\"trail-list\"></div>"
      "</div></details></div>\n"
      "<div id=\"error\"></div>\n<div id=\"view\"><div id=\"labels\"></div></div>\n"
      "<div id=\"legend\"></div>\n"
      "<script type=\"application/json\" id=\"scene-data\">{2}</script>\n"
      "<script type=\"application/json\" id=\"scene-state\"></script>\n"
      "<script>\n{3}\n</script>\n<script>\n{4}\n</script>\n<script>{5}</script>\n"
      "</body>\n</html>\n",
      title, viewer_style, inside_script(scene_json(scene)),
      inside_script(read_script(three.library)), inside_script(read_script(three.orbit_controls)),
      viewer_script);
}

void save_viewer_html(const motion_scene& scene, const three_js_files& three,
                      const std::filesystem::path& path) {
  write_text_atomically(path, viewer_html(scene, three));
}

}  // namespace kinevo::io
