// The QTZ acceleration solver and the QTZ formulations (Del Citto, Pennestri and Vita,
// "Coordinates reduction and numerical integration of models of constrained multibody
// systems", eqs. 47 and 54-67): accelerations against LM and GIGSP, refusal of inconsistent
// rows by name, simulations against full + GIGSP, and Yoo's parallelogram through its flat
// singular configurations with constant energy.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;
using kinevo::test::max_abs;
using kinevo::test::run_formulation;

// A few states along a short full + GIGSP run of the model (the initial one included).
std::vector<step_record> states_along(const model& m, double t_end) {
  auto gigsp = make_solver("gigsp");
  simulation_options o;
  o.t_end = t_end;
  o.dt = 1e-3;
  o.record_every = 50;
  const simulation_result r = simulate(m, *gigsp, o);
  EXPECT_TRUE(r.completed) << r.message;
  return r.records;
}

// QTZ against `reference` at states along a short run: same accelerations and constraint
// forces, the rank (expected_rank < 0: full row rank) and m - r redundant rows.
void expect_same_accelerations(const model& m, const std::string& what,
                               const std::string& reference, int expected_rank = -1) {
  if (expected_rank < 0) expected_rank = m.constraints();
  auto qtz = make_solver("qtz");
  auto ref = make_solver(reference);
  for (const step_record& s : states_along(m, 0.3)) {
    const constrained_system sys = m.evaluate(s.q, s.qd, s.t);
    const acceleration_result a = qtz->solve(sys);
    const acceleration_result b = ref->solve(sys);
    ASSERT_EQ(a.status, solve_status::ok) << what << " t = " << s.t << ": " << a.message;
    ASSERT_EQ(b.status, solve_status::ok) << what << ": " << b.message;
    EXPECT_EQ(a.rank, expected_rank) << what << " t = " << s.t;
    EXPECT_EQ(static_cast<int>(a.redundant.size()), m.constraints() - expected_rank) << what;
    EXPECT_LT(max_abs(a.acceleration - b.acceleration), 1e-10) << what << " t = " << s.t;
    EXPECT_LT(max_abs(a.constraint_force - b.constraint_force), 1e-10) << what << " t = " << s.t;
  }
}

void expect_same_accelerations(const std::string& file, const std::string& reference,
                               int expected_rank = -1) {
  expect_same_accelerations(load_model(examples + "/" + file), file, reference, expected_rank);
}

// Four particles of random masses at random places (fixed seed), turning rigidly about the
// origin: rods ground-p1, p1-p2, p2-p3, p3-p4 and p1-p3, and the p1-p2 rod written a second
// time scaled by 3 (a redundant, consistent row): n = 8, m = 6, rank 5.
std::string random_model_text(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> place(-2.0, 2.0), weight(0.5, 2.0);
  const double omega = 0.8;
  // {:.17g}: the positions and lengths are read back exactly.
  std::string text = "[model]\nname = \"random particles\"\ngravity = [0.0, -9.81]\n";
  std::vector<Eigen::Vector2d> r{Eigen::Vector2d::Zero()};  // r[0]: the ground pivot
  for (int k = 1; k <= 4; ++k) {
    const double mass = weight(rng);
    const Eigen::Vector2d x(place(rng), place(rng));
    r.push_back(x);
    text += fmt::format(
        "\n[[particle]]\nname = \"p{}\"\nmass = {:.17g}\nposition = [{:.17g}, {:.17g}]\n"
        "velocity = [{:.17g}, {:.17g}]\n",
        k, mass, x.x(), x.y(), -omega * x.y(), omega * x.x());
  }
  auto rod = [&](int i, int j) {
    const double length2 =
        (r[static_cast<std::size_t>(j)] - r[static_cast<std::size_t>(i)]).squaredNorm();
    if (i == 0) return fmt::format("p{0}_x^2 + p{0}_y^2 - {1:.17g}", j, length2);
    return fmt::format("(p{0}_x - p{1}_x)^2 + (p{0}_y - p{1}_y)^2 - {2:.17g}", j, i, length2);
  };
  for (const auto& [i, j] :
       std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {1, 3}}) {
    text +=
        fmt::format("\n[[constraint]]\nname = \"rod{}{}\"\nholonomic = \"{}\"\n", i, j, rod(i, j));
  }
  text +=
      fmt::format("\n[[constraint]]\nname = \"rod12_again\"\nholonomic = \"3*({})\"\n", rod(1, 2));
  return text;
}

// Phi_q = C^T T^T Q1^T with orthonormal rows of C, also at full row rank (where Eigen 3.4.0's
// matrixZ() reads uninitialised reflector coefficients and decompose_qtz takes Z = I).
TEST(QtzSolver, DecompositionReassemblesFullRankJacobians) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 30; ++trial) {
    const int m = 1 + trial % 4, n = m + 1 + trial % 3;
    Eigen::MatrixXd a(m, n);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) a(i, j) = u(rng);
    }
    const qtz_decomposition d = decompose_qtz(a, 1e-9);
    ASSERT_EQ(d.rank, m);
    const Eigen::MatrixXd back = d.combination.transpose() * d.t.transpose() * d.q1.transpose();
    EXPECT_LT((back - a).cwiseAbs().maxCoeff(), 1e-12) << "trial " << trial;
    EXPECT_LT((d.combination * d.combination.transpose() - Eigen::MatrixXd::Identity(m, m))
                  .cwiseAbs()
                  .maxCoeff(),
              1e-12)
        << "trial " << trial;
  }
}

TEST(QtzSolver, IsRegisteredAsQtz) {
  EXPECT_TRUE(solver_available("qtz"));
  EXPECT_EQ(make_solver("qtz")->name(), "qtz");
  EXPECT_FALSE(solver_description("qtz").empty());
}

TEST(QtzSolver, MatchesLagrangeMultipliersOnTheExamples) {
  for (const char* file : {"pendulum.toml", "double_pendulum.toml", "slider_crank.toml"}) {
    expect_same_accelerations(file, "lm");
  }
}

TEST(QtzSolver, MatchesGigspOnTheRedundantFiveBar) {
  // Two coordinates, five rows (two redundant pairs and the driver): rank 2 everywhere.
  expect_same_accelerations("fivebar_redundant.toml", "gigsp", 2);
  // A regular configuration away from th = 0, pi (no degenerate row).
  const model m = load_model(examples + "/fivebar_redundant.toml");
  Eigen::VectorXd q(2), qd(2);
  q << 0.7, 0.7;
  qd << 1.3, 1.3;
  const constrained_system s = m.evaluate(q, qd, 0.3);
  const acceleration_result a = make_solver("qtz")->solve(s);
  const acceleration_result g = make_solver("gigsp")->solve(s);
  ASSERT_EQ(a.status, solve_status::ok) << a.message;
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.redundant.size(), 3u);
  EXPECT_LT(max_abs(a.acceleration - g.acceleration), 1e-10);
  // The rows left after dropping the redundant ones still have rank 2.
  Eigen::MatrixXd kept(2, 2);
  int k = 0;
  for (int i = 0; i < 5; ++i) {
    if (std::find(a.redundant.begin(), a.redundant.end(), i) == a.redundant.end()) {
      kept.row(k++) = s.jacobian.row(i);
    }
  }
  ASSERT_EQ(k, 2);
  EXPECT_GT(std::abs(kept.determinant()), 1e-3);
}

// A random system with SPD M, general (e.g. nonholonomic) rows and dependent rows whose
// right-hand sides agree.
constrained_system random_redundant_system(int n, int m, int dependent, bool diagonal,
                                           unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto rnd = [&](int r, int c) {
    Eigen::MatrixXd x(r, c);
    for (int i = 0; i < r; ++i) {
      for (int j = 0; j < c; ++j) x(i, j) = u(rng);
    }
    return x;
  };
  constrained_system s;
  if (diagonal) {
    s.mass = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) s.mass(i, i) = 1.0 + 0.5 * (u(rng) + 1.0);
  } else {
    const Eigen::MatrixXd b = rnd(n, n);
    s.mass = b * b.transpose() + Eigen::MatrixXd::Identity(n, n);
  }
  s.mass_is_diagonal = diagonal;
  s.force = rnd(n, 1);
  const Eigen::MatrixXd independent = rnd(m, n);
  const Eigen::VectorXd b = rnd(m, 1);
  const Eigen::MatrixXd mix = rnd(dependent, m);
  s.jacobian.resize(m + dependent, n);
  s.jacobian << independent, mix * independent;
  s.rhs.resize(m + dependent);
  s.rhs << b, mix * b;
  return s;
}

TEST(QtzSolver, MatchesGigspOnARandomModelWithARedundantRow) {
  for (unsigned seed : {5u, 6u, 7u}) {
    const model m = load_model_from_string(random_model_text(seed), "random.toml");
    ASSERT_EQ(m.coordinates(), 8);
    ASSERT_EQ(m.constraints(), 6);
    expect_same_accelerations(m, "random model, seed " + std::to_string(seed), "gigsp", 5);
  }
}

TEST(QtzSolver, MatchesGigspOnRandomSystemsWithRedundantRows) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    for (bool diagonal : {false, true}) {
      const int n = 5 + static_cast<int>(seed % 6), m = 1 + static_cast<int>(seed % 4);
      const int dependent = static_cast<int>(seed % 3);
      const constrained_system s = random_redundant_system(n, m, dependent, diagonal, seed);
      const acceleration_result a = make_solver("qtz")->solve(s);
      const acceleration_result g = make_solver("gigsp")->solve(s);
      ASSERT_EQ(a.status, solve_status::ok) << "seed " << seed << ": " << a.message;
      ASSERT_EQ(g.status, solve_status::ok) << "seed " << seed << ": " << g.message;
      EXPECT_EQ(a.rank, m) << "seed " << seed;
      EXPECT_EQ(static_cast<int>(a.redundant.size()), dependent) << "seed " << seed;
      EXPECT_LT(max_abs(a.acceleration - g.acceleration), 1e-10) << "seed " << seed;
      EXPECT_LT(max_abs(s.jacobian * a.acceleration - s.rhs), 1e-10) << "seed " << seed;
      if (dependent == 0) {
        const acceleration_result l = make_solver("lm")->solve(s);
        EXPECT_LT(max_abs(a.acceleration - l.acceleration), 1e-10) << "seed " << seed;
      }
    }
  }
}

TEST(QtzSolver, WithoutConstraintsIsTheFreeAcceleration) {
  constrained_system s = random_redundant_system(4, 1, 0, false, 3);
  s.jacobian.resize(0, 4);
  s.rhs.resize(0);
  const acceleration_result a = make_solver("qtz")->solve(s);
  ASSERT_EQ(a.status, solve_status::ok);
  EXPECT_LT(max_abs(s.mass * a.acceleration - s.force), 1e-12);
  EXPECT_LT(max_abs(a.constraint_force), 1e-12);
}

TEST(QtzSolver, RefusesInconsistentRowsByName) {
  const model m = load_model(examples + "/fivebar_inconsistent.toml");
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const acceleration_result a = make_solver("qtz")->solve(s);
  EXPECT_EQ(a.status, solve_status::inconsistent);
  EXPECT_EQ(a.acceleration.size(), 0);
  // 'link5_y' (eq. 4.21, the typo) disagrees with 'link3_y' (eq. 4.16): both carry it.
  EXPECT_EQ(a.inconsistent, (std::vector<int>{1, 3}));
  EXPECT_NE(a.message.find("'link5_y'"), std::string::npos) << a.message;
  EXPECT_NE(a.message.find("'link3_y'"), std::string::npos) << a.message;
  EXPECT_LT(a.message.find("'link5_y'"), a.message.find("'link3_y'")) << a.message;
  EXPECT_NE(a.message.find("inconsistent"), std::string::npos) << a.message;
}

// --- the formulations through simulate() ------------------------------------------------

// Against full + GIGSP with projection: the QTZ formulations keep q on the constraints, and
// without projection the full formulation drifts off them by 1e-8 on the slider-crank at
// dt = 1e-3 (it is then 1.7e-8 from the dt -> 0 motion, and 2.8e-8 from qtz-orthogonal).
void expect_agreement_with_full(const model& m, const std::string& what) {
  const simulation_result full = run_formulation(m, formulation_kind::full, 0.5, 1e-3, "gigsp",
                                                 stabilization_kind::projection);
  ASSERT_TRUE(full.completed) << what << ": " << full.message;
  for (formulation_kind kind : {formulation_kind::qtz_orthogonal, formulation_kind::qtz_state}) {
    // The user's solver is ignored: the formulations bring their own QTZ solver.
    const simulation_result r = run_formulation(m, kind, 0.5, 1e-3, "lm");
    ASSERT_TRUE(r.completed) << what << " " << to_string(kind) << ": " << r.message;
    EXPECT_EQ(r.formulation.name, to_string(kind));
    ASSERT_EQ(r.records.size(), full.records.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < r.records.size(); ++i) {
      worst = std::max(worst, max_abs(r.records[i].q - full.records[i].q));
    }
    EXPECT_LT(worst, 1e-8) << what << " " << to_string(kind);
    EXPECT_LT(r.max_position_violation, 1e-10) << what << " " << to_string(kind);
  }
}

TEST(QtzFormulations, AgreeWithFullAndGigspOnTheExamples) {
  for (const char* file : {"double_pendulum.toml", "slider_crank.toml", "fivebar_redundant.toml"}) {
    expect_agreement_with_full(load_model(examples + "/" + file), file);
  }
}

TEST(QtzFormulations, AgreeWithFullAndGigspOnAFiveLinkChain) {
  chain_options c;
  c.links = 5;
  expect_agreement_with_full(load_model_from_string(chain_model_text(c), "chain.toml"),
                             "5-link chain");
}

TEST(QtzFormulations, StateRefusesNonholonomicRowsByName) {
  const std::string text = R"(
[model]
name = "knife edge"

[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 1.0

[[coordinate]]
name = "y"
initial = 0.0
mass = 1.0

[[coordinate]]
name = "th"
initial = 0.0
velocity = 1.0
mass = 1.0

[[constraint]]
name = "rolling"
nonholonomic = "cos(th)*y_dot - sin(th)*x_dot"
)";
  const model m = load_model_from_string(text, "knife.toml");
  ASSERT_EQ(m.holonomic_constraints(), 0);
  simulation_options o;
  o.formulation.kind = formulation_kind::qtz_state;
  try {
    make_formulation(m, o.formulation, o);
    ADD_FAILURE() << "qtz-state accepted a nonholonomic row";
  } catch (const io::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'rolling' is nonholonomic"), std::string::npos) << what;
    EXPECT_NE(what.find("qtz-orthogonal"), std::string::npos) << what;
  }
  // qtz-orthogonal takes it and keeps the velocity row.
  o.formulation.kind = formulation_kind::qtz_orthogonal;
  o.t_end = 0.2;
  auto s = make_solver("gigsp");
  const simulation_result r = simulate(m, *s, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_LT(r.max_velocity_violation, 1e-10);
}

// --- Yoo's parallelogram through its flat configurations ---------------------------------

struct parallelogram_run {
  simulation_result result;
  std::vector<double> crossings;  // times where sin(th1) changes sign
  Eigen::VectorXd q_end;
};

parallelogram_run run_parallelogram(formulation_kind kind) {
  const model m = load_model(examples + "/yoo_parallelogram.toml");
  auto s = make_solver("gigsp");
  simulation_options o;
  o.t_end = 2.0;
  o.dt = 1e-4;
  o.formulation.kind = kind;
  parallelogram_run out;
  double t_prev = 0.0, s_prev = std::sin(m.initial_positions()[0]);
  out.result = simulate(m, *s, o, [&](const step_record& r) {
    const double sn = std::sin(r.q[0]);
    if (r.t > 0.0 && (sn > 0.0) != (s_prev > 0.0)) {
      out.crossings.push_back(t_prev + (r.t - t_prev) * s_prev / (s_prev - sn));
    }
    t_prev = r.t;
    s_prev = sn;
    out.q_end = r.q;
    return true;
  });
  return out;
}

void expect_parallelogram_motion(formulation_kind kind) {
  const parallelogram_run p = run_parallelogram(kind);
  const std::string name = to_string(kind);
  ASSERT_TRUE(p.result.completed) << name << ": " << p.result.message;
  EXPECT_LE(p.result.max_energy_deviation(), 1e-6) << name;
  // Still a parallelogram: the coupler stays parallel to the ground (phi2 = th1 + th2 = 0).
  EXPECT_LT(std::abs(p.q_end[0] + p.q_end[1]), 1e-6) << name;
  ASSERT_GE(p.crossings.size(), 2u) << name;
  EXPECT_NEAR(p.crossings[0], 0.179, 2e-3) << name;
  EXPECT_NEAR(p.crossings[1], 0.986, 2e-3) << name;
  // The rank of Phi_q stays 2 at every step (no step lands within the rank tolerance of flat).
  EXPECT_EQ(p.result.formulation.repartitions, 0) << name;
}

TEST(QtzFormulations, OrthogonalKeepsTheParallelogramAndItsEnergy) {
  expect_parallelogram_motion(formulation_kind::qtz_orthogonal);
}

TEST(QtzFormulations, StateKeepsTheParallelogramAndItsEnergy) {
  expect_parallelogram_motion(formulation_kind::qtz_state);
}

// after_step on a state pushed off the constraints: corrected back (and counted) with the
// default Newton budget, refused naming the most violated constraint with one iteration.
TEST(QtzFormulations, OrthogonalCorrectsOrNamesTheViolatedConstraint) {
  const model m = load_model(examples + "/double_pendulum.toml");
  simulation_options o;
  o.formulation.kind = formulation_kind::qtz_orthogonal;
  auto form = make_formulation(m, o.formulation, o);
  Eigen::VectorXd y = form->begin(m.initial_positions(), m.initial_velocities(), 0.0);
  y[0] += 0.05;  // p1_x: stretches both rods
  y[5] += 0.3;   // p1_y': the velocity rows too
  Eigen::VectorXd corrected = y;
  ASSERT_EQ(form->after_step(0.0, 1e-3, 1e-3, corrected), step_outcome::changed) << form->message();
  const Eigen::Index n = m.coordinates();
  EXPECT_LT(max_abs(m.position_violation(corrected.head(n), 0.0)), 1e-12);
  EXPECT_LT(max_abs(m.velocity_violation(corrected.head(n), corrected.tail(n), 0.0)), 1e-12);
  EXPECT_EQ(form->report().corrections, 1);
  o.formulation.newton_iterations = 1;
  auto strict = make_formulation(m, o.formulation, o);
  strict->begin(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_EQ(strict->after_step(0.0, 1e-3, 1e-3, y), step_outcome::failed);
  EXPECT_NE(strict->message().find("constraint '"), std::string::npos) << strict->message();
}

// Released at rest exactly flat (Phi_q of rank 1): qtz-state starts with two independent
// coordinates and re-bases to one after the first step (the one counted re-base); the energy
// (0 at the start) stays put.
TEST(QtzFormulations, StateChangesItsSizeWhenTheRankChanges) {
  model_options flat;
  flat.overrides.push_back({"th0", 0.0});
  const model m = load_model(examples + "/yoo_parallelogram.toml", flat);
  const simulation_result r = run_formulation(m, formulation_kind::qtz_state, 0.5, 1e-3);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.formulation.repartitions, 1);
  EXPECT_LT(std::abs(r.final_energy - r.initial_energy), 1e-9);
  EXPECT_LT(r.max_position_violation, 1e-12);
}

// The same parallelogram from three bodies and four revolute joints (9 coordinates, 8 rows,
// rank 7 when flat).
TEST(QtzFormulations, BothKeepTheEnergyOfTheParallelogramOfBodies) {
  const model m = load_model(examples + "/parallelogram_bodies.toml");
  for (formulation_kind kind : {formulation_kind::qtz_orthogonal, formulation_kind::qtz_state}) {
    const simulation_result r = run_formulation(m, kind, 2.0, 1e-4);
    ASSERT_TRUE(r.completed) << to_string(kind) << ": " << r.message;
    EXPECT_LE(r.max_energy_deviation(), 1e-6) << to_string(kind);
    EXPECT_LT(r.max_position_violation, 1e-10) << to_string(kind);
  }
}

}  // namespace
}  // namespace kinevo::mechanics
