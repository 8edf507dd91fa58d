// `--solver gigsp --threads K` end to end: the threaded GIGSP gives the serial answer to
// round-off and the same diagnosis (redundant rows named, an inconsistent row refused by name
// with exit 1), and an out-of-range thread count is bad input (exit 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

nlohmann::json gigsp_of(const std::string& json_text) {
  return nlohmann::json::parse(json_text)["solvers"]["gigsp"];
}

TEST(CliGigspThreads, AccelerationsEqualTheSerialOnes) {
  for (const std::string model : {"/spatial_fivebar.toml", "/seven_link_loop.toml"}) {
    const auto serial = run_kinevo("accel " + examples + model + " --solvers gigsp --json");
    const auto threaded =
        run_kinevo("accel " + examples + model + " --solvers gigsp --threads 2 --json");
    ASSERT_EQ(serial.status, 0) << serial.err;
    ASSERT_EQ(threaded.status, 0) << threaded.err;
    const auto a = gigsp_of(serial.out), b = gigsp_of(threaded.out);
    EXPECT_EQ(a["status"], b["status"]) << model;
    EXPECT_EQ(a["redundant"], b["redundant"]) << model;
    ASSERT_EQ(a["a"].size(), b["a"].size());
    for (std::size_t i = 0; i < a["a"].size(); ++i) {
      const double x = a["a"][i], y = b["a"][i];
      EXPECT_NEAR(x, y, 1e-12 * std::max(1.0, std::abs(x))) << model << " " << i;
    }
  }
}

TEST(CliGigspThreads, InconsistentRowIsRefusedByNameAsSerially) {
  const std::string model = examples + "/fivebar_inconsistent.toml";
  const auto serial = run_kinevo("accel " + model + " --solvers gigsp --json");
  const auto threaded = run_kinevo("accel " + model + " --solvers gigsp --threads 2 --json");
  EXPECT_EQ(serial.status, 1);
  EXPECT_EQ(threaded.status, 1);
  const auto a = gigsp_of(serial.out), b = gigsp_of(threaded.out);
  EXPECT_EQ(b["status"], "inconsistent");
  EXPECT_EQ(a["message"], b["message"]);
  EXPECT_NE(b["message"].get<std::string>().find("link5_y"), std::string::npos);
}

TEST(CliGigspThreads, OutOfRangeThreadCountIsBadInput) {
  const auto r = run_kinevo("accel " + examples +
                            "/spatial_fivebar.toml --solvers gigsp "
                            "--threads 5000");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("threads"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kinevo::test
