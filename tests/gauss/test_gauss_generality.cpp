// Gauss by GA on every model a user could write, with the default preset and its default
// budget (never widened for a test): the examples, pendulum chains of several sizes,
// accelerations from 1e-3 to 1e5, a slider-crank written here, random SPD mass matrices with
// redundant rows. The reference is GIGSP (a second, independent solver).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gauss_test_support.hpp"
#include "kinevo/gauss/ga_solver_options.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/register_ga_solver.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::gauss {
namespace {

using kinevo::test::initial_system;
using kinevo::test::scaled_error;
using mechanics::chain_options;
using mechanics::load_model;
using mechanics::load_model_from_string;
using mechanics::make_solver;
using mechanics::model;
using mechanics::solver_available;
using mechanics::solver_options;

gauss_ga_options defaults(std::uint64_t seed, int islands = 1) {
  gauss_ga_options o = gauss_ga_preset("default");
  o.islands.islands = islands;
  o.islands.seed = seed;
  return o;
}

void expect_matches_gigsp(const constrained_system& s, const std::string& what,
                          std::uint64_t seed = 1, int islands = 1) {
  const acceleration_result ref = make_solver("gigsp")->solve(s);
  ASSERT_EQ(ref.status, solve_status::ok) << what;
  gauss_ga_solver ga(defaults(seed, islands));
  const acceleration_result r = ga.solve(s);
  EXPECT_EQ(r.status, solve_status::ok) << what << ": " << r.message;
  ASSERT_EQ(r.acceleration.size(), s.coordinates()) << what;
  EXPECT_LE(scaled_error(r.acceleration, ref.acceleration), 1e-9)
      << what << " (" << r.runs << " runs, " << r.evaluations << " evaluations)";
}

TEST(gauss_generality, every_example_model) {
  for (const std::string name :
       {"double_pendulum", "pendulum", "fivebar_redundant", "fourbar_kinematics", "haug_fourbar",
        "slider_crank", "seven_link_loop"}) {
    const model m = load_model(std::string(KINEVO_EXAMPLES) + "/" + name + ".toml");
    expect_matches_gigsp(initial_system(m), name);
  }
}

TEST(gauss_generality, inconsistent_example_is_named) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/fivebar_inconsistent.toml");
  gauss_ga_solver ga(defaults(1));
  const acceleration_result r = ga.solve(initial_system(m));
  EXPECT_EQ(r.status, solve_status::inconsistent);
  EXPECT_NE(r.message.find("link5_y"), std::string::npos) << r.message;
}

class chain_sizes : public ::testing::TestWithParam<int> {};

TEST_P(chain_sizes, cold_solve_matches_gigsp) {
  chain_options c;
  c.links = GetParam();
  const model m = load_model_from_string(chain_model_text(c), "chain");
  expect_matches_gigsp(initial_system(m), "chain of " + std::to_string(c.links) + " links");
}

INSTANTIATE_TEST_SUITE_P(links, chain_sizes, ::testing::Values(2, 3, 5, 8, 10, 15, 20));

// Accelerations of 1e-3 and 1e5 (the chain's are proportional to g at rest).
TEST(gauss_generality, accelerations_from_1e_minus_3_to_1e5) {
  for (const double g : {1e-3, 1e5}) {
    chain_options c;
    c.links = 5;
    c.gravity = g;
    const model m = load_model_from_string(chain_model_text(c), "chain");
    expect_matches_gigsp(initial_system(m), "chain with g = " + std::to_string(g));
  }
}

// A slider-crank written here (not an example): crank, rod and piston as planar bodies,
// revolute and translational joints, a stiff gas spring with a damper; accelerations ~1e4.
const char* const slider_crank_text = R"(
[model]
name = "slider-crank in the test"
gravity = [0.0, -9.81]
[[body]]
name = "crank"
mass = 0.4
inertia = "0.4*0.3^2/12"
position = [-0.11490666646784668, 0.09641814145298092]
angle = 2.443460952792061
velocity = [3.374634950854332, 4.021733326374634]
angular_velocity = -35.0
[[body]]
name = "rod"
mass = 0.9
inertia = "0.9*1.1^2/12"
position = [0.31166939254938886, 0.09641814145298092]
angle = -0.1762162800222961
velocity = [6.0331472361126774, 4.021733326374634]
angular_velocity = -7.4272606254831155
[[body]]
name = "piston"
mass = 2.5
inertia = 0.01
position = [0.8531521180344713, 0.0]
angle = 0.0
velocity = [5.317024570516692, 0.0]
[[joint]]
name = "main_bearing"
type = "revolute"
body_i = "ground"
body_j = "crank"
point_j = [-0.15, 0.0]
[[joint]]
name = "crank_pin"
type = "revolute"
body_i = "crank"
point_i = [0.15, 0.0]
body_j = "rod"
point_j = [-0.55, 0.0]
[[joint]]
name = "wrist_pin"
type = "revolute"
body_i = "rod"
point_i = [0.55, 0.0]
body_j = "piston"
[[joint]]
name = "cylinder"
type = "translational"
body_i = "ground"
axis_i = [1.0, 0.0]
body_j = "piston"
[[force]]
name = "gas_spring"
type = "spring_damper"
body_i = "ground"
point_i = [2.0, 0.0]
body_j = "piston"
stiffness = 5.0e4
damping = 20.0
rest_length = 0.9
)";

TEST(gauss_generality, slider_crank_written_in_the_test) {
  const model m = load_model_from_string(slider_crank_text, "slider_crank_in_test");
  expect_matches_gigsp(initial_system(m), "slider-crank");
}

// Random consistent systems: M SPD and full (condition up to ~1e3), random rows with a
// redundant combination appended, n up to 20.
struct random_redundant_system {
  constrained_system system;
  std::vector<std::string> names;
};

random_redundant_system make_random_system(std::mt19937& rng, int n, int m) {
  std::normal_distribution<double> normal;
  random_redundant_system c;
  const Eigen::MatrixXd r = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return normal(rng); });
  c.system.mass = r * r.transpose() + 0.05 * n * Eigen::MatrixXd::Identity(n, n);
  c.system.force = Eigen::VectorXd::NullaryExpr(n, [&] { return 10.0 * normal(rng); });
  Eigen::MatrixXd a(m + 1, n);
  a.topRows(m) = Eigen::MatrixXd::NullaryExpr(m, n, [&] { return normal(rng); });
  a.row(m) = a.row(0) - 2.0 * a.row(m - 1);  // redundant
  c.system.jacobian = a;
  const Eigen::VectorXd target = Eigen::VectorXd::NullaryExpr(n, [&] { return normal(rng); });
  c.system.rhs = a * target;
  // Appended, not "c" + ...: GCC 12's -Wrestrict misfires on operator+(const char*, string&&)
  // as inlined in a unity batch.
  for (int k = 0; k <= m; ++k) c.names.push_back(std::string("c").append(std::to_string(k)));
  c.system.constraint_names = c.names;
  return c;
}

TEST(gauss_generality, random_spd_systems_with_redundant_rows) {
  std::mt19937 rng(2026);
  int trial = 0;
  for (const int n : {2, 3, 5, 8, 12, 16, 20}) {
    const random_redundant_system c = make_random_system(rng, n, std::max(1, n / 2));
    expect_matches_gigsp(c.system, "random system n = " + std::to_string(n),
                         static_cast<std::uint64_t>(++trial));
  }
}

TEST(gauss_generality, islands_do_not_change_the_contract) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/slider_crank.toml");
  for (const int islands : {2, 4, 8}) {
    expect_matches_gigsp(initial_system(m), "slider-crank, " + std::to_string(islands) + " islands",
                         3, islands);
  }
}

// Warm solves along a trajectory, in RK4's pattern of four stages per step (the prediction
// extrapolates each stage from the same stage of the last four steps): the solver follows the
// state with one run per solve once that history exists, and stays exact throughout.
TEST(gauss_generality, warm_solves_along_an_rk4_trajectory_stay_exact) {
  chain_options c;
  c.links = 5;
  const model m = load_model_from_string(chain_model_text(c), "chain");
  gauss_ga_solver ga(defaults(2));
  auto gigsp = make_solver("gigsp");
  Eigen::VectorXd q = m.initial_positions();
  Eigen::VectorXd qd = m.initial_velocities();
  const double h = 1e-3;
  std::vector<long long> warm_evaluations;
  int solves = 0;
  const auto accel = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, double t) {
    const constrained_system s = m.evaluate(qq, vv, t);
    const acceleration_result r = ga.solve(s);
    const acceleration_result ref = gigsp->solve(s);
    EXPECT_EQ(r.status, solve_status::ok) << "solve " << solves << ": " << r.message;
    EXPECT_LE(scaled_error(r.acceleration, ref.acceleration), 1e-9) << "solve " << solves;
    // Once four steps of history exist (the cubic prediction per stage).
    if (solves++ >= 16) warm_evaluations.push_back(r.evaluations);
    return ref.acceleration;  // the trajectory itself need not be the GA's
  };
  for (int step = 0; step < 10; ++step) {
    const double t = step * h;
    const Eigen::VectorXd a1 = accel(q, qd, t);
    const Eigen::VectorXd a2 = accel(q + 0.5 * h * qd, qd + 0.5 * h * a1, t + 0.5 * h);
    const Eigen::VectorXd a3 =
        accel(q + 0.5 * h * qd + 0.25 * h * h * a1, qd + 0.5 * h * a2, t + 0.5 * h);
    const Eigen::VectorXd a4 = accel(q + h * qd + 0.5 * h * h * a2, qd + h * a3, t + h);
    q += h * qd + h * h / 6.0 * (a1 + a2 + a3);
    qd += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  std::sort(warm_evaluations.begin(), warm_evaluations.end());
  // One run of the per-run budget (n = 10: max(6400, 800 n) = 8000) for most solves.
  EXPECT_LE(warm_evaluations[warm_evaluations.size() / 2], 8000);
}

TEST(gauss_generality, non_finite_system_is_refused_as_non_finite) {
  constrained_system s;
  s.mass = Eigen::MatrixXd::Identity(2, 2);
  s.force = Eigen::Vector2d(std::nan(""), 0.0);
  s.jacobian = Eigen::MatrixXd::Zero(0, 2);
  s.rhs = Eigen::VectorXd(0);
  gauss_ga_solver ga(defaults(1));
  const acceleration_result r = ga.solve(s);
  EXPECT_EQ(r.status, solve_status::non_finite);
  EXPECT_NE(r.message.find("NaN or infinite entries in force or mass of coordinate 1"),
            std::string::npos)
      << r.message;
}

TEST(gauss_generality, registered_explicitly_for_the_factory) {
  register_ga_solver();
  register_ga_solver();  // idempotent
  EXPECT_TRUE(solver_available("ga"));
  solver_options o;
  ga_solver_options_of(o).islands = 0;
  EXPECT_THROW(make_solver("ga", o), std::invalid_argument);  // no silent clamp to 1
}

// The GA solver owns its options; the factory checks them through the validator gauss
// registered, for every solver it makes (as when they were fields of one options struct).
TEST(gauss_generality, its_options_are_checked_by_the_factory_naming_the_field) {
  register_ga_solver();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::pair<std::string, std::function<void(ga_solver_options&)>>> cases{
      {"islands", [](ga_solver_options& g) { g.islands = 0; }},
      {"threads", [](ga_solver_options& g) { g.threads = -1; }},
      {"tolerance", [&](ga_solver_options& g) { g.tolerance = nan; }}};
  for (const auto& [field, spoil] : cases) {
    for (const std::string solver : {"ga", "gigsp"}) {
      solver_options o;
      spoil(ga_solver_options_of(o));
      try {
        (void)make_solver(solver, o);
        ADD_FAILURE() << field << " " << solver;
      } catch (const io::option_error& e) {
        EXPECT_EQ(e.field(), field) << solver;
      }
    }
  }
}

}  // namespace
}  // namespace kinevo::gauss
