// End-to-end tests of `kinevo analyze chain` on the examples.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli/cli_test_support.hpp"

using kinevo::test::example;
using kinevo::test::run_kinevo;

TEST(CliAnalyzeChain, HexflexJsonAndFiles) {
  const auto dir = kinevo::test::fresh_dir("analyze_chain");
  const auto r = run_kinevo("analyze chain " + example("chain_6r_hexflex.toml") + " --json -o " +
                            dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["points"].size(), 21u);
  EXPECT_NEAR(j["points"][10]["q"][0].get<double>(), 110.534835, 1e-6);
  EXPECT_NEAR(j["points"][10]["qddot"][0].get<double>(), -0.60326492, 1e-8);
  EXPECT_TRUE(std::filesystem::exists(dir / "chain.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "chain.svg"));
  std::ifstream csv(dir / "chain.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("t,input,theta1_deg,", 0), 0u) << header;
  std::filesystem::remove_all(dir);
}

TEST(CliAnalyzeChain, SevenRSingularExitsOne) {
  const auto r = run_kinevo("analyze chain " + example("chain_7r.toml") + " -q");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("singular configuration at theta7 = 180 deg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("crossed between theta7 = 135 and 140"), std::string::npos) << r.err;
  const auto skip =
      run_kinevo("analyze chain " + example("chain_7r.toml") + " --skip-singular --json");
  EXPECT_EQ(skip.status, 0) << skip.err;
  const auto j = nlohmann::json::parse(skip.out);
  EXPECT_EQ(j["singular"], 1);
  EXPECT_EQ(j["points"][11]["status"], "singular");
  EXPECT_TRUE(j["points"][11]["q"][1].is_null());  // never a guess as an answer
}

TEST(CliAnalyzeChain, RsrcText) {
  const auto r = run_kinevo("analyze chain " + example("chain_rsrc.toml"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("status: ok"), std::string::npos);
}

TEST(CliAnalyzeChain, BadInputExitsTwo) {
  const auto dir = kinevo::test::fresh_dir("analyze_chain_bad");
  const auto file = dir / "bad.toml";
  std::ofstream(file) << "kind = \"closure\"\nlinks = [ { a = 1, b = 0, alpha = \"x\" } ]\n";
  const auto r = run_kinevo("analyze chain " + file.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.toml:2: links[1] field 'alpha': must be a finite number"),
            std::string::npos)
      << r.err;
  const auto res = run_kinevo("analyze chain " + example("chain_rsrc.toml") + " --residual nope");
  EXPECT_EQ(res.status, 2);
  std::filesystem::remove_all(dir);
}

// Joint angles are reported in (-180, 180] degrees (the 7R chain's theta4 turns through 250 deg
// as theta7 sweeps 125..235 deg), and no value prints as "-0" (the hexflex's theta2 at t = 0 is
// a round-off below zero).
TEST(CliAnalyzeChain, AnglesInAHalfTurnAndNoNegativeZero) {
  const auto dir = kinevo::test::fresh_dir("analyze_chain_angles");
  const auto r = run_kinevo("analyze chain " + example("chain_7r.toml") + " --skip-singular -o " +
                            dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream csv(kinevo::test::read_text(dir / "chain.csv"));
  std::string line;
  std::getline(csv, line);
  int values = 0;
  while (std::getline(csv, line)) {
    std::istringstream cells(line);
    std::string cell;
    for (int column = 0; std::getline(cells, cell, ','); ++column) {
      if (column < 2 || column > 8 || cell.empty()) continue;  // theta1_deg .. theta7_deg
      const double v = std::stod(cell);
      EXPECT_TRUE(v > -180.0 && v <= 180.0) << line;
      ++values;
    }
  }
  EXPECT_GT(values, 100);
  // theta4 at theta7 = 125 deg: 250 deg before, -110 now.
  EXPECT_NE(r.out.find("-110.000000"), std::string::npos) << r.out;
  const auto hexflex = run_kinevo("analyze chain " + example("chain_6r_hexflex.toml"));
  EXPECT_EQ(hexflex.out.find("-0.000000"), std::string::npos) << hexflex.out;
  const auto info = run_kinevo("model info " + example("spatial_fivebar.toml"));
  EXPECT_EQ(info.out.find("= -0 "), std::string::npos) << info.out;
}
