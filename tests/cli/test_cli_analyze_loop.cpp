// kinevo analyze loop: the closed-form analysers (RESC11-13) against `kinevo kinematics` on the
// same linkages written as models (examples/loop_*.toml), the JSON summary, the files, and the
// exit statuses (1: points not assembled, 2: bad input).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

const std::string drive = " --expression '0.5 + 2*t + 0.3*sin(3*t)'";

std::string fmt_grid(double t_end, double dt) {
  return " --t-end " + std::to_string(t_end) + " --dt " + std::to_string(dt);
}

double angle_difference(double a, double b) {
  return std::remainder(a - b, 2.0 * std::numbers::pi);
}

// Runs the analyser and the general kinematics over t = 0 .. t_end and compares the named
// outputs (value, _dot, _ddot) at every grid time to 1e-8.
void cross_check(const std::string& name, const std::string& loop_args, const std::string& model,
                 double t_end, double dt,
                 const std::vector<std::pair<std::string, bool>>& outputs) {
  const auto dir = fresh_dir("analyze_loop_" + name);
  const std::string grid = fmt_grid(t_end, dt);
  const auto a =
      run_kinevo("analyze loop " + loop_args + grid + " -q -o " + (dir / "loop").string());
  ASSERT_EQ(a.status, 0) << a.err;
  const auto k =
      run_kinevo("kinematics " + examples + "/" + model + grid +
                 " --eps-e 1e-12 --eps-s 1e-12 --quiet --out " + (dir / "q.csv").string());
  ASSERT_EQ(k.status, 0) << k.err;
  const io::csv_table loop = io::read_csv_table(dir / "loop" / "loop.csv");
  const io::csv_table q = io::read_csv_table(dir / "q.csv");
  ASSERT_EQ(loop.rows.size(), q.rows.size());
  ASSERT_GE(loop.rows.size(), 5u);
  for (std::size_t i = 0; i < loop.rows.size(); ++i) {
    EXPECT_NEAR(loop.rows[i][0], q.rows[i][0], 1e-12);
    for (const auto& [out, angle] : outputs) {
      for (const std::string suffix : {"", "_dot", "_ddot"}) {
        const double x = loop.rows[i][loop.column(out + suffix)];
        const double y = q.rows[i][q.column(out + suffix)];
        const double diff = angle && suffix.empty() ? angle_difference(x, y) : x - y;
        EXPECT_NEAR(diff, 0.0, 1e-8) << name << " " << out << suffix << " at row " << i;
      }
    }
  }
}

TEST(CliAnalyzeLoop, RrrrMatchesTheGeneralKinematics) {
  cross_check("rrrr", "rrrr --a1 4 --a2 1 --a3 3.5 --a4 3" + drive, "loop_rrrr.toml", 2.0, 0.25,
              {{"phi", true}, {"theta", true}});
}

TEST(CliAnalyzeLoop, RprrMatchesTheGeneralKinematics) {
  cross_check("rprr", "rprr --a1 2.5 --a2 1.2 --expression '3 + 0.5*sin(pi*t)^2'", "loop_rprr.toml",
              1.0, 0.125, {{"psi", true}, {"theta", true}});
}

TEST(CliAnalyzeLoop, RrrpMatchesTheGeneralKinematics) {
  cross_check("rrrp", "rrrp --a1 0.3 --a2 1 --a3 2.5" + drive, "loop_rrrp.toml", 2.0, 0.25,
              {{"phi", true}, {"a", false}});
}

TEST(CliAnalyzeLoop, ChainJsonAndFiles) {
  const auto dir = fresh_dir("analyze_loop_chain");
  const auto r = run_kinevo("analyze loop chain " + examples + "/shovel_actuator.toml --json -o " +
                            (dir / "shovel").string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["points"], 101);
  EXPECT_EQ(j["failed"], 0);
  ASSERT_EQ(j["stages"].size(), 2u);
  EXPECT_EQ(j["stages"][1]["kind"], "rrrr");
  EXPECT_GT(j["stages"][1]["min_transmission_deg"].get<double>(), 0.0);
  EXPECT_TRUE(std::filesystem::exists(dir / "shovel" / "loop.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "shovel" / "loop.svg"));
  const io::csv_table t = io::read_csv_table(dir / "shovel" / "loop.csv");
  EXPECT_NO_THROW(t.column("bucket.phi_ddot"));
}

TEST(CliAnalyzeLoop, PointsOutOfRangeExitOneAndAreNamed) {
  // Case ii rocker: psi beyond its limit (about 57 deg) does not assemble.
  const auto r = run_kinevo(
      "analyze loop rrrr --a1 2 --a2 2.5 --a3 1.3 --a4 1 --from 0 --to 3 --step 0.5 --json");
  EXPECT_EQ(r.status, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["failed"].get<int>(), 0);
  EXPECT_EQ(j["failures"][0]["status"], "out_of_range");
  EXPECT_NE(r.err.find("not analysed: t = "), std::string::npos) << r.err;
}

TEST(CliAnalyzeLoop, BadInputExitsTwo) {
  auto r = run_kinevo("analyze loop rprr --a1 2 --a2 -1 --expression t");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--a2 must be finite and > 0"), std::string::npos) << r.err;
  r = run_kinevo("analyze loop rrrp --a1 0 --a2 1 --a3 2 --expression 'sin(u)'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--expression"), std::string::npos) << r.err;
  r = run_kinevo("analyze loop rrrp --a1 0 --a2 1 --a3 2");
  EXPECT_EQ(r.status, 2);
  r = run_kinevo("analyze loop chain /nonexistent.toml");
  EXPECT_EQ(r.status, 2);
}

}  // namespace
}  // namespace kinevo::test
