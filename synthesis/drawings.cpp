#include "kinevo/synthesis/drawings.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "kinevo/io/svg_plot.hpp"

namespace kinevo::synthesis {

namespace {

struct bounds {
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  void add(double x, double y) {
    xmin = std::min(xmin, x), xmax = std::max(xmax, x);
    ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  }
  io::svg_canvas canvas() const {
    const double m = 0.08 * std::max({xmax - xmin, ymax - ymin, 1e-9});
    return io::svg_canvas(xmin - m, xmax + m, ymin - m, ymax + m, 720, 540);
  }
};

const char* palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};

}  // namespace

void save_fourbar_drawing(const std::filesystem::path& path, const fourbar_links& l,
                          const std::vector<double>& psi, const std::vector<double>& phi) {
  bounds b;
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
  c.line(0, 0, l.a1, 0, "#555555", 3.0);
  for (std::size_t n = shown.size(); n-- > 0;) {
    const std::size_t i = shown[n];
    const double ax = l.a2 * std::cos(psi[i]), ay = l.a2 * std::sin(psi[i]);
    const double bx = l.a1 + l.a4 * std::cos(phi[i]), by = l.a4 * std::sin(phi[i]);
    const double w = n == 0 ? 3.0 : 1.2;
    c.line(0, 0, ax, ay, n == 0 ? "#1f77b4" : "#9ecae1", w);
    c.line(ax, ay, bx, by, n == 0 ? "#2ca02c" : "#a1d99b", w);
    c.line(l.a1, 0, bx, by, n == 0 ? "#d62728" : "#fc9272", w);
    c.circle(ax, ay, 3.0);
    c.circle(bx, by, 3.0);
  }
  c.circle(0, 0, 5.0, "#555555");
  c.circle(l.a1, 0, 5.0, "#555555");
  c.text(0, 0, "O2 (input)", 12);
  c.text(l.a1, 0, "O4 (output)", 12);
  c.save(path);
}

void save_dyad_drawing(const std::filesystem::path& path, const std::vector<pose>& poses,
                       const std::vector<dyad_solution>& solutions) {
  bounds b;
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
  const double axis = 0.06 * std::max(extent, 1e-9);
  for (const auto& p : poses) {
    c.line(p.x, p.y, p.x + axis * std::cos(p.theta), p.y + axis * std::sin(p.theta), "#777777",
           1.5);
    c.circle(p.x, p.y, 2.5, "#777777", "#777777");
  }
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
    for (const auto& q : points[s]) c.circle(q.real(), q.imag(), 2.5, col, col);
    c.line(sol.b.real(), sol.b.imag(), sol.a0.real(), sol.a0.imag(), col, 2.5);
    c.circle(sol.b.real(), sol.b.imag(), 5.0, "white", col);
    c.text(sol.b.real(), sol.b.imag(), fmt::format("B{}", s + 1), 12, col);
  }
  c.save(path);
}

}  // namespace kinevo::synthesis
