#include "kinevo/io/motion_scene.hpp"

#include <fmt/format.h>

#include "kinevo/io/errors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace kinevo::io {

namespace {

void check_scene_point(const scene_point& p, std::size_t solids, const std::string& what) {
  if (p.solid < -1 || (p.solid >= 0 && static_cast<std::size_t>(p.solid) >= solids)) {
    throw input_error(fmt::format("motion scene: {} names solid {} of {}", what, p.solid, solids));
  }
  for (const double v : p.at) {
    if (!std::isfinite(v)) {
      throw input_error(fmt::format("motion scene: {} has a non-finite point", what));
    }
  }
}

}  // namespace

void motion_scene::validate() const {
  if (times.empty()) throw input_error("motion scene: no frames");
  for (std::size_t k = 1; k < times.size(); ++k) {
    if (!(times[k] > times[k - 1])) {
      throw input_error(
          fmt::format("motion scene: times not increasing at frame {} (t = {})", k, times[k]));
    }
  }
  if (length_unit.empty()) throw input_error("motion scene: 'length_unit' is empty");
  if (poses.size() != times.size()) {
    throw input_error(
        fmt::format("motion scene: {} poses for {} times", poses.size(), times.size()));
  }
  for (const auto& s : solids) {
    for (const double v : s.size) {
      if (!std::isfinite(v) || v < 0.0) {
        throw input_error(fmt::format("motion scene: solid '{}' has size {}", s.name, v));
      }
    }
  }
  for (std::size_t k = 0; k < poses.size(); ++k) {
    if (poses[k].size() != solids.size() * pose_size()) {
      throw input_error(fmt::format("motion scene: frame {} has {} values for {} solids", k,
                                    poses[k].size(), solids.size()));
    }
    if (!std::all_of(poses[k].begin(), poses[k].end(), [](double v) { return std::isfinite(v); })) {
      throw input_error(fmt::format("motion scene: frame {} has a non-finite coordinate", k));
    }
  }
  for (const auto& j : joints) {
    check_scene_point(j.i, solids.size(), "joint '" + j.name + "'");
    check_scene_point(j.j, solids.size(), "joint '" + j.name + "'");
  }
  for (const auto& l : links) {
    check_scene_point(l.i, solids.size(), "link '" + l.name + "'");
    check_scene_point(l.j, solids.size(), "link '" + l.name + "'");
  }
  for (const auto& name : trails) {
    const bool known =
        std::any_of(solids.begin(), solids.end(), [&](const auto& s) { return s.name == name; }) ||
        std::any_of(joints.begin(), joints.end(), [&](const auto& j) { return j.name == name; });
    if (!known) {
      throw input_error(
          fmt::format("motion scene: trail '{}' names no body, particle or joint", name));
    }
  }
}

nlohmann::json motion_scene::to_json() const {
  nlohmann::json j = {{"frames", times.size()},
                      {"time", time_label},
                      {"time_unit", time_unit},
                      {"length_unit", length_unit},
                      {"start", times.empty() ? 0.0 : times.front()},
                      {"end", times.empty() ? 0.0 : times.back()},
                      {"solids", solids.size()},
                      {"joints", joints.size()},
                      {"links", links.size()}};
  if (!panels.empty()) {
    j["panels"] = nlohmann::json::array();
    for (const auto& p : panels) j["panels"].push_back(p.title);
  }
  return j;
}

std::string motion_scene::report() const {
  return fmt::format("{}: {} frames, {} = {:.6g} .. {:.6g} {}, {} solids, {} joints, {} links ({})",
                     title, times.size(), time_label, times.empty() ? 0.0 : times.front(),
                     times.empty() ? 0.0 : times.back(), time_unit, solids.size(), joints.size(),
                     links.size(), planar ? "planar, in the XY plane" : "spatial");
}

}  // namespace kinevo::io
