#include "kinevo/synthesis/linkages/detail/linkage_drawing.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kinevo::synthesis {

void drawing_extent::add(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) return;
  xmin = std::min(xmin, x), xmax = std::max(xmax, x);
  ymin = std::min(ymin, y), ymax = std::max(ymax, y);
}

io::svg_canvas drawing_extent::canvas() const {
  const double m = 0.08 * std::max({xmax - xmin, ymax - ymin, 1e-9});
  return io::svg_canvas(xmin - m, xmax + m, ymin - m, ymax + m, 760, 620, 40, 80);
}

void draw_link(io::svg_canvas& c, double x0, double y0, double x1, double y1,
               const link_colors& colors, bool first, double pale_width) {
  c.line(x0, y0, x1, y1, first ? colors.strong : colors.pale, first ? 3.0 : pale_width);
}

void draw_ground_pivots(io::svg_canvas& c, double x2, double y2, double x4, double y4) {
  c.circle(x2, y2, 5.0, "#555555");
  c.circle(x4, y4, 5.0, "#555555");
  c.mark_occupied(x2, y2, 5.0);
  c.mark_occupied(x4, y4, 5.0);
}

void label_ground_pivots(io::svg_canvas& c, double x2, double y2, double x4, double y4) {
  c.label(x2, y2, "O2 (input)", 12);
  c.label(x4, y4, "O4 (output)", 12);
}

void finish_drawing(io::svg_canvas& c, const std::vector<io::svg_canvas::legend_entry>& legend,
                    const std::filesystem::path& path) {
  c.legend(legend);
  c.scale_bar("length units");
  c.save(path);
}

bool add_animation_frame(io::animation& a, io::animation_panel& panel, double t,
                         std::vector<double> frame) {
  if (!a.times.empty() && !(t > a.times.back())) return false;
  a.times.push_back(t);
  panel.frames.push_back(std::move(frame));
  return true;
}

}  // namespace kinevo::synthesis
