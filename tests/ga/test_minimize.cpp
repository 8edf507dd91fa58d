// ga::minimize on a lambda (ga/minimize.hpp): the shifted sphere's minimum is known in closed
// form, and the run equals island_model::run on the same function written as a ga::problem
// (same seed, same options: the same evaluations in the same order).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "kinevo/ga/minimize.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {
namespace {

const Eigen::Vector3d shifted_centre(0.5, -1.25, 2.0);

double shifted_sphere(const Eigen::VectorXd& x) {
  return (x - shifted_centre).squaredNorm();
}

class shifted_sphere_problem final : public problem {
 public:
  int dimension() const override { return 3; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::VectorXd::Constant(3, -5.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::VectorXd::Constant(3, 5.0); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    values = (x.colwise() - shifted_centre).colwise().squaredNorm().transpose();
  }
};

minimize_options two_island_minimize_options() {
  minimize_options o;
  o.ga.population = 40;
  o.islands.islands = 2;
  o.islands.via = transport::threads;
  o.islands.seed = 11;
  o.limits.max_generations = 300;
  return o;
}

TEST(Minimize, LambdaFindsTheShiftedSphereMinimum) {
  const minimize_options o = two_island_minimize_options();
  const run_result r = minimize(shifted_sphere, Eigen::VectorXd::Constant(3, -5.0),
                                Eigen::VectorXd::Constant(3, 5.0), o);
  EXPECT_LT(r.best_value, 1e-6);
  EXPECT_LT((r.best_x - shifted_centre).norm(), 1e-3);
  EXPECT_EQ(r.reason, stop_reason::generations);
  EXPECT_EQ(r.generations, 300);
}

TEST(Minimize, SameRunAsTheIslandModelOnTheProblem) {
  const minimize_options o = two_island_minimize_options();
  const run_result a = minimize(shifted_sphere, Eigen::VectorXd::Constant(3, -5.0),
                                Eigen::VectorXd::Constant(3, 5.0), o);
  const shifted_sphere_problem p;
  island_model model(o.ga, o.islands);
  const run_result b = model.run(p, search_box::of(p), o.limits);
  EXPECT_EQ(a.best_value, b.best_value);
  EXPECT_EQ(a.best_x, b.best_x);
  EXPECT_EQ(a.evaluations, b.evaluations);
}

TEST(Minimize, BadBoxesAndObjectivesAreRefused) {
  const Eigen::VectorXd lo = Eigen::VectorXd::Constant(2, -1.0);
  const Eigen::VectorXd hi = Eigen::VectorXd::Constant(2, 1.0);
  EXPECT_THROW(minimize(shifted_sphere, lo, Eigen::VectorXd::Constant(3, 1.0)),
               std::invalid_argument);
  EXPECT_THROW(minimize(shifted_sphere, hi, lo), std::invalid_argument);
  EXPECT_THROW(minimize({}, lo, hi), io::option_error);
  EXPECT_THROW(minimize(shifted_sphere, Eigen::VectorXd(), Eigen::VectorXd()), io::option_error);
  minimize_options no_limit;
  no_limit.limits.max_generations = 0;
  EXPECT_THROW(minimize(shifted_sphere, lo, hi, no_limit), io::option_error);
  // A NaN from the objective stops the run with a message, not a silent best value.
  EXPECT_THROW(minimize([](const Eigen::VectorXd&) { return std::nan(""); }, lo, hi),
               std::runtime_error);
}

}  // namespace
}  // namespace kinevo::ga
