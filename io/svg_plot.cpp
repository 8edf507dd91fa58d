#include "kinevo/io/svg_plot.hpp"
#include "kinevo/io/detail/markup_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::io {

namespace {

const char* palette(std::size_t i) {
  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                 "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return colors[i % 8];
}

// Dash patterns and marker shapes by series index: the first series solid, the others each
// recognisable in grey print or where curves coincide (GA under GIGSP in the study).
const char* default_dash(std::size_t i) {
  static const char* dashes[] = {"", "7,4", "2,3", "9,3,2,3", "4,4", "12,4", "1,4,6,4"};
  return dashes[i % 7];
}

// A marker of shape k centred on (x, y) in pixels.
std::string marker(std::size_t k, double x, double y, const std::string& color) {
  const double r = 3.5;
  switch (k % 6) {
    case 0:
      return fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" fill=\"{}\"/>", x, y, r,
                         color);
    case 1:
      return fmt::format(
          "<rect x=\"{:.2f}\" y=\"{:.2f}\" width=\"{}\" height=\"{}\" fill=\"none\" "
          "stroke=\"{}\" stroke-width=\"1.5\"/>",
          x - r, y - r, 2 * r, 2 * r, color);
    case 2:
      return fmt::format(
          "<polygon points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\" fill=\"{}\"/>", x,
          y - r * 1.2, x - r, y + r * 0.8, x + r, y + r * 0.8, color);
    case 3:
      return fmt::format(
          "<polygon points=\"{:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f} {:.2f},{:.2f}\" "
          "fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>",
          x, y - r * 1.3, x + r, y, x, y + r * 1.3, x - r, y, color);
    case 4:
      return fmt::format(
          "<path d=\"M{:.2f},{:.2f}h{}M{:.2f},{:.2f}v{}\" stroke=\"{}\" "
          "stroke-width=\"1.8\"/>",
          x - r, y, 2 * r, x, y - r, 2 * r, color);
    default:
      return fmt::format(
          "<path d=\"M{:.2f},{:.2f}l{},{}M{:.2f},{:.2f}l{},{}\" stroke=\"{}\" "
          "stroke-width=\"1.8\"/>",
          x - r, y - r, 2 * r, 2 * r, x - r, y + r, 2 * r, -2 * r, color);
  }
}

// v with `digits` digits after the point, trailing zeros dropped; in scientific form the
// exponent is written without '+' or leading zeros.
std::string number_text(double v, int digits, bool scientific) {
  auto strip = [](std::string m) {
    if (m.find('.') != std::string::npos) {
      while (m.back() == '0') m.pop_back();
      if (m.back() == '.') m.pop_back();
    }
    return m;
  };
  if (!scientific) return strip(fmt::format("{:.{}f}", v, digits));
  const std::string s = fmt::format("{:.{}e}", v, digits);
  const auto e = s.find('e');
  return strip(s.substr(0, e)) + "e" + std::to_string(std::stoi(s.substr(e + 1)));
}

bool wants_scientific(double magnitude) {
  return magnitude > 0 && (magnitude < 1e-3 || magnitude >= 1e5);
}

// "Nice" tick spacing: 1, 2 or 5 times a power of ten, about n ticks over [lo, hi].
double tick_step(double lo, double hi, int n) {
  const double raw = (hi - lo) / n;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10.0 * mag;
}

std::vector<double> ticks(double lo, double hi, double step) {
  std::vector<double> t;
  // Multiples of the step, not a running sum, so labels carry no accumulated rounding.
  for (double i = std::ceil(lo / step - 1e-9); i * step <= hi + 1e-9 * step; i += 1.0) {
    const double v = i * step;
    t.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
  }
  return t;
}

// Tick labels of one axis share one style: scientific when the largest tick is, with as many
// digits as the step needs.
std::vector<std::string> tick_labels(const std::vector<double>& t, double step) {
  double largest = 0;
  for (double v : t) largest = std::max(largest, std::abs(v));
  const bool sci = wants_scientific(largest);
  const int step_exp = static_cast<int>(std::floor(std::log10(step) + 1e-9));
  std::vector<std::string> out;
  for (double v : t) {
    if (v == 0.0) {
      out.emplace_back("0");
    } else if (sci) {
      const int e = static_cast<int>(std::floor(std::log10(std::abs(v)) + 1e-9));
      out.push_back(number_text(v, std::max(0, e - step_exp), true));
    } else {
      out.push_back(number_text(v, std::max(0, -step_exp), false));
    }
  }
  return out;
}

double text_width(const std::string& s, int size_px) {
  return 0.6 * size_px * static_cast<double>(s.size());
}

// The points of a curve to draw: at most four per pixel column of the plot (the first, lowest,
// highest and last of the column), so a long run neither bloats the file nor loses a peak.
std::vector<std::size_t> drawn_points(const std::vector<std::size_t>& kept,
                                      const std::vector<double>& px, const std::vector<double>& py,
                                      double width_px) {
  if (static_cast<double>(kept.size()) <= 4.0 * width_px) return kept;
  std::vector<std::size_t> out;
  std::size_t start = 0;
  while (start < kept.size()) {
    const long column = std::lround(std::floor(px[kept[start]]));
    std::size_t end = start, lo = start, hi = start;
    while (end < kept.size() && std::lround(std::floor(px[kept[end]])) == column) {
      if (py[kept[end]] < py[kept[lo]]) lo = end;
      if (py[kept[end]] > py[kept[hi]]) hi = end;
      ++end;
    }
    std::vector<std::size_t> pick{start, std::min(lo, hi), std::max(lo, hi), end - 1};
    pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    for (const std::size_t i : pick) out.push_back(kept[i]);
    start = end;
  }
  return out;
}

void check_figure_size(const std::filesystem::path& path, const std::string& svg) {
  if (svg.size() > max_figure_bytes) {
    throw input_error(fmt::format(
        "{}: the figure would be {:.1f} MB, above the {:.0f} MB limit for one SVG: plot fewer "
        "columns",
        path.string(), static_cast<double>(svg.size()) / 1e6,
        static_cast<double>(max_figure_bytes) / 1e6));
  }
}

}  // namespace

std::string format_number(double v) {
  if (v == 0.0 || !std::isfinite(v)) return fmt::format("{}", v);
  const double a = std::abs(v);
  const int e = static_cast<int>(std::floor(std::log10(a)));
  return wants_scientific(a) ? number_text(v, 3, true) : number_text(v, std::max(0, 3 - e), false);
}

svg_canvas::svg_canvas(double xmin, double xmax, double ymin, double ymax, int width, int height,
                       int top_px, int bottom_px)
    : xmin_(xmin), ymin_(ymin), width_(width), height_(height), top_(top_px), bottom_(bottom_px) {
  const double margin = 20;
  const double avail_h = height - top_px - bottom_px;
  const double sx = (width - 2 * margin) / std::max(xmax - xmin, 1e-12);
  const double sy = avail_h / std::max(ymax - ymin, 1e-12);
  scale_ = std::min(sx, sy);
  // Centre the drawing in the space between the margins.
  ox_ = margin + 0.5 * ((width - 2 * margin) - scale_ * (xmax - xmin));
  oy_ = top_px + 0.5 * (avail_h - scale_ * (ymax - ymin));
  ymin_ = ymax;  // y is flipped: the top edge is ymax
}

double svg_canvas::px(double x) const {
  return ox_ + scale_ * (x - xmin_);
}
double svg_canvas::py(double y) const {
  return oy_ + scale_ * (ymin_ - y);
}

void svg_canvas::line(double x1, double y1, double x2, double y2, const std::string& color,
                      double stroke_width) {
  body_ += fmt::format(
      "<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" stroke=\"{}\" "
      "stroke-width=\"{}\" stroke-linecap=\"round\"/>\n",
      px(x1), py(y1), px(x2), py(y2), color, stroke_width);
}

void svg_canvas::polyline(const std::vector<double>& x, const std::vector<double>& y,
                          const std::string& color, double stroke_width) {
  std::string pts;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (std::isfinite(x[i]) && std::isfinite(y[i])) {
      pts += fmt::format("{:.2f},{:.2f} ", px(x[i]), py(y[i]));
    }
  }
  body_ +=
      fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\n",
                  pts, color, stroke_width);
}

void svg_canvas::circle(double x, double y, double radius_px, const std::string& fill,
                        const std::string& stroke) {
  body_ += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n",
                       px(x), py(y), radius_px, fill, stroke);
}

void svg_canvas::text(double x, double y, const std::string& s, int size_px,
                      const std::string& color) {
  body_ += fmt::format(
      "<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"{}\" fill=\"{}\" "
      "font-family=\"sans-serif\">{}</text>\n",
      px(x), py(y), size_px, color, markup_escape(s));
}

bool svg_canvas::overlaps(const box& b) const {
  return std::any_of(occupied_.begin(), occupied_.end(), [&](const box& o) {
    return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1;
  });
}

void svg_canvas::mark_occupied(double x, double y, double radius_px) {
  occupied_.push_back({px(x) - radius_px, py(y) - radius_px, px(x) + radius_px, py(y) + radius_px});
}

void svg_canvas::label(double x, double y, const std::string& s, int size_px,
                       const std::string& color) {
  const double w = text_width(s, size_px), h = size_px;
  const double X = px(x), Y = py(y);
  // Baseline-left corners of the text at eight offsets around the point, nearest first; then
  // the same farther out.
  const std::array<std::array<double, 2>, 8> offsets{{{6, -6},
                                                      {6, h + 4},
                                                      {-6 - w, -6},
                                                      {-6 - w, h + 4},
                                                      {8, h / 3},
                                                      {-8 - w, h / 3},
                                                      {-w / 2, -8},
                                                      {-w / 2, h + 8}}};
  box chosen{};
  bool found = false;
  for (double reach = 1.0; reach <= 4.0 && !found; reach += 1.0) {
    for (const auto& [dx, dy] : offsets) {
      const double bx = X + (dx < 0 ? dx - (reach - 1) * 8 : dx + (reach - 1) * 8);
      const double by = Y + (dy < h / 2 ? dy - (reach - 1) * 8 : dy + (reach - 1) * 8);
      const box b{bx, by - h, bx + w, by + 2};
      if (b.x0 < 0 || b.x1 > width_ || b.y0 < top_ || b.y1 > height_ - bottom_) continue;
      if (!overlaps(b)) {
        chosen = b;
        found = true;
        break;
      }
    }
  }
  if (!found) chosen = {X + 6, Y - 6 - h, X + 6 + w, Y - 4};  // crowded: nearest corner
  occupied_.push_back(chosen);
  body_ += fmt::format(
      "<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"{}\" fill=\"{}\" "
      "font-family=\"sans-serif\">{}</text>\n",
      chosen.x0, chosen.y1 - 2, size_px, color, markup_escape(s));
}

void svg_canvas::title(const std::string& s) {
  body_ += fmt::format(
      "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" "
      "font-family=\"sans-serif\">{}</text>\n",
      width_ / 2, markup_escape(s));
}

void svg_canvas::scale_bar(const std::string& unit) {
  const double target = 0.2 * (width_ - 40) / scale_;
  const double mag = std::pow(10.0, std::floor(std::log10(target)));
  double length = mag;
  for (double m : {2.0, 5.0}) {
    if (m * mag <= target) length = m * mag;
  }
  const double x1 = width_ - 20, x0 = x1 - length * scale_, y = height_ - bottom_ + 18;
  body_ += fmt::format(
      "<path d=\"M{0:.2f},{1:.2f}v-5v10M{0:.2f},{1:.2f}H{2:.2f}M{2:.2f},{3:.2f}v10\" "
      "stroke=\"black\" stroke-width=\"1.5\" fill=\"none\"/>\n"
      "<text x=\"{4:.2f}\" y=\"{5:.2f}\" text-anchor=\"middle\" font-size=\"12\" "
      "font-family=\"sans-serif\">{6} {7}</text>\n",
      x0, y, x1, y - 5, 0.5 * (x0 + x1), y + 18, format_number(length), markup_escape(unit));
}

void svg_canvas::legend(const std::vector<legend_entry>& entries) {
  const double right_limit = width_ - 170;  // the scale bar sits right of the legend
  double x = 20, y = height_ - bottom_ + 18;
  for (const auto& e : entries) {
    const double w = 34 + text_width(e.text, 12) + 14;
    if (x > 20 && x + w > right_limit) {
      x = 20;
      y += 18;
    }
    if (e.dot) {
      body_ += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"4\" fill=\"{}\"/>", x + 12,
                           y - 4, e.color);
    } else {
      body_ += fmt::format(
          "<line x1=\"{:.2f}\" y1=\"{:.2f}\" x2=\"{:.2f}\" y2=\"{:.2f}\" "
          "stroke=\"{}\" stroke-width=\"{}\"/>",
          x, y - 4, x + 26, y - 4, e.color, e.stroke_width);
    }
    body_ += fmt::format(
        "<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"12\" "
        "font-family=\"sans-serif\">{}</text>\n",
        x + 32, y, markup_escape(e.text));
    x += w;
  }
}

std::string svg_canvas::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n{2}</svg>\n",
      width_, height_, body_);
}

void svg_canvas::save(const std::filesystem::path& path) const {
  write_text_atomically(path, str());
}

namespace {

// Where line_chart_svg draws: the plot area in pixels and the data ranges it spans (ylo, yhi
// in log10 units on a log axis).
struct chart_frame {
  double left = 80, right = 20, top = 20, bottom = 50;
  double w = 0, h = 0, total_w = 0;
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  bool log_y = false;
  bool clipped = false;  // the y range set by the options, the curves clipped to the plot area

  // y in axis units (log10 y on a log axis), and its pixel row from axis units (t).
  double ty(double y) const { return log_y ? std::log10(y) : y; }
  bool usable(double x, double y) const {
    return std::isfinite(x) && std::isfinite(y) && (!log_y || y > 0);
  }
  double x_pixel(double x) const { return left + w * (x - xlo) / (xhi - xlo); }
  double y_pixel(double y) const { return top + h * (1.0 - (ty(y) - ylo) / (yhi - ylo)); }
  double t_pixel(double t) const { return top + h * (1.0 - (t - ylo) / (yhi - ylo)); }
};

// Stage: the y range padded (4 %, or whole decades on a log axis), then the options' clip and
// equal aspect.
void pad_ranges(const chart_options& o, chart_frame& f) {
  if (f.xhi <= f.xlo) f.xhi = f.xlo + 1;  // the x axis spans exactly the data
  if (o.log_y) {
    // Whole decades, so every labelled tick is a power of ten.
    f.ylo = std::floor(f.ylo);
    f.yhi = std::ceil(f.yhi);
    if (f.yhi <= f.ylo) f.yhi = f.ylo + 1;
  } else if (f.yhi <= f.ylo) {
    const double pad = std::max(std::abs(f.ylo) * 0.05, 1e-12);
    f.ylo -= pad;
    f.yhi += pad;
  } else {
    const double pad = 0.04 * (f.yhi - f.ylo);
    f.ylo -= pad;
    f.yhi += pad;
  }
  f.clipped = !o.log_y && o.y_min < o.y_max;
  if (f.clipped) f.ylo = o.y_min, f.yhi = o.y_max;
  if (o.equal_aspect && !o.log_y) {
    // Units per pixel equal on both axes: widen the smaller range about its centre.
    const double per_px = std::max((f.xhi - f.xlo) / f.w, (f.yhi - f.ylo) / f.h);
    const double xc = 0.5 * (f.xlo + f.xhi), yc = 0.5 * (f.ylo + f.yhi);
    f.xlo = xc - 0.5 * per_px * f.w, f.xhi = xc + 0.5 * per_px * f.w;
    f.ylo = yc - 0.5 * per_px * f.h, f.yhi = yc + 0.5 * per_px * f.h;
  }
}

// Stage: the plot area (the legend right of it, so no curve is covered) and the data's ranges.
chart_frame frame_for(const std::vector<chart_series>& series, const chart_options& o) {
  chart_frame f;
  f.log_y = o.log_y;
  double longest = 0;
  // 0.55 em: the average advance of sans-serif text (text_width errs wide, for label spacing).
  for (const auto& s : series)
    longest = std::max(longest, 0.55 * 12 * static_cast<double>(s.label.size()));
  const double legend_w = series.empty() ? 0.0 : std::min(44 + longest, 0.6 * o.width);
  f.top = o.title.empty() ? 20 : 40;
  f.w = o.width - f.left - f.right, f.h = o.height - f.top - f.bottom;
  f.total_w = o.width + legend_w;
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const auto& s : series) {
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!f.usable(s.x[i], s.y[i])) continue;
      xlo = std::min(xlo, s.x[i]);
      xhi = std::max(xhi, s.x[i]);
      ylo = std::min(ylo, f.ty(s.y[i]));
      yhi = std::max(yhi, f.ty(s.y[i]));
    }
  }
  if (!std::isfinite(xlo)) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  f.xlo = xlo, f.xhi = xhi, f.ylo = ylo, f.yhi = yhi;
  pad_ranges(o, f);
  return f;
}

// Stage: the document, its title, the plot area's frame and clip path.
std::string chart_header(const chart_frame& f, const chart_options& o) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
      "fill=\"white\"/>\n",
      f.total_w, o.height);
  if (!o.title.empty()) {
    out +=
        fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
                    f.left + f.w / 2, markup_escape(o.title));
  }
  out += fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n",
      f.left, f.top, f.w, f.h);
  if (f.clipped) {
    out += fmt::format(
        "<clipPath id=\"plot-area\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>"
        "</clipPath>\n",
        f.left, f.top, f.w, f.h);
  }
  return out;
}

// Stage: the x grid lines and their labels.
std::string x_grid(const chart_frame& f) {
  std::string out;
  const double xstep = tick_step(f.xlo, f.xhi, 8);
  const auto xt = ticks(f.xlo, f.xhi, xstep);
  const auto xl = tick_labels(xt, xstep);
  for (std::size_t i = 0; i < xt.size(); ++i) {
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        f.x_pixel(xt[i]), f.top, f.top + f.h, f.top + f.h + 16, xl[i]);
  }
  return out;
}

// Stage: a log axis' labelled decades into yt, yl, its unlabelled decades and minor ticks into
// out.
void log_ticks(const chart_frame& f, std::vector<double>& yt, std::vector<std::string>& yl,
               std::string& out) {
  const double decades = f.yhi - f.ylo;
  const double every = std::ceil(decades / 8.0);
  for (double d = f.ylo; d <= f.yhi + 1e-9; d += every) {
    yt.push_back(d);
    // Every decade as 1eN, so a log axis reads alike from 1e-8 to 1e6.
    yl.push_back(fmt::format("1e{}", static_cast<int>(d)));
  }
  for (double d = f.ylo + 1; every > 1 && d < f.yhi; d += 1.0) {  // unlabelled decades
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" "
        "stroke=\"#444\"/>\n",
        f.left, f.t_pixel(d), f.left + 6);
  }
  if (decades <= 6) {  // minor ticks at 2..9 times each decade
    for (double d = f.ylo; d < f.yhi; d += 1.0) {
      for (int m = 2; m <= 9; ++m) {
        out += fmt::format(
            "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" "
            "stroke=\"#444\"/>\n",
            f.left, f.t_pixel(d + std::log10(m)), f.left + 4);
      }
    }
  }
}

// Stage: the y grid lines and their labels (decades on a log axis), then both axis titles.
std::string y_grid_and_labels(const chart_frame& f, const chart_options& o) {
  std::string out;
  std::vector<double> yt;
  std::vector<std::string> yl;
  if (o.log_y) {
    log_ticks(f, yt, yl, out);
  } else {
    const double ystep = tick_step(f.ylo, f.yhi, 6);
    yt = ticks(f.ylo, f.yhi, ystep);
    yl = tick_labels(yt, ystep);
  }
  for (std::size_t i = 0; i < yt.size(); ++i) {
    out += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        f.left, f.t_pixel(yt[i]), f.left + f.w, f.left - 6, f.t_pixel(yt[i]) + 4, yl[i]);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", f.left + f.w / 2,
                     o.height - 10, markup_escape(o.x_label));
  out += fmt::format(
      "<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
      f.top + f.h / 2, markup_escape(o.y_label));
  return out;
}

// Stage: curve k of `count` (its polyline and markers) and its legend entry.
std::string series_svg(const chart_series& s, std::size_t k, std::size_t count,
                       const chart_frame& f) {
  const std::string clip_attr = f.clipped ? " clip-path=\"url(#plot-area)\"" : "";
  const double legend_x = f.left + f.w + 12;
  const std::string color = s.color.empty() ? palette(k) : s.color;
  const std::string dash = s.dash.empty() ? default_dash(k) : s.dash;
  const std::string dash_attr = dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash);
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
    if (f.usable(s.x[i], s.y[i])) kept.push_back(i);
  }
  std::vector<double> px(s.x.size()), py(s.x.size());
  for (std::size_t i : kept) px[i] = f.x_pixel(s.x[i]), py[i] = f.y_pixel(s.y[i]);
  std::string pts;
  for (std::size_t i : drawn_points(kept, px, py, f.w)) {
    pts += fmt::format("{:.2f},{:.2f} ", px[i], py[i]);
  }
  // A few markers per curve, staggered by series so coinciding curves show both.
  std::string marks;
  const std::size_t every = s.markers ? 1 : std::max<std::size_t>(1, kept.size() / 10);
  const std::size_t first = s.markers ? 0 : (k * every) / std::max<std::size_t>(count, 1);
  for (std::size_t n = first; n < kept.size(); n += every) {
    marks += marker(k, f.x_pixel(s.x[kept[n]]), f.y_pixel(s.y[kept[n]]), color);
  }
  std::string out = fmt::format(
      "<g{}><polyline points=\"{}\" fill=\"none\" stroke=\"{}\" "
      "stroke-width=\"1.5\"{}/>\n{}</g>\n",
      clip_attr, pts, color, dash_attr, marks);
  const double ly = f.top + 14 + 18.0 * static_cast<double>(k);
  out += fmt::format(
      "<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" "
      "stroke-width=\"2\"{4}/>{5}<text x=\"{6}\" y=\"{7}\">{8}</text>\n",
      legend_x, ly, legend_x + 30, color, dash_attr, marker(k, legend_x + 15, ly, color),
      legend_x + 36, ly + 4, markup_escape(s.label));
  return out;
}

}  // namespace

std::string line_chart_svg(const std::vector<chart_series>& series, const chart_options& o) {
  const chart_frame f = frame_for(series, o);
  std::string out = chart_header(f, o);
  out += x_grid(f);
  out += y_grid_and_labels(f, o);
  for (std::size_t k = 0; k < series.size(); ++k) out += series_svg(series[k], k, series.size(), f);
  out += "</svg>\n";
  return out;
}

void save_line_chart(const std::filesystem::path& path, const std::vector<chart_series>& series,
                     const chart_options& options) {
  const std::string svg = line_chart_svg(series, options);
  check_figure_size(path, svg);
  write_text_atomically(path, svg);
}

std::string stacked_charts_svg(const std::vector<chart_panel>& panels) {
  // Each chart is a nested <svg> placed at its offset: the same drawing as on its own.
  const std::string head = "<svg xmlns=\"http://www.w3.org/2000/svg\" ";
  std::string inner;
  double width = 0, height = 0;
  for (const auto& p : panels) {
    std::string chart = line_chart_svg(p.series, p.options);
    chart.replace(0, head.size(), fmt::format("<svg y=\"{}\" ", height));
    inner += chart;
    height += p.options.height;
    const std::size_t at = chart.find("width=\"") + 7;
    width = std::max(width, std::stod(chart.substr(at, chart.find('"', at) - at)));
  }
  return fmt::format("{}width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n{}</svg>\n", head, width,
                     height, width, height, inner);
}

void save_stacked_charts(const std::filesystem::path& path,
                         const std::vector<chart_panel>& panels) {
  const std::string svg = stacked_charts_svg(panels);
  check_figure_size(path, svg);
  write_text_atomically(path, svg);
}

}  // namespace kinevo::io
