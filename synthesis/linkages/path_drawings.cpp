// Pictures and the animation of a four-bar path generator (declared in drawings.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "kinevo/io/svg_plot.hpp"
#include "kinevo/synthesis/linkages/detail/drawings.hpp"
#include "kinevo/synthesis/linkages/detail/linkage_drawing.hpp"

namespace kinevo::synthesis {

namespace {

// The curve as polylines split where the loop does not close.
void draw_path_curve(io::svg_canvas& c, const path_curve& curve, const std::string& color) {
  std::vector<double> x, y;
  const auto flush = [&] {
    if (x.size() > 1) c.polyline(x, y, color, 1.5);
    x.clear(), y.clear();
  };
  for (std::size_t i = 0; i < curve.x.size(); ++i) {
    if (!std::isfinite(curve.x[i])) {
      flush();
      continue;
    }
    x.push_back(curve.x[i]);
    y.push_back(curve.y[i]);
  }
  flush();
}

void draw_path_points(io::svg_canvas& c, const path_problem& p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    c.circle(p.x[i], p.y[i], 3.5, "#d62728", "#d62728");
    c.mark_occupied(p.x[i], p.y[i], 3.5);
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    c.label(p.x[i], p.y[i], std::to_string(i + 1), 11, "#a50f15");
  }
}

}  // namespace

void save_path_curve_drawing(const std::filesystem::path& path, const path_problem& p,
                             const path_curve& curve) {
  drawing_extent b;
  for (std::size_t i = 0; i < p.size(); ++i) b.add(p.x[i], p.y[i]);
  for (std::size_t i = 0; i < curve.x.size(); ++i) b.add(curve.x[i], curve.y[i]);
  auto c = b.canvas();
  c.title(fmt::format("Coupler curve through {} precision points", p.size()));
  draw_path_curve(c, curve, "#1f77b4");
  draw_path_points(c, p);
  finish_drawing(
      c, {{"#1f77b4", "coupler curve", 1.5}, {"#d62728", "n: precision point", 2.0, true}}, path);
}

void save_path_linkage_drawing(const std::filesystem::path& path, const path_problem& p,
                               const path_design& d, const path_curve& curve) {
  drawing_extent b;
  std::vector<path_position> shown;
  for (const double th : d.input) {
    if (const auto pos = path_position_at(d.linkage, th, d.branch)) shown.push_back(*pos);
  }
  for (const auto& q : shown) {
    for (const auto& v : {q.o2, q.o4, q.a, q.b, q.c}) b.add(v.x(), v.y());
  }
  for (std::size_t i = 0; i < p.size(); ++i) b.add(p.x[i], p.y[i]);
  for (std::size_t i = 0; i < curve.x.size(); ++i) b.add(curve.x[i], curve.y[i]);
  auto c = b.canvas();
  c.title(fmt::format("Four-bar path generator at {} precision points", shown.size()));
  draw_path_curve(c, curve, "#9ecae1");
  for (std::size_t n = shown.size(); n-- > 0;) {
    const auto& q = shown[n];
    const bool first = n == 0;
    draw_link(c, q.o2.x(), q.o2.y(), q.a.x(), q.a.y(), input_link_colors, first, 1.0);
    draw_link(c, q.a.x(), q.a.y(), q.b.x(), q.b.y(), coupler_link_colors, first, 1.0);
    draw_link(c, q.a.x(), q.a.y(), q.c.x(), q.c.y(), coupler_link_colors, first, 1.0);
    draw_link(c, q.b.x(), q.b.y(), q.c.x(), q.c.y(), coupler_link_colors, first, 1.0);
    draw_link(c, q.o4.x(), q.o4.y(), q.b.x(), q.b.y(), {"#ff7f0e", "#fdd0a2"}, first, 1.0);
  }
  if (!shown.empty()) {
    const auto& q = shown.front();
    c.line(q.o2.x(), q.o2.y(), q.o4.x(), q.o4.y(), "#555555", 3.0);
    draw_ground_pivots(c, q.o2.x(), q.o2.y(), q.o4.x(), q.o4.y());
  }
  draw_path_points(c, p);
  if (!shown.empty()) {
    const auto& q = shown.front();
    label_ground_pivots(c, q.o2.x(), q.o2.y(), q.o4.x(), q.o4.y());
  }
  finish_drawing(c,
                 {{"#555555", "frame r1", 3.0},
                  {"#1f77b4", "input link r2", 3.0},
                  {"#2ca02c", "coupler r3 with its point", 3.0},
                  {"#ff7f0e", "output link r4", 3.0},
                  {"#9ecae1", "coupler curve; other positions pale", 1.2},
                  {"#d62728", "n: precision point", 2.0, true}},
                 path);
}

io::animation path_animation(const path_problem& p, const path_design& d, const path_curve& curve) {
  io::animation a;
  const path_linkage& l = d.linkage;
  a.title =
      fmt::format("Four-bar path generator r1 = {:.6g}, r2 = {:.6g}, r3 = {:.6g}, r4 = {:.6g}",
                  l.r1, l.r2, l.r3, l.r4);
  a.time_label = "input";
  a.time_unit = "deg";
  a.length_unit = "table units";  // the precision points' coordinates carry no unit
  io::animation_panel panel;
  panel.title = fmt::format("input over the motion through the {} points", p.size());
  panel.point_names = {"O2", "O4", "A", "B", "C"};
  panel.point_styles = {io::point_style::ground, io::point_style::ground, io::point_style::joint,
                        io::point_style::joint, io::point_style::joint};
  panel.links = {{"input", {0, 2}, false}, {"coupler", {2, 3, 4}, true}, {"output", {1, 3}, false}};
  // The clock must increase: the swept angle from the first point, whichever the direction.
  for (std::size_t i = 0; i < curve.input.size(); ++i) {
    const auto q = path_position_at(l, curve.input[i], d.branch);
    if (!q) continue;
    add_animation_frame(a, panel,
                        std::abs(curve.input[i] - curve.input.front()) * 180.0 / std::numbers::pi,
                        {q->o2.x(), q->o2.y(), q->o4.x(), q->o4.y(), q->a.x(), q->a.y(), q->b.x(),
                         q->b.y(), q->c.x(), q->c.y()});
  }
  a.panels.push_back(std::move(panel));
  return a;
}

}  // namespace kinevo::synthesis
