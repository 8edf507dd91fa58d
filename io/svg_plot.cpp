#include "kinevo/io/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kinevo/io/atomic_file.hpp"

namespace kinevo::io {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

const char* palette(std::size_t i) {
  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                 "#9467bd", "#8c564b", "#e377c2", "#17becf"};
  return colors[i % 8];
}

// "Nice" tick spacing: 1, 2 or 5 times a power of ten, about n ticks over [lo, hi].
std::vector<double> ticks(double lo, double hi, int n) {
  std::vector<double> t;
  const double span = hi - lo;
  if (!(span > 0)) return {lo};
  const double raw = span / n;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) {
    t.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
  }
  return t;
}

}  // namespace

svg_canvas::svg_canvas(double xmin, double xmax, double ymin, double ymax, int width, int height)
    : xmin_(xmin), ymin_(ymin), width_(width), height_(height) {
  const double margin = 20;
  const double sx = (width - 2 * margin) / std::max(xmax - xmin, 1e-12);
  const double sy = (height - 2 * margin) / std::max(ymax - ymin, 1e-12);
  scale_ = std::min(sx, sy);
  // Centre the drawing.
  ox_ = margin + 0.5 * ((width - 2 * margin) - scale_ * (xmax - xmin));
  oy_ = margin + 0.5 * ((height - 2 * margin) - scale_ * (ymax - ymin));
  ymin_ = ymax;  // y is flipped: the top edge is ymax
}

double svg_canvas::px(double x) const { return ox_ + scale_ * (x - xmin_); }
double svg_canvas::py(double y) const { return oy_ + scale_ * (ymin_ - y); }

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
    if (std::isfinite(x[i]) && std::isfinite(y[i])) pts += fmt::format("{:.2f},{:.2f} ", px(x[i]), py(y[i]));
  }
  body_ += fmt::format(
      "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\n", pts, color,
      stroke_width);
}

void svg_canvas::circle(double x, double y, double radius_px, const std::string& fill,
                        const std::string& stroke) {
  body_ += fmt::format(
      "<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"{}\" fill=\"{}\" stroke=\"{}\"/>\n", px(x), py(y),
      radius_px, fill, stroke);
}

void svg_canvas::text(double x, double y, const std::string& s, int size_px,
                      const std::string& color) {
  body_ += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\" font-size=\"{}\" fill=\"{}\" "
                       "font-family=\"sans-serif\">{}</text>\n",
                       px(x), py(y), size_px, color, escape(s));
}

std::string svg_canvas::str() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n{2}</svg>\n",
      width_, height_, body_);
}

void svg_canvas::save(const std::filesystem::path& path) const { write_text_atomically(path, str()); }

std::string line_chart_svg(const std::vector<chart_series>& series, const chart_options& o) {
  const double left = 80, right = 20, top = o.title.empty() ? 20 : 40, bottom = 50;
  const double w = o.width - left - right, h = o.height - top - bottom;
  auto ty = [&](double y) { return o.log_y ? std::log10(y) : y; };
  auto usable = [&](double x, double y) { return std::isfinite(x) && std::isfinite(y) && (!o.log_y || y > 0); };

  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const auto& s : series) {
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(s.x[i], s.y[i])) continue;
      xlo = std::min(xlo, s.x[i]);
      xhi = std::max(xhi, s.x[i]);
      ylo = std::min(ylo, ty(s.y[i]));
      yhi = std::max(yhi, ty(s.y[i]));
    }
  }
  if (!std::isfinite(xlo)) xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  if (xhi <= xlo) xhi = xlo + 1;
  if (yhi <= ylo) {
    const double pad = std::max(std::abs(ylo) * 0.05, 1e-12);
    ylo -= pad;
    yhi += pad;
  } else {
    const double pad = 0.04 * (yhi - ylo);
    ylo -= pad;
    yhi += pad;
  }
  auto X = [&](double x) { return left + w * (x - xlo) / (xhi - xlo); };
  auto Y = [&](double y) { return top + h * (1.0 - (ty(y) - ylo) / (yhi - ylo)); };
  auto Yt = [&](double t) { return top + h * (1.0 - (t - ylo) / (yhi - ylo)); };

  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      o.width, o.height);
  if (!o.title.empty()) {
    out += fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n",
                       left + w / 2, escape(o.title));
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n",
                     left, top, w, h);
  for (double t : ticks(xlo, xhi, 8)) {
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:g}</text>\n",
                       X(t), top, top + h, top + h + 16, t);
  }
  for (double t : ticks(ylo, yhi, 6)) {
    const std::string label = o.log_y ? fmt::format("1e{:g}", t) : fmt::format("{:.4g}", t);
    out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
                       "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
                       left, Yt(t), left + w, left - 6, Yt(t) + 4, label);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", left + w / 2,
                     o.height - 10, escape(o.x_label));
  out += fmt::format("<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                     top + h / 2, escape(o.y_label));
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const std::string color = s.color.empty() ? palette(k) : s.color;
    std::string pts;
    std::string marks;
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(s.x[i], s.y[i])) continue;
      pts += fmt::format("{:.2f},{:.2f} ", X(s.x[i]), Y(s.y[i]));
      if (s.markers) marks += fmt::format("<circle cx=\"{:.2f}\" cy=\"{:.2f}\" r=\"3\" fill=\"{}\"/>", X(s.x[i]), Y(s.y[i]), color);
    }
    out += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"/>\n{}\n",
                       pts, color, marks);
    out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"{3}\" stroke-width=\"2\"/>"
                       "<text x=\"{4}\" y=\"{5}\">{6}</text>\n",
                       left + 10, top + 14 + 16.0 * static_cast<double>(k), left + 30, color, left + 36,
                       top + 18 + 16.0 * static_cast<double>(k), escape(s.label));
  }
  out += "</svg>\n";
  return out;
}

void save_line_chart(const std::filesystem::path& path, const std::vector<chart_series>& series,
                     const chart_options& options) {
  write_text_atomically(path, line_chart_svg(series, options));
}

}  // namespace kinevo::io
