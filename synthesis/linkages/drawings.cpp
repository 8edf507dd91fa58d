#include "kinevo/synthesis/linkages/detail/drawings.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "kinevo/io/svg_plot.hpp"
#include "kinevo/synthesis/linkages/detail/linkage_drawing.hpp"

namespace kinevo::synthesis {

namespace {

const char* palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};

}  // namespace

io::animation fourbar_animation(const fourbar_links& l, const fourbar_sweep& sweep) {
  io::animation a;
  a.title = fmt::format("Four-bar a1 = {:.6g}, a2 = {:.6g}, a3 = {:.6g}, a4 = {:.6g}", l.a1, l.a2,
                        l.a3, l.a4);
  a.time_label = "psi";
  a.time_unit = "deg";
  // Freudenstein's equation fixes only the links' ratios: the lengths are in the unit of the
  // frame a1 (--frame, 1 by default), not metres.
  a.length_unit = l.a1 == 1.0 ? "frame lengths" : fmt::format("units of the frame a1 = {:.6g}", l.a1);
  io::animation_panel p;
  p.title = "input psi over the table's range";
  p.point_names = {"O2", "O4", "A", "B"};
  p.point_styles = {io::point_style::ground, io::point_style::ground, io::point_style::joint,
                    io::point_style::joint};
  p.links = {{"input", {0, 2}, false}, {"coupler", {2, 3}, false}, {"output", {1, 3}, false}};
  for (std::size_t i = 0; i < sweep.psi.size(); ++i) {
    const double psi = sweep.psi[i], phi = sweep.generated[i];
    if (!std::isfinite(phi)) continue;
    add_animation_frame(a, p, psi * 180.0 / std::numbers::pi,
                        {0.0, 0.0, l.a1, 0.0, l.a2 * std::cos(psi), l.a2 * std::sin(psi),
                         l.a1 + l.a4 * std::cos(phi), l.a4 * std::sin(phi)});
  }
  a.panels.push_back(std::move(p));
  return a;
}

void save_fourbar_drawing(const std::filesystem::path& path, const fourbar_links& l,
                          const std::vector<double>& psi, const std::vector<double>& phi) {
  drawing_extent b;
  b.add(0, 0);
  b.add(l.a1, 0);
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < psi.size(); ++i) {
    if (std::isnan(phi[i])) continue;
    shown.push_back(i);
    b.add(l.a2 * std::cos(psi[i]), l.a2 * std::sin(psi[i]));
    b.add(l.a1 + l.a4 * std::cos(phi[i]), l.a4 * std::sin(phi[i]));
  }
  auto c = b.canvas();
  c.title(fmt::format("Synthesised four-bar linkage in {} table positions", shown.size()));
  c.line(0, 0, l.a1, 0, "#555555", 3.0);
  std::vector<std::array<double, 2>> tips;
  for (std::size_t n = shown.size(); n-- > 0;) {
    const std::size_t i = shown[n];
    const double ax = l.a2 * std::cos(psi[i]), ay = l.a2 * std::sin(psi[i]);
    const double bx = l.a1 + l.a4 * std::cos(phi[i]), by = l.a4 * std::sin(phi[i]);
    draw_link(c, 0, 0, ax, ay, input_link_colors, n == 0, 1.2);
    draw_link(c, ax, ay, bx, by, coupler_link_colors, n == 0, 1.2);
    draw_link(c, l.a1, 0, bx, by, {"#d62728", "#fc9272"}, n == 0, 1.2);
    c.circle(ax, ay, 3.0);
    c.circle(bx, by, 3.0);
    c.mark_occupied(ax, ay, 3.0);
    c.mark_occupied(bx, by, 3.0);
    tips.push_back({bx, by});
  }
  draw_ground_pivots(c, 0, 0, l.a1, 0);
  // Fixed pivots first, then the position numbers at the output tips (placed apart).
  label_ground_pivots(c, 0, 0, l.a1, 0);
  for (std::size_t n = 0; n < shown.size(); ++n) {
    const auto& t = tips[shown.size() - 1 - n];
    c.label(t[0], t[1], std::to_string(shown[n] + 1), 11, "#a50f15");
  }
  finish_drawing(c,
                 {{"#555555", "frame a1", 3.0},
                  {"#1f77b4", "input link a2", 3.0},
                  {"#2ca02c", "coupler a3", 3.0},
                  {"#d62728", "output link a4", 3.0},
                  {"#bbbbbb", "other positions (pale)", 1.2},
                  {"#a50f15", "n: table position", 2.0, true}},
                 path);
}

void save_dyad_drawing(const std::filesystem::path& path, const std::vector<pose>& poses,
                       const std::vector<dyad_solution>& solutions) {
  drawing_extent b;
  double extent = 0.0;
  for (const auto& p : poses) b.add(p.x, p.y);
  extent = std::max(b.xmax - b.xmin, b.ymax - b.ymin);
  const std::complex<double> r0(poses[0].x, poses[0].y);
  std::vector<std::vector<std::complex<double>>> points;
  for (const auto& s : solutions) {
    std::vector<std::complex<double>> a;
    a.push_back(s.a0);
    for (std::size_t j = 1; j < poses.size(); ++j) {
      a.push_back(std::polar(1.0, poses[j].theta - poses[0].theta) * (s.a0 - r0) +
                  std::complex<double>(poses[j].x, poses[j].y));
    }
    for (const auto& q : a) b.add(q.real(), q.imag());
    b.add(s.b.real(), s.b.imag());
    points.push_back(std::move(a));
  }
  auto c = b.canvas();
  c.title(fmt::format("RR dyads guiding the body through {} poses", poses.size()));
  const double axis = 0.06 * std::max(extent, 1e-9);
  for (const auto& p : poses) {
    c.line(p.x, p.y, p.x + axis * std::cos(p.theta), p.y + axis * std::sin(p.theta), "#777777",
           1.5);
    c.circle(p.x, p.y, 2.5, "#777777", "#777777");
    c.mark_occupied(p.x, p.y, 2.5);
  }
  std::vector<io::svg_canvas::legend_entry> legend{
      {"#777777", "pose: reference point and body axis", 1.5}};
  for (std::size_t s = 0; s < solutions.size(); ++s) {
    const std::string col = palette[s % 5];
    const auto& sol = solutions[s];
    const double radius = std::abs(sol.a0 - sol.b);
    std::vector<double> cx, cy;
    for (int i = 0; i <= 180; ++i) {
      const double t = 2.0 * std::numbers::pi * i / 180.0;
      cx.push_back(sol.b.real() + radius * std::cos(t));
      cy.push_back(sol.b.imag() + radius * std::sin(t));
    }
    c.polyline(cx, cy, col, 0.8);
    for (const auto& q : points[s]) {
      c.circle(q.real(), q.imag(), 2.5, col, col);
      c.mark_occupied(q.real(), q.imag(), 2.5);
    }
    c.line(sol.b.real(), sol.b.imag(), sol.a0.real(), sol.a0.imag(), col, 2.5);
    c.circle(sol.b.real(), sol.b.imag(), 5.0, "white", col);
    c.mark_occupied(sol.b.real(), sol.b.imag(), 5.0);
    legend.push_back(
        {col, fmt::format("dyad {}: centre point B{}, circle points, circle", s + 1, s + 1), 2.5});
  }
  // Labels after every point is drawn, so the placement sees all of them.
  for (std::size_t s = 0; s < solutions.size(); ++s) {
    c.label(solutions[s].b.real(), solutions[s].b.imag(), fmt::format("B{}", s + 1), 12,
            palette[s % 5]);
  }
  for (std::size_t j = 0; j < poses.size(); ++j) {
    c.label(poses[j].x, poses[j].y, std::to_string(j + 1), 11, "#333333");
  }
  finish_drawing(c, legend, path);
}

}  // namespace kinevo::synthesis
