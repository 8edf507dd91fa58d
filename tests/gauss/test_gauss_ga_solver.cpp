#include "kinevo/gauss/ga_solver_options.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/register_ga_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>

#include "gauss_test_support.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/studies/double_pendulum_study.hpp"
#include "kkt_reference.hpp"

namespace kinevo::gauss {
namespace {

using kinevo::test::scaled_error;
using mechanics::load_model;
using mechanics::make_solver;
using mechanics::model;
using mechanics::solver_options;
using studies::double_pendulum_exact_t0;
using studies::double_pendulum_state;
using studies::double_pendulum_system;

// A preset as a user gets it: only the seed and the island count change (never the budget).
gauss_ga_options preset(const std::string& name, std::uint64_t seed, int islands = 2) {
  gauss_ga_options o = gauss_ga_preset(name);
  o.islands.islands = islands;
  o.islands.seed = seed;
  return o;
}

// A consistent system: M SPD (not diagonal), random A with full row rank, b = A a* for a
// known a*; optionally with redundant copies of rows appended.
struct random_case {
  constrained_system system;
  std::vector<std::string> names;
};

random_case make_case(std::mt19937& rng, int n, int m, int redundant) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  random_case c;
  const Eigen::MatrixXd r = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return u(rng); });
  c.system.mass = r * r.transpose() + Eigen::MatrixXd::Identity(n, n);
  c.system.force = Eigen::VectorXd::NullaryExpr(n, [&] { return 10.0 * u(rng); });
  // Rows with singular values in [1, 2]: the multiplier updates at the default W contract by
  // about 1 / (1 + 2 W sigma_min^2) per run, so a nearly dependent set would need more runs.
  const Eigen::MatrixXd g = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return u(rng); });
  const Eigen::MatrixXd q = Eigen::HouseholderQR<Eigen::MatrixXd>(g).householderQ();
  Eigen::MatrixXd a(m + redundant, n);
  for (int k = 0; k < m; ++k) a.row(k) = (1.0 + 0.5 * (u(rng) + 1.0)) * q.row(k);
  for (int k = 0; k < redundant; ++k)
    a.row(m + k) = (1.0 + k) * a.row(k) - 0.5 * a.row((k + 1) % m);
  c.system.jacobian = a;
  const Eigen::VectorXd target = Eigen::VectorXd::NullaryExpr(n, [&] { return 5.0 * u(rng); });
  c.system.rhs = a * target;
  for (int k = 0; k < m + redundant; ++k)
    c.names.push_back(std::string("c").append(std::to_string(k)));
  c.system.constraint_names = c.names;
  return c;
}

// The most a cold solve may cost: the run cap for n runs of the per-run budget.
long long o_budget(int n) {
  const gauss_ga_options o = gauss_ga_preset("default");
  return o.run_cap(n) * o.run_budget(n);
}

TEST(gauss_ga_solver, matches_gigsp_on_random_consistent_systems) {
  std::mt19937 rng(2024);
  auto gigsp = make_solver("gigsp");
  for (int trial = 0; trial < 8; ++trial) {
    const int n = 3 + trial % 4;
    const int m = 1 + trial % 3;
    const auto c = make_case(rng, n, std::min(m, n - 1), 0);
    gauss_ga_solver ga(preset("default", 10 + static_cast<std::uint64_t>(trial)));
    const acceleration_result r = ga.solve(c.system);
    const acceleration_result ref = gigsp->solve(c.system);
    ASSERT_EQ(ref.status, solve_status::ok);
    ASSERT_EQ(r.acceleration.size(), n) << r.message;
    EXPECT_LE(scaled_error(r.acceleration, ref.acceleration), 1e-9)
        << "trial " << trial << " n " << n << " runs " << r.runs;
    EXPECT_LE(scaled_error(r.acceleration, kinevo::test::kkt_acceleration(c.system)), 1e-9);
    EXPECT_LE(r.evaluations, o_budget(n));
  }
}

TEST(gauss_ga_solver, redundant_rows_cost_nothing) {
  std::mt19937 rng(99);
  auto gigsp = make_solver("gigsp");
  for (int trial = 0; trial < 4; ++trial) {
    const auto c = make_case(rng, 5, 2, 2);
    gauss_ga_solver ga(preset("default", 3 + static_cast<std::uint64_t>(trial)));
    const acceleration_result r = ga.solve(c.system);
    const acceleration_result ref = gigsp->solve(c.system);
    ASSERT_EQ(ref.status, solve_status::ok);
    ASSERT_NE(r.status, solve_status::inconsistent) << r.message;
    EXPECT_LE(scaled_error(r.acceleration, ref.acceleration), 1e-9) << "trial " << trial;
  }
}

Eigen::VectorXd fivebar_state(double t, Eigen::VectorXd& qd) {
  // Closed form of the parallel five-bar: th4 = th2 = 2 pi sin t.
  const double th = 2.0 * std::numbers::pi * std::sin(t);
  const double w = 2.0 * std::numbers::pi * std::cos(t);
  qd = Eigen::Vector2d(w, w);
  return Eigen::Vector2d(th, th);
}

TEST(gauss_ga_solver, redundant_five_bar_matches_gigsp) {
  const model m = load_model(std::filesystem::path(KINEVO_EXAMPLES) / "fivebar_redundant.toml");
  auto gigsp = make_solver("gigsp");
  for (double t : {0.3, 1.1, 2.0}) {
    Eigen::VectorXd qd;
    const Eigen::VectorXd q = fivebar_state(t, qd);
    const constrained_system s = m.evaluate(q, qd, t);
    const acceleration_result ref = gigsp->solve(s);
    ASSERT_EQ(ref.status, solve_status::ok) << ref.message;
    gauss_ga_solver ga(preset("default", 5));
    const acceleration_result r = ga.solve(s);
    ASSERT_NE(r.status, solve_status::inconsistent) << r.message;
    EXPECT_LE(scaled_error(r.acceleration, ref.acceleration), 1e-9) << "t = " << t;
    // Closed form: th4'' = th2'' = -2 pi sin t.
    EXPECT_NEAR(r.acceleration(1), -2.0 * std::numbers::pi * std::sin(t), 1e-8);
  }
}

TEST(gauss_ga_solver, inconsistent_five_bar_is_reported_like_gigsp) {
  const model m = load_model(std::filesystem::path(KINEVO_EXAMPLES) / "fivebar_inconsistent.toml");
  auto gigsp = make_solver("gigsp");
  const double t = 0.5;
  Eigen::VectorXd qd;
  const Eigen::VectorXd q = fivebar_state(t, qd);
  const constrained_system s = m.evaluate(q, qd, t);
  const acceleration_result ref = gigsp->solve(s);
  ASSERT_EQ(ref.status, solve_status::inconsistent) << ref.message;
  gauss_ga_solver ga(preset("default", 1));
  const acceleration_result r = ga.solve(s);
  EXPECT_EQ(r.status, solve_status::inconsistent) << r.message;
  EXPECT_EQ(r.inconsistent, ref.inconsistent) << r.message << " | " << ref.message;
  EXPECT_NE(r.message.find("link5_y"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("grows with the penalty weight"), std::string::npos) << r.message;
}

TEST(gauss_ga_solver, same_seed_same_result_different_seed_differs) {
  const auto s = double_pendulum_system(double_pendulum_state{});
  gauss_ga_solver a(preset("default", 17)), b(preset("default", 17)), c(preset("default", 18));
  const auto ra = a.solve(s);
  const auto rb = b.solve(s);
  const auto rc = c.solve(s);
  EXPECT_EQ(ra.acceleration, rb.acceleration);
  EXPECT_EQ(ra.evaluations, rb.evaluations);
  EXPECT_NE(ra.acceleration, rc.acceleration);
}

// The inner-minimiser seam (bench/ hands the runs to pagmo through it): an island model with
// the solver's own options behind it gives the default's bits, run for run, and the solver
// reports under the given name.
TEST(gauss_ga_solver, inner_minimiser_seam_keeps_the_bits) {
  const auto s = double_pendulum_system(double_pendulum_state{});
  const gauss_ga_options o = preset("default", 5, 1);
  gauss_ga_solver plain(o), seamed(o);
  ga::island_model model(o.ga, o.islands);
  int calls = 0;
  seamed.set_inner_minimiser("forwarded",
                             [&](const ga::problem& p, const ga::search_box& box,
                                 const ga::termination& limits, const ga::run_settings& settings) {
                               ++calls;
                               return model.run(p, box, limits, settings);
                             });
  EXPECT_EQ(seamed.name(), "forwarded");
  const auto ra = plain.solve(s);
  const auto rb = seamed.solve(s);
  EXPECT_EQ(ra.status, solve_status::ok) << ra.message;
  EXPECT_EQ(ra.acceleration, rb.acceleration);
  EXPECT_EQ(ra.evaluations, rb.evaluations);
  EXPECT_EQ(calls, rb.runs);
  seamed.set_inner_minimiser("unused", {});
  EXPECT_EQ(seamed.name(), "ga");
}

TEST(gauss_ga_solver, warm_solves_follow_a_changing_state) {
  // Successive states along a circle arc of the double pendulum: each warm solve must stay
  // within 1e-9 (relative) of the closed-form KKT acceleration.
  gauss_ga_solver ga(preset("default", 3));
  std::vector<int> warm_runs;
  for (int k = 0; k < 12; ++k) {
    double_pendulum_state st;
    const double phi = 0.002 * k;
    st.x1 = std::sin(phi);
    st.y1 = std::cos(phi);
    st.x2 = st.x1 + std::sin(2.0 * phi);
    st.y2 = st.y1 + std::cos(2.0 * phi);
    st.vx1 = std::numbers::pi * std::cos(phi);
    st.vy1 = -std::numbers::pi * std::sin(phi);
    st.vx2 = st.vx1 + std::numbers::pi * std::cos(2.0 * phi);
    st.vy2 = st.vy1 - std::numbers::pi * std::sin(2.0 * phi);
    const auto s = double_pendulum_system(st);
    const auto r = ga.solve(s);
    ASSERT_EQ(r.acceleration.size(), 4) << r.message;
    EXPECT_LE(scaled_error(r.acceleration, kinevo::test::kkt_acceleration(s)), 1e-9) << "k " << k;
    if (k > 0) warm_runs.push_back(r.runs);
  }
  // Warm solves start in a small box around the previous acceleration (one solve per state is
  // not RK4's pattern of four, so the per-stage prediction does not apply: each solve searches
  // a box of the last change). With the oracle-free default they are no dearer than a cold
  // solve of the same state (the multiplier loop, not the box, sets the number of runs).
  std::sort(warm_runs.begin(), warm_runs.end());
  gauss_ga_solver cold(preset("default", 3));
  EXPECT_LE(warm_runs[warm_runs.size() / 2], cold.solve(double_pendulum_system({})).runs);
}

// The cap on a solve's runs: max(max_runs, ceil(0.75 n)) by default; max_runs at every n in the
// g3-pcx, exact-hessian and thesis presets; a solve that never stops early (tolerance 0) makes
// exactly the cap's runs; a negative or NaN factor is refused.
TEST(gauss_ga_solver, run_cap_grows_with_n_where_asked) {
  for (const char* fixed : {"g3-pcx", "exact-hessian", "thesis"}) {
    const gauss_ga_options o = gauss_ga_preset(fixed);
    for (const int n : {1, 20, 200, 4000}) EXPECT_EQ(o.run_cap(n), o.max_runs) << fixed << n;
  }
  const gauss_ga_options def = gauss_ga_preset("default");
  EXPECT_EQ(def.run_cap(20), 60);
  EXPECT_EQ(def.run_cap(80), 60);
  EXPECT_EQ(def.run_cap(81), 61);
  EXPECT_EQ(def.run_cap(200), 150);
  gauss_ga_options o = gauss_ga_preset("default");
  o.max_runs = 2;
  o.max_runs_per_coordinate = 0.5;
  o.tolerance = 0.0;
  const auto system = double_pendulum_system({});
  ASSERT_EQ(system.coordinates(), 4);
  EXPECT_EQ(o.run_cap(system.coordinates()), 2);
  o.max_runs_per_coordinate = 1.25;  // ceil(5) runs for n = 4
  gauss_ga_solver capped(o);
  EXPECT_EQ(capped.solve(system).runs, 5);
  o.max_runs = 2'000'000;  // above the growth's bound: kept as given
  o.max_runs_per_coordinate = 1e3;
  EXPECT_EQ(o.run_cap(4000), 2'000'000);
  for (const double bad : {-0.5, std::nan(""), 2e3}) {
    o.max_runs_per_coordinate = bad;
    EXPECT_THROW(o.validate(), std::invalid_argument) << bad;
  }
}

// PCX's sigma_eta: the GA's value up to n = sigma_eta_reference (100 by default), then falling
// as sqrt(reference / n) so that a child's step keeps its size relative to the population's
// spread; off (0) in the g3-pcx preset; a negative reference is refused.
TEST(gauss_ga_solver, sigma_eta_falls_as_the_root_of_n_above_the_reference) {
  const gauss_ga_options def = gauss_ga_preset("default");
  const double base = def.ga.pcx_sigma_eta;
  EXPECT_EQ(def.sigma_eta_reference, 100);
  for (const int n : {1, 4, 20, 100}) EXPECT_EQ(def.sigma_eta(n), base) << n;
  EXPECT_DOUBLE_EQ(def.sigma_eta(400), 0.5 * base);
  EXPECT_DOUBLE_EQ(def.sigma_eta(200), base / std::sqrt(2.0));
  EXPECT_LT(def.sigma_eta(101), base);
  const gauss_ga_options g3 = gauss_ga_preset("g3-pcx");
  EXPECT_EQ(g3.sigma_eta(400), g3.ga.pcx_sigma_eta);
  gauss_ga_options bad = def;
  bad.sigma_eta_reference = -1;
  EXPECT_THROW(bad.validate(), std::invalid_argument);
}

TEST(gauss_ga_solver, factory_builds_the_ga_solver_and_rejects_bad_presets) {
  solver_options o;
  ga_solver_options_of(o).islands = 2;
  ga_solver_options_of(o).seed = 4;
  register_ga_solver();  // explicit: a static initialiser would be dropped from the library
  auto s = make_solver("ga", o);
  EXPECT_EQ(s->name(), "ga");
  const auto r = s->solve(double_pendulum_system(double_pendulum_state{}));
  EXPECT_LE(scaled_error(r.acceleration, double_pendulum_exact_t0()), 1e-9);
  EXPECT_GT(r.evaluations, 0);
  EXPECT_GE(r.runs, 2);
  ga_solver_options_of(o).preset = "fastest";
  EXPECT_THROW(make_solver("ga", o), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::gauss
