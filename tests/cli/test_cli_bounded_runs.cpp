// Issue 31's hangs, end to end: each of these ran for ever, read until the OOM killer, or
// blocked on a FIFO deaf to signals. Each must now finish or be refused quickly (exit 0 or 2)
// with a message naming the option, the file or the limit.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/refusal_test_support.hpp"

namespace kinevo::test {
namespace {

TEST(CliBoundedRuns, StepCountsAreBoundedAndShortSpansEnd) {
  const auto dir = fresh_dir("bounded_steps");
  const std::string pendulum = example("pendulum.toml");
  const std::string csv = (dir / "run.csv").string();
  expect_refusals({
      {"simulate " + pendulum + " --t-end 1e308 --quiet", 2, "--dt gives more than 1e+09 steps"},
      {"simulate " + pendulum + " --dt 1e-320 --quiet", 2, "--dt gives more than 1e+09 steps"},
      {"simulate " + pendulum + " --t-end 100 --dt 1e-6 --quiet", 2, "more than 1e+07 rows"},
      {"simulate " + pendulum + " --integrator dopri --t-end 1e308 --quiet", 2, "--dt"},
      {"kinematics " + example("haug_fourbar.toml") + " --t-end 1e308 --quiet", 2, "--dt"},
      {"study double-pendulum --t-end 1e308 --quiet", 2, "--dt gives more than 1e+07 steps"},
      {"study double-pendulum --dt 1e-320 --quiet", 2, "--dt gives more than 1e+07 steps"},
      {"analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 -e t --t-end 1e308 -q", 2, "--dt"},
  });
  // A span shorter than dt is one step to t_end.
  const auto r = run_command("timeout -s KILL 60 " + std::string(KINEVO_BINARY) + " simulate " +
                             pendulum + " --t-end 1e-12 --dt 1e-3 --quiet --out " + csv);
  EXPECT_EQ(r.status, 0) << r.err;
  const auto rows = lines_of(read_text(csv));
  ASSERT_EQ(rows.size(), 3u);  // header, t = 0, t = 1e-12
  EXPECT_EQ(rows[2].substr(0, rows[2].find(',')), "1e-12");
  std::filesystem::remove_all(dir);
}

TEST(CliBoundedRuns, NonRegularFilesAreRefusedBeforeReading) {
  const auto dir = fresh_dir("bounded_files");
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refusals({
      {"optimize --problem /dev/zero --quiet", 2, "/dev/zero: is not a regular file"},
      {"optimize --problem /dev/urandom --quiet", 2, "is not a regular file"},
      {"optimize --problem " + fifo + " --quiet", 2, "is not a regular file"},
      {"optimize --function sphere --dim 2 --resume /dev/zero --quiet", 2,
       "/dev/zero: is not a regular file"},
      {"optimize --function sphere --dim 2 --resume " + fifo + " --quiet", 2,
       "is not a regular file"},
      {"model info " + fifo, 2, "is not a regular file"},
      // A FIFO nobody reads as an output: refused, not blocked on.
      {"model chain --links 2 --out " + fifo, 2, "no process reads"},
      {"simulate " + example("pendulum.toml") + " --t-end 0.01 --quiet --out " + fifo, 2,
       "no process reads"},
  });
  std::filesystem::remove_all(dir);
}

TEST(CliBoundedRuns, SizesBeyondTheirLimitsAreRefusedBeforeAllocating) {
  expect_refusals({
      {"optimize --function sphere --dim 1000000000 --quiet", 2,
       "--dim must be an integer in [1, 100000]"},
      {"optimize --function sphere --dim 2147483647 --quiet", 2, "--dim"},
      {"optimize --function sphere --dim 2 --tournament-size 2147483647 --quiet", 2,
       "--tournament-size must be in [1, population]"},
      {"optimize --function sphere --dim 2 --range-runs 1000000 --max-evals 100 --quiet", 2,
       "--range-runs must be an integer in [1, 10000]"},
      {"synth dyad --poses " + example("dyad_17.csv") + " --starts 1000000 -q", 2,
       "--starts must be an integer in [1, 10000]"},
  });
}

}  // namespace
}  // namespace kinevo::test
