// End-to-end tests of `kinevo simulate`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "io/csv_table.hpp"
#include "tests/cli/run_command.hpp"

namespace kinevo::test {
namespace {

const std::string examples = KINEVO_EXAMPLES;

TEST(CliSimulate, WritesCsvSvgAndJson) {
  const auto dir = fresh_dir("simulate");
  const auto csv = dir / "run.csv", svg = dir / "run.svg";
  const auto r =
      run_kinevo("simulate " + examples +
                 "/double_pendulum.toml --solver gigsp --t-end 1 --dt 1e-3 "
                 "--stabilization baumgarte --check uk --out " +
                 csv.string() + " --plot " + svg.string() + " --plot-columns p2_x,p2_y --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], true);
  EXPECT_EQ(j["steps"], 1000);
  EXPECT_LT(j["check"]["max_difference"].get<double>(), 1e-10);
  EXPECT_LT(std::abs(j["energy"]["relative_drift"].get<double>()), 1e-8);
  const io::csv_table t = io::read_csv_table(csv);
  EXPECT_EQ(t.rows.size(), 1001u);
  for (const char* c : {"t", "p1_x", "p2_y_dot", "p1_y_ddot", "position_violation", "energy",
                        "fc_p1_y", "reference_difference"}) {
    EXPECT_NO_THROW((void)t.column(c)) << c;
  }
  EXPECT_DOUBLE_EQ(t.rows.back()[t.column("t")], 1.0);
  EXPECT_TRUE(std::filesystem::exists(svg));
}

TEST(CliSimulate, KinematicFiveBarWithDormandPrince) {
  const auto r = run_kinevo("simulate " + examples +
                            "/fivebar_redundant.toml --integrator dopri "
                            "--stabilization projection --t-end 2 --dt 0.01 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], true);
  EXPECT_TRUE(j["energy"].is_null());  // kinematic mode defines no energy
  // Records between steps come from the continuous extension (not projected): ~rtol.
  EXPECT_LT(j["max_position_violation"].get<double>(), 1e-7);
}

TEST(CliSimulate, InconsistentModelStopsWithExitOneAndKeepsTheCsv) {
  const auto dir = fresh_dir("simulate_inconsistent");
  const auto csv = dir / "run.csv";
  const auto r =
      run_kinevo("simulate " + examples + "/fivebar_inconsistent.toml --out " + csv.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("'link5_y'"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(csv));
}

TEST(CliSimulate, BadOptionsExitTwo) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--integrator euler", "use rk4 or dopri"},
           {"--stabilization magic", "none, baumgarte or projection"},
           {"--dt 0", "--dt must be > 0"},
           {"--solver nope", "unknown solver 'nope'"},
           {"--plot-columns zz --plot x.svg", "no column 'zz'"}}) {
    const auto r = run_kinevo("simulate " + examples + "/pendulum.toml " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace kinevo::test
