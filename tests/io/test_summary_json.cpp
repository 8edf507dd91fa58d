// core::summary as JSON (io owns nlohmann/json): the keys and the exit status they carry.
#include <gtest/gtest.h>

#include "kinevo/io/summary_json.hpp"

namespace kinevo::io {
namespace {

TEST(SummaryJson, KeysOfAFailure) {
  auto s = core::summary::ended(core::termination::failed, "not_assembled", "misses point 3");
  s.seconds = 0.25;
  const auto j = to_json(s);
  EXPECT_EQ(j["status"], "not_assembled");
  EXPECT_EQ(j["termination"], "failed");
  EXPECT_EQ(j["message"], "misses point 3");
  EXPECT_FALSE(j["usable"].get<bool>());
  EXPECT_EQ(j["exit_status"], 1);
  EXPECT_EQ(j["seconds"], 0.25);
  EXPECT_FALSE(j.contains("iterations"));
  EXPECT_FALSE(j.contains("accepted"));
}

TEST(SummaryJson, AcceptedAndInterrupted) {
  auto s = core::summary::ended(core::termination::infeasible);
  s.accepted = true;
  EXPECT_EQ(to_json(s)["exit_status"], 0);
  EXPECT_TRUE(to_json(s)["accepted"].get<bool>());
  EXPECT_EQ(to_json(core::summary::ended(core::termination::interrupted))["exit_status"], 130);
}

}  // namespace
}  // namespace kinevo::io
