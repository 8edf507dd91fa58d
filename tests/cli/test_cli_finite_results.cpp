// Issue 31's "silently wrong" class at the command line: an empty option value taken for 0,
// NaN or infinite results reported with exit 0, and messages in a library's words instead of
// kinevo's. Each case must exit non-zero naming the option or the quantity.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/refusal_test_support.hpp"

namespace kinevo::test {
namespace {

TEST(CliFiniteResults, EmptyValuesAndRepeatedOptionsAreRefusedInKinevosWords) {
  const auto dir = fresh_dir("finite_empty");
  const std::string out = (dir / "c.toml").string();
  expect_refusals({
      {"model chain --links 2 --gravity '' --out " + out, 2, "empty value for --gravity"},
      {"model chain --links 2 --gravity= --out " + out, 2, "empty value for --gravity"},
      {"simulate " + example("pendulum.toml") + " --dt ''", 2, "empty value for --dt"},
      {"model info ''", 2, "empty argument"},
      {"optimize --function sphere --function rastrigin", 2,
       "--function was given 2 times; give it once"},
  });
  EXPECT_FALSE(std::filesystem::exists(out));
  // A model file that is not UTF-8 text.
  std::ofstream(dir / "binary.toml") << "name = \"\xff\xfe\"\n";
  expect_refusals({{"model info " + (dir / "binary.toml").string(), 2, "not UTF-8 text"}});
  std::filesystem::remove_all(dir);
}

TEST(CliFiniteResults, OverflowingResultsExitOneNamingTheQuantity) {
  const auto dir = fresh_dir("finite_overflow");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  // Velocities of 1e200: the energy m v^2 / 2 overflows at once.
  const std::string fast =
      write("fast.toml",
            "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nvelocity = 1e200\nmass = 1.0\n"
            "[energy]\npotential = \"0\"\n");
  // An initial value of 1e308 with gravity: the potential energy m g y overflows.
  const std::string huge =
      write("huge.toml",
            "[[coordinate]]\nname = \"y\"\ninitial = 1e308\nmass = 1.0\ngravity = \"-9.81\"\n");
  expect_refusals({
      {"simulate " + fast + " --t-end 0.01 --quiet", 1, "energy is not finite"},
      {"simulate " + huge + " --t-end 0.01 --quiet", 1, "energy is not finite"},
      {"model chain --links 2 --angle 1e308 --out " + (dir / "a.toml").string(), 2,
       "--angle must be finite and in [-360, 360]"},
      {"analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 -e '1e308*t' --t-end 1 --dt 0.5 -q", 1,
       "non_finite"},
      {"analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 --from 0 --to 1 --step 0.5 --rate 1e308 "
       "-q",
       1, "non_finite"},
  });
  EXPECT_FALSE(std::filesystem::exists(dir / "a.toml"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::test
