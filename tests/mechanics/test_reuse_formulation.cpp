// The `reuse` formulation (generalized-inverse dissertation (GIGSP), section 4.3.3): GIGSP's
// generalized inverse kept between exact steps, compensated by Baumgarte or projection. The
// violation stays bounded, the acceleration stays close to exact GIGSP at the same state (the
// simulation's reference mechanism), the exact inverses are counted exactly, and nonholonomic
// rows are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/reuse_formulation.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/approximate_inverse.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

simulation_options reuse_options(stabilization_kind stabilization, double t_end, double dt) {
  simulation_options o;
  o.formulation.kind = formulation_kind::reuse;
  o.stabilization = stabilization;
  o.t_end = t_end;
  o.dt = dt;
  return o;
}

double largest_acceleration(const simulation_result& r) {
  double a = 0.0;
  for (const auto& rec : r.records) a = std::max(a, rec.qdd.cwiseAbs().maxCoeff());
  return a;
}

struct reuse_case {
  const char* file;
  stabilization_kind stabilization;
  // Measured over 2 s, RK4 dt = 1e-4, k = 5 (docs: the reuse trade-off), bounds with a margin:
  double max_violation;   // max |Phi|
  double max_difference;  // max |a - a_gigsp| / max |a| at the records (regular ones)
  double max_energy;      // max |E - E0| / |E0|
};

void PrintTo(const reuse_case& c, std::ostream* os) {
  *os << c.file << " with " << to_string(c.stabilization);
}

class ReuseFormulation : public ::testing::TestWithParam<reuse_case> {};

// Away from the parallelogram's flat crossings (|sin crank1_phi| >= 0.05): there the exact
// generalized inverse changes rank within a step and the kept one differs from it by O(1).
bool regular(const model& m, const step_record& r) {
  const auto& names = m.coordinate_names();
  const auto it = std::find(names.begin(), names.end(), "crank1_phi");
  return it == names.end() || std::abs(std::sin(r.q[it - names.begin()])) >= 0.05;
}

TEST_P(ReuseFormulation, ViolationBoundedAndCloseToExactGigsp) {
  const reuse_case c = GetParam();
  const model m = load_model(examples + "/" + c.file);
  auto user = make_solver("lm");  // not used: reuse brings its own solver
  auto reference = make_solver("gigsp");
  const simulation_options o = reuse_options(c.stabilization, 2.0, 1e-4);
  const simulation_result r = simulate(m, *user, o, {}, reference.get());
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.steps, 20000);
  EXPECT_EQ(r.solver, "gigsp-reuse");
  EXPECT_EQ(r.formulation.name, "reuse");
  // Exact at the first solve and at the first solve after every 5th step: steps 0, 5, ...,
  // 20000 (the last record's solve included).
  EXPECT_EQ(r.formulation.exact_inverses, 20000 / 5 + 1);
  EXPECT_EQ(r.formulation.corrections,
            c.stabilization == stabilization_kind::projection ? 20000 : 0);
  ASSERT_TRUE(std::isfinite(r.max_reference_difference));
  const double scale = largest_acceleration(r);
  double difference = 0.0;
  for (const auto& rec : r.records) {
    if (regular(m, rec)) difference = std::max(difference, rec.reference_difference);
  }
  const double relative = difference / scale;
  EXPECT_LT(r.max_position_violation, c.max_violation);
  EXPECT_LT(relative, c.max_difference);
  EXPECT_GT(relative, 0.0);  // approximate by design
  EXPECT_LT(r.max_energy_deviation(), c.max_energy);
  // The exact steps are GIGSP itself.
  for (std::size_t k = 0; k < r.records.size(); k += 5) {
    EXPECT_LT(r.records[k].reference_difference, 1e-9 * scale) << r.records[k].t;
  }
  RecordProperty("max_position_violation", std::to_string(r.max_position_violation));
  RecordProperty("relative_reference_difference", std::to_string(relative));
  RecordProperty("max_energy_deviation", std::to_string(r.max_energy_deviation()));
}

INSTANTIATE_TEST_SUITE_P(
    Models, ReuseFormulation,
    ::testing::Values(
        reuse_case{"double_pendulum.toml", stabilization_kind::baumgarte, 2e-3, 1e-2, 0.1},
        reuse_case{"double_pendulum.toml", stabilization_kind::projection, 1e-11, 1e-2, 0.1},
        reuse_case{"slider_crank.toml", stabilization_kind::baumgarte, 5e-3, 2.5e-2, 0.15},
        reuse_case{"slider_crank.toml", stabilization_kind::projection, 1e-11, 2.5e-2, 0.15},
        reuse_case{"parallelogram_bodies.toml", stabilization_kind::baumgarte, 3e-4, 5e-3, 0.15},
        reuse_case{"parallelogram_bodies.toml", stabilization_kind::projection, 1e-11, 5e-3, 0.15}),
    [](const ::testing::TestParamInfo<reuse_case>& param) {
      std::string name = param.param.file;
      name = name.substr(0, name.find('.')) + "_" + to_string(param.param.stabilization);
      return name;
    });

TEST(ReuseFormulation, ExactInverseCountFollowsTheRule) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto user = make_solver("gigsp");
  for (int every : {1, 3, 5, 7}) {
    for (int steps : {10, 12, 14}) {
      simulation_options o = reuse_options(stabilization_kind::baumgarte, 0.01 * steps, 0.01);
      o.formulation.reuse_exact_every = every;
      const simulation_result r = simulate(m, *user, o);
      ASSERT_TRUE(r.completed) << r.message;
      ASSERT_EQ(r.steps, steps);
      EXPECT_EQ(r.formulation.exact_inverses, steps / every + 1) << every << " " << steps;
    }
  }
}

TEST(ReuseFormulation, UncompensatedRunsButDriftsMoreThanCompensated) {
  const model m = load_model(examples + "/slider_crank.toml");
  auto user = make_solver("gigsp");
  const simulation_result none =
      simulate(m, *user, reuse_options(stabilization_kind::none, 2.0, 1e-3));
  const simulation_result projected =
      simulate(m, *user, reuse_options(stabilization_kind::projection, 2.0, 1e-3));
  ASSERT_TRUE(projected.completed) << projected.message;
  EXPECT_GT(none.max_position_violation, 100.0 * projected.max_position_violation);
}

TEST(ApproximateInverseSolver, ExactStepIsGigspWithItsDiagnostics) {
  // Redundant rows are dropped and named as GIGSP names them; the next solves reuse G.
  const model m = load_model(examples + "/fivebar_redundant.toml");
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  solver_options dense;
  dense.direct.allow_sparse = false;
  auto gigsp = make_solver("gigsp", dense);
  const acceleration_result exact = gigsp->solve(s);
  approximate_inverse_solver reuse;
  const acceleration_result first = reuse.solve(s);
  EXPECT_EQ(reuse.exact_inverses(), 1);
  EXPECT_EQ(first.status, solve_status::ok);
  EXPECT_EQ(first.rank, exact.rank);
  EXPECT_EQ(first.redundant, exact.redundant);
  EXPECT_FALSE(first.redundant.empty());
  EXPECT_LT((first.acceleration - exact.acceleration).cwiseAbs().maxCoeff(), 1e-10);
  // At the same state the kept inverse gives the same acceleration, with no new inverse.
  const acceleration_result again = reuse.solve(s);
  EXPECT_EQ(reuse.exact_inverses(), 1);
  EXPECT_EQ(again.redundant, exact.redundant);
  EXPECT_TRUE(again.message.empty());
  EXPECT_LT((again.acceleration - exact.acceleration).cwiseAbs().maxCoeff(), 1e-10);
  reuse.request_exact();
  reuse.solve(s);
  EXPECT_EQ(reuse.exact_inverses(), 2);
}

TEST(ApproximateInverseSolver, InconsistentRowsRefusedByNameAtAnExactStep) {
  const model m = load_model(examples + "/fivebar_inconsistent.toml");
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  auto gigsp = make_solver("gigsp");
  const acceleration_result exact = gigsp->solve(s);
  ASSERT_EQ(exact.status, solve_status::inconsistent);
  approximate_inverse_solver reuse;
  const acceleration_result r = reuse.solve(s);
  EXPECT_EQ(r.status, solve_status::inconsistent);
  EXPECT_EQ(r.inconsistent, exact.inconsistent);
  EXPECT_EQ(reuse.exact_inverses(), 0);
  for (int row : r.inconsistent) {
    EXPECT_NE(r.message.find("'" + m.constraint_names()[static_cast<std::size_t>(row)] + "'"),
              std::string::npos)
        << r.message;
  }
}

TEST(ReuseFormulation, RefusesNonholonomicRowsByName) {
  const std::string text = R"toml(
[parameters]
R = 0.5
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 2.0
[[coordinate]]
name = "th"
initial = 0.0
velocity = 2.0
mass = 0.25
[[coordinate]]
name = "y"
initial = 0.0
mass = 1.0
[[constraint]]
name = "level"
holonomic = "y"
[[constraint]]
name = "rolling"
nonholonomic = "R*th_dot - x_dot"
)toml";
  const model m = load_model_from_string(text, "disc.toml");
  simulation_options o = reuse_options(stabilization_kind::baumgarte, 1.0, 1e-2);
  try {
    make_formulation(m, o.formulation, o);
    FAIL() << "a nonholonomic row was accepted";
  } catch (const io::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'rolling'"), std::string::npos) << what;
    EXPECT_EQ(what.find("'level'"), std::string::npos) << what;
    EXPECT_NE(what.find("holonomic constraints only"), std::string::npos) << what;
  }
  auto user = make_solver("gigsp");
  EXPECT_THROW(simulate(m, *user, o), io::input_error);
}

}  // namespace
}  // namespace kinevo::mechanics

namespace kinevo::mechanics {
namespace {

// Dormand-Prince is refused: the jump of the kept inverse at each exact step is what its error
// control would see, not the reuse error.
TEST(ReuseFormulation, RefusesDormandPrince) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto user = make_solver("gigsp");
  simulation_options o = reuse_options(stabilization_kind::projection, 1.0, 1e-2);
  o.integrator = integrator_kind::dormand_prince;
  try {
    simulate(m, *user, o);
    FAIL() << "Dormand-Prince was accepted";
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "integrator");
    EXPECT_NE(std::string(e.what()).find("rk4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kinevo::mechanics
