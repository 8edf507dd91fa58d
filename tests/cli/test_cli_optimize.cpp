// End-to-end tests of `kinevo optimize`.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/run_command.hpp"

namespace kinevo::test {
namespace {

nlohmann::json json_of_output(const command_output& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CliOptimize, JsonHasTheResultAndIsReproducible) {
  const std::string args =
      "optimize --function rastrigin --dim 6 --islands 4 --seed 3 --generations 60 --json";
  const auto a = json_of_output(run_kinevo(args));
  for (const char* key :
       {"best_value", "best_x", "evaluations", "generations", "seed", "stop_reason"}) {
    EXPECT_TRUE(a.contains(key)) << key;
  }
  EXPECT_EQ(a["best_x"].size(), 6u);
  EXPECT_EQ(a["generations"], 60);
  EXPECT_EQ(a["evaluations"], 4 * 100 + 60 * 4 * 99);
  EXPECT_EQ(a["seed"], 3);
  // Same seed: same numbers, whatever the number of threads.
  const auto b = json_of_output(run_kinevo(args + " --threads 1"));
  const auto c = json_of_output(run_kinevo(args + " --threads 4"));
  EXPECT_EQ(a["best_x"], b["best_x"]);
  EXPECT_EQ(a["best_x"], c["best_x"]);
  EXPECT_EQ(a["best_value"], c["best_value"]);
  const auto d = json_of_output(run_kinevo(
      "optimize --function rastrigin --dim 6 --islands 4 --seed 4 --generations 60 --json"));
  EXPECT_NE(a["best_x"], d["best_x"]);
}

TEST(CliOptimize, BadInputGivesAClearMessageAndExitTwo) {
  struct bad_case {
    std::string args;
    std::string message;
  };
  for (const auto& c : std::vector<bad_case>{
           {"optimize --function nope", "--function 'nope' is unknown"},
           {"optimize --dim 0", "--dim must be an integer in [1, 100000] (got 0)"},
           {"optimize --function sphere --dim 2 --lower 1 --upper 0",
            "--lower must be below upper, both finite: variable 0 has [1, 0]"},
           {"optimize --dim 3 --lower 0 0", "--lower has 2 values for dimension 3"},
           {"optimize --encoding binary --crossover sbx", "needs real genes"},
           {"optimize --bits 8", "--bits applies to binary or gray genes"},
           {"optimize --checkpoint-every 5", "--checkpoint-every needs --checkpoint"},
           {"optimize --resume x --range-runs 3", "cannot open the checkpoint file"},
           {"optimize --population 1", "--population must be an integer >= 2 (got 1)"},
           {"optimize --generations 0", "no termination limit"},
           {"optimize --topology star", "--topology: 'star' is unknown"},
           {"optimize --no-such-option", "no-such-option"},
           {"optimize --resume /nonexistent/checkpoint", "cannot open the checkpoint file"},
       }) {
    const auto r = run_kinevo(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_TRUE(r.out.empty() || c.args.find("--no-such") != std::string::npos) << r.out;
  }
  // A non-finite objective (x^2 overflows on this box) stops with the point, exit 1.
  const auto r = run_kinevo("optimize --function sphere --dim 2 --lower -1e300 --upper 1e300");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("returned inf at x = ("), std::string::npos) << r.err;
}

// issue 16.5 and 16.11: every numeric option is finite and in range, named in the message, exit
// 2; sizes whose memory cannot exist are refused up front instead of ending in std::bad_alloc.
TEST(CliOptimize, NumericOptionsOutOfRangeAreRefusedByName) {
  struct bad_case {
    std::string args;
    std::string message;
  };
  for (const auto& c : std::vector<bad_case>{
           {"--lower -1e308 --upper 1e308", "--upper minus lower must be a finite width"},
           {"--lower nan", "--lower must be finite"},
           {"--max-evals -1", "--max-evals must be an integer >= 0 (got -1)"},
           {"--max-seconds -1", "--max-seconds must be finite and >= 0"},
           {"--max-seconds inf", "--max-seconds must be finite"},
           {"--stall-generations -3", "--stall-generations must be an integer >= 0"},
           {"--stall-tolerance nan", "--stall-tolerance must be finite"},
           {"--target nan", "--target must be finite"},
           {"--range-runs 0", "--range-runs must be an integer in [1, 10000] (got 0)"},
           {"--islands 0", "--islands must be an integer >= 1 (got 0)"},
           {"--threads -1", "--threads must be an integer in [0, 4096]"},
           {"--checkpoint-every -2 --checkpoint x", "--checkpoint-every must be an integer >= 0"},
           {"--cost-us nan", "--cost-us must be finite"},
           {"--shrink 0 --range-runs 2", "--shrink must be finite and in (0, 1]"},
           {"--population 1000000000", "--population needs about"},
           {"--islands 1000000", "--islands needs about"},
           {"--preset tunde", "--preset: 'tunde' is unknown"},
       }) {
    const auto r = run_kinevo("optimize --function sphere --dim 3 --generations 5 " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// issue 16.9: the documented [optimize] section, a UTF-8 BOM, and value errors that name the
// config file, line and key.
TEST(CliOptimize, ConfigSectionBomAndValueErrorsNameTheFile) {
  const auto dir = fresh_dir("optimize_config_16_9");
  std::ofstream(dir / "section.toml")
      << "# options\n[optimize]\nfunction = \"sphere\"\ndim = 2\ngenerations = 10\n";
  const auto a = json_of_output(
      run_kinevo("optimize --config " + (dir / "section.toml").string() + " --json"));
  EXPECT_EQ(a["function"], "sphere");
  EXPECT_EQ(a["best_x"].size(), 2u);
  std::ofstream(dir / "bom.toml") << "\xEF\xBB\xBF# a comment first\nfunction = \"sphere\"\n"
                                     "dim = 3\ngenerations = 10\nlower = [-1, -2, -3]\n";
  const auto b =
      json_of_output(run_kinevo("optimize --config " + (dir / "bom.toml").string() + " --json"));
  EXPECT_EQ(b["best_x"].size(), 3u);
  std::ofstream(dir / "value.toml") << "function = \"sphere\"\n\nmax-evals = -5\n";
  auto r = run_kinevo("optimize --config " + (dir / "value.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("value.toml:3: field 'max-evals'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("must be an integer >= 0"), std::string::npos) << r.err;
  std::ofstream(dir / "type.toml") << "dim = \"three\"\n";
  r = run_kinevo("optimize --config " + (dir / "type.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("type.toml:1: field 'dim'"), std::string::npos) << r.err;
  std::ofstream(dir / "ga.toml") << "function = \"sphere\"\nrank-pressure = 5\n";
  r = run_kinevo("optimize --config " + (dir / "ga.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(
      r.err.find("ga.toml:2: field 'rank-pressure' (--rank-pressure) must be finite and in [1, 2]"),
      std::string::npos)
      << r.err;
  std::ofstream(dir / "other.toml") << "[simulate]\ndt = 1\n";
  r = run_kinevo("optimize --config " + (dir / "other.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("section [simulate] is not known"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

// The budget rule (docs/ga.md): --max-evals alone runs to its evaluation limit (10 individuals x
// 1000 default generations would stop at 10,010), and the stop reason says so; with
// --generations also given, the first limit met ends the run.
TEST(CliOptimize, GivenEvaluationBudgetIsTheBudget) {
  const auto j = json_of_output(run_kinevo(
      "optimize --function sphere --dim 2 --population 10 --seed 1 --max-evals 20000 --json"));
  EXPECT_EQ(j["stop_reason"], "evaluations");
  EXPECT_LE(j["evaluations"].get<std::int64_t>(), 20000);
  EXPECT_GT(j["evaluations"].get<std::int64_t>(), 20000 - 10);
  const auto k = json_of_output(
      run_kinevo("optimize --function sphere --dim 2 --population 10 --seed 1 --max-evals 20000 "
                 "--generations 50 --json"));
  EXPECT_EQ(k["stop_reason"], "generations");
  EXPECT_EQ(k["generations"], 50);
}

TEST(CliOptimize, OptionsFromATomlConfigFile) {
  const auto dir = fresh_dir("optimize_config");
  std::ofstream(dir / "opts.toml")
      << "function = \"sphere\"\ndim = 3\ngenerations = 30\nseed = 9\n";
  const auto j =
      json_of_output(run_kinevo("optimize --config " + (dir / "opts.toml").string() + " --json"));
  EXPECT_EQ(j["function"], "sphere");
  EXPECT_EQ(j["best_x"].size(), 3u);
  EXPECT_EQ(j["generations"], 30);
  EXPECT_EQ(j["seed"], 9);
  // The command line wins over the file.
  const auto k = json_of_output(
      run_kinevo("optimize --config " + (dir / "opts.toml").string() + " --dim 2 --json"));
  EXPECT_EQ(k["best_x"].size(), 2u);
  std::ofstream(dir / "bad.toml") << "function = \"sphere\"\nnope = 1\n";
  const auto r = run_kinevo("optimize --config " + (dir / "bad.toml").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.toml:2: field 'nope': unknown option"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(CliOptimize, ConfigThatIsADirectoryOrMissingIsRefused) {
  // A directory used to read as an empty config and run with the defaults.
  const auto dir = fresh_dir("optimize_config_dir");
  const auto r = run_kinevo("optimize --config " + dir.string() + " --generations 2");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find(dir.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is not a regular file (a directory"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto missing = run_kinevo("optimize --config " + (dir / "none.toml").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("none.toml"), std::string::npos) << missing.err;
  std::filesystem::remove_all(dir);
}

TEST(CliOptimize, LogPlotAndTableFiles) {
  const auto dir = fresh_dir("optimize_files");
  const auto r =
      run_kinevo("optimize --function ackley --dim 3 --islands 2 --generations 20 --quiet --log " +
                 (dir / "log.csv").string() + " --plot " + (dir / "best.svg").string() +
                 " --table " + (dir / "runs.csv").string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty());  // --quiet
  const auto log = io::read_csv_table(dir / "log.csv");
  EXPECT_EQ(log.rows.size(), 2u * 21u);
  EXPECT_NO_THROW(log.column("diversity"));
  const auto runs = io::read_csv_table(dir / "runs.csv");
  EXPECT_EQ(runs.rows.size(), 1u);
  std::ifstream svg(dir / "best.svg");
  std::string first;
  std::getline(svg, first);
  EXPECT_NE(first.find("<svg"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(CliOptimize, RangeRunsShrinkAndReportEveryRun) {
  const auto j =
      json_of_output(run_kinevo("optimize --function quadratic --dim 4 --gaucsd --max-evals 6400 "
                                "--generations 0 --range-runs 5 --shrink 0.1 --json"));
  ASSERT_EQ(j["runs"].size(), 5u);
  EXPECT_NEAR(j["runs"][1]["radii"][0].get<double>(), 5.0, 1e-12);
  EXPECT_NEAR(j["runs"][4]["radii"][0].get<double>(), 5e-3, 1e-15);
  // (0, -pi^2, 0, -2 pi^2): the minimiser of the built-in 4-variable quadratic.
  const std::array<double, 4> exact{0.0, -9.8696044010893586, 0.0, -19.739208802178717};
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(j["best_x"][k].get<double>(), exact[k], 1e-4);
}

TEST(CliOptimize, TunedPresetSolvesRosenbrockWithinTheTotalBudget) {
  // A stochastic method: the contract is the median of three seeds (over seeds 1-20, 3 single
  // runs end above 1e-8 and the median is ~5e-15), each within the budget.
  std::vector<double> best;
  for (const int seed : {1, 2, 3}) {
    const auto j = json_of_output(run_kinevo(
        "optimize --function rosenbrock --dim 4 --preset tuned --max-evals 20000 --json --seed " +
        std::to_string(seed)));
    EXPECT_LE(j["evaluations"].get<std::int64_t>(), 20000);
    EXPECT_EQ(j["runs"].size(), 80u);
    best.push_back(j["best_value"].get<double>());
  }
  std::sort(best.begin(), best.end());
  EXPECT_LT(best[1], 1e-8);
  const auto r = run_kinevo("optimize --preset tuned --gaucsd");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--preset tuned is real-coded"), std::string::npos) << r.err;
}

TEST(CliOptimize, ResumeFromACheckpointEqualsTheUninterruptedRun) {
  const auto dir = fresh_dir("optimize_resume");
  const std::string common =
      "optimize --function rosenbrock --dim 5 --islands 3 --topology random --seed 5 --json";
  const auto straight = json_of_output(run_kinevo(common + " --generations 100"));
  const std::string ck = (dir / "state.ck").string();
  const auto part = json_of_output(
      run_kinevo(common + " --generations 50 --checkpoint " + ck + " --checkpoint-every 25"));
  EXPECT_EQ(part["generations"], 50);
  const auto resumed = json_of_output(run_kinevo(common + " --generations 100 --resume " + ck));
  EXPECT_EQ(straight["best_x"], resumed["best_x"]);
  EXPECT_EQ(straight["best_value"], resumed["best_value"]);
  EXPECT_EQ(straight["evaluations"], resumed["evaluations"]);
  std::filesystem::remove_all(dir);
}

// A run killed while checkpointing left "<checkpoint>.tmp.<pid>.<n>" beside the checkpoint: the
// next run removes it (only that checkpoint's, of a dead process) and writes a valid checkpoint.
TEST(CliOptimize, AStaleCheckpointTemporaryIsRemoved) {
  const auto dir = fresh_dir("optimize_stale_tmp");
  const std::string common =
      "optimize --function rosenbrock --dim 5 --islands 3 --topology random --seed 5 --json";
  const std::string ck = (dir / "state.ck").string();
  // pid 2147483646 is above Linux's largest pid_max: no process has it.
  const auto stale = dir / ".state.ck.tmp.2147483646.0";
  const auto stale_range = dir / ".state.ck.ranges.tmp.2147483646.3";
  const auto other = dir / ".notes.ck.tmp.2147483646.0";
  for (const auto& p : {stale, stale_range, other}) std::ofstream(p) << "kinevo-ga-checkpoint\n";
  // Fewer generations than --checkpoint-every: the leftovers go at the run's start already.
  const auto r =
      run_kinevo(common + " --generations 10 --checkpoint " + ck + " --checkpoint-every 25");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_FALSE(std::filesystem::exists(stale_range));
  EXPECT_TRUE(std::filesystem::exists(other));
  ASSERT_EQ(
      run_kinevo(common + " --generations 50 --checkpoint " + ck + " --checkpoint-every 25").status,
      0);
  const auto resumed = run_kinevo(common + " --generations 100 --resume " + ck);
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_EQ(json_of_output(resumed)["generations"], 100);
  std::filesystem::remove_all(dir);
}

TEST(CliOptimize, CtrlCFinishesTheGenerationSavesStateAndExits130) {
  const auto dir = fresh_dir("optimize_sigint");
  const std::string ck = (dir / "state.ck").string();
  const std::string common = "optimize --function rastrigin --dim 5 --islands 2 --seed 8 --json";
  // About 20 ms per generation: interrupted long before 4000 generations.
  const auto r = run_kinevo_signalled(
      common + " --generations 4000 --cost-us 100 --checkpoint " + ck, "INT", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stop_reason"], "interrupted");
  EXPECT_LT(j["generations"].get<int>(), 4000);
  ASSERT_TRUE(std::filesystem::exists(ck));
  // Continuing to a fixed limit reaches exactly the uninterrupted result.
  const auto resumed = json_of_output(run_kinevo(common + " --generations 4000 --resume " + ck));
  const auto straight = json_of_output(run_kinevo(common + " --generations 4000"));
  EXPECT_EQ(resumed["best_x"], straight["best_x"]);
  EXPECT_EQ(resumed["evaluations"], straight["evaluations"]);
  std::filesystem::remove_all(dir);
}

// issue 16.13: Ctrl-C during range runs (--preset tuned) said "state saved to  (continue with
// --resume )" and saved nothing. Without --checkpoint the message says what was kept and how to
// make the run resumable, and the results are printed and written.
TEST(CliOptimize, CtrlCDuringRangeRunsKeepsTheResultsAndSaysSo) {
  const auto dir = fresh_dir("optimize_sigint_tuned");
  const auto r = run_kinevo_signalled(
      "optimize --function rastrigin --dim 5 --preset tuned --seed 8 --json "
      "--max-evals 100000000 --cost-us 100 --table " +
          (dir / "runs.csv").string(),
      "INT", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stop_reason"], "interrupted");
  EXPECT_FALSE(j.contains("checkpoint"));
  EXPECT_TRUE(std::filesystem::exists(dir / "runs.csv"));
  EXPECT_NE(r.err.find("interrupted in range run 1 of 80"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("start it with --checkpoint FILE"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("saved to  "), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace

// Seeds are integers in [0, 2^64 - 1]: negative, too large or non-integer text is unusable input
// (CLI11's own conversion turned all of these into 2^64 - 1 silently).
TEST(CliOptimize, SeedOutOfRangeIsRefused) {
  for (const std::string seed : {"-1", "18446744073709551616", "1e23", "1.5"}) {
    const auto r = run_kinevo("optimize --function sphere --dim 2 --quiet --seed " + seed);
    EXPECT_EQ(r.status, 2) << seed;
    EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
  }
  const auto j = json_of_output(run_kinevo(
      "optimize --function sphere --dim 2 --generations 2 --json --seed 18446744073709551615"));
  EXPECT_EQ(j["seed"].get<std::uint64_t>(), 18446744073709551615ULL);
}

}  // namespace kinevo::test

namespace kinevo::test {
namespace {

// Range runs (--preset tuned) started with --checkpoint: interrupted, then resumed with the same
// options, they end exactly where the uninterrupted sequence ends (ga::resume_range_runs).
TEST(CliOptimize, InterruptedTunedRunResumesFromItsCheckpointExactly) {
  const auto dir = fresh_dir("optimize_tuned_resume");
  const std::string ck = (dir / "tuned.ck").string();
  const std::string common =
      "optimize --function rastrigin --dim 5 --preset tuned --seed 8 --json --max-evals 100000 "
      "--cost-us 20";
  const auto interrupted = run_kinevo_signalled(common + " --checkpoint " + ck, "INT", dir);
  ASSERT_EQ(interrupted.status, 130) << interrupted.err;
  EXPECT_NE(interrupted.err.find("--resume " + ck), std::string::npos) << interrupted.err;
  ASSERT_TRUE(std::filesystem::exists(ck));
  const auto resumed = run_kinevo(common + " --resume " + ck);
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto straight = run_kinevo(common);
  ASSERT_EQ(straight.status, 0) << straight.err;
  const auto a = nlohmann::json::parse(resumed.out), b = nlohmann::json::parse(straight.out);
  EXPECT_EQ(a["best_x"], b["best_x"]);
  EXPECT_EQ(a["best_value"], b["best_value"]);
  EXPECT_EQ(a["evaluations"], b["evaluations"]);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::test
