// End-to-end tests of `kinevo model`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

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
  const auto r = run_kinevo("model chain --links 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("at least one link"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kinevo::test
