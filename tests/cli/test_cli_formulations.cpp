// End-to-end tests of `kinevo simulate --formulation`: the options a formulation does not use are
// refused by name, the hybrid logs its switches around the flat configurations of Yoo's
// parallelogram, and the JSON reports the formulation, its switches and counters.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

TEST(CliFormulations, OptionsTheFormulationDoesNotUseAreRefused) {
  const std::string yoo = examples + "/yoo_parallelogram.toml";
  auto r = run_kinevo("simulate " + yoo + " --formulation projection --solver lm");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--solver does not apply to --formulation projection"), std::string::npos)
      << r.err;
  r = run_kinevo("simulate " + yoo + " --formulation qtz-state --stabilization baumgarte");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--stabilization does not apply"), std::string::npos) << r.err;
  r = run_kinevo("simulate " + yoo + " --formulation qtz-reduced --integrator dopri");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("SUNDIALS IDA"), std::string::npos) << r.err;
  r = run_kinevo("simulate " + yoo + " --formulation lu");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("full, partitioning, projection, hybrid, qtz-reduced"), std::string::npos)
      << r.err;
  r = run_kinevo("simulate " + yoo + " --formulation reuse --exact-every 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--exact-every"), std::string::npos) << r.err;
}

TEST(CliFormulations, ReducedFormulationsRefuseNonholonomicRowsByName) {
  const auto dir = fresh_dir("formulation_nonholonomic");
  const auto file = dir / "disc.toml";
  std::ofstream(file) << R"([model]
name = "rolling disc"
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 1.0
[[coordinate]]
name = "th"
initial = 0.0
velocity = 2.0
mass = 0.5
[[constraint]]
name = "rolling"
nonholonomic = "0.5*th_dot - x_dot"
)";
  for (const char* f : {"partitioning", "hybrid", "qtz-state", "reuse"}) {
    const auto r = run_kinevo("simulate " + file.string() + " --formulation " + f);
    EXPECT_EQ(r.status, 2) << f;
    EXPECT_NE(r.err.find("'rolling' is nonholonomic"), std::string::npos) << f << ": " << r.err;
  }
  // The acceleration-level formulations take it.
  for (const char* f : {"full", "projection", "qtz-orthogonal"}) {
    const auto r = run_kinevo("simulate " + file.string() + " --formulation " + f + " --quiet");
    EXPECT_EQ(r.status, 0) << f << ": " << r.err;
  }
  std::filesystem::remove_all(dir);
}

TEST(CliFormulations, HybridLogsItsSwitchesAroundTheFlatConfigurations) {
  const auto dir = fresh_dir("formulation_hybrid");
  const auto csv = dir / "run.csv";
  const auto r = run_kinevo("simulate " + examples +
                            "/yoo_parallelogram.toml --formulation hybrid --t-end 2 --dt 1e-4 "
                            "--json --out " +
                            csv.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["formulation"], "hybrid");
  EXPECT_EQ(j["status"], "completed");
  // To projection before each flat configuration (0.179 s, 0.986 s, 1.344 s), back after it.
  const auto& s = j["switches"];
  ASSERT_GE(s.size(), 4U) << s.dump();
  EXPECT_EQ(s[0]["from"], "partitioning");
  EXPECT_EQ(s[0]["to"], "projection");
  EXPECT_GT(s[0]["t"].get<double>(), 0.12);
  EXPECT_LT(s[0]["t"].get<double>(), 0.179);
  EXPECT_EQ(s[1]["to"], "partitioning");
  EXPECT_GT(s[1]["t"].get<double>(), 0.179);
  EXPECT_EQ(s[2]["to"], "projection");
  EXPECT_GT(s[2]["t"].get<double>(), 0.9);
  EXPECT_LT(s[2]["t"].get<double>(), 0.986);
  EXPECT_FALSE(s[0]["reason"].get<std::string>().empty());
  // The energy is kept through the three crossings; full with the same step ends on the
  // anti-parallelogram.
  EXPECT_LE(j["energy"]["max_relative_deviation"].get<double>(), 1e-6);
  const io::csv_table t = io::read_csv_table(csv);
  EXPECT_NEAR(t.rows.back()[t.column("th1")] + t.rows.back()[t.column("th2")], 0.0, 1e-9);
  std::filesystem::remove_all(dir);
}

TEST(CliFormulations, QtzStateKeepsTheEnergyWhereFullLosesTheBranch) {
  const std::string args = " --t-end 2 --dt 1e-4 --json --quiet";  // defaults otherwise
  const auto state =
      run_kinevo("simulate " + examples + "/yoo_parallelogram.toml --formulation qtz-state" + args);
  ASSERT_EQ(state.status, 0) << state.err;
  const auto js = nlohmann::json::parse(state.out);
  EXPECT_LE(js["energy"]["max_relative_deviation"].get<double>(), 1e-6);
  EXPECT_EQ(js["solver"], "qtz");
  const auto full = run_kinevo("simulate " + examples + "/yoo_parallelogram.toml" + args);
  ASSERT_EQ(full.status, 0) << full.err;
  const auto jf = nlohmann::json::parse(full.out);
  EXPECT_EQ(jf["formulation"], "full");
  EXPECT_GT(jf["energy"]["max_relative_deviation"].get<double>(), 0.1);
  // The loss is not silent: a conservative model whose energy changed gets a warning.
  EXPECT_NE(full.err.find("warning: the energy of this conservative model"), std::string::npos)
      << full.err;
}

TEST(CliFormulations, ReuseIsCompensatedByBaumgarteAndQtzReducedRunsOnIda) {
  auto r = run_kinevo("simulate " + examples +
                      "/double_pendulum.toml --formulation reuse --t-end 0.1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stabilization"], "baumgarte");
  EXPECT_EQ(j["exact_inverses"], 21);  // at the start and after every 5th of 100 steps
  r = run_kinevo("simulate " + examples +
                 "/double_pendulum.toml --formulation qtz-reduced --t-end 0.1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["integrator"], "ida");
  EXPECT_EQ(j["formulation"], "qtz-reduced");
}

// Tight error control through the flat configuration: the formulations that integrate off the
// constraint manifold see stage accelerations growing like 1 / distance^2 and the step size
// collapses there (exit 1, with the advice); qtz-state recovers every stage onto the manifold and
// completes.
TEST(CliFormulations, TightDormandPrinceThroughTheFlatConfigurationNeedsQtzState) {
  const std::string args =
      "/yoo_parallelogram.toml --integrator dopri --rtol 1e-11 --atol 1e-14 --dt 1e-3 --t-end 2 "
      "--json --formulation ";
  const auto projection = run_kinevo("simulate " + examples + args + "projection");
  EXPECT_EQ(projection.status, 1);
  EXPECT_NE(projection.err.find("step size fell below"), std::string::npos) << projection.err;
  EXPECT_NE(projection.err.find("--formulation qtz-state"), std::string::npos) << projection.err;
  const auto state = run_kinevo("simulate " + examples + args + "qtz-state");
  ASSERT_EQ(state.status, 0) << state.err;
  const auto j = nlohmann::json::parse(state.out);
  EXPECT_LE(j["energy"]["max_relative_deviation"].get<double>(), 1e-8);
}

}  // namespace
}  // namespace kinevo::test
