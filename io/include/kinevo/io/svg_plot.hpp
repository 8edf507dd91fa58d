// Minimal SVG output: a drawing canvas for linkage pictures and a line chart for results.
// Kept hand-written (docs/figures.md says why): the figures are line charts and line drawings, a
// plotting library (matplotlib, gnuplot, ...) would be a run-time dependency of a C++ CLI and
// would not go through write_atomically; the writer is tested by rendering every figure.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::io {

// A canvas in user coordinates (y up), mapped onto width x height pixels with equal scales.
class svg_canvas {
 public:
  // top_px and bottom_px are margins kept free for a title and a legend.
  svg_canvas(double xmin, double xmax, double ymin, double ymax, int width = 640, int height = 480,
             int top_px = 20, int bottom_px = 20);
  void line(double x1, double y1, double x2, double y2, const std::string& color = "black",
            double stroke_width = 2.0);
  void polyline(const std::vector<double>& x, const std::vector<double>& y,
                const std::string& color = "black", double stroke_width = 1.0);
  void circle(double x, double y, double radius_px, const std::string& fill = "white",
              const std::string& stroke = "black");
  void text(double x, double y, const std::string& s, int size_px = 12,
            const std::string& color = "black");
  // A label near (x, y) placed at the first of eight offsets around the point whose box
  // overlaps no earlier label or marked point, so labels never overprint each other.
  void label(double x, double y, const std::string& s, int size_px = 12,
             const std::string& color = "black");
  // Keeps labels off a point (a joint drawn as a circle of radius_px).
  void mark_occupied(double x, double y, double radius_px);
  // A title centred in the top margin.
  void title(const std::string& s);
  // A scale bar of a round length (1, 2 or 5 times a power of ten) in the bottom-right corner,
  // labelled with its length and unit.
  void scale_bar(const std::string& unit);
  struct legend_entry {
    std::string color;
    std::string text;
    double stroke_width = 2.0;
    bool dot = false;  // a small circle instead of a line
  };
  // The legend in rows along the bottom margin.
  void legend(const std::vector<legend_entry>& entries);
  std::string str() const;
  void save(const std::filesystem::path& path) const;

 private:
  struct box {
    double x0, y0, x1, y1;
  };
  double px(double x) const;
  double py(double y) const;
  bool overlaps(const box& b) const;
  double xmin_, ymin_, scale_, ox_, oy_;
  int width_, height_, top_, bottom_;
  std::string body_;
  std::vector<box> occupied_;
};

struct chart_series {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  std::string color;     // empty: taken from a default palette
  bool markers = false;  // a marker at every point (else a few, spaced along the curve)
  std::string dash;      // SVG stroke-dasharray; empty: one per series index (first solid)
};

struct chart_options {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_y = false;  // non-positive values are dropped on a log axis
  // Equal scales on both axes (a path in the x-y plane: a circle stays a circle); the smaller
  // range is widened about its centre.
  bool equal_aspect = false;
  // A fixed y range (linear axes; e.g. the tail of a convergence, when the first points are far
  // off): curves are clipped to the plot frame. Empty (lo >= hi): fitted to the data.
  double y_min = 0.0, y_max = 0.0;
  int width = 720;
  int height = 420;
};

// One number format for every tick and scale label: up to 4 significant digits, plain for
// 1e-3 <= |v| < 1e5, else mantissa and exponent without '+' or leading zeros (1e6, 2.5e-5).
std::string format_number(double v);

// A line chart with axes fitted to the data, ticks (decades with minor ticks on a log axis) and a
// legend right of the plot area, so it never covers a curve. Each series has its own colour,
// dash pattern and marker shape. Non-finite points are skipped.
std::string line_chart_svg(const std::vector<chart_series>& series, const chart_options& options);
void save_line_chart(const std::filesystem::path& path, const std::vector<chart_series>& series,
                     const chart_options& options);

// Charts stacked in one SVG, one above the other (e.g. one panel per unit, so that no axis mixes
// units), each drawn by line_chart_svg.
struct chart_panel {
  std::vector<chart_series> series;
  chart_options options;
};
std::string stacked_charts_svg(const std::vector<chart_panel>& panels);
void save_stacked_charts(const std::filesystem::path& path, const std::vector<chart_panel>& panels);

// The largest SVG a figure may be (bytes). A curve keeps at most four points per pixel column
// (the first, lowest, highest and last of the column, so peaks stay), so only very many series
// reach it; save_line_chart and save_stacked_charts then throw io::input_error naming the file,
// its size and the limit instead of writing it.
constexpr std::size_t max_figure_bytes = 4'000'000;

}  // namespace kinevo::io
