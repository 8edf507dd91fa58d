// The rows and series `kinevo simulate` keeps of a run (mechanics/trajectory_recorder).
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Rows of a run of `steps` steps kept every `every`: records 0..steps, those with index
// divisible by `every`, plus the last when it is not one of them.
long long expected_rows(int steps, int every) {
  return steps / every + 1 + (steps % every != 0 ? 1 : 0);
}

TEST(TrajectoryRecorder, KeepsEveryKthRowAndTheLastAndThePlottedSeries) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  for (const int every : {1, 3, 4, 10}) {
    std::ostringstream rows;
    trajectory_recorder rec(m, false, every, {}, {&rows});
    (void)simulate(m, *solver, o, [&](const step_record& r) {
      rec.add(r);
      return true;
    });
    EXPECT_EQ(rec.rows(), expected_rows(10, every)) << every;
    EXPECT_NEAR(rec.last_t(), 0.1, 1e-12) << every;
    ASSERT_EQ(rec.series().size(), m.coordinate_names().size());
    EXPECT_EQ(static_cast<long long>(rec.series()[0].x.size()), rec.rows());
    // The stream holds the same rows: header plus one line per row.
    const std::string text = rows.str();
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), rec.rows() + 1) << every;
    EXPECT_NE(rec.written_span().find(std::to_string(rec.rows()) + " rows"), std::string::npos);
  }
}

TEST(TrajectoryRecorder, AnUnknownPlotColumnIsNamedWithTheColumnsThatExist) {
  const model m = load_model(examples + "/pendulum.toml");
  try {
    trajectory_recorder rec(m, false, 1, {"zz"}, {});
    FAIL() << "accepted an unknown column";
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "plot_columns");
    EXPECT_NE(e.requirement().find("'zz'"), std::string::npos) << e.what();
    EXPECT_NE(e.requirement().find("position_violation"), std::string::npos) << e.what();
  }
  trajectory_recorder empty(m, false, 1, {}, {});
  EXPECT_EQ(empty.written_span(), "(no rows)");
  EXPECT_TRUE(std::isnan(empty.last_t()));
}

TEST(TrajectoryRecorder, PlotXTakesTheSeriesAbscissaFromAColumn) {
  const model m = load_model(examples + "/pendulum.toml");
  const auto& q = m.coordinate_names();
  ASSERT_GE(q.size(), 2U);
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.05;
  o.dt = 0.01;
  std::ostringstream rows;
  trajectory_recorder rec(m, false, 1, {q[1]}, {&rows}, q[0]);
  EXPECT_EQ(rec.plot_x(), q[0]);
  std::vector<double> expected_x;
  (void)simulate(m, *solver, o, [&](const step_record& r) {
    rec.add(r);
    expected_x.push_back(r.q[0]);
    return true;
  });
  ASSERT_EQ(rec.series().size(), 1U);
  EXPECT_EQ(rec.series()[0].x, expected_x);
  EXPECT_EQ(trajectory_recorder(m, false, 1, {}, {}).plot_x(), "t");
  try {
    trajectory_recorder bad(m, false, 1, {}, {}, "zz");
    FAIL() << "accepted an unknown plot_x column";
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "plot_x");
    EXPECT_NE(e.requirement().find("'zz'"), std::string::npos) << e.what();
  }
}

// A long run's plotted series stay bounded (memory does not grow with the run's length): a
// uniform sample of the rows, every 2^k-th, with at least max_plot_points of them and the last.
TEST(TrajectoryRecorder, PlottedSeriesOfALongRunAreAUniformSampleWithTheLastRow) {
  const model m = load_model(examples + "/pendulum.toml");
  trajectory_recorder rec(m, false, 1, {}, {});
  const long long rows = 5 * static_cast<long long>(trajectory_recorder::max_plot_points) + 7;
  step_record r;
  r.q = m.initial_positions();
  r.qd = m.initial_velocities();
  r.qdd = Eigen::VectorXd::Zero(r.q.size());
  r.constraint_force = Eigen::VectorXd::Zero(r.q.size());
  for (long long k = 0; k < rows; ++k) {
    r.t = static_cast<double>(k);
    r.final = k + 1 == rows;
    rec.add(r);
  }
  EXPECT_EQ(rec.rows(), rows);
  const auto& x = rec.series()[0].x;
  ASSERT_GE(x.size(), trajectory_recorder::max_plot_points);
  EXPECT_LE(x.size(), 2 * trajectory_recorder::max_plot_points + 1);
  EXPECT_EQ(x.back(), static_cast<double>(rows - 1));
  // Rows 0, s, 2s, ... then the last, for the smallest power of two s that samples the rows in
  // at most 2 max_plot_points points (4 here: 5 * 2^16 rows at stride 2 would be 2.5 * 2^16).
  long long expected = 1;
  while ((rows + expected - 1) / expected >
         2 * static_cast<long long>(trajectory_recorder::max_plot_points)) {
    expected *= 2;
  }
  const double stride = x[1] - x[0];
  EXPECT_EQ(x[0], 0.0);
  EXPECT_EQ(stride, static_cast<double>(expected));
  for (std::size_t k = 1; k + 1 < x.size(); ++k) ASSERT_EQ(x[k] - x[k - 1], stride) << k;
}

}  // namespace
}  // namespace kinevo::mechanics
