// The one outcome model: the termination's words, the reports, and the exit status the CLI
// documents (docs/cli.md: 0 usable, 1 failed, 130 interrupted).
#include <gtest/gtest.h>

#include "kinevo/core/outcome.hpp"

namespace kinevo::core {
namespace {

TEST(Outcome, TerminationWords) {
  EXPECT_EQ(to_string(termination::ok), "ok");
  EXPECT_EQ(to_string(termination::not_converged), "not_converged");
  EXPECT_EQ(to_string(termination::infeasible), "infeasible");
  EXPECT_EQ(to_string(termination::failed), "failed");
  EXPECT_EQ(to_string(termination::interrupted), "interrupted");
}

TEST(Outcome, ExitStatusOfEachTermination) {
  EXPECT_EQ(exit_status(summary{}), exit_ok);
  EXPECT_EQ(exit_status(summary::ended(termination::not_converged)), exit_failure);
  EXPECT_EQ(exit_status(summary::ended(termination::infeasible)), exit_failure);
  EXPECT_EQ(exit_status(summary::ended(termination::failed, "not_assembled")), exit_failure);
  EXPECT_EQ(exit_status(summary::ended(termination::interrupted)), exit_interrupted);
}

// --allow-infeasible: the user accepted an infeasible answer in advance: usable, exit 0.
TEST(Outcome, AcceptedIsUsable) {
  auto s = summary::ended(termination::infeasible, "", "g1 violated by 0.5");
  EXPECT_FALSE(s.usable());
  s.accepted = true;
  EXPECT_TRUE(s.usable());
  EXPECT_EQ(exit_status(s), exit_ok);
}

TEST(Outcome, ReasonIsTheStatusWord) {
  EXPECT_EQ(summary{}.status(), "ok");
  const auto s = summary::ended(termination::failed, "no_linkage", "k defines no RSSR");
  EXPECT_EQ(s.status(), "no_linkage");
  EXPECT_EQ(s.brief_report(), "no_linkage: k defines no RSSR");
}

TEST(Outcome, ReportsNameTheFiguresPresent) {
  auto s = summary::ended(termination::not_converged, "", "residual 1e-3 > 1e-10");
  s.iterations = 50;
  s.evaluations = 400;
  EXPECT_EQ(s.brief_report(),
            "not_converged: residual 1e-3 > 1e-10, 50 iterations, 400 evaluations");
  EXPECT_EQ(s.full_report(),
            "status: not_converged\ntermination: not_converged\nmessage: residual 1e-3 > "
            "1e-10\niterations: 50\nevaluations: 400\n");
}

}  // namespace
}  // namespace kinevo::core
