// End-to-end tests of `kinevo synth path`: the published cases' JSON (objective, feasible, the
// best published objective from the header), the files it writes, buildability warnings, and
// unusable input (exit 2 naming file and line).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "kinevo/synthesis/linkages/coupler_curve.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::example;
using kinevo::test::run_kinevo;

std::filesystem::path path_scratch(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() /
                 ("kinevo_cli_synth_path_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d / name;
}

}  // namespace

TEST(CliSynthPath, PublishedCaseJson) {
  const auto r =
      run_kinevo("synth path " + example("path/case2_five_points_timing.csv") + " --seed 1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["feasible"].get<bool>());
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["timing"], "prescribed");
  EXPECT_EQ(j["link_type"], "grashof");
  EXPECT_DOUBLE_EQ(j["best_published_objective"].get<double>(), 1.2840007437e-06);
  EXPECT_LE(j["objective"].get<double>(), 1.2840007437e-06);
  EXPECT_LE(j["evaluations"].get<long long>(), 5000);  // the file's "# evaluations"
  EXPECT_EQ(j["errors"].size(), 5u);
  EXPECT_FALSE(j["order_defect"].get<bool>());
  EXPECT_FALSE(j["branch_defect"].get<bool>());
  // The frame is fixed by the header: the input pivot at the origin.
  EXPECT_EQ(j["linkage"]["x0"].get<double>(), 0.0);
  // This design is a buildable crank-rocker (transmission angle 31-74 deg, links within 1:2):
  // no warning.
  EXPECT_EQ(j["grashof_type"], "crank-rocker");
  EXPECT_TRUE(j["warnings"].empty()) << j["warnings"].dump();
  EXPECT_GE(j["transmission_deg"]["min"].get<double>(), 30.0);
}

TEST(CliSynthPath, WritesItsFiles) {
  const auto dir = path_scratch("out");
  const auto r = run_kinevo("synth path " + example("path/case3_eighteen_points_closed.csv") +
                            " --seed 2 -q -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* f : {"path_points.csv", "path_curve.csv", "path_curve.svg", "path_linkage.svg",
                        "path_animation.html"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  }
  // The points carry no unit: the 3D page's axes and grid say "table units", never metres (the
  // 2D page, without libjs-three, labels no lengths).
  const std::string page = kinevo::test::read_text(dir / "path_animation.html");
  if (page.find("\"length_unit\"") != std::string::npos) {
    EXPECT_NE(page.find("\"length_unit\":\"table units\""), std::string::npos);
  }
  EXPECT_TRUE(r.out.empty());
  // Its design is not buildable (a link ratio of 25): quiet or not, the warnings reach stderr.
  EXPECT_NE(r.err.find("warning: longest/shortest link ratio"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir.parent_path());
}

// A buildable design: the transmission angle bound holds and no warning is printed.
TEST(CliSynthPath, MinimumTransmissionAngle) {
  const auto r = run_kinevo("synth path " + example("path/case1_straight_line.csv") +
                            " --seed 1 --evaluations 20000 --min-transmission 35 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["feasible"].get<bool>());
  EXPECT_GE(j["transmission_deg"]["min"].get<double>(), 35.0 - 1e-9);
  EXPECT_LE(j["transmission_deg"]["max"].get<double>(), 145.0 + 1e-9);
  EXPECT_EQ(j["grashof_type"], "crank-rocker");
}

TEST(CliSynthPath, UnusableInput) {
  const auto bad = path_scratch("bad.csv");
  {
    std::ofstream f(bad);
    f << "# link bounds = 5\nx,y\n0,0\n1,0\n2,0\n";
  }
  auto r = run_kinevo("synth path " + bad.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.csv:1"), std::string::npos) << r.err;
  r = run_kinevo("synth path " + example("path/case1_straight_line.csv") + " --timing prescribed");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("input angle column"), std::string::npos) << r.err;
  r = run_kinevo("synth path " + example("path/case1_straight_line.csv") +
                 " --min-transmission 95");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--min-transmission"), std::string::npos) << r.err;
  r = run_kinevo("synth path " + example("path/case1_straight_line.csv") + " --link-type crank");
  EXPECT_EQ(r.status, 2);
  std::filesystem::remove_all(bad.parent_path());
}

// The path generator's closed-form coupler point against `kinevo analyze loop rrrr` with a
// coupler point (the course notes' RESC11 analyser, eqs. (24a,b)): the same linkage, every input,
// both branches.
TEST(CliSynthPath, CouplerPointAgreesWithLoopAnalysis) {
  kinevo::synthesis::path_linkage l;
  l.r1 = 4.0, l.r2 = 1.0, l.r3 = 3.5, l.r4 = 3.0, l.rcx = 1.2, l.rcy = 0.8;
  const double r = std::hypot(l.rcx, l.rcy),
               alpha = std::atan2(l.rcy, l.rcx) * 180.0 / std::numbers::pi;
  for (const int branch : {1, -1}) {
    for (int k = 0; k < 8; ++k) {
      const double psi = 0.3 + 0.8 * k;
      const auto run = run_kinevo(fmt::format(
          "analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 --coupler-r {:.17g} --coupler-alpha "
          "{:.17g} --branch {} --from {:.17g} --to {:.17g} --step 0.5 --json",
          r, alpha, branch, psi - 0.5, psi));
      ASSERT_EQ(run.status, 0) << run.err;
      const auto j = nlohmann::json::parse(run.out)["final"];
      const double x = j["coupler_x"][0].get<double>(), y = j["coupler_y"][0].get<double>();
      double nearest = 1e300;
      for (const int b : {1, -1}) {
        const auto p = kinevo::synthesis::path_position_at(l, psi, b);
        ASSERT_TRUE(p.has_value());
        nearest = std::min(nearest, std::hypot(p->c.x() - x, p->c.y() - y));
      }
      EXPECT_LT(nearest, 1e-10) << "psi " << psi << " branch " << branch;
    }
  }
}
