// simulate --plot's figures: one unit per axis (mixed units go to separate panels), an x-y path
// at equal scales (read back from the SVG's tick labels and their positions), a readable default
// for a large model, and no unit [1] on a velocity.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
// GCC 12 at -O1 with the sanitizers (the CI's second build) warns that std::regex's internal
// std::function "may be used uninitialized": a known false positive inside libstdc++.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::fresh_dir;
using kinevo::test::read_text;
using kinevo::test::run_kinevo;

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The axis titles of a chart: the x label (centred under the plot) and the rotated y label.
std::vector<std::string> axis_labels(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex y_label(R"re(rotate\(-90\)" text-anchor="middle">([^<]*)<)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), y_label);
       it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

// Units per pixel along x and y, from the first two labelled ticks of each axis.
std::pair<double, double> units_per_pixel(const std::string& svg) {
  const std::regex xt(
      R"re(<text x="([-0-9.]+)" y="[-0-9.]+" text-anchor="middle">([-0-9.e]+)</text>)re");
  const std::regex yt(
      R"re(<text x="[-0-9.]+" y="([-0-9.]+)" text-anchor="end">([-0-9.e]+)</text>)re");
  std::vector<std::pair<double, double>> x, y;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), xt); it != std::sregex_iterator();
       ++it) {
    x.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  }
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), yt); it != std::sregex_iterator();
       ++it) {
    y.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  }
  if (x.size() < 2 || y.size() < 2) {
    ADD_FAILURE() << "fewer than two ticks on an axis";
    return {NAN, NAN};
  }
  return {std::abs((x[1].second - x[0].second) / (x[1].first - x[0].first)),
          std::abs((y[1].second - y[0].second) / (y[1].first - y[0].first))};
}

TEST(CliFigures, AnXyPathIsDrawnToEqualScales) {
  const auto dir = fresh_dir("figures_path");
  const auto svg = dir / "wheel_xy.svg";
  const auto r = run_kinevo("simulate " + std::string(KINEVO_EXAMPLES) +
                            "/spherical_pendulum_flywheel.toml --t-end 2 --quiet --plot " +
                            svg.string() + " --plot-x wheel_x --plot-columns wheel_y");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_text(svg);
  const auto [ux, uy] = units_per_pixel(text);
  // Tick positions are written to 0.1 px: equal within that.
  EXPECT_NEAR(ux / uy, 1.0, 0.01) << ux << " vs " << uy;
  EXPECT_EQ(axis_labels(text), std::vector<std::string>{"wheel_y [m]"});
}

TEST(CliFigures, MixedUnitsGoToSeparatePanels) {
  const auto dir = fresh_dir("figures_units");
  const auto svg = dir / "mixed.svg";
  const auto r = run_kinevo("simulate " + std::string(KINEVO_EXAMPLES) +
                            "/slider_crank.toml --t-end 0.2 --quiet --plot " + svg.string() +
                            " --plot-columns b1_phi,b2_x,b3_x,b1_phi_dot");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto labels = axis_labels(read_text(svg));
  EXPECT_EQ(labels,
            (std::vector<std::string>{"b1_phi [rad]", "b2_x, b3_x [m]", "b1_phi_dot [rad/s]"}));
}

TEST(CliFigures, TheDefaultPlotOfALargeModelHasAFewSeries) {
  const auto dir = fresh_dir("figures_chain");
  const auto model = dir / "chain.toml", svg = dir / "chain.svg";
  ASSERT_EQ(run_kinevo("model chain --links 50 --out " + model.string()).status, 0);
  const auto r = run_kinevo("simulate " + model.string() + " --t-end 1 --plot " + svg.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = read_text(svg);
  EXPECT_EQ(count_of(text, "<polyline"), 4);  // p1_x, p1_y, p50_x, p50_y
  EXPECT_LT(text.size(), 200'000u);
  EXPECT_NE(r.err.find("plotted 4 of 100 coordinates"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--plot-columns"), std::string::npos) << r.err;
}

// The slip's unit is the one its [[constraint]] declares: m/s for the disc's R th' - x', rad/s
// for the same contact written as an angular slip th' - x'/R; a unit on a row that records no
// slip, or with brackets, is bad input naming the field.
TEST(CliFigures, ASlipVelocityHasTheUnitItsConstraintDeclares) {
  const auto dir = fresh_dir("figures_slip_unit");
  std::string text = read_text(std::string(KINEVO_EXAMPLES) + "/disc_slip_roll.toml");
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("nonholonomic = \"R*th_dot - x_dot\"", "nonholonomic = \"th_dot - x_dot/R\"");
  replace("unit = \"m/s\"", "unit = \"rad/s\"");
  std::ofstream(dir / "angular.toml") << text;
  const auto r = run_kinevo("simulate " + (dir / "angular.toml").string() +
                            " --t-end 0.02 --dt 1e-3 --quiet --plot " + (dir / "a.svg").string() +
                            " --plot-columns rolling_slip");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto labels = axis_labels(read_text(dir / "a.svg"));
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0], "rolling_slip [rad/s]");
  replace("unit = \"rad/s\"", "unit = \"[rad/s]\"");
  std::ofstream(dir / "bad.toml") << text;
  const auto bad = run_kinevo("simulate " + (dir / "bad.toml").string() + " --t-end 0.01 --quiet");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("bad.toml"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("'unit'"), std::string::npos) << bad.err;
}

TEST(CliFigures, ASlipVelocityIsNotDimensionless) {
  const auto dir = fresh_dir("figures_slip");
  const auto svg = dir / "slip.svg";
  const auto r = run_kinevo("simulate " + std::string(KINEVO_EXAMPLES) +
                            "/disc_slip_roll.toml --t-end 0.05 --dt 1e-4 --quiet --plot " +
                            svg.string() + " --plot-columns rolling_slip");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto labels = axis_labels(read_text(svg));
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0], "rolling_slip [m/s]");  // the example's [[constraint]] unit
}

}  // namespace
