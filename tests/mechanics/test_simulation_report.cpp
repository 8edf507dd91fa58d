// The report of a simulation as `kinevo simulate` prints it (mechanics/dynamics/
// simulation_report.hpp) and the run context a simulation takes (core/run_context.hpp): its
// progress sink sees every record, its agreement decides the interrupt.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/simulation_report.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

simulation_options short_run() {
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  return o;
}

TEST(SimulationReport, TextJsonAndErrorLinesOfACompletedRun) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(m, *solver, short_run());
  const simulation_run_files f{
      .file = "pendulum.toml", .model_name = m.name(), .out = "run.csv", .rows = 11, .last_t = 0.1};
  const std::string text = simulation_text_report(r, f);
  EXPECT_EQ(text.rfind("pendulum.toml: 10 steps with gigsp (rk4, none)\n", 0), 0u) << text;
  EXPECT_NE(text.find("max |Phi|"), std::string::npos) << text;
  EXPECT_NE(text.find("  wrote run.csv\n"), std::string::npos) << text;
  const nlohmann::json j = simulation_json_report(r, f);
  EXPECT_EQ(j["file"], "pendulum.toml");
  EXPECT_EQ(j["stabilization"], "none");
  EXPECT_EQ(j["rows"], 11);
  EXPECT_EQ(j["out"], "run.csv");
  EXPECT_TRUE(j["plot"].is_null());
  EXPECT_TRUE(j["check"].is_null());  // the result says: no reference solver
  EXPECT_TRUE(simulation_error_lines(r, f).empty());
}

TEST(SimulationReport, AnInterruptedRunSaysSoOnEveryChannel) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  std::atomic<bool> flag{true};
  core::run_context context;
  context.interrupt = &flag;
  const simulation_result r = simulate(m, *solver, short_run(), {}, nullptr, context);
  ASSERT_TRUE(r.interrupted());
  const simulation_run_files f{.file = "p.toml", .out = "p.csv", .written_span = "up to t = 0"};
  EXPECT_NE(simulation_text_report(r, f).find(" -- stopped early (interrupted)"),
            std::string::npos);
  EXPECT_NE(simulation_text_report(r, f).find("  wrote p.csv up to t = 0\n"), std::string::npos);
  const auto lines = simulation_error_lines(r, f);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], r.message);
  EXPECT_EQ(lines[1], "wrote p.csv up to t = 0");
  EXPECT_EQ(core::exit_status(r.summary()), core::exit_interrupted);
}

TEST(SimulationContext, ProgressAtEveryRecordAndTheAgreementDecides) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  std::vector<double> fractions;
  int votes = 0;
  core::run_context context;
  context.on_progress = [&](const core::progress& p) { fractions.push_back(p.fraction); };
  // Another rank asks to stop at the fourth record, this one never does.
  context.agree = [&](bool mine) { return ++votes >= 4 || mine; };
  const simulation_result r = simulate(m, *solver, short_run(), {}, nullptr, context);
  EXPECT_TRUE(r.interrupted());
  EXPECT_EQ(votes, 4);
  ASSERT_EQ(fractions.size(), 4u);
  EXPECT_DOUBLE_EQ(fractions.front(), 0.0);
  EXPECT_NEAR(fractions.back(), 0.3, 1e-12);
}

}  // namespace
}  // namespace kinevo::mechanics
