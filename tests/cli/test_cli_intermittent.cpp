// End-to-end: `kinevo simulate` of a model with an intermittent constraint
// (examples/disc_slip_roll.toml): the events in the JSON and the text report, the
// <row>_active column of the CSV, every solver (the GA one included), the refusal of the other
// formulations.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/run_command.hpp"

namespace kinevo::test {
namespace {

const std::string disc = std::string(KINEVO_EXAMPLES) + "/disc_slip_roll.toml";
// t* = (R w0 - tol) / (3 mu g) for the example's numbers and tol = 1e-6.
const double switch_time = (0.1 * 8.829 - 1e-6) / (3.0 * 0.3 * 9.81);

TEST(CliIntermittent, JsonEventsCsvActiveColumnAndReport) {
  const auto dir = fresh_dir("intermittent");
  const auto csv = dir / "disc.csv";
  const auto r =
      run_kinevo("simulate " + disc + " --t-end 0.2 --dt 1e-3 --out " + csv.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["constraint"], "rolling");
  EXPECT_EQ(j["events"][0]["kind"], "on");
  EXPECT_NEAR(j["events"][0]["t"].get<double>(), switch_time, 2e-10);
  const io::csv_table t = io::read_csv_table(csv);
  EXPECT_EQ(t.columns.back(), "rolling_slip");
  // One row per grid point and one at the event.
  EXPECT_EQ(t.rows.size(), 202u);
  for (const auto& row : t.rows) {
    EXPECT_EQ(row[t.column("rolling_active")], row[t.column("t")] >= switch_time ? 1.0 : 0.0);
  }
  const auto text = run_kinevo("simulate " + disc + " --t-end 0.2 --dt 1e-3");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("constraint 'rolling' on"), std::string::npos) << text.out;
}

TEST(CliIntermittent, EverySolverCrossesTheSwitch) {
  for (const char* solver : {"lm", "uk", "gigsp", "sl", "kv", "qtz", "ga"}) {
    const auto r = run_kinevo("simulate " + disc + " --t-end 0.15 --dt 1e-2 --solver " +
                              std::string(solver) + " --json");
    ASSERT_EQ(r.status, 0) << solver << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["events"].size(), 1u) << solver;
    EXPECT_NEAR(j["events"][0]["t"].get<double>(), switch_time, 1e-9) << solver;
    EXPECT_NEAR(j["energy"]["final"].get<double>(), 0.01 * 8.829 * 8.829 / 12.0, 1e-9) << solver;
  }
}

TEST(CliIntermittent, OtherFormulationsAreRefusedByName) {
  const auto r = run_kinevo("simulate " + disc + " --t-end 0.2 --formulation partitioning");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("intermittent"), std::string::npos) << r.err;
}

// `accel` starts from the state a simulation starts from: the rolling row is off while the disc
// slips, and Coulomb friction mu m g acts forwards on x (the contact point slides backwards):
// x'' = mu g and th'' = -mu m g R / I = -2 mu g / R (a uniform disc), for every solver.
TEST(CliIntermittent, AccelSeesTheSlippingDisc) {
  const auto r = run_kinevo("accel " + disc + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double mu = 0.3, g = 9.81, radius = 0.1;
  for (const auto& [name, s] : j["solvers"].items()) {
    ASSERT_EQ(s["status"], "ok") << name;
    EXPECT_NEAR(s["a"][0].get<double>(), mu * g, 1e-12) << name;
    EXPECT_NEAR(s["a"][1].get<double>(), -2 * mu * g / radius, 1e-10) << name;
  }
}

}  // namespace
}  // namespace kinevo::test
