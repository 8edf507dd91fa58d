// End-to-end tests of `kinevo simulate`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

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
                        "fc_p1_y", "reference_difference", "solve_status", "unconverged_solves"}) {
    EXPECT_NO_THROW((void)t.column(c)) << c;
  }
  EXPECT_EQ(t.columns.back(), "unconverged_solves");  // new columns come last
  for (const auto& row : t.rows) EXPECT_EQ(row[t.column("solve_status")], 0.0);
  EXPECT_EQ(j["unconverged_solves"], 0);
  EXPECT_EQ(j["solves"], 4001);
  EXPECT_TRUE(j["stop_reason"].is_null());
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

// A GA solver asked for a tolerance of 1e-300 cannot meet it (its steps between runs and the
// residuals are round-off, not zero), so it returns not_converged whatever its accuracy: a
// deterministic unconverged solve, independent of how well the GA is tuned.
const std::string unconverged_run =
    "simulate " + examples + "/pendulum.toml --solver ga --tolerance 1e-300 --t-end 0.005 ";

TEST(CliSimulate, UnconvergedSolveStopsWithExitOneAndKeepsTheRowsBefore) {
  const auto dir = fresh_dir("simulate_unconverged");
  const auto csv = dir / "run.csv";
  const auto r = run_kinevo(unconverged_run + "--json --out " + csv.string());
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], false);
  EXPECT_EQ(j["stop_reason"], "not_converged");
  EXPECT_EQ(j["unconverged_solves"], 1);  // it stops at the first
  ASSERT_TRUE(j["first_unconverged_t"].is_number());
  const double t_stop = j["first_unconverged_t"].get<double>();
  EXPECT_NE(j["message"].get<std::string>().find("did not converge"), std::string::npos);
  EXPECT_NE(r.err.find("did not converge"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--allow-unconverged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(csv.string()), std::string::npos) << r.err;
  // The CSV holds the rows before the failed solve, none of them flagged.
  const io::csv_table t = io::read_csv_table(csv);
  EXPECT_EQ(static_cast<long long>(t.rows.size()), j["rows"].get<long long>());
  for (const auto& row : t.rows) {
    EXPECT_LT(row[t.column("t")], t_stop);
    EXPECT_EQ(row[t.column("unconverged_solves")], 0.0);
  }
  // The text summary says so too.
  const auto text = run_kinevo(unconverged_run);
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("stopped early"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("UNCONVERGED solves: 1"), std::string::npos) << text.out;
  std::filesystem::remove_all(dir);
}

TEST(CliSimulate, AllowUnconvergedRunsToTheEndAndReportsTheCount) {
  const auto dir = fresh_dir("simulate_allow_unconverged");
  const auto csv = dir / "run.csv";
  const auto r = run_kinevo(unconverged_run + "--allow-unconverged --check gigsp --json --out " +
                            csv.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], true);
  EXPECT_EQ(j["allow_unconverged"], true);
  const long long count = j["unconverged_solves"].get<long long>();
  EXPECT_GE(count, 1);
  EXPECT_LE(count, j["solves"].get<long long>());
  EXPECT_TRUE(j["first_unconverged_t"].is_number());
  EXPECT_TRUE(j["check"]["max_difference"].is_number());  // --check still compares every step
  // One warning at the first occurrence and one count at the end, not one line per solve.
  EXPECT_NE(r.err.find("warning: a ga solve did not converge"), std::string::npos) << r.err;
  const std::string counted = "warning: " + std::to_string(count) + " of " +
                              std::to_string(j["solves"].get<long long>()) +
                              " solves did not converge";
  EXPECT_NE(r.err.find(counted), std::string::npos) << r.err;
  // (Counted as kinevo's own lines: under the sanitizers LeakSanitizer appends its report.)
  std::size_t own_lines = 0;
  for (std::size_t at = r.err.find("kinevo simulate:"); at != std::string::npos;
       at = r.err.find("kinevo simulate:", at + 1)) {
    ++own_lines;
  }
  EXPECT_EQ(own_lines, 2u) << r.err;
  // Every row is there, and the flags add up to the count.
  const io::csv_table t = io::read_csv_table(csv);
  ASSERT_EQ(t.rows.size(), 6u);  // t = 0 .. 0.005 at dt = 1e-3
  EXPECT_DOUBLE_EQ(t.rows.back()[t.column("t")], 0.005);
  double flagged = 0.0;
  bool worst_seen = false;
  for (const auto& row : t.rows) {
    flagged += row[t.column("unconverged_solves")];
    if (row[t.column("unconverged_solves")] > 0) {
      EXPECT_EQ(row[t.column("solve_status")], 4.0);  // not_converged
      worst_seen = true;
    }
  }
  EXPECT_TRUE(worst_seen);
  EXPECT_EQ(flagged, static_cast<double>(count));
  std::filesystem::remove_all(dir);
}

TEST(CliSimulate, NaNForceStopsWithExitOneAndNamesTheCoordinate) {
  const auto dir = fresh_dir("simulate_nan");
  const auto model = dir / "nan.toml", csv = dir / "run.csv";
  {
    std::ofstream f(model);
    f << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nmass = 1.0\nforce = \"log(x - 10)\"\n";
  }
  const auto r = run_kinevo("simulate " + model.string() + " --json --out " + csv.string());
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stop_reason"], "non_finite");
  EXPECT_EQ(j["rows"], 0);
  EXPECT_NE(r.err.find("force of 'x'"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(csv));  // the header, no rows
  std::filesystem::remove_all(dir);
}

TEST(CliSimulate, BadOptionsExitTwo) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--integrator euler", "use rk4 or dopri"},
           {"--stabilization magic", "none, baumgarte or projection"},
           {"--dt 0", "--dt must be finite and > 0"},
           {"--solver nope", "unknown solver 'nope'"},
           {"--plot-columns zz --plot x.svg", "no column 'zz'"}}) {
    const auto r = run_kinevo("simulate " + examples + "/pendulum.toml " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

// Every numeric option is finite and in range, or refused with exit 2 naming the option and
// the range: before, NaN tolerances dropped every constraint and infinite times ran forever.
TEST(CliSimulate, NonFiniteAndOutOfRangeNumbersExitTwoNamingTheOption) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--t-end inf", "--t-end must be finite and > 0"},
           {"--t-end nan", "--t-end must be finite"},
           {"--t-end -1", "--t-end must be finite and > 0"},
           {"--dt inf", "--dt must be finite and > 0"},
           {"--dt -1e-3", "--dt must be finite and > 0"},
           {"--rtol -1", "--rtol must be finite and in (0, 1)"},
           {"--rtol nan", "--rtol must be finite and in (0, 1)"},
           {"--atol inf", "--atol must be finite and >= 0"},
           {"--alpha nan", "--alpha must be finite and >= 0"},
           {"--beta inf", "--beta must be finite and >= 0"},
           {"--gamma -1", "--gamma must be finite and >= 0"},
           {"--record-every 0", "--record-every must be an integer >= 1"},
           {"--rank-tolerance nan", "--rank-tolerance must be finite and in (0, 1)"},
           {"--rank-tolerance 1e308", "--rank-tolerance must be finite and in (0, 1)"},
           {"--islands 0", "--islands must be an integer >= 1"},
           {"--tolerance nan", "--tolerance must be finite and > 0"},
           {"--tolerance -1", "--tolerance must be finite and > 0"},
           {"--seed -1", "--seed: must be an integer in [0, 18446744073709551615]"},
           {"--seed 18446744073709551616", "--seed: must be an integer in [0, 1844674407"},
           {"--seed 1e23", "--seed: must be an integer in [0, 18446744073709551615]"},
           {"--seed 1.5", "--seed: must be an integer in [0, 18446744073709551615]"}}) {
    const auto r = run_kinevo("simulate " + examples + "/pendulum.toml --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
  // The largest seed is a seed.
  const auto ok = run_kinevo("simulate " + examples +
                             "/pendulum.toml --quiet --t-end 0.01 --seed 18446744073709551615");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

// Issue 16, item 4: a diverging motion (RK4 far outside its stability region) ended at
// x ~ -1e48 with exit 0. Now: exit 1, status "diverged", the CSV up to the diverging state.
TEST(CliSimulate, DivergedMotionExitsOneAndKeepsTheCsvUpToThere) {
  const auto dir = fresh_dir("simulate_diverged");
  const auto model = dir / "stiff.toml", csv = dir / "run.csv";
  {
    std::ofstream f(model);
    f << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nvelocity = 1.0\nmass = 1.0\n"
         "force = \"-1e8*x\"\n";
  }
  const auto r = run_kinevo("simulate " + model.string() +
                            " --t-end 0.02 --record-every 7 --json --out " + csv.string());
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "diverged");
  EXPECT_EQ(j["stop_reason"], "diverged");
  EXPECT_EQ(j["completed"], false);
  EXPECT_NE(r.err.find("diverged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--divergence-growth"), std::string::npos) << r.err;
  const auto t = io::read_csv_table(csv);
  ASSERT_GE(t.rows.size(), 2u);  // t = 0 and the diverging state, kept despite --record-every
  EXPECT_DOUBLE_EQ(t.rows.back()[0], j["last_t"].get<double>());
  EXPECT_LT(j["last_t"].get<double>(), 0.01);
  for (const auto& row : t.rows) EXPECT_LT(std::abs(row[t.column("x")]), 1e10);
  // The text report says it too; --no-divergence-check lets it run on.
  const auto text = run_kinevo("simulate " + model.string() + " --t-end 0.02");
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("diverged"), std::string::npos) << text.out;
  const auto off =
      run_kinevo("simulate " + model.string() + " --t-end 0.02 --no-divergence-check --json");
  EXPECT_NE(nlohmann::json::parse(off.out)["stop_reason"], "diverged");
  std::filesystem::remove_all(dir);
}

TEST(CliSimulate, DivergenceLimitsAreValidatedOptions) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--divergence-growth 1", "--divergence-growth must be finite and > 1"},
           {"--divergence-growth inf", "--divergence-growth must be finite and > 1"},
           {"--divergence-violation 0", "--divergence-violation must be finite and > 0"},
           {"--divergence-energy nan", "--divergence-energy must be finite and > 1"}}) {
    const auto r = run_kinevo("simulate " + examples + "/pendulum.toml --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

// The examples with default settings are not flagged (exit 0).
TEST(CliSimulate, ExamplesRunToTheEndWithDefaultSettings) {
  for (const std::string args :
       {"pendulum.toml --t-end 2", "double_pendulum.toml --t-end 2", "slider_crank.toml",
        "seven_link_loop.toml --t-end 0.3", "haug_fourbar.toml",
        "fourbar_kinematics.toml --kinematic --integrator dopri"}) {
    const auto r = run_kinevo("simulate " + examples + "/" + args + " --json");
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
  }
}

// Issue 16, item 10: unusable outputs are bad input (exit 2, naming the path), found before
// the run; no folder is created that the user did not ask for.
TEST(CliSimulate, UnusableOutputPathsExitTwoBeforeTheRun) {
  const auto dir = fresh_dir("simulate_outputs");
  for (const auto& [args, path] : std::vector<std::pair<std::string, std::string>>{
           {"--out /proc/run.csv", "/proc/run.csv"},
           {"--plot /proc/run.svg", "/proc/run.svg"},
           {"--out " + (dir / "missing" / "run.csv").string(), (dir / "missing").string()},
           {"--out " + dir.string(), dir.string()}}) {
    const auto r = run_kinevo("simulate " + examples + "/pendulum.toml --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << args << ": " << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
  // A symbolic link is written through, /dev/null accepted.
  const auto target = dir / "target.csv", link = dir / "link.csv";
  std::filesystem::create_symlink(target, link);
  const auto ok = run_kinevo("simulate " + examples + "/pendulum.toml --quiet --t-end 0.01 --out " +
                             link.string() + " --plot /dev/null");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(io::read_csv_table(target).rows.size(), 11u);
  std::filesystem::remove_all(dir);
}

TEST(CliSimulate, UnknownGaPresetExitsTwoNamingTheOption) {
  const auto r =
      run_kinevo("simulate " + examples + "/pendulum.toml --quiet --solver ga --preset thesi");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--preset"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("g3-pcx, thesis or one of the default's older names"), std::string::npos)
      << r.err;
}

// Issue 16, item 12: an interrupted run keeps what it computed (exit 130). The hidden
// --interrupt-after raises the same flag as SIGINT after that many records.
TEST(CliSimulate, InterruptKeepsTheRowsComputedAndExits130) {
  const auto dir = fresh_dir("simulate_interrupt");
  const auto csv = dir / "run.csv";
  const auto r = run_kinevo(
      "simulate " + examples +
      "/pendulum.toml --t-end 1 --dt 0.01 --interrupt-after 10 --json --out " + csv.string());
  EXPECT_EQ(r.status, 130) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "interrupted");
  EXPECT_NE(r.err.find("interrupted"), std::string::npos) << r.err;
  const auto t = io::read_csv_table(csv);
  ASSERT_EQ(t.rows.size(), 11u);  // t = 0 ... 0.1: the record where the flag was seen is the last
  EXPECT_NEAR(t.rows.back()[0], 0.1, 1e-12);
  std::filesystem::remove_all(dir);
}

// The real signals, SIGTERM and SIGINT, on a run that would take minutes: the CSV keeps the
// rows computed, exit 130.
TEST(CliSimulate, SigtermAndSigintWriteTheCsvAndExit130) {
  for (const std::string signal : {"TERM", "INT"}) {
    const auto dir = fresh_dir("simulate_sig" + signal);
    const auto csv = dir / "run.csv";
    const auto r = run_kinevo_signalled(
        "simulate " + examples +
            "/pendulum.toml --quiet --t-end 100000 --record-every 100000 --out " + csv.string(),
        signal, dir);
    EXPECT_EQ(r.status, 130) << signal << ": " << r.err;
    EXPECT_NE(r.err.find("interrupted"), std::string::npos) << signal << ": " << r.err;
    EXPECT_GE(io::read_csv_table(csv).rows.size(), 1u) << signal;
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace kinevo::test
