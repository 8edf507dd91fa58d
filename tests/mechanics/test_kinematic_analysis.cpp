// Newton-Raphson kinematic analysis (Haug, Computer-Aided Kinematics and Dynamics of Mechanical
// Systems, sec. 4.5): the convergence tables 4.3.1-4.3.3, the slider-crank driven into its
// lock-up, Haug's four-bar over a full crank revolution against the dynamics solvers' kinematic
// mode, and driven pendulum chains.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::mechanics {
namespace {

using std::numbers::pi;
const double l_rod = std::sqrt(2.0) / 2.0;

// The slider-crank of Haug's Example 4.3.1 reduced to the slider position q = x2 (Tables
// 4.3.1-4.3.3), written in equation form; the file's initial state is the root at t = 0.
model slider_crank_model() {
  return load_model_from_string(R"(
[model]
name = "slider-crank q = x2"
[parameters]
l = "sqrt(2)/2"
[[coordinate]]
name = "q"
initial = "1 + l"
mass = 1.0
[[constraint]]
name = "rod"
holonomic = "(q - cos(t))^2 + sin(t)^2 - l^2"
)",
                                "slider_crank_q.toml");
}

Eigen::VectorXd scalar(double v) {
  return Eigen::VectorXd::Constant(1, v);
}

// The pendulum chain of `kinevo model chain` with each particle's x driven,
// x_k = k l sin(theta0) + 0.2 k l (1 - cos t): a kinematically determined system of 2N
// coordinates (each y follows from its rod, on the branch below the previous particle).
std::string driven_chain_text(int links) {
  chain_options c;
  c.links = links;
  std::string text = chain_model_text(c);
  for (int k = 1; k <= links; ++k) {
    text += "\n[[joint]]\ntype = \"driver\"\nname = \"drive" + std::to_string(k) +
            "\"\ncoordinate = \"p" + std::to_string(k) + "_x\"\nvalue = \"" + std::to_string(k) +
            "*l*sin(theta0) + 0.2*" + std::to_string(k) + "*l*(1 - cos(t))\"\n";
  }
  return text;
}

// q'' of the analysis against a direct dynamics solver in kinematic mode (M = I, f = 0): with a
// square full-rank A both are A^-1 gamma.
double max_difference_to_kinematic_mode(const model& kinematic_model,
                                        const kinematic_analysis_result& r, int every) {
  auto solver = make_solver("lm");
  double worst = 0.0;
  for (std::size_t i = 0; i < r.rows.size(); i += static_cast<std::size_t>(every)) {
    const auto& row = r.rows[i];
    const auto a = solver->solve(kinematic_model.evaluate(row.q, row.qd, row.t));
    EXPECT_EQ(a.status, solve_status::ok) << "t = " << row.t;
    worst = std::max(worst, (a.acceleration - row.qdd).cwiseAbs().maxCoeff());
  }
  return worst;
}

TEST(KinematicAnalysis, Table431QuadraticConvergence) {
  const model m = slider_crank_model();
  const io::csv_table table =
      io::read_csv_table(KINEVO_TEST_DATA + "/kinematics/haug_table_4_3_1.csv");
  const position_solution s = solve_position(m, scalar(2.0), 0.0);
  ASSERT_TRUE(s.converged()) << s.message;
  EXPECT_EQ(s.kind, convergence_kind::quadratic);
  const double root = (2.0 + std::sqrt(2.0)) / 2.0;
  EXPECT_NEAR((*s.q)[0], root, 1e-12);
  ASSERT_EQ(s.iterates.size(), table.rows.size());
  EXPECT_EQ(s.iterations, 4);
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto& it = s.iterates[i];
    const double q = it.q[0];
    // The table is printed to 6 decimals; its last row prints Phi = 1.5e-6 and dq = -1.1e-6
    // as 0 (its error column, 0.000001, is the consistent one).
    const double tol = i + 1 < table.rows.size() ? 6e-7 : 2e-6;
    EXPECT_NEAR(q, table.rows[i][table.column("q")], tol) << "i = " << i;
    EXPECT_NEAR(it.phi[0], table.rows[i][table.column("phi")], tol) << "i = " << i;
    EXPECT_NEAR(m.position_jacobian(it.q, 0.0)(0, 0), table.rows[i][table.column("phi_q")], tol)
        << "i = " << i;
    EXPECT_NEAR(it.dq[0], table.rows[i][table.column("dq")], tol) << "i = " << i;
    EXPECT_NEAR(q - root, table.rows[i][table.column("error")], tol) << "i = " << i;
  }
}

TEST(KinematicAnalysis, Table432LinearConvergenceAtTheSingularRoot) {
  const model m = slider_crank_model();
  const position_solution s = solve_position(m, scalar(1.0), pi / 4.0);
  ASSERT_TRUE(s.converged()) << s.message;
  EXPECT_EQ(s.kind, convergence_kind::linear);
  EXPECT_NEAR(s.rate, 0.5, 1e-6);
  EXPECT_NE(s.message.find("singular root"), std::string::npos) << s.message;
  // q^i = sqrt(2)/2 + 0.292893 2^-i: the error halves each iteration.
  for (std::size_t i = 0; i < s.iterates.size(); ++i) {
    EXPECT_NEAR(s.iterates[i].q[0], l_rod + (1.0 - l_rod) * std::ldexp(1.0, -static_cast<int>(i)),
                1e-10)
        << "i = " << i;
  }
  // Stops once |dq| = error/2 <= 1e-5: 15 iterations, q = 0.707107 to the printed digits.
  EXPECT_EQ(s.iterations, 15);
  EXPECT_NEAR((*s.q)[0], l_rod, 1e-5);
}

TEST(KinematicAnalysis, Table433NoConvergenceIsReportedNotReturned) {
  const model m = slider_crank_model();
  const position_solution s = solve_position(m, scalar(1.0), 3.0 * pi / 8.0);
  EXPECT_FALSE(s.converged());
  EXPECT_FALSE(s.q.has_value());
  EXPECT_EQ(s.kind, convergence_kind::none);
  EXPECT_EQ(s.iterations, newton_options{}.max_iterations);
  const double printed[] = {1.000000,  0.404979,  -7.535093, -3.553878,
                            -1.540691, -0.487094, 0.151038,  1.029996};
  ASSERT_GE(s.iterates.size(), std::size(printed));
  for (std::size_t i = 0; i < std::size(printed); ++i) {
    EXPECT_NEAR(s.iterates[i].q[0], printed[i], 6e-7) << "i = " << i;
  }
  EXPECT_NE(s.message.find("wander"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("did not converge"), std::string::npos) << s.message;
}

TEST(KinematicAnalysis, IterationCapWhileStillConvergingSaysSo) {
  const model m = slider_crank_model();
  newton_options o;
  o.max_iterations = 6;
  const position_solution s = solve_position(m, scalar(1.0), pi / 4.0, o);
  EXPECT_FALSE(s.converged());
  EXPECT_EQ(s.iterations, 6);
  EXPECT_NE(s.message.find("still falling"), std::string::npos) << s.message;
}

TEST(KinematicAnalysis, TighterTolerancesTakeMoreIterations) {
  const model m = slider_crank_model();
  newton_options o;
  o.eps_e = 1e-12;
  o.eps_s = 1e-12;
  const position_solution s = solve_position(m, scalar(2.0), 0.0, o);
  ASSERT_TRUE(s.converged());
  EXPECT_EQ(s.kind, convergence_kind::quadratic);
  EXPECT_GT(s.iterations, 4);
  EXPECT_NEAR((*s.q)[0], (2.0 + std::sqrt(2.0)) / 2.0, 1e-15);
}

TEST(KinematicAnalysis, SliderCrankStopsAtTheLockUp) {
  const model m = load_model(KINEVO_EXAMPLES + "/slider_crank_lockup.toml");
  kinematic_analysis_options o;
  o.t_end = 1.5;
  o.dt = 0.01;
  const kinematic_analysis_result r = analyse_kinematics(m, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.summary.reason, "no_position");
  // t* = pi/4 = 0.785398 lies between the grid times 0.78 and 0.79.
  EXPECT_DOUBLE_EQ(r.t_stop, 0.78);
  EXPECT_DOUBLE_EQ(r.t_failed, 0.79);
  EXPECT_EQ(r.steps, 79);
  EXPECT_NE(r.message.find("no position at t = 0.79"), std::string::npos) << r.message;
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_FALSE(r.failure->q.has_value());
  for (const auto& row : r.rows) {
    const double s = std::sin(row.t), c = std::cos(row.t);
    const double root = std::sqrt(l_rod * l_rod - s * s);
    EXPECT_NEAR(row.q[0], c + root, 1e-9) << "t = " << row.t;
    // q' = -sin t - sin t cos t / sqrt(l^2 - sin^2 t), which grows without bound at t*.
    EXPECT_NEAR(row.qd[0], -s - s * c / root, 1e-7 * (1.0 + std::abs(row.qd[0])))
        << "t = " << row.t;
    EXPECT_EQ(row.kind, convergence_kind::quadratic);
  }
  EXPECT_LT(r.max_phi_norm, 1e-9);
  // Phi_q = 2 sqrt(l^2 - sin^2 t) shrinks towards the lock-up: the last step is the closest.
  EXPECT_DOUBLE_EQ(r.t_min_pivot_ratio, 0.78);
  EXPECT_NEAR(r.min_pivot_ratio, std::sqrt(l_rod * l_rod - std::pow(std::sin(0.78), 2)) / l_rod,
              1e-9);
}

TEST(KinematicAnalysis, SliderCrankOnAGridThroughTheLockUpIsSingular) {
  const model m = load_model(KINEVO_EXAMPLES + "/slider_crank_lockup.toml");
  kinematic_analysis_options o;
  o.t_end = pi / 2.0;
  o.dt = pi / 40.0;  // t = pi/4 is the tenth step
  const kinematic_analysis_result r = analyse_kinematics(m, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.summary.reason, "singular");
  EXPECT_NEAR(r.t_failed, pi / 4.0, 1e-12);
  EXPECT_NEAR(r.t_stop, 9.0 * pi / 40.0, 1e-12);
  EXPECT_EQ(r.steps, 10);
  ASSERT_TRUE(r.failure.has_value());
  EXPECT_EQ(r.failure->kind, convergence_kind::linear);
  EXPECT_NEAR(r.failure->rate, 0.5, 0.05);
  EXPECT_NE(r.message.find("singular root"), std::string::npos) << r.message;
}

TEST(KinematicAnalysis, HaugFourBarFullCrankRevolution) {
  const model m = load_model(KINEVO_EXAMPLES + "/haug_fourbar.toml");
  kinematic_analysis_options o;
  o.t_end = 2.0 * pi;  // omega = 1: one crank revolution
  o.dt = 0.01;
  const kinematic_analysis_result r = analyse_kinematics(m, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.steps, 630);  // 0, 0.01, ..., 6.28 and 2 pi
  EXPECT_DOUBLE_EQ(r.rows.back().t, 2.0 * pi);
  EXPECT_LT(r.max_phi_norm, 1e-9);
  const auto& names = m.coordinate_names();
  const auto phi1 = std::find(names.begin(), names.end(), "b1_phi") - names.begin();
  for (const auto& row : r.rows) {
    EXPECT_LT(m.position_violation(row.q, row.t).cwiseAbs().maxCoeff(), 1e-9) << row.t;
    EXPECT_LT(m.velocity_violation(row.q, row.qd, row.t).cwiseAbs().maxCoeff(), 1e-10) << row.t;
    EXPECT_NEAR(row.q[phi1], pi / 2.0 + row.t, 1e-9);
    EXPECT_NEAR(row.qd[phi1], 1.0, 1e-12);
    EXPECT_NEAR(row.qdd[phi1], 0.0, 1e-12);
  }
  // The file's velocities were solved from the same velocity equation.
  EXPECT_LT((r.rows.front().qd - m.initial_velocities()).cwiseAbs().maxCoeff(), 1e-9);
  // Links 2, 4, 4, 2 (crank, coupler, rocker, ground): Grashof's s + l = p + q holds with
  // equality, a change-point (deltoid) linkage. At phi1 = 2 pi (t = 3 pi / 2) the crank pin
  // meets the rocker's ground pivot and Phi_q is singular; the analysis passes it on the smooth
  // branch, where the coupler and rocker turn at half the crank's rate.
  EXPECT_NEAR(r.t_min_pivot_ratio, 1.5 * pi, 0.011);
  EXPECT_LT(r.min_pivot_ratio, 1e-2);
  for (std::size_t i = 1; i < r.rows.size(); ++i) {
    EXPECT_LT((r.rows[i].q - r.rows[i - 1].q).cwiseAbs().maxCoeff(), 0.03) << r.rows[i].t;
  }
  // After two crank turns every body is back where it started (angles 2 pi on).
  o.t_end = 4.0 * pi;
  const kinematic_analysis_result two = analyse_kinematics(m, o);
  ASSERT_TRUE(two.completed) << two.message;
  const Eigen::VectorXd dq = two.rows.back().q - two.rows.front().q;
  for (Eigen::Index i = 0; i < dq.size(); ++i) {
    const double turns = std::round(dq[i] / (2.0 * pi));
    const bool angle = names[static_cast<std::size_t>(i)].ends_with("_phi");
    EXPECT_NEAR(dq[i] - (angle ? turns * 2.0 * pi : 0.0), 0.0, 1e-9) << names[i];
  }
  EXPECT_LT((two.rows.back().qd - two.rows.front().qd).cwiseAbs().maxCoeff(), 1e-9);

  model_options ko;
  ko.kinematic = true;
  const model km = load_model(KINEVO_EXAMPLES + "/haug_fourbar.toml", ko);
  EXPECT_LT(max_difference_to_kinematic_mode(km, r, 7), 1e-9);
}

TEST(KinematicAnalysis, DrivenChains) {
  for (const int links : {1, 3, 10}) {
    const model m = load_model_from_string(driven_chain_text(links), "driven_chain.toml");
    kinematic_analysis_options o;
    o.t_end = 3.0;
    o.dt = 0.05;
    const kinematic_analysis_result r = analyse_kinematics(m, o);
    ASSERT_TRUE(r.completed) << links << " links: " << r.message;
    EXPECT_EQ(r.steps, 61);
    EXPECT_LT(r.max_phi_norm, 1e-9);
    for (const auto& row : r.rows) {
      // x_k follows its driver; each rod keeps its length, y below the previous particle.
      const double theta0 = pi / 6.0;
      for (int k = 1; k <= links; ++k) {
        EXPECT_NEAR(row.q[2 * (k - 1)], k * std::sin(theta0) + 0.2 * k * (1.0 - std::cos(row.t)),
                    1e-12);
        const double dx = std::sin(theta0) + 0.2 * (1.0 - std::cos(row.t));
        EXPECT_NEAR(row.q[2 * (k - 1) + 1], -k * std::sqrt(1.0 - dx * dx), 1e-9);
      }
    }
    model_options ko;
    ko.kinematic = true;
    const model km = load_model_from_string(driven_chain_text(links), "driven_chain.toml", ko);
    EXPECT_LT(max_difference_to_kinematic_mode(km, r, 5), 1e-9) << links << " links";
  }
}

TEST(KinematicAnalysis, ReportsJsonAndCsv) {
  const model m = load_model(KINEVO_EXAMPLES + "/slider_crank_lockup.toml");
  kinematic_analysis_options o;
  o.t_end = 1.0;
  o.dt = 0.1;
  const kinematic_analysis_result r = analyse_kinematics(m, o);
  const nlohmann::json j = r.to_json();
  for (const char* key : {"completed",
                          "status",
                          "stop_reason",
                          "t_stop",
                          "t_failed",
                          "steps",
                          "message",
                          "model",
                          "coordinates",
                          "t_start",
                          "t_end",
                          "dt",
                          "eps_e",
                          "eps_s",
                          "max_iterations",
                          "total_iterations",
                          "max_step_iterations",
                          "max_phi_norm",
                          "failure",
                          "wall_seconds"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["completed"], false);
  EXPECT_EQ(j["stop_reason"], "no_position");
  EXPECT_DOUBLE_EQ(j["t_stop"].get<double>(), 0.7);
  EXPECT_EQ(j["steps"], 8);
  EXPECT_EQ(j["failure"]["convergence"], "none");
  const io::csv_table t = io::parse_csv_table(r.csv().str(), "q.csv");
  EXPECT_EQ(t.columns, (std::vector<std::string>{"t", "q", "q_dot", "q_ddot", "iterations",
                                                 "phi_norm", "pivot_ratio", "convergence"}));
  ASSERT_EQ(t.rows.size(), 8U);
  EXPECT_DOUBLE_EQ(t.rows.back()[0], 0.7);
  EXPECT_NE(r.brief_report().find("stopped: 8 steps"), std::string::npos) << r.brief_report();
  EXPECT_NE(r.full_report().find("convergence none"), std::string::npos) << r.full_report();
}

TEST(KinematicAnalysis, RefusesModelsThatAreNotKinematicallyDetermined) {
  // Nine coordinates, eight constraints: the crank has no driver.
  const model m = load_model(KINEVO_EXAMPLES + "/slider_crank.toml");
  try {
    analyse_kinematics(m, {});
    FAIL() << "expected an input_error";
  } catch (const io::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("not kinematically determined"), std::string::npos) << what;
    EXPECT_NE(what.find("9 coordinates and 8 holonomic constraints"), std::string::npos) << what;
    EXPECT_NE(what.find("add 1 driver"), std::string::npos) << what;
  }
  // A pendulum chain without drivers: N degrees of freedom.
  chain_options c;
  c.links = 4;
  const model chain = load_model_from_string(chain_model_text(c), "chain.toml");
  EXPECT_THROW(solve_position(chain, chain.initial_positions(), 0.0), io::input_error);
  // Too many: a second driver on the slider-crank's coordinate.
  const model over = load_model_from_string(R"(
[[coordinate]]
name = "q"
initial = 1.0
mass = 1.0
[[constraint]]
name = "a"
holonomic = "q - 1"
[[constraint]]
name = "b"
holonomic = "q^2 - 1"
)",
                                            "over.toml");
  try {
    check_kinematically_determined(over);
    FAIL() << "expected an input_error";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("1 more than the coordinates"), std::string::npos)
        << e.what();
  }
  // Nonholonomic rows have no position level.
  const model rolling = load_model_from_string(R"(
[[coordinate]]
name = "x"
initial = 0.0
mass = 1.0
[[coordinate]]
name = "th"
initial = 0.0
mass = 1.0
[[constraint]]
name = "rolling"
nonholonomic = "th_dot - x_dot"
)",
                                               "rolling.toml");
  EXPECT_THROW(check_kinematically_determined(rolling), io::input_error);
}

TEST(KinematicAnalysis, OptionsValidateThemselves) {
  auto field_of = [](const kinematic_analysis_options& o) -> std::string {
    try {
      o.validate();
    } catch (const io::option_error& e) {
      return e.field();
    }
    return "";
  };
  kinematic_analysis_options o;
  EXPECT_EQ(field_of(o), "");
  o.dt = 0.0;
  EXPECT_EQ(field_of(o), "dt");
  o = {};
  o.t_end = -1.0;
  EXPECT_EQ(field_of(o), "t_end");
  o = {};
  o.t_start = std::nan("");
  EXPECT_EQ(field_of(o), "t_start");
  o = {};
  o.dt = 1e-9;
  EXPECT_EQ(field_of(o), "dt");  // 10^9 steps
  o = {};
  o.newton.eps_e = -1e-5;
  EXPECT_EQ(field_of(o), "eps_e");
  o = {};
  o.newton.eps_s = std::numeric_limits<double>::infinity();
  EXPECT_EQ(field_of(o), "eps_s");
  o = {};
  o.newton.max_iterations = 0;
  EXPECT_EQ(field_of(o), "max_iterations");
  o = {};
  o.newton.rank_tolerance = 1.0;
  EXPECT_EQ(field_of(o), "rank_tolerance");
  // A single time (t_end = t_start) is a grid of one point.
  const model m = slider_crank_model();
  kinematic_analysis_options one;
  one.t_end = 0.0;
  const auto r = analyse_kinematics(m, one);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.steps, 1);
}

TEST(KinematicAnalysis, NonFiniteConstraintStops) {
  // q = log(1 - t): Phi is infinite at t = 1.
  const model m = load_model_from_string(R"toml(
[[coordinate]]
name = "q"
initial = 0.0
velocity = -1.0
mass = 1.0
[[constraint]]
name = "log_driver"
holonomic = "q - log(1 - t)"
)toml",
                                         "log.toml");
  kinematic_analysis_options o;
  o.t_end = 1.5;
  o.dt = 0.1;
  const auto r = analyse_kinematics(m, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.summary.reason, "non_finite");
  EXPECT_DOUBLE_EQ(r.t_failed, 1.0);
  EXPECT_DOUBLE_EQ(r.t_stop, 0.9);
  EXPECT_NE(r.message.find("NaN or infinite"), std::string::npos) << r.message;
  EXPECT_NEAR(r.rows.back().q[0], std::log(1.0 - 0.9), 1e-9);
  EXPECT_NEAR(r.rows.back().qd[0], -1.0 / (1.0 - 0.9), 1e-6);
}

TEST(KinematicAnalysis, RedundantConstraintsAreNamed) {
  // Square in shape, but 'twice' repeats 'sum': Phi_q has rank 1 of 2.
  const model m = load_model_from_string(R"toml(
[[coordinate]]
name = "x"
initial = 1.0
velocity = 1.0
mass = 1.0
[[coordinate]]
name = "y"
initial = 0.0
mass = 1.0
[[constraint]]
name = "sum"
holonomic = "x + y - 1 - t"
[[constraint]]
name = "twice"
holonomic = "2*x + 2*y - 2 - 2*t"
)toml",
                                         "redundant.toml");
  const auto r = analyse_kinematics(m, {});
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.summary.reason, "singular");
  EXPECT_EQ(r.steps, 0);
  EXPECT_NE(r.message.find("rank 1 of 2"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("'sum'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("1 independent constraint or driver short"), std::string::npos)
      << r.message;
}

TEST(KinematicAnalysis, LaterStartUsesTheInitialPositionsAsEstimate) {
  const model m = slider_crank_model();
  kinematic_analysis_options o;
  o.t_start = 0.5;
  o.t_end = 0.7;
  o.dt = 0.1;
  const auto r = analyse_kinematics(m, o);
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.steps, 3);
  for (const auto& row : r.rows) {
    const double s = std::sin(row.t);
    EXPECT_NEAR(row.q[0], std::cos(row.t) + std::sqrt(l_rod * l_rod - s * s), 1e-9);
  }
  EXPECT_GT(r.rows.front().iterations, 1);  // from q = 1 + l, the root at t = 0
}

TEST(KinematicAnalysis, StopsWhenInterrupted) {
  const model m = load_model(KINEVO_EXAMPLES + "/haug_fourbar.toml");
  std::atomic<bool> flag{true};
  kinematic_analysis_options o;
  core::run_context context;
  context.interrupt = &flag;
  const auto r = analyse_kinematics(m, o, context);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.summary.reason, "interrupted");
  EXPECT_EQ(r.steps, 0);
  EXPECT_TRUE(std::isnan(r.t_stop));
}

}  // namespace
}  // namespace kinevo::mechanics
