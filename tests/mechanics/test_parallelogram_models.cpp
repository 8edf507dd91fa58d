// Yoo's parallelogram four-bar two ways: in relative angles (examples/yoo_parallelogram.toml,
// 3 coordinates, 2 rows) and from three planar bodies and four revolute joints
// (examples/parallelogram_bodies.toml, 9 coordinates, 8 rows). Both give the same crank angle
// and energy before the first flat crossing (t = 0.179 s), and the bodies model loses one rank
// when flat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/kinematics/rank_analysis.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

simulation_result run_dormand_prince(const model& m, const std::string& solver_name) {
  auto solver = make_solver(solver_name);
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  o.t_end = 0.15;
  o.dt = 0.005;  // records
  return simulate(m, *solver, o);
}

int coordinate_index(const model& m, const std::string& coordinate) {
  const auto& names = m.coordinate_names();
  return static_cast<int>(std::find(names.begin(), names.end(), coordinate) - names.begin());
}

class ParallelogramModels : public ::testing::TestWithParam<const char*> {};

TEST_P(ParallelogramModels, SameCrankAngleAndEnergyBeforeTheFirstFlatCrossing) {
  const model angles = load_model(examples + "/yoo_parallelogram.toml");
  const model bodies = load_model(examples + "/parallelogram_bodies.toml");
  ASSERT_EQ(bodies.coordinates(), 9);
  ASSERT_EQ(bodies.constraints(), 8);
  const simulation_result a = run_dormand_prince(angles, GetParam());
  const simulation_result b = run_dormand_prince(bodies, GetParam());
  ASSERT_TRUE(a.completed) << a.message;
  ASSERT_TRUE(b.completed) << b.message;
  ASSERT_EQ(a.records.size(), b.records.size());
  const int th1 = coordinate_index(angles, "th1"), phi1 = coordinate_index(bodies, "crank1_phi");
  double largest_angle = 0.0, largest_energy = 0.0;
  for (std::size_t k = 0; k < a.records.size(); ++k) {
    ASSERT_NEAR(a.records[k].t, b.records[k].t, 1e-14);
    largest_angle = std::max(largest_angle, std::abs(a.records[k].q[th1] - b.records[k].q[phi1]));
    largest_energy = std::max(largest_energy, std::abs(a.records[k].energy - b.records[k].energy));
  }
  EXPECT_LT(largest_angle, 1e-8);
  EXPECT_LT(largest_energy, 1e-8 * std::abs(a.initial_energy));
  EXPECT_NEAR(a.initial_energy, b.initial_energy, 1e-12);
  // The crank falls from 10 degrees towards flat during these 0.15 s.
  EXPECT_LT(a.records.back().q[th1], 10.0 * std::numbers::pi / 180.0 - 0.05);
  EXPECT_GT(a.records.back().q[th1], 0.0);
}

INSTANTIATE_TEST_SUITE_P(Solvers, ParallelogramModels, ::testing::Values("lm", "gigsp"));

// The bodies model at crank angle th (the parallelogram branch, at rest).
Eigen::VectorXd bodies_at(double th) {
  const double l1 = 1.0, l2 = 2.0, l3 = 1.0, l4 = 2.0;
  Eigen::VectorXd q(9);
  q << 0.5 * l1 * std::cos(th), 0.5 * l1 * std::sin(th), th,                         // crank 1
      l1 * std::cos(th) + 0.5 * l2, l1 * std::sin(th), 0.0,                          // coupler
      l4 + 0.5 * l3 * std::cos(th), 0.5 * l3 * std::sin(th), th + std::numbers::pi;  // crank 3
  return q;
}

TEST(ParallelogramBodies, RankEightAtTheStartAndSevenWhenFlat) {
  const model m = load_model(examples + "/parallelogram_bodies.toml");
  const rank_report start = analyse_rank(m, m.initial_positions(), 0.0);
  EXPECT_EQ(start.rank, 8);
  EXPECT_EQ(start.dof, 1);
  EXPECT_TRUE(start.redundant.empty());
  // The file's initial state is the closed form at 10 degrees.
  EXPECT_LT(
      (m.initial_positions() - bodies_at(10.0 * std::numbers::pi / 180.0)).cwiseAbs().maxCoeff(),
      1e-14);
  const Eigen::VectorXd flat = bodies_at(0.0);
  EXPECT_LT(m.position_violation(flat, 0.0).cwiseAbs().maxCoeff(), 1e-14);
  const rank_report r = analyse_rank(m, flat, 0.0);
  EXPECT_EQ(r.rank, 7);
  EXPECT_EQ(r.redundant.size(), 1u);
  EXPECT_TRUE(r.singular);
  EXPECT_EQ(r.generic_rank, 8);
}

}  // namespace
}  // namespace kinevo::mechanics
