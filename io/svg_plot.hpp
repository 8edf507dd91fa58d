// Minimal SVG output: a drawing canvas for linkage pictures and a line chart for results.
// Written by hand because the plots are simple and a plotting dependency would be larger than
// this file; output goes through write_atomically.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::io {

// A canvas in user coordinates (y up), mapped onto width x height pixels with equal scales.
class svg_canvas {
 public:
  svg_canvas(double xmin, double xmax, double ymin, double ymax, int width = 640, int height = 480);
  void line(double x1, double y1, double x2, double y2, const std::string& color = "black",
            double stroke_width = 2.0);
  void polyline(const std::vector<double>& x, const std::vector<double>& y,
                const std::string& color = "black", double stroke_width = 1.0);
  void circle(double x, double y, double radius_px, const std::string& fill = "white",
              const std::string& stroke = "black");
  void text(double x, double y, const std::string& s, int size_px = 12,
            const std::string& color = "black");
  std::string str() const;
  void save(const std::filesystem::path& path) const;

 private:
  double px(double x) const;
  double py(double y) const;
  double xmin_, ymin_, scale_, ox_, oy_;
  int width_, height_;
  std::string body_;
};

struct chart_series {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  std::string color;  // empty: taken from a default palette
  bool markers = false;
};

struct chart_options {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = false;  // non-positive values are dropped on a log axis
  int width = 720;
  int height = 420;
};

// A line chart with axes, ticks and a legend. Non-finite points are skipped.
std::string line_chart_svg(const std::vector<chart_series>& series, const chart_options& options);
void save_line_chart(const std::filesystem::path& path, const std::vector<chart_series>& series,
                     const chart_options& options);

}  // namespace kinevo::io
