// The chart writer's number format, axes and legend (issue 15: figures fit for a report).
#include <gtest/gtest.h>

#include <cmath>
// GCC 12 at -O1 with the sanitizers (the CI's second build) warns that std::regex's internal
// std::function "may be used uninitialized": a known false positive inside libstdc++.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#include <string>
#include <vector>

#include "kinevo/io/svg_plot.hpp"

using kinevo::io::chart_options;
using kinevo::io::chart_series;
using kinevo::io::format_number;
using kinevo::io::line_chart_svg;

namespace {

// The texts of the y tick labels (right-aligned at the axis).
std::vector<std::string> y_tick_labels(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex re("text-anchor=\"end\">([^<]*)<");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

std::vector<std::string> x_tick_labels(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex re("<text x=\"[0-9.]+\" y=\"[0-9.]+\" text-anchor=\"middle\">([^<]*)<");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it) {
    if ((*it)[1].length() > 0) out.push_back((*it)[1]);  // the empty x axis title is not a tick
  }
  return out;
}

}  // namespace

TEST(SvgPlot, OneNumberFormat) {
  EXPECT_EQ(format_number(1e6), "1e6");
  EXPECT_EQ(format_number(1e-5), "1e-5");
  EXPECT_EQ(format_number(2.5e-5), "2.5e-5");
  EXPECT_EQ(format_number(0.3), "0.3");
  EXPECT_EQ(format_number(12345), "12345");
  EXPECT_EQ(format_number(-2), "-2");
  EXPECT_EQ(format_number(0), "0");
}

TEST(SvgPlot, LogAxisLabelsWholeDecades) {
  chart_options o;
  o.log_y = true;
  // 10^-8.6 .. 10^-3.2: labels at whole decades only, never 1e-8.6.
  const auto svg = line_chart_svg(
      {{"e", {0, 1}, {std::pow(10.0, -8.6), std::pow(10.0, -3.2)}, "", false, ""}}, o);
  const auto labels = y_tick_labels(svg);
  ASSERT_FALSE(labels.empty());
  for (const auto& l : labels) EXPECT_TRUE(std::regex_match(l, std::regex("1e-?[0-9]+"))) << l;
  EXPECT_EQ(labels.front(), "1e-9");
  EXPECT_EQ(labels.back(), "1e-3");
}

TEST(SvgPlot, XAxisEndsAtTheDataAndTicksShareAStyle) {
  const auto svg = line_chart_svg(
      {{"a", {0, 3.7e5}, {0, 1}, "", false, ""}, {"b", {0, 2e5}, {1, 0}, "", false, ""}},
      chart_options{});
  const auto labels = x_tick_labels(svg);
  ASSERT_FALSE(labels.empty());
  EXPECT_EQ(labels.front(), "0");
  for (const auto& l : labels) {
    EXPECT_EQ(l.find('+'), std::string::npos) << l;
    if (l != "0") {
      EXPECT_TRUE(std::regex_match(l, std::regex("[0-9.]+e[45]"))) << l;
    }
  }
  EXPECT_EQ(labels.back(), "3.5e5");  // the last tick inside the data, the axis ends at 3.7e5
}

TEST(SvgPlot, SeriesDifferInDashAndLegendIsRightOfThePlot) {
  chart_options o;
  o.width = 600;
  const auto svg = line_chart_svg(
      {{"GIGSP", {0, 1}, {0, 1}, "", false, ""}, {"GA", {0, 1}, {0, 1}, "", false, ""}}, o);
  EXPECT_NE(svg.find("stroke-dasharray=\"7,4\""), std::string::npos);
  // The legend text starts right of the plot frame (left 80 + width 600 - 100).
  const std::regex legend("<text x=\"([0-9.]+)\" y=\"[0-9.]+\">GA<");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, legend));
  EXPECT_GT(std::stod(m[1]), 580.0);
}

TEST(SvgCanvas, LabelsDoNotOverprint) {
  kinevo::io::svg_canvas c(0, 10, 0, 10, 400, 400);
  c.label(5, 5, "O2 (input)");
  c.label(5.1, 5, "O4 (output)");
  const std::regex re("<text x=\"([0-9.]+)\" y=\"([0-9.]+)\"");
  const auto s = c.str();
  std::vector<std::pair<double, double>> at;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
    at.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  }
  ASSERT_EQ(at.size(), 2u);
  // Apart by a text height vertically or a label width horizontally.
  EXPECT_TRUE(std::abs(at[0].second - at[1].second) >= 12 ||
              std::abs(at[0].first - at[1].first) >= 0.6 * 12 * 11)
      << at[0].first << "," << at[0].second << " " << at[1].first << "," << at[1].second;
}
