// `kinevo accel` and `simulate` with --solver(s) gigsp under `mpiexec -n 2` (the distributed
// GIGSP, rows over the ranks) against the plain serial run: the same exit status, rows named,
// status and rank, and the same numbers to round-off (the sweep's order of operations differs).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../run_command.hpp"

namespace kinevo::test {
namespace {

const std::string examples = KINEVO_EXAMPLES;

command_output run_ranks(const std::string& args) {
  return run_command(std::string(KINEVO_MPIEXEC) + " -n 2 " + KINEVO_BINARY + " " + args);
}

void expect_close(const nlohmann::json& a, const nlohmann::json& b, double tolerance,
                  const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i].get<double>(), y = b[i].get<double>();
    EXPECT_LE(std::abs(x - y), tolerance * (1.0 + std::abs(x))) << what << "[" << i << "]";
  }
}

void expect_same_accel(const std::string& args) {
  SCOPED_TRACE(args);
  const command_output serial = run_kinevo("accel " + args);
  const command_output ranks = run_ranks("accel " + args);
  ASSERT_EQ(serial.status, ranks.status) << ranks.err;
  // The same diagnosis, printed once (mpiexec adds its own note on a non-zero exit).
  EXPECT_EQ(ranks.err.substr(0, serial.err.size()), serial.err);
  const auto s = nlohmann::json::parse(serial.out), r = nlohmann::json::parse(ranks.out);
  const auto& sg = s["solvers"]["gigsp"];
  const auto& rg = r["solvers"]["gigsp"];
  for (const char* field : {"status", "rank", "redundant", "inconsistent", "message", "finite"}) {
    EXPECT_EQ(sg[field], rg[field]) << field;
  }
  expect_close(sg["a"], rg["a"], 1e-10, "a");
  expect_close(sg["constraint_force"], rg["constraint_force"], 1e-9, "constraint_force");
}

TEST(CliGigspMpi, AccelUnderMpiexecEqualsTheSerialRun) {
  expect_same_accel(examples + "/fivebar_redundant.toml --solvers gigsp --t 0.3 --json");
  expect_same_accel(examples + "/spatial_fivebar.toml --solvers gigsp --json");
  expect_same_accel(examples + "/spatial_fivebar_driven.toml --solvers gigsp --json");
}

TEST(CliGigspMpi, AccelNamesInconsistentRowsOnceUnderMpiexec) {
  const std::string args = examples + "/fivebar_inconsistent.toml --solvers gigsp --json";
  expect_same_accel(args);
  const command_output ranks = run_ranks("accel " + args);
  EXPECT_EQ(ranks.status, 1);
  EXPECT_NE(ranks.err.find("the gigsp solver found the constraints inconsistent"),
            std::string::npos)
      << ranks.err;
}

TEST(CliGigspMpi, SimulateUnderMpiexecFollowsTheSerialRun) {
  const std::string args =
      examples + "/spatial_fivebar.toml --solver gigsp --t-end 0.05 --dt 0.001 --json";
  const command_output serial = run_kinevo("simulate " + args);
  const command_output ranks = run_ranks("simulate " + args);
  ASSERT_EQ(serial.status, 0) << serial.err;
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  const auto s = nlohmann::json::parse(serial.out), r = nlohmann::json::parse(ranks.out);
  for (const char* field : {"completed", "status", "steps", "solves", "rows", "last_t"}) {
    EXPECT_EQ(s[field], r[field]) << field;
  }
  EXPECT_LE(r["max_position_violation"].get<double>(), 1e-9);
  EXPECT_LE(r["max_velocity_violation"].get<double>(), 1e-8);
}

}  // namespace
}  // namespace kinevo::test
