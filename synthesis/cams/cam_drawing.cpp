#include "kinevo/synthesis/cams/cam_drawing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "kinevo/io/svg_plot.hpp"

namespace kinevo::synthesis {

namespace {

using vec = Eigen::Vector2d;

void closed_polyline(io::svg_canvas& c, const std::vector<vec>& pts, const std::string& colour,
                     double width) {
  std::vector<double> x, y;
  for (const auto& p : pts) x.push_back(p.x()), y.push_back(p.y());
  if (!pts.empty()) x.push_back(pts[0].x()), y.push_back(pts[0].y());
  c.polyline(x, y, colour, width);
}

std::vector<vec> circle(const vec& centre, double r) {
  std::vector<vec> pts;
  for (int i = 0; i < 180; ++i) {
    const double t = 2.0 * std::numbers::pi * i / 180;
    pts.push_back(centre + r * vec(std::cos(t), std::sin(t)));
  }
  return pts;
}

// A round length near a fifth of the drawing's width for the scale bar.
double scale_length(double width) {
  const double target = width / 5.0;
  const double p = std::pow(10.0, std::floor(std::log10(target)));
  for (const double m : {5.0, 2.0, 1.0}) {
    if (m * p <= target) return m * p;
  }
  return p;
}

}  // namespace

void save_cam_drawing(const std::filesystem::path& path, const cam_drawing& d) {
  double xmin = -d.base_radius, xmax = d.base_radius, ymin = -d.base_radius, ymax = d.base_radius;
  const auto add = [&](const vec& p) {
    xmin = std::min(xmin, p.x()), xmax = std::max(xmax, p.x());
    ymin = std::min(ymin, p.y()), ymax = std::max(ymax, p.y());
  };
  for (const auto& p : d.profile) add(p);
  for (const auto& p : d.pitch) add(p);
  for (const auto& [a, b] : d.follower) add(a), add(b);
  if (d.has_pivot) add(d.pivot);
  const double w = std::max(xmax - xmin, ymax - ymin);
  // Room above for the title and below for the scale bar and the legend.
  io::svg_canvas c(xmin - 0.08 * w, xmax + 0.45 * w, ymin - 0.22 * w, ymax + 0.15 * w, 760, 640);
  closed_polyline(c, circle(vec::Zero(), d.base_radius), "#999999", 0.8);
  if (!d.pitch.empty()) closed_polyline(c, d.pitch, "#ff7f0e", 1.0);
  closed_polyline(c, d.profile, "#1f77b4", 2.2);
  for (const auto& [a, b] : d.follower) c.line(a.x(), a.y(), b.x(), b.y(), "#d62728", 3.0);
  if (d.roller_radius > 0.0) {
    closed_polyline(c, circle(d.roller_centre, d.roller_radius), "#d62728", 1.8);
  }
  if (d.has_pivot) c.circle(d.pivot.x(), d.pivot.y(), 5.0, "white", "#d62728");
  c.circle(0.0, 0.0, 4.0, "#555555", "#555555");
  c.text(xmin, ymax + 0.08 * w, d.title, 15);
  // Scale bar.
  const double s = scale_length(w);
  const double y0 = ymin - 0.08 * w;
  c.line(xmin, y0, xmin + s, y0, "black", 2.0);
  c.text(xmin, y0 - 0.06 * w, fmt::format("{:g} {}", s, d.unit), 12);
  // Legend.
  const double lx = xmax + 0.08 * w;
  double ly = ymax;
  const auto entry = [&](const std::string& colour, const std::string& label) {
    c.line(lx, ly, lx + 0.08 * w, ly, colour, 2.5);
    c.text(lx + 0.1 * w, ly - 0.015 * w, label, 12);
    ly -= 0.07 * w;
  };
  entry("#1f77b4", "cam profile");
  if (!d.pitch.empty()) entry("#ff7f0e", "pitch curve");
  entry("#999999", "base circle");
  entry("#d62728", "follower at psi = 0");
  c.save(path);
}

}  // namespace kinevo::synthesis
