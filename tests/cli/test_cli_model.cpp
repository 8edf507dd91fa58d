// End-to-end tests of `kinevo model`.
#include <gtest/gtest.h>

#include <filesystem>
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
           {"--links 2 --angle inf", "--angle must be finite (got inf)"}}) {
    const auto r = run_kinevo("model chain --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace kinevo::test
