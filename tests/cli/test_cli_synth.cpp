// End-to-end tests of `kinevo synth` on the seed's tables (examples/).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_command.hpp"

namespace {

using kinevo::test::run_kinevo;

std::string example(const std::string& name) {
  return std::string(KINEVO_EXAMPLES) + "/" + name;
}
std::string data(const std::string& name) {
  return std::string(KINEVO_TEST_DATA) + "/synthesis/" + name;
}

nlohmann::json json_of(const std::string& args) {
  const auto r = run_kinevo(args + " --json");
  EXPECT_EQ(r.status, 0) << r.err;
  return nlohmann::json::parse(r.out);  // throws (fails the test) unless stdout is one JSON object
}

}  // namespace

TEST(CliSynth, FourbarLeastSquares) {
  const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv"));
  EXPECT_NEAR(j["k"][0].get<double>(), 0.745488, 1e-6);
  EXPECT_NEAR(j["k"][1].get<double>(), 0.072166, 1e-6);
  EXPECT_NEAR(j["k"][2].get<double>(), -0.318569, 1e-6);
  EXPECT_NEAR(j["residual_norm"].get<double>(), 0.042233, 1e-6);
  EXPECT_FALSE(j["input_crank"].get<bool>());
  EXPECT_EQ(j["errors_deg"].size(), 5u);
  EXPECT_EQ(j["links"].size(), 4u);
}

TEST(CliSynth, FourbarInputCrankPenaltyAndGa) {
  for (const std::string method : {"penalty", "ga"}) {
    const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv") +
                           " --crank input --method " + method);
    EXPECT_TRUE(j["input_crank"].get<bool>()) << method;
    EXPECT_GT(j["f1"].get<double>(), 0.0);
    EXPECT_GT(j["f2"].get<double>(), 0.0);
    EXPECT_LE(j["residual_norm"].get<double>(), 0.050684) << method;
  }
}

TEST(CliSynth, FourbarBoundsAndFiles) {
  const auto dir = kinevo::test::fresh_dir("synth_fourbar");
  const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv") +
                         " --crank input --max-ratio 6 --min-transmission 30 -o " + dir.string());
  const auto& l = j["links"];
  double lo = 1e300, hi = 0;
  for (const auto& v : l) {
    lo = std::min(lo, std::abs(v.get<double>()));
    hi = std::max(hi, std::abs(v.get<double>()));
  }
  EXPECT_LE(hi / lo, 6.0 + 1e-9);
  EXPECT_GE(j["transmission_angle_deg"]["min"].get<double>(), 30.0 - 1e-6);
  EXPECT_LE(j["transmission_angle_deg"]["max"].get<double>(), 150.0 + 1e-6);
  for (const char* f :
       {"fourbar_errors.csv", "fourbar_sweep.csv", "fourbar_error.svg", "fourbar_linkage.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  }
  std::filesystem::remove_all(dir);
}

TEST(CliSynth, Rssr) {
  const auto j = json_of("synth rssr --table " + example("rssr_19.csv"));
  const double k_ref[6] = {-0.0818733, 3.4893753, -1.1764544, -1.3955576, -0.3864268, -2.0938118};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(j["k"][i].get<double>(), k_ref[i], 1e-6);
  EXPECT_NEAR(j["errors_deg"][0].get<double>(), 0.01420369, 0.6e-8);
  EXPECT_NEAR(j["errors_deg"][18].get<double>(), 0.00412793, 0.6e-8);
  EXPECT_NEAR(j["dimensions"]["a2_coupler"].get<double>(), 2.620598, 1e-6);
}

TEST(CliSynth, Dyad) {
  const auto j = json_of("synth dyad --poses " + example("dyad_17.csv") + " --starts 100");
  bool found = false;
  for (const auto& s : j["solutions"]) {
    ASSERT_EQ(s["a0"].size(), 2u);
    ASSERT_EQ(s["b"].size(), 2u);
    if (std::abs(s["error_pct"].get<double>() - 39.01) < 0.3901) found = true;
  }
  EXPECT_TRUE(found);
}

TEST(CliSynth, BadInputNamesFileAndLine) {
  const auto r = run_kinevo("synth fourbar --table " + data("bad_cell.csv"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad_cell.csv:4"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  const auto rep = run_kinevo("synth fourbar --table " + data("repeated.csv") + " --json");
  EXPECT_EQ(rep.status, 2);
  EXPECT_NE(rep.err.find("repeated.csv:6"), std::string::npos) << rep.err;
  const auto few = run_kinevo("synth rssr --table " + example("grashof_table1.csv"));
  EXPECT_EQ(few.status, 2);
  EXPECT_NE(few.err.find("at least 6"), std::string::npos) << few.err;
  const auto exact = run_kinevo("synth fourbar --exact --table " + example("grashof_table1.csv"));
  EXPECT_EQ(exact.status, 2);
  EXPECT_NE(exact.err.find("exactly 3"), std::string::npos) << exact.err;
  const auto missing = run_kinevo("synth dyad --poses /nonexistent/poses.csv");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
}

TEST(CliSynth, AbsurdOrNonFiniteBoundsAreRefusedNotCrashed) {
  // --max-ratio 1e160 squared to inf, the ratio constraints became NaN and the feasibility
  // restoration handed an empty system to minimum_norm_solution: SIGSEGV.
  for (const char* v : {"1e160", "1e308", "inf", "nan", "1e7"}) {
    const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                              " --max-ratio " + v);
    EXPECT_EQ(r.status, 2) << v << ": " << r.err;
    EXPECT_NE(r.err.find("--max-ratio"), std::string::npos) << v << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << v;
  }
  const auto t = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                            " --min-transmission nan");
  EXPECT_EQ(t.status, 2) << t.err;
  EXPECT_NE(t.err.find("--min-transmission"), std::string::npos) << t.err;
  const auto f = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                            " --frame inf");
  EXPECT_EQ(f.status, 2) << f.err;
  EXPECT_NE(f.err.find("--frame"), std::string::npos) << f.err;
}

TEST(CliSynth, QuietPrintsNothing) {
  const auto r = run_kinevo("synth rssr -q --table " + example("rssr_19.csv"));
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.out.empty());
}

// Seeds are integers in [0, 2^64 - 1] (CLI11's own conversion made -1 and 1e23 into 2^64 - 1).
TEST(CliSynth, SeedOutOfRangeIsRefused) {
  for (const std::string seed : {"-1", "1e23"}) {
    const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                              " --method ga --quiet --seed " + seed);
    EXPECT_EQ(r.status, 2) << seed;
    EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
  }
}
