// The common machinery of the reduced formulations
// (mechanics/dynamics/detail/reduced_coordinates.hpp), driven by a classical RK4 written here, on a
// basis chosen in the test: recovery of the dependent coordinates and velocities, and the motion
// against the full formulation of the same model.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/detail/reduced_coordinates.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Fixed independent coordinates (a selection basis), never re-based.
class fixed_selection final : public reduced_coordinates {
 public:
  fixed_selection(const model& m, std::vector<int> independent)
      : reduced_coordinates(m, formulation_options{}), independent_(std::move(independent)) {}
  formulation_kind kind() const override { return formulation_kind::partitioning; }

 protected:
  Eigen::MatrixXd choose_basis(const Eigen::VectorXd& q, double) override {
    Eigen::MatrixXd b =
        Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(independent_.size()), q.size());
    for (std::size_t i = 0; i < independent_.size(); ++i)
      b(static_cast<Eigen::Index>(i), independent_[i]) = 1.0;
    return b;
  }
  bool rebase_wanted(const Eigen::VectorXd&, double) override { return false; }

 private:
  std::vector<int> independent_;
};

TEST(ReducedCoordinates, RecoversTheDependentCoordinatesOnTheConstraints) {
  const model m = load_model(examples + "/double_pendulum.toml");  // p1_x p1_y p2_x p2_y
  fixed_selection f(m, {0, 2});
  const Eigen::VectorXd y0 = f.begin(m.initial_positions(), m.initial_velocities(), 0.0);
  ASSERT_EQ(y0.size(), 4);
  // A nearby independent state: the dependent coordinates follow on the constraints.
  Eigen::VectorXd y = y0;
  y[0] += 0.01;  // p = (p1_x, p2_x), p' = (p1_x', p2_x')
  y[1] -= 0.02;
  y[3] += 0.1;
  Eigen::VectorXd q, qd;
  ASSERT_TRUE(f.expand(y, 0.0, q, qd)) << f.message();
  EXPECT_LT(m.position_violation(q, 0.0).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(m.velocity_violation(q, qd, 0.0).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NEAR(q[0], y[0], 1e-14);
  EXPECT_NEAR(q[2], y[1], 1e-14);
  EXPECT_NEAR(qd[0], y[2], 1e-14);
  EXPECT_NEAR(qd[2], y[3], 1e-14);
}

TEST(ReducedCoordinates, FollowsTheFullFormulationOfTheParallelogram) {
  // Yoo's parallelogram, crank angle th1 independent, over 0.1 s (before the first flat
  // crossing), RK4 written here against simulate() with the full formulation.
  const model m = load_model(examples + "/yoo_parallelogram.toml");
  fixed_selection f(m, {0});
  auto solver = make_solver("lm");
  const double h = 1e-4;
  Eigen::VectorXd y = f.begin(m.initial_positions(), m.initial_velocities(), 0.0);
  Eigen::VectorXd q, qd;
  auto rate = [&](const Eigen::VectorXd& yy, double t) {
    EXPECT_TRUE(f.expand(yy, t, q, qd)) << f.message();
    const acceleration_result a = solver->solve(m.evaluate(q, qd, t));
    return f.derivative(q, qd, a.acceleration);
  };
  double t = 0.0;
  for (int k = 0; k < 1000; ++k, t = k * h) {
    const Eigen::VectorXd k1 = rate(y, t), k2 = rate(y + 0.5 * h * k1, t + 0.5 * h),
                          k3 = rate(y + 0.5 * h * k2, t + 0.5 * h), k4 = rate(y + h * k3, t + h);
    y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    ASSERT_EQ(f.after_step(t + h, h, h, y), step_outcome::unchanged);
  }
  ASSERT_TRUE(f.expand(y, 0.1, q, qd));
  simulation_options o;
  o.t_end = 0.1;
  o.dt = h;
  o.integrator = integrator_kind::rk4;
  const simulation_result full = simulate(m, *solver, o);
  ASSERT_TRUE(full.completed);
  EXPECT_NEAR(q[0], full.records.back().q[0], 1e-9);
  EXPECT_NEAR(q[1], full.records.back().q[1], 1e-9);
  EXPECT_NEAR(qd[0], full.records.back().qd[0], 1e-8);
  const double e0 = *m.energy(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_NEAR(*m.energy(q, qd, 0.1), e0, 1e-10 * std::abs(e0));
}

}  // namespace
}  // namespace kinevo::mechanics
