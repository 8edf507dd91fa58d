// End-to-end tests of `kinevo model`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/run_command.hpp"

namespace kinevo::test {
namespace {

TEST(CliModel, ChainFileLoadsAndSimulates) {
  const auto dir = fresh_dir("model_chain");
  const auto file = dir / "chain.toml";
  const auto w = run_kinevo("model chain --links 12 --out " + file.string() + " --json");
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_EQ(nlohmann::json::parse(w.out)["coordinates"], 24);
  const auto info = run_kinevo("model info " + file.string() + " --json");
  ASSERT_EQ(info.status, 0) << info.err;
  const auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["constraints"].size(), 12u);
  EXPECT_EQ(j["jacobian_nonzeros"], 2 + 4 * 11);
  const auto sim = run_kinevo("simulate " + file.string() + " --t-end 0.2 --json");
  ASSERT_EQ(sim.status, 0) << sim.err;
  EXPECT_EQ(nlohmann::json::parse(sim.out)["completed"], true);
}

TEST(CliModel, BadChainOptions) {
  // A NaN gravity used to be written into a model file that then failed to load.
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--links 0", "--links must be an integer in [1, 100000]"},
           {"--links 2 --length 0", "--length must be finite and > 0"},
           {"--links 2 --length inf", "--length must be finite and > 0"},
           {"--links 2 --mass nan", "--mass must be finite and > 0"},
           {"--links 2 --gravity nan", "--gravity must be finite (got nan)"},
           {"--links 2 --gravity -inf", "--gravity must be finite (got -inf)"},
           {"--links 2 --angle inf", "--angle must be finite and in [-360, 360] (got inf)"},
           {"--links 2 --angle 1e308", "--angle must be finite and in [-360, 360] (got 1e+308)"}}) {
    const auto r = run_kinevo("model chain --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

// Issue 16.11: `model info /dev/zero` ended in a bare std::bad_alloc (exit 1).
TEST(CliModel, InfoRefusesNonRegularFiles) {
  for (const std::string path : {"/dev/zero", "/tmp", "/nonexistent/model.toml"}) {
    const auto r = run_kinevo("model info " + path);
    EXPECT_EQ(r.status, 2) << path << ": " << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
  }
  const auto links = run_kinevo("model chain --quiet --links 1000000");
  EXPECT_EQ(links.status, 2) << links.err;
  EXPECT_NE(links.err.find("--links must be an integer in [1, 100000]"), std::string::npos)
      << links.err;
}

// Issue 16.7: NaN in a model file was "kinevo: error: floating point NaN occurred.", exit 1.
TEST(CliModel, InfoNamesNanFieldWithExit2) {
  const auto dir = fresh_dir("model_nan");
  const auto file = dir / "nan.toml";
  std::ofstream(file) << "[[coordinate]]\nname = \"x\"\ninitial = nan\nmass = 1.0\n";
  const auto r = run_kinevo("model info " + file.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("nan.toml:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("field 'initial'"), std::string::npos) << r.err;
}

// Issue 16.16: a 1,000-link chain did not load in 30 s (cubic loading). Not a timed test: it
// checks that a large chain loads and has the chain's structure; bench_model_loading times it.
TEST(CliModel, LargeChainLoads) {
  const auto dir = fresh_dir("model_large_chain");
  const auto file = dir / "chain.toml";
  ASSERT_EQ(run_kinevo("model chain --quiet --links 1000 --out " + file.string()).status, 0);
  const auto info = run_kinevo("model info " + file.string() + " --json");
  ASSERT_EQ(info.status, 0) << info.err;
  const auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["coordinates"].size(), 2000u);
  EXPECT_EQ(j["jacobian_nonzeros"], 2 + 4 * 999);
  EXPECT_EQ(j["has_energy"], true);
}

}  // namespace
}  // namespace kinevo::test
