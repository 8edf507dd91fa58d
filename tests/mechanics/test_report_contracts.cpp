// Contracts of the mechanics results and options (issue 9, item 5): every invalid option field
// throws io::option_error with its name; every enum round-trips through to_string/parse; each
// report's JSON keys are a golden list, so that they cannot change by accident.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/solver_comparison.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

std::vector<std::string> keys_of(const nlohmann::json& j) {
  std::vector<std::string> k;
  for (const auto& [key, value] : j.items()) k.push_back(key);
  std::sort(k.begin(), k.end());
  return k;
}

TEST(SimulationEnums, RoundTripThroughToStringAndParse) {
  for (const auto k : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    EXPECT_EQ(parse_integrator(to_string(k)), k);
  }
  EXPECT_EQ(parse_integrator("dormand-prince"), integrator_kind::dormand_prince);
  for (const auto k :
       {stabilization_kind::none, stabilization_kind::baumgarte, stabilization_kind::projection}) {
    EXPECT_EQ(parse_stabilization(to_string(k)), k);
  }
  for (const auto s :
       {simulation_stop::none, simulation_stop::refused, simulation_stop::not_converged,
        simulation_stop::non_finite, simulation_stop::step_size, simulation_stop::caller,
        simulation_stop::diverged, simulation_stop::interrupted, simulation_stop::chattering}) {
    EXPECT_EQ(parse_simulation_stop(to_string(s)), s);
    EXPECT_STREQ(stop_name(s), to_string(s));
  }
  try {
    (void)parse_integrator("euler");
    FAIL();
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "integrator");
    EXPECT_NE(std::string(e.what()).find("rk4 or dopri"), std::string::npos) << e.what();
  }
  try {
    (void)parse_stabilization("magic");
    FAIL();
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "stabilization");
    EXPECT_NE(std::string(e.what()).find("none, baumgarte or projection"), std::string::npos);
  }
  EXPECT_THROW((void)parse_simulation_stop("nope"), io::option_error);
}

TEST(SimulationResult, JsonKeysAreTheGoldenList) {
  // The list itself, spelled out: changing a key is a decision, made here.
  const std::vector<std::string> golden{"allow_unconverged",
                                        "check",
                                        "completed",
                                        "corrections",
                                        "divergence_scales",
                                        "energy",
                                        "events",
                                        "exact_inverses",
                                        "first_unconverged_message",
                                        "first_unconverged_t",
                                        "formulation",
                                        "integrator",
                                        "last_t",
                                        "least_squares_solves",
                                        "max_position_violation",
                                        "max_velocity_violation",
                                        "message",
                                        "rejected_steps",
                                        "repartitions",
                                        "solver",
                                        "solver_evaluations",
                                        "solves",
                                        "stabilization",
                                        "status",
                                        "steps",
                                        "stop_reason",
                                        "switches",
                                        "unconverged_solves",
                                        "wall_seconds"};
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  auto reference = make_solver("lm");
  simulation_options o;
  o.t_end = 0.1;
  const simulation_result r = simulate(m, *solver, o, {}, reference.get());
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(keys_of(r.to_json()), golden);
  EXPECT_EQ(keys_of(simulation_result{}.to_json()), golden);
  const auto j = r.to_json();
  EXPECT_EQ(j["status"], "completed");
  EXPECT_EQ(j["solver"], solver->name());
  EXPECT_EQ(j["check"]["solver"], reference->name());
  EXPECT_EQ(
      keys_of(j["energy"]),
      (std::vector<std::string>{"final", "initial", "max_relative_deviation", "relative_drift"}));
  // The reports say the status; the full one carries the figures.
  EXPECT_EQ(r.brief_report().rfind("completed: ", 0), 0u) << r.brief_report();
  EXPECT_NE(r.full_report().find("max |Phi|"), std::string::npos) << r.full_report();
  EXPECT_NE(r.full_report().find("relative drift"), std::string::npos) << r.full_report();
  EXPECT_TRUE(std::isfinite(r.energy_drift()));
  EXPECT_LT(std::abs(r.energy_drift()), 1e-6);
}

TEST(SolverComparison, OptionsRefuseEveryBadFieldByName) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NO_THROW(solver_comparison_options{}.validate());
  const std::vector<std::pair<std::string, std::function<void(solver_comparison_options&)>>> cases{
      {"t", [&](solver_comparison_options& o) { o.t = nan; }},
      {"rank_tolerance",
       [&](solver_comparison_options& o) { o.solver.direct.rank_tolerance = nan; }},
      {"threads", [&](solver_comparison_options& o) { o.solver.direct.threads = -1; }}};
  for (const auto& [field, spoil] : cases) {
    solver_comparison_options o;
    spoil(o);
    try {
      o.validate();
      ADD_FAILURE() << field;
    } catch (const io::option_error& e) {
      EXPECT_EQ(e.field(), field);
    }
  }
}

TEST(SolverComparison, ReferenceDifferencesAndGoldenJsonKeys) {
  const model m = load_model(examples + "/double_pendulum.toml");
  const solver_comparison c = compare_solvers(m, {});
  ASSERT_TRUE(c.ok()) << c.brief_report();
  ASSERT_EQ(c.reference, 0);  // the first direct solver gives ok
  for (const auto& a : c.answers) EXPECT_LT(a.max_difference, 1e-9) << a.name;
  EXPECT_EQ(keys_of(c.to_json()),
            (std::vector<std::string>{"constraints", "coordinates", "failed", "inconsistent",
                                      "model", "non_finite_inputs", "reference", "solvers", "t"}));
  const auto j = c.to_json();
  for (const auto& a : c.answers) {
    EXPECT_EQ(keys_of(j["solvers"][a.name]),
              (std::vector<std::string>{"a", "constraint_force", "evaluations", "finite",
                                        "inconsistent", "max_difference", "message", "rank",
                                        "redundant", "runs", "seconds", "status"}))
        << a.name;
  }
  EXPECT_NE(c.full_report().find("max |a - a_"), std::string::npos) << c.full_report();
  EXPECT_NE(c.brief_report().find("ok"), std::string::npos) << c.brief_report();

  // The inconsistent five-bar: no ok, the comparison says so.
  const model bad = load_model(examples + "/fivebar_inconsistent.toml");
  const solver_comparison d = compare_solvers(bad, {});
  EXPECT_FALSE(d.ok());
  EXPECT_TRUE(d.inconsistent);
  EXPECT_NE(d.brief_report().find("inconsistent"), std::string::npos) << d.brief_report();
}

}  // namespace
}  // namespace kinevo::mechanics
