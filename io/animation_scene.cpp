#include "kinevo/io/animation_scene.hpp"

#include <algorithm>
#include <limits>

namespace kinevo::io {

namespace {

struct panel_extent {
  double lo_x = std::numeric_limits<double>::infinity(), hi_x = -lo_x, lo_y = lo_x, hi_y = -lo_x;
};

panel_extent extent_of(const animation_panel& p) {
  panel_extent e;
  for (const auto& f : p.frames) {
    for (std::size_t i = 0; i + 1 < f.size(); i += 2) {
      e.lo_x = std::min(e.lo_x, f[i]);
      e.hi_x = std::max(e.hi_x, f[i]);
      e.lo_y = std::min(e.lo_y, f[i + 1]);
      e.hi_y = std::max(e.hi_y, f[i + 1]);
    }
  }
  return e;
}

// A ground-styled point that stays where it is in every frame: drawn as a ground anchor.
bool fixed_ground(const animation_panel& p, std::size_t i) {
  if (p.point_styles[i] != point_style::ground) return false;
  const auto& first = p.frames.front();
  return std::all_of(p.frames.begin(), p.frames.end(), [&](const auto& f) {
    return f[2 * i] == first[2 * i] && f[2 * i + 1] == first[2 * i + 1];
  });
}

// Adds one panel's points (as particles, or ground anchors) and links to the scene.
void add_panel(const animation_panel& p, const std::array<double, 3>& shift, bool named_by_panel,
               motion_scene& s) {
  std::vector<scene_point> at(p.point_names.size());
  std::vector<std::size_t> moving;
  for (std::size_t i = 0; i < p.point_names.size(); ++i) {
    if (fixed_ground(p, i)) {
      at[i].at = {p.frames.front()[2 * i] + shift[0], p.frames.front()[2 * i + 1] + shift[1], 0.0};
      continue;
    }
    at[i].solid = static_cast<int>(s.solids.size());
    scene_solid solid;
    solid.name = named_by_panel ? p.point_names[i] + " (" + p.title + ")" : p.point_names[i];
    solid.particle = true;
    solid.shape = solid_shape::sphere;
    solid.sized_by = "a point of the drawing";
    s.solids.push_back(solid);
    moving.push_back(i);
  }
  for (std::size_t k = 0; k < p.frames.size(); ++k) {
    for (const std::size_t i : moving) {
      s.poses[k].insert(s.poses[k].end(),
                        {p.frames[k][2 * i] + shift[0], p.frames[k][2 * i + 1] + shift[1], 0.0});
    }
  }
  for (const auto& l : p.links) {
    const std::size_t n = l.points.size();
    const std::size_t ends = l.closed && n > 2 ? n : n - (n > 0 ? 1 : 0);
    for (std::size_t e = 0; e < ends; ++e) {
      scene_link link;
      link.name = named_by_panel ? l.name + " (" + p.title + ")" : l.name;
      link.i = at[static_cast<std::size_t>(l.points[e])];
      link.j = at[static_cast<std::size_t>(l.points[(e + 1) % n])];
      s.links.push_back(link);
    }
  }
}

}  // namespace

motion_scene animation_scene(const animation& a) {
  a.validate();
  motion_scene s;
  s.title = a.title;
  s.planar = true;
  s.up = {a.up[0], a.up[1], 0.0};
  s.times = a.times;
  s.time_label = a.time_label;
  s.time_unit = a.time_unit;
  s.length_unit = a.length_unit;
  s.poses.assign(a.times.size(), {});
  double right = 0.0, left = 0.0;  // the edges of the panels placed so far
  const bool rightwards = a.up[1] >= 0.0;
  for (std::size_t k = 0; k < a.panels.size(); ++k) {
    const auto& p = a.panels[k];
    const panel_extent e = extent_of(p);
    const bool empty = !(e.hi_x >= e.lo_x);
    const double width = empty ? 0.0 : e.hi_x - e.lo_x, height = empty ? 0.0 : e.hi_y - e.lo_y;
    // A gap of half the panel's size between panels.
    const double gap = 0.5 * std::max({width, height, 1e-9});
    // Panels follow one another to the right of the screen: +x, or -x when the page's up is -y
    // (the camera turned half a turn).
    double dx = 0.0;
    if (k != 0 && !empty) dx = rightwards ? right + gap - e.lo_x : left - gap - e.hi_x;
    const std::array<double, 3> shift{dx, 0.0, 0.0};
    if (!empty) {
      right = std::max(k == 0 ? e.hi_x : right, e.hi_x + shift[0]);
      left = std::min(k == 0 ? e.lo_x : left, e.lo_x + shift[0]);
    }
    add_panel(p, shift, a.panels.size() > 1, s);
    scene_panel panel;
    panel.title = p.title;
    panel.shift = shift;
    panel.caption_at = {empty ? 0.0 : 0.5 * (e.lo_x + e.hi_x) + shift[0],
                        empty ? 0.0 : e.hi_y + 0.15 * std::max(width, height), 0.0};
    s.panels.push_back(panel);
  }
  s.validate();
  return s;
}

}  // namespace kinevo::io
