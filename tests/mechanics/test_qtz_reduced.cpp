// qtz-reduced: Del Citto, Pennestri and Vita's reduced DAE (eq. 46) integrated by SUNDIALS IDA.
// Positions against the full formulation + GIGSP + Dormand-Prince on the examples, Yoo's
// parallelogram through its flat configurations with constant energy, and the refusal of
// nonholonomic rows.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

simulation_options qtz_reduced_options(double t_end) {
  simulation_options o;
  o.t_end = t_end;
  o.formulation.kind = formulation_kind::qtz_reduced;
  return o;  // the defaults: dt = 1e-3 records, rtol 1e-9, atol 1e-12
}

// Final positions of full + GIGSP + Dormand-Prince at rtol 1e-10, and of qtz-reduced.
void expect_agreement(const model& m, double t_end, double tolerance) {
  auto gigsp = make_solver("gigsp");
  simulation_options ref;
  ref.t_end = t_end;
  ref.integrator = integrator_kind::dormand_prince;
  ref.rtol = 1e-10;
  const simulation_result full = simulate(m, *gigsp, ref);
  ASSERT_TRUE(full.completed) << full.message;
  const simulation_result dae = simulate(m, *gigsp, qtz_reduced_options(t_end));
  ASSERT_TRUE(dae.completed) << dae.message;
  EXPECT_EQ(dae.formulation.name, "qtz-reduced");
  ASSERT_EQ(dae.records.size(), full.records.size());
  EXPECT_DOUBLE_EQ(dae.records.back().t, t_end);
  const double difference = (dae.records.back().q - full.records.back().q).cwiseAbs().maxCoeff();
  EXPECT_LE(difference, tolerance) << m.name();
  EXPECT_LT(dae.max_position_violation, 1e-9) << m.name();
  EXPECT_GT(dae.steps, 0);
}

TEST(QtzReduced, DoublePendulumAgreesWithFullGigsp) {
  expect_agreement(load_model(examples + "/double_pendulum.toml"), 0.5, 1e-8);
}

TEST(QtzReduced, SliderCrankAgreesWithFullGigsp) {
  expect_agreement(load_model(examples + "/slider_crank.toml"), 0.5, 1e-8);
}

TEST(QtzReduced, FiveLinkChainAgreesWithFullGigsp) {
  chain_options c;
  c.links = 5;
  expect_agreement(load_model_from_string(chain_model_text(c), "chain.toml"), 0.5, 1e-8);
}

// From 16 rows the windows are first screened by two sparse Cholesky factorisations
// (detail/qtz_window_screen.hpp): a planar chain of 18 links (diagonal M) and a spatial chain of
// 5 (4 x 4 and 3 x 3 blocks of M, 20 rows) through the screened path.
TEST(QtzReduced, ChainsOfSixteenRowsAndMoreAgreeWithFullGigsp) {
  chain_options c;
  c.links = 18;
  expect_agreement(load_model_from_string(chain_model_text(c), "chain18.toml"), 0.2, 1e-8);
  c.links = 5;
  c.spatial = true;
  expect_agreement(load_model_from_string(chain_model_text(c), "spatial5.toml"), 0.2, 1e-8);
}

TEST(QtzReduced, RedundantDrivenFiveBarAgreesWithFullGigsp) {
  // 5 rows of rank 2 on 2 coordinates: 3 dropped combinations, re-based as the independent
  // combination turns (th2 = 2 pi sin t passes pi / 2 before t = 0.5).
  const model m = load_model(examples + "/fivebar_redundant.toml");
  expect_agreement(m, 0.5, 1e-8);
  auto gigsp = make_solver("gigsp");
  const simulation_result r = simulate(m, *gigsp, qtz_reduced_options(0.5));
  ASSERT_TRUE(r.completed) << r.message;
  const double th = 2.0 * std::numbers::pi * std::sin(0.5);  // the closed form th2 = th4
  EXPECT_NEAR(r.records.back().q[0], th, 1e-9);
  EXPECT_NEAR(r.records.back().q[1], th, 1e-9);
}

// The bars lie flat (sin of the crank angle, coordinate `crank`, changes sign) at the reference
// times 0.179, 0.986 and 1.344 s, located by linear interpolation between records.
void expect_flat_crossings(const simulation_result& r, int crank) {
  std::vector<double> crossings;
  for (std::size_t k = 1; k < r.records.size(); ++k) {
    const double s0 = std::sin(r.records[k - 1].q[crank]), s1 = std::sin(r.records[k].q[crank]);
    if (s0 * s1 <= 0.0 && s0 != 0.0) {
      crossings.push_back(r.records[k - 1].t +
                          s0 / (s0 - s1) * (r.records[k].t - r.records[k - 1].t));
    }
  }
  ASSERT_GE(crossings.size(), 3u);
  EXPECT_NEAR(crossings[0], 0.179, 2e-3);
  EXPECT_NEAR(crossings[1], 0.986, 2e-3);
  EXPECT_NEAR(crossings[2], 1.344, 2e-3);
}

TEST(QtzReduced, YooParallelogramKeepsEnergyThroughTheFlatConfigurations) {
  const model m = load_model(examples + "/yoo_parallelogram.toml");
  auto gigsp = make_solver("gigsp");
  const simulation_result r = simulate(m, *gigsp, qtz_reduced_options(2.0));
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_LE(r.max_energy_deviation(), 1e-6);
  EXPECT_LT(r.max_position_violation, 1e-9);
  // Still the parallelogram (th2 = -th1), not the anti-parallelogram (th2 ~ pi).
  const Eigen::VectorXd& q = r.records.back().q;
  EXPECT_NEAR(q[0] + q[1], 0.0, 1e-6);
  // The bars lie flat (sin th1 = 0) near 0.179 s and 0.986 s (and 1.344 s by symmetry).
  expect_flat_crossings(r, 0);
  // Each crossing drops the degenerate combination and restores it: two re-bases.
  EXPECT_GE(r.formulation.repartitions, 6);
}

TEST(QtzReduced, YooParallelogramWithRecordsEvery1e4) {
  // Records every 1e-4 s: every record is an IDA step (21000 steps over 2 s).
  const model m = load_model(examples + "/yoo_parallelogram.toml");
  auto gigsp = make_solver("gigsp");
  simulation_options o = qtz_reduced_options(2.0);
  o.dt = 1e-4;
  const simulation_result r = simulate(m, *gigsp, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_LE(r.max_energy_deviation(), 1e-6);
  EXPECT_NEAR(r.records.back().q[0] + r.records.back().q[1], 0.0, 1e-6);
}

// The same parallelogram built from three bodies (9 coordinates, 8 rows, rank 8 -> 7 when the
// bars lie flat). The coupler's angle stays 0 on the parallelogram branch: with the bare
// atol = 1e-12 on that coordinate IDA's corrector failed 12 ms before the first crossing
// (mechanics/dynamics/qtz_reduced_dae.cpp, set_tolerances).
void expect_bodies_parallelogram(double dt) {
  const model m = load_model(examples + "/parallelogram_bodies.toml");
  auto gigsp = make_solver("gigsp");
  simulation_options o = qtz_reduced_options(2.0);
  o.dt = dt;
  const simulation_result r = simulate(m, *gigsp, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_DOUBLE_EQ(r.records.back().t, 2.0);
  EXPECT_LE(r.max_energy_deviation(), 1e-6) << "dt = " << dt;
  EXPECT_LT(r.max_position_violation, 1e-8);
  // Still the parallelogram: the coupler translates (angle 0) and crank 3 stays parallel to
  // crank 1 (crank3_phi = crank1_phi + pi); the anti-parallelogram turns the coupler.
  const Eigen::VectorXd& q = r.records.back().q;
  EXPECT_NEAR(q[5], 0.0, 1e-6);
  EXPECT_NEAR(std::remainder(q[8] - q[2] - std::numbers::pi, 2.0 * std::numbers::pi), 0.0, 1e-6);
  // The bars lie flat (sin crank1_phi = 0) near 0.179, 0.986 and 1.344 s.
  expect_flat_crossings(r, 2);
  EXPECT_GE(r.formulation.repartitions, 6);
}

TEST(QtzReduced, ParallelogramFromBodiesKeepsEnergyThroughTheFlatConfigurations) {
  expect_bodies_parallelogram(1e-3);
}

TEST(QtzReduced, ParallelogramFromBodiesWithRecordsEvery1e4) {
  expect_bodies_parallelogram(1e-4);
}

TEST(QtzReduced, RefusesNonholonomicRowsByName) {
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
  auto gigsp = make_solver("gigsp");
  try {
    (void)simulate(rolling, *gigsp, qtz_reduced_options(0.1));
    FAIL() << "expected an input_error";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("'rolling'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("qtz-reduced"), std::string::npos) << e.what();
  }
}

TEST(QtzReduced, AdvancesToExactOutputTimes) {
  const model m = load_model(examples + "/double_pendulum.toml");
  qtz_reduced_dae dae(m, {}, simulation_options{}, m.initial_positions(), m.initial_velocities(),
                      0.0);
  Eigen::VectorXd q, qd;
  ASSERT_TRUE(dae.advance_to(0.01, q, qd)) << dae.message();
  ASSERT_TRUE(dae.advance_to(0.25, q, qd)) << dae.message();
  EXPECT_EQ(dae.rank(), 2);
  EXPECT_LT(m.position_violation(q, 0.25).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_LT(m.velocity_violation(q, qd, 0.25).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_GT(dae.steps(), 0);
  EXPECT_EQ(dae.failure(), dae_failure::none);
}

// IDA's iteration matrix is not zeroed before each setup: jacobian assigns the entries that can
// be nonzero and clears the matrix itself when the rank changes, and tells the sparse LU which
// entries it may read. Every record, bit for bit, as with the matrix zeroed at every setup and
// read in full: through rank changes (the parallelogram from bodies lying flat, 8 -> 7 -> 8),
// a combination C other than I (the redundant five-bar, rank 2 of 5 rows) and the sparse LU
// (a 40-link chain: 240 unknowns).
void expect_reference_assembly(const model& m, double t_end, bool rank_changes, bool sparse) {
  const simulation_options so;
  qtz_reduced_dae dae(m, {}, so, m.initial_positions(), m.initial_velocities(), 0.0);
  qtz_reduced_dae reference(m, {}, so, m.initial_positions(), m.initial_velocities(), 0.0);
  reference.use_reference_assembly();
  Eigen::VectorXd q, qd, q_ref, qd_ref;
  bool rank_changed = false;
  const int first_rank = dae.rank();
  for (int k = 1; k * so.dt <= t_end + 1e-12; ++k) {
    const double t = k * so.dt;
    ASSERT_TRUE(dae.advance_to(t, q, qd)) << dae.message();
    ASSERT_TRUE(reference.advance_to(t, q_ref, qd_ref)) << reference.message();
    ASSERT_TRUE(q == q_ref && qd == qd_ref) << m.name() << " differs at t = " << t;
    rank_changed = rank_changed || dae.rank() != first_rank;
  }
  EXPECT_EQ(dae.steps(), reference.steps());
  EXPECT_EQ(rank_changed, rank_changes) << m.name();
  EXPECT_EQ(dae.sparse_lu(), sparse) << m.name();
}

TEST(QtzReduced, KeptZerosGiveTheAnswersOfAZeroedMatrix) {
  expect_reference_assembly(load_model(examples + "/parallelogram_bodies.toml"), 0.4, true, false);
  expect_reference_assembly(load_model(examples + "/fivebar_redundant.toml"), 0.5, false, false);
  chain_options c;
  c.links = 40;
  expect_reference_assembly(load_model_from_string(chain_model_text(c), "chain40.toml"), 0.05,
                            false, true);
}

}  // namespace
}  // namespace kinevo::mechanics
