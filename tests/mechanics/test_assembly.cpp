// Assembly of an estimated initial state (Haug, Computer-Aided Kinematics and Dynamics of
// Mechanical Systems, section 4.3): penalty + DFP quasi-Newton, Gauss-Newton to round-off,
// velocity projection, and the failure report of a design that cannot close.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/kinematics/assembly.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::load_unassembled;
using kinevo::test::max_abs;
using kinevo::test::read_example;

// Every coordinate moved by about 0.1 (signs and sizes vary, deterministic).
Eigen::VectorXd perturbed(const Eigen::VectorXd& q, double size = 0.1) {
  Eigen::VectorXd p = q;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    p[i] += size * ((i % 2 == 0) ? 1.0 : -1.0) * (0.8 + 0.4 * std::fmod(0.37 * double(i), 1.0));
  }
  return p;
}

TEST(Assembly, HaugFourBarFromAPerturbedStart) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  ASSERT_EQ(m.coordinates(), 12);
  const Eigen::VectorXd q0 = perturbed(m.initial_positions());
  const Eigen::VectorXd qd0 = perturbed(m.initial_velocities(), 0.5);
  ASSERT_GT(max_abs(m.position_violation(q0, 0.0)), 0.05);
  const assembly_result r = assemble(m, q0, qd0, 0.0);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_TRUE(r.message.empty());
  EXPECT_LT(max_abs(m.position_violation(r.q, 0.0)), 1e-10);
  EXPECT_LT(r.violation_after, 1e-10);
  EXPECT_GT(r.violation_before, 0.05);
  EXPECT_GE(r.penalty_stages, 1);
  EXPECT_GE(r.quasi_newton_iterations, 1);
  EXPECT_GE(r.newton_iterations, 1);
  EXPECT_EQ(r.rank, 12);
  // With the crank driven the configuration is determined (on the estimate's branch): the
  // example's exact start, and its velocities (the driven system is square and regular).
  EXPECT_LT(max_abs(r.q - m.initial_positions()), 1e-9);
  EXPECT_LT(max_abs(r.qd - m.initial_velocities()), 1e-9);
  EXPECT_LT(max_abs(m.velocity_violation(r.q, r.qd, 0.0)), 1e-10);
  ASSERT_FALSE(r.worst_before.empty());
  EXPECT_TRUE(r.worst_after.empty());
  EXPECT_NE(r.brief_report().find("assembled at t = 0"), std::string::npos);
  EXPECT_TRUE(r.summary().usable());
  EXPECT_EQ(core::exit_status(r.summary()), core::exit_ok);
  EXPECT_NE(r.full_report().find(r.worst_before.front().name), std::string::npos);
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["converged"], true);
  EXPECT_EQ(j["positions"].size(), 12u);
  EXPECT_NEAR(j["positions"]["b1_phi"].get<double>(), M_PI / 2, 1e-12);
}

TEST(Assembly, AssembledModelCarriesTheState) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  const assembly_result r =
      assemble(m, perturbed(m.initial_positions()), m.initial_velocities(), 0.0);
  ASSERT_TRUE(r.converged) << r.message;
  const model a = assembled_model(m, r);
  EXPECT_EQ(a.initial_positions(), r.q);
  EXPECT_EQ(a.initial_velocities(), r.qd);
  assembly_result failed = r;
  failed.converged = false;
  failed.message = "assembly failed: test";
  EXPECT_THROW((void)assembled_model(m, failed), std::logic_error);
}

TEST(Assembly, SliderCrankWithFreeCrank) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/slider_crank.toml");
  const Eigen::VectorXd q0 = perturbed(m.initial_positions());
  const assembly_result r = assemble(m, q0, m.initial_velocities(), 0.0);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT(max_abs(m.position_violation(r.q, 0.0)), 1e-10);
  EXPECT_LT(max_abs(m.velocity_violation(r.q, r.qd, 0.0)), 1e-9);
  // One degree of freedom: no unique answer, but close to the estimate.
  EXPECT_LT(max_abs(r.q - q0), 0.3);
  EXPECT_EQ(r.rank, 8);
}

TEST(Assembly, PendulumChainsOfFiveToTenLinks) {
  for (const int links : {5, 8, 10}) {
    chain_options c;
    c.links = links;
    const model m = load_model_from_string(chain_model_text(c), "chain.toml");
    const Eigen::VectorXd q0 = perturbed(m.initial_positions());
    const assembly_result r = assemble(m, q0, Eigen::VectorXd::Zero(m.coordinates()), 0.0);
    ASSERT_TRUE(r.converged) << links << ": " << r.message;
    EXPECT_LT(max_abs(m.position_violation(r.q, 0.0)), 1e-10) << links;
    EXPECT_LT(max_abs(r.q - q0), 0.5) << links;
    EXPECT_EQ(r.rank, links);
    EXPECT_LT(max_abs(r.qd), 1e-12) << links;  // at rest stays at rest
  }
}

// A particle put on a circle from (1, 1): by symmetry the nearest point (sqrt 2, sqrt 2).
TEST(Assembly, ModelWrittenInTheTestMovesToTheNearestPoint) {
  const std::string text = R"(
[[coordinate]]
name = "x"
initial = 1.0
velocity = 0.3
mass = 1.0
[[coordinate]]
name = "y"
initial = 1.0
mass = 1.0
[[constraint]]
name = "circle"
holonomic = "x^2 + y^2 - 4"
)";
  const model m = load_unassembled(text, "circle.toml");
  const assembly_result r = assemble(m);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.q[0], std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(r.q[1], std::sqrt(2.0), 1e-12);
  // Velocity: (0.3, 0) projected onto the tangent x x' + y y' = 0: (0.15, -0.15).
  EXPECT_NEAR(r.qd[0], 0.15, 1e-12);
  EXPECT_NEAR(r.qd[1], -0.15, 1e-12);
  ASSERT_EQ(r.worst_before.size(), 1u);
  EXPECT_EQ(r.worst_before[0].name, "circle");
  EXPECT_DOUBLE_EQ(r.worst_before[0].value, -2.0);
}

// Drivers (Phi_t != 0), a redundant consistent row and a free coordinate: the minimum-norm
// corrections handle both; the velocity is Phi_t's.
TEST(Assembly, RedundantRowsAndDriversAtAGivenTime) {
  const std::string text = R"(
[[coordinate]]
name = "x"
initial = 0.0
mass = 1.0
[[coordinate]]
name = "z"
initial = 0.5
mass = 1.0
[[constraint]]
name = "drive"
holonomic = "x - 2*t"
[[constraint]]
name = "drive_again"
holonomic = "2*x - 4*t"
)";
  const model m = load_unassembled(text, "driven.toml");
  const assembly_result r = assemble(m, 1.0);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.q[0], 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(r.q[1], 0.5);  // untouched: the free coordinate is not in any constraint
  EXPECT_NEAR(r.qd[0], 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(r.qd[1], 0.0);
  EXPECT_EQ(r.rank, 1);
}

TEST(Assembly, AnAssembledStateIsKept) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/fourbar_kinematics.toml");
  const assembly_result r = assemble(m);
  ASSERT_TRUE(r.converged) << r.message;
  // Within the load check's 1e-6 but not 1e-10: Gauss-Newton alone finishes it.
  EXPECT_EQ(r.penalty_stages, 0);
  EXPECT_LE(r.newton_iterations, 3);
  EXPECT_LT(max_abs(r.q - m.initial_positions()), 1e-6);
  EXPECT_LT(r.violation_after, 1e-10);
}

// Haug's four-bar with the ground pivots 20 apart: crank 2 + coupler 4 + rocker 4 cannot close.
TEST(Assembly, FourBarThatCannotCloseFailsNamingTheWorstConstraints) {
  std::string text = read_example("haug_fourbar.toml");
  const std::string pivot = "point_j = [2.0, 0.0]";
  const auto at = text.rfind(pivot);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, pivot.size(), "point_j = [20.0, 0.0]");
  EXPECT_THROW((void)load_model_from_string(text, "open.toml"), io::input_error);
  const model m = load_unassembled(text, "open.toml");
  const assembly_result r = assemble(m);
  EXPECT_FALSE(r.converged);
  EXPECT_GT(r.violation_after, 1.0);
  EXPECT_NE(r.message.find("the design may be infeasible or a better estimate is needed"),
            std::string::npos)
      << r.message;
  ASSERT_FALSE(r.worst_after.empty());
  for (const auto& w : r.worst_after) {
    EXPECT_EQ(w.name.front(), 'R') << w.name;  // a revolute joint's row, not a driver
    EXPECT_NE(r.message.find("'" + w.name + "'"), std::string::npos) << r.message;
    EXPECT_GT(std::abs(w.value), 1e-3);
  }
  EXPECT_EQ(r.brief_report(), r.message);
  EXPECT_EQ(r.summary().end, core::termination::failed);
  EXPECT_EQ(r.summary().status(), "not_assembled");
  EXPECT_EQ(r.summary().message, r.message);
  EXPECT_EQ(core::exit_status(r.summary()), core::exit_failure);
  EXPECT_NE(r.full_report().find("most violated constraints"), std::string::npos);
  EXPECT_EQ(r.to_json()["converged"], false);
  EXPECT_THROW((void)assembled_model(m, r), std::logic_error);
}

// The same design written as equations: three links between pivots 10 apart.
TEST(Assembly, LinksTooShortInEquationsFormFail) {
  const std::string text = R"(
[[coordinate]]
name = "xb"
initial = 0.5
mass = 1.0
[[coordinate]]
name = "yb"
initial = 0.5
mass = 1.0
[[coordinate]]
name = "xc"
initial = 9.0
mass = 1.0
[[coordinate]]
name = "yc"
initial = 0.5
mass = 1.0
[[constraint]]
name = "crank"
holonomic = "xb^2 + yb^2 - 1"
[[constraint]]
name = "coupler"
holonomic = "(xc - xb)^2 + (yc - yb)^2 - 1"
[[constraint]]
name = "rocker"
holonomic = "(xc - 10)^2 + yc^2 - 1"
)";
  const model m = load_unassembled(text, "short.toml");
  const assembly_result r = assemble(m);
  ASSERT_FALSE(r.converged);
  ASSERT_FALSE(r.worst_after.empty());
  EXPECT_NE(r.message.find("the design may be infeasible"), std::string::npos);
  EXPECT_NE(r.message.find("'coupler'"), std::string::npos) << r.message;
}

// Velocity drivers that contradict each other: positions assemble, velocities cannot.
TEST(Assembly, InconsistentVelocityEquationsFail) {
  const std::string text = R"(
[[coordinate]]
name = "x"
initial = 0.0
mass = 1.0
[[constraint]]
name = "slow"
holonomic = "x - t"
[[constraint]]
name = "fast"
holonomic = "x - 2*t"
)";
  const model m = load_unassembled(text, "drivers.toml");
  const assembly_result r = assemble(m, 0.0);
  EXPECT_FALSE(r.converged);
  EXPECT_NE(r.message.find("velocity"), std::string::npos) << r.message;
  ASSERT_FALSE(r.worst_after.empty());
  EXPECT_NE(r.worst_after[0].name.find("(velocity)"), std::string::npos);
}

// A rolling constraint R th' = x' (nonholonomic): the minimum-norm change of (1, 0) onto it
// is (1 - 1/(1 + R^2), R/(1 + R^2)) = (0.5, 0.5) for R = 1.
TEST(Assembly, NonholonomicVelocityProjection) {
  const std::string text = R"(
[parameters]
R = 1.0
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 1.0
[[coordinate]]
name = "th"
initial = 0.0
mass = 1.0
[[constraint]]
name = "rolling"
nonholonomic = "R*th_dot - x_dot"
)";
  const model m = load_unassembled(text, "rolling.toml");
  const assembly_result r = assemble(m);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.qd[0], 0.5, 1e-15);
  EXPECT_NEAR(r.qd[1], 0.5, 1e-15);
  EXPECT_EQ(r.q, m.initial_positions());
  EXPECT_THROW((void)load_model_from_string(text, "rolling.toml"), io::input_error);
}

// A constraint that is NaN at the estimate: a reported failure naming it, not a crash.
TEST(Assembly, NotANumberAtTheEstimateFails) {
  const std::string text = R"(
[[coordinate]]
name = "x"
initial = -1.0
mass = 1.0
[[constraint]]
name = "root"
holonomic = "sqrt(x) - 1"
)";
  const model m = load_unassembled(text, "nan.toml");
  const assembly_result r = assemble(m);
  EXPECT_FALSE(r.converged);
  ASSERT_EQ(r.worst_after.size(), 1u);
  EXPECT_EQ(r.worst_after[0].name, "root");
  EXPECT_NE(r.message.find("'root'"), std::string::npos) << r.message;
  EXPECT_TRUE(r.to_json()["violation_after"].is_null());
}

TEST(Assembly, LoadingRefusesAnUnassembledStateNamingTheWayOut) {
  const std::string text = R"(
[[coordinate]]
name = "x"
initial = 1.0
mass = 1.0
[[coordinate]]
name = "y"
initial = 1.0
mass = 1.0
[[constraint]]
name = "circle"
holonomic = "x^2 + y^2 - 4"
)";
  try {
    (void)load_model_from_string(text, "c.toml");
    FAIL() << "loaded";
  } catch (const io::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'circle'"), std::string::npos) << what;
    EXPECT_NE(what.find("run with --assemble or `kinevo model assemble`"), std::string::npos)
        << what;
    EXPECT_EQ(what.find("not automatic"), std::string::npos) << what;
  }
  EXPECT_NO_THROW((void)load_unassembled(text, "c.toml"));
}

TEST(Assembly, OptionsValidateNamingTheField) {
  auto field_of = [](assembly_options o) -> std::string {
    try {
      o.validate();
    } catch (const io::option_error& e) {
      return e.field();
    }
    return "";
  };
  EXPECT_EQ(field_of({}), "");
  assembly_options o;
  o.penalty_tolerance = 0;
  EXPECT_EQ(field_of(o), "penalty_tolerance");
  o = {};
  o.position_tolerance = -1;
  EXPECT_EQ(field_of(o), "position_tolerance");
  o = {};
  o.velocity_tolerance = NAN;
  EXPECT_EQ(field_of(o), "velocity_tolerance");
  o = {};
  o.penalty_growth = 1.0;
  EXPECT_EQ(field_of(o), "penalty_growth");
  o = {};
  o.penalty_max = 0.5;
  EXPECT_EQ(field_of(o), "penalty_max");
  o = {};
  o.max_quasi_newton_iterations = 0;
  EXPECT_EQ(field_of(o), "max_quasi_newton_iterations");
  o = {};
  o.max_newton_iterations = 0;
  EXPECT_EQ(field_of(o), "max_newton_iterations");
  o = {};
  o.rank_tolerance = 1.0;
  EXPECT_EQ(field_of(o), "rank_tolerance");
  o = {};
  o.worst_constraints = 0;
  EXPECT_EQ(field_of(o), "worst_constraints");
  o = {};
  o.penalty_start = 0;
  EXPECT_EQ(field_of(o), "penalty_start");
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  o = {};
  o.penalty_growth = 0.5;
  EXPECT_THROW((void)assemble(m, 0.0, o), io::option_error);
}

}  // namespace
}  // namespace kinevo::mechanics
