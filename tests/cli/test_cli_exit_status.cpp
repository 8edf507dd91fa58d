// The README's exit-status contract, one rule at a time, for every subcommand:
//   0 success, 1 the computation failed (diverged, NaN, not converged, inconsistent),
//   2 unusable input, options or output location, 130 interrupted (what was computed is kept).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

struct exit_case {
  std::string args;
  int status;
};

// Model files written by the test: a run that diverges (explicit RK4 far beyond its stability
// limit: omega dt = 1e4 * 1e-3 = 10 > 2.8) and a force that is NaN at the initial state.
std::filesystem::path write_model(const std::filesystem::path& dir, const std::string& name,
                                  const std::string& force) {
  const auto path = dir / name;
  std::ofstream f(path);
  f << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nvelocity = 1.0\nmass = 1.0\nforce = \""
    << force << "\"\n";
  return path;
}

void expect_statuses(const std::vector<exit_case>& cases) {
  for (const auto& c : cases) {
    const auto r = run_kinevo(c.args);
    EXPECT_EQ(r.status, c.status) << "kinevo " << c.args << "\nstderr: " << r.err.substr(0, 2000);
    if (c.status == 2 || c.status == 1) {
      EXPECT_FALSE(r.err.empty()) << "kinevo " << c.args;
    }
  }
}

TEST(ExitStatus, Simulate) {
  const auto dir = fresh_dir("exit_simulate");
  const auto diverging = write_model(dir, "diverging.toml", "-1e8*x");
  const auto nan_force = write_model(dir, "nan.toml", "log(x - 10)");
  const auto csv = (dir / "run.csv").string();
  expect_statuses({
      {"simulate " + examples + "/pendulum.toml --t-end 0.1 --quiet --out " + csv, 0},
      {"simulate " + diverging.string() + " --t-end 0.02 --quiet --out " + csv, 1},
      {"simulate " + nan_force.string() + " --t-end 0.02 --quiet", 1},
      {"simulate " + examples + "/missing.toml", 2},
      {"simulate " + examples + "/pendulum.toml --dt inf", 2},
      {"simulate " + examples + "/pendulum.toml --t-end inf", 2},
      {"simulate " + examples + "/pendulum.toml --rank-tolerance nan", 2},
      {"simulate " + examples + "/pendulum.toml --solver ga --preset thesi", 2},
      {"simulate " + examples + "/pendulum.toml --out /proc/run.csv", 2},
      {"simulate " + examples + "/pendulum.toml --out " + (dir / "no/such/dir/run.csv").string(),
       2},
  });
  EXPECT_FALSE(std::filesystem::exists(dir / "no"));  // never creates folders it was not asked for
  std::filesystem::remove_all(dir);
}

// 130: the subcommands that run long (simulate, study, optimize) keep what they computed.
// accel, model and synth finish in well under a second; a signal ends them as it would any
// program.
TEST(ExitStatus, SimulateInterruptedKeepsTheCsv) {
  const auto dir = fresh_dir("exit_simulate_int");
  const auto csv = dir / "run.csv";
  const auto r = run_kinevo_signalled("simulate " + examples +
                                          "/double_pendulum.toml --quiet --t-end 1e5 "
                                          "--record-every 100000 --out " +
                                          csv.string(),
                                      "INT", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_TRUE(std::filesystem::exists(csv)) << "the steps computed are kept";
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, Accel) {
  const auto dir = fresh_dir("exit_accel");
  const auto nan_force = write_model(dir, "nan.toml", "log(x - 10)");
  expect_statuses({
      {"accel " + examples + "/double_pendulum.toml --quiet", 0},
      {"accel " + examples + "/fivebar_inconsistent.toml --quiet", 1},
      {"accel " + nan_force.string() + " --quiet", 1},
      {"accel " + examples + "/missing.toml", 2},
      {"accel " + examples + "/double_pendulum.toml --rank-tolerance nan", 2},
      {"accel " + examples + "/double_pendulum.toml --solvers nosuch", 2},
  });
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, Model) {
  const auto dir = fresh_dir("exit_model");
  expect_statuses({
      {"model info " + examples + "/double_pendulum.toml --quiet", 0},
      {"model chain --links 3 --out " + (dir / "chain.toml").string(), 0},
      {"model info " + examples + "/missing.toml", 2},
      {"model info /dev/zero", 2},
      {"model chain --links 3 --gravity nan --out " + (dir / "bad.toml").string(), 2},
      {"model assemble " + examples + "/haug_fourbar.toml --quiet", 0},
      {"model assemble " + examples + "/haug_fourbar.toml --position-tolerance -1", 2},
      {"kinematics " + examples + "/haug_fourbar.toml --t-end 1 --dt 0.1 --quiet", 0},
      {"kinematics " + examples + "/slider_crank_lockup.toml --t-end 2 --dt 0.01 --quiet", 1},
      {"kinematics " + examples + "/haug_fourbar.toml --dt 0 --quiet", 2},
  });
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.toml"));
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, Optimize) {
  const auto dir = fresh_dir("exit_optimize");
  expect_statuses({
      {"optimize --function sphere --dim 2 --max-evals 2000 --quiet", 0},
      // x^2 overflows on this box: a non-finite objective stops the run, naming the point.
      {"optimize --function sphere --dim 2 --lower -1e300 --upper 1e300 --quiet", 1},
      {"optimize --function sphere --dim 2 --lower -1e308 --upper 1e308 --quiet", 2},
      {"optimize --function sphere --dim 2 --max-evals -1 --quiet", 2},
      {"optimize --function nosuch --quiet", 2},
      {"optimize --config " + dir.string() + " --quiet", 2},
      {"optimize --problem " + examples + "/missing.toml --quiet", 2},
      // Issue 17: an answer that violates a constraint is a failure unless accepted.
      {"optimize --problem " + examples + "/problem_constrained.toml --constraints penalty --quiet",
       1},
      {"optimize --problem " + examples +
           "/problem_constrained.toml --constraints penalty --allow-infeasible --quiet",
       0},
      {"optimize --problem " + examples + "/problem_constrained.toml --quiet", 0},
      {"optimize --problem " + examples + "/problem_constrained.toml --constraints nosuch", 2},
      {"optimize --problem " + examples + "/problem_constrained.toml --equality-tolerance -1", 2},
      {"optimize --problem " + examples + "/problem_constrained.toml --epsilon-until 0", 2},
  });
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, OptimizeInterruptedBySigtermSavesTheState) {
  const auto dir = fresh_dir("exit_optimize_term");
  const auto ck = dir / "state.ck";
  const auto r = run_kinevo_signalled(
      "optimize --function rastrigin --dim 5 --islands 2 --seed 8 "
      "--quiet --generations 100000000 --cost-us 100 --checkpoint " +
          ck.string(),
      "TERM", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_TRUE(std::filesystem::exists(ck)) << "SIGTERM saves the state like Ctrl-C";
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, Synth) {
  const auto dir = fresh_dir("exit_synth");
  // A constant output angle: the least-squares equations are rank deficient.
  const auto flat = dir / "flat.csv";
  std::ofstream(flat) << "psi_deg,phi_deg\n10,20\n20,20\n30,20\n40,20\n";
  expect_statuses({
      {"synth fourbar --table " + flat.string() + " --quiet", 1},
      {"synth fourbar --table " + examples + "/grashof_table1.csv --quiet", 0},
      {"synth rssr --table " + examples + "/rssr_19.csv --quiet", 0},
      {"synth dyad --poses " + examples + "/dyad_17.csv --quiet", 0},
      {"synth chebyshev --from 0 --to 1 -n 5 --quiet", 0},
      {"synth fourbar --table " + examples + "/missing.csv --quiet", 2},
      {"synth fourbar --table " + examples + "/grashof_table1.csv --max-ratio 1e160 --quiet", 2},
      {"synth chebyshev --from -1e308 --to 1e308 -n 5 --quiet", 2},
      {"synth chebyshev --from 0 --to 1 -n 100000000 --quiet", 2},
  });
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, Study) {
  const auto dir = fresh_dir("exit_study");
  expect_statuses({
      {"study double-pendulum --t-end 0 --quiet --out " + (dir / "ok").string(), 0},
      // RK4 with a 0.3 s step: the default preset's motion diverges, a failure of the study.
      {"study double-pendulum --dt 0.3 --t-end 2 --quiet --out " + (dir / "coarse").string(), 1},
      {"study double-pendulum --dt -1 --quiet --out " + (dir / "bad").string(), 2},
      {"study double-pendulum --preset thesi --quiet --out " + (dir / "bad").string(), 2},
      {"study double-pendulum --quiet --out /proc/x", 2},
  });
  std::filesystem::remove_all(dir);
}

TEST(ExitStatus, StudyInterruptedKeepsItsFinishedParts) {
  const auto dir = fresh_dir("exit_study_int");
  const auto out = dir / "study";
  const auto r = run_kinevo_signalled(
      "study double-pendulum --quiet --t-end 1e4 --out " + out.string(), "INT", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_TRUE(std::filesystem::exists(out / "report.md")) << "the report says what is missing";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::test
