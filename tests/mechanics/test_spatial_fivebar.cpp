// The spatial parallel five-bar (examples/spatial_fivebar.toml; Del Citto, Pennestri and Vita,
// "Coordinates reduction and numerical integration of models of constrained multibody systems",
// section 4.1): 4 bodies in Euler parameters (28 coordinates), 4 normalisation rows and 6
// spatial revolute joints (30 rows). The motion is planar, so the rank is 27: 7 redundant rows
// and 1 degree of freedom. At the initial state and at two states along a short run, the direct
// solvers that handle redundant rows agree with each other and each names 7 redundant rows; the
// rank analysis (Haug, sections 4.4 and 4.6) gives the same 7 rows and 1 DOF. The GA solver's
// agreement is in tests/gauss/test_gauss_spatial_fivebar.cpp (this module does not link it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/kinematics/rank_analysis.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;
using kinevo::test::max_abs;

// In model order, the later row of each dependent pair (Haug, Example 4.6.1): the rows of the
// second loop closure (B, D) that the planar motion makes repeat the first loop's.
const std::vector<std::string> later_rows{"B.z", "B.axis1", "B.axis2", "D.x",
                                          "D.z", "D.axis1", "D.axis2"};

model fivebar() {
  return load_model(examples + "/spatial_fivebar.toml");
}

// The initial state and the records at t = 0.3 s and 0.7 s of a full + GIGSP run (RK4,
// dt = 1e-3): the cranks then swing at about 3 and 4 rad/s, so the velocity terms of b count.
std::vector<step_record> three_states(const model& m) {
  auto gigsp = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.7;
  o.dt = 1e-3;
  std::vector<step_record> out;
  const simulation_result r = simulate(m, *gigsp, o, [&](const step_record& s) {
    if (s.t == 0.0 || std::abs(s.t - 0.3) < 1e-9 || s.final) out.push_back(s);
    return true;
  });
  EXPECT_TRUE(r.completed) << r.message;
  EXPECT_EQ(out.size(), 3U);
  return out;
}

std::vector<std::string> names_of(const model& m, const std::vector<int>& rows) {
  std::vector<std::string> names;
  for (int i : rows) names.push_back(m.constraint_names().at(static_cast<std::size_t>(i)));
  return names;
}

TEST(SpatialFiveBar, DirectSolversAgreeAndNameSevenRedundantRows) {
  const model m = fivebar();
  ASSERT_EQ(m.coordinates(), 28);
  ASSERT_EQ(m.constraints(), 34);
  for (const step_record& s : three_states(m)) {
    const constrained_system sys = m.evaluate(s.q, s.qd, s.t);
    const acceleration_result ref = make_solver("gigsp")->solve(sys);
    ASSERT_EQ(ref.status, solve_status::ok) << ref.message;
    // The states move: the accelerations are not those at rest.
    if (s.t > 0.0) {
      EXPECT_GT(max_abs(s.qd), 1.0) << "t = " << s.t;
    }
    for (const char* name : {"gigsp", "uk", "sl", "kv", "qtz"}) {
      const acceleration_result r = make_solver(name)->solve(sys);
      ASSERT_EQ(r.status, solve_status::ok) << name << " t = " << s.t << ": " << r.message;
      EXPECT_EQ(r.rank, 27) << name << " t = " << s.t;
      EXPECT_LT(max_abs(r.acceleration - ref.acceleration), 1e-8) << name << " t = " << s.t;
      EXPECT_LT(max_abs(r.constraint_force - ref.constraint_force), 1e-8) << name;
      EXPECT_LT(max_abs(sys.jacobian * r.acceleration - sys.rhs), 1e-8) << name;
      // Seven distinct rows by name. GIGSP, U-K and S-L sweep the rows in order and drop the
      // later of each dependent pair; K-V and QTZ pick by column-pivoted QR, other rows of the
      // same dependent sets.
      const std::vector<std::string> names = names_of(m, r.redundant);
      EXPECT_EQ(names.size(), 7U) << name << " t = " << s.t;
      EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << name;
      EXPECT_TRUE(r.inconsistent.empty()) << name;
      const std::string n = name;
      if (n == "gigsp" || n == "uk" || n == "sl") {
        EXPECT_EQ(names, later_rows) << name;
      }
    }
    // Lagrange multipliers need A M^-1 A^T invertible: refused, not wrong.
    const acceleration_result lm = make_solver("lm")->solve(sys);
    EXPECT_EQ(lm.status, solve_status::singular) << lm.message;
    EXPECT_EQ(lm.acceleration.size(), 0);
    // The rank it reports is the row-relative one (its squared pivot test alone said 30).
    EXPECT_EQ(lm.rank, 27) << lm.message;
  }
}

TEST(SpatialFiveBar, RankAnalysisGivesSevenRedundantRowsAndOneDof) {
  const model m = fivebar();
  for (const step_record& s : three_states(m)) {
    const rank_report r = analyse_rank(m, s.q, s.t);
    EXPECT_EQ(r.coordinates, 28);
    EXPECT_EQ(r.holonomic_rows, 34);
    EXPECT_EQ(r.rank, 27) << "t = " << s.t;
    EXPECT_EQ(r.kinematic_rank, 27);
    EXPECT_EQ(r.dof, 1);
    EXPECT_EQ(r.redundant, later_rows) << "t = " << s.t;
    EXPECT_EQ(r.independent.size(), 1U);
    EXPECT_TRUE(r.drivers.empty());
    EXPECT_EQ(r.missing_drivers, 1);
    EXPECT_FALSE(r.determined);
    // The cranks swing between -20 and -160 degrees, never flat: a regular configuration.
    EXPECT_FALSE(r.singular) << "t = " << s.t;
    EXPECT_EQ(r.generic_rank, 27);
  }
}

// The driven variant adds one row (the crank angle): rank 28 = n, kinematically determined;
// the seven redundant rows stay.
TEST(SpatialFiveBar, DrivenVariantIsDeterminedWithTheSameRedundantRows) {
  const model m = load_model(examples + "/spatial_fivebar_driven.toml");
  ASSERT_EQ(m.constraints(), 35);
  const rank_report r = analyse_rank(m, m.initial_positions(), 0.0);
  EXPECT_EQ(r.rank, 28);
  EXPECT_EQ(r.kinematic_rank, 27);
  EXPECT_EQ(r.dof, 1);
  EXPECT_EQ(r.redundant, later_rows);
  EXPECT_EQ(r.drivers, std::vector<std::string>{"drive"});
  EXPECT_TRUE(r.redundant_drivers.empty());
  EXPECT_EQ(r.missing_drivers, 0);
  EXPECT_TRUE(r.determined);
  const constrained_system sys = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const acceleration_result a = make_solver("gigsp")->solve(sys);
  ASSERT_EQ(a.status, solve_status::ok) << a.message;
  EXPECT_EQ(a.rank, 28);
  EXPECT_EQ(names_of(m, a.redundant), later_rows);
  // Constant crank speed from rest in angle: the crank tip's acceleration is centripetal,
  // omega^2 l / 2 = 6.28^2 * 0.5 towards the pivot, for the crank's centre of mass.
  const double omega = 6.28, th = -20.0 * 3.14159265358979323846 / 180.0;
  const auto x = static_cast<Eigen::Index>(0), y = static_cast<Eigen::Index>(1);
  EXPECT_NEAR(a.acceleration[x], -omega * omega * 0.5 * std::cos(th), 1e-9);
  EXPECT_NEAR(a.acceleration[y], -omega * omega * 0.5 * std::sin(th), 1e-9);
}

}  // namespace
}  // namespace kinevo::mechanics
