// simulate --animate draws the trajectory the recorder kept in memory
// (mechanics/dynamics/trajectory_motion.hpp): the same scene and page, number for number, as
// drawing the run's CSV read back (kinevo animate's path, and --animate's before).
#include "kinevo/mechanics/dynamics/trajectory_motion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

struct recorded_run {
  std::string csv;
  recorded_trajectory trajectory;
};

recorded_run record(const model& m, double t_end, int every) {
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = t_end;
  o.dt = 0.01;
  std::ostringstream rows;
  trajectory_recorder rec(m, false, every, {}, {&rows});
  rec.keep_trajectory();
  (void)simulate(m, *solver, o, [&](const step_record& r) {
    rec.add(r);
    return true;
  });
  return {rows.str(), rec.trajectory()};
}

TEST(TrajectoryMotion, TheRecordedTrajectoryDrawsThePageOfTheCsvRows) {
  for (const char* name : {"double_pendulum", "slider_crank", "spatial_fivebar_driven"}) {
    const std::string file = examples + "/" + name + ".toml";
    const model m = load_model(file);
    const model_drawing drawing = model_drawing::load(file);
    const recorded_run run = record(m, 0.3, 3);
    ASSERT_FALSE(run.trajectory.times.empty()) << name;
    EXPECT_NO_THROW(run.trajectory.check_finite("run.html")) << name;

    const drawing_motion from_csv = drawing.motion(io::parse_csv_table(run.csv, "run.csv"));
    const drawing_motion from_memory = trajectory_motion(drawing, run.trajectory, "run.html");
    EXPECT_EQ(from_memory.times, from_csv.times) << name;
    EXPECT_EQ(from_memory.coordinates, from_csv.coordinates) << name;

    const io::motion_scene a = animate_scene(drawing, from_csv, name);
    const io::motion_scene b = animate_scene(drawing, from_memory, name);
    EXPECT_EQ(b.times, a.times) << name;
    EXPECT_EQ(b.poses, a.poses) << name;
    EXPECT_EQ(b.to_json(), a.to_json()) << name;
    // The 2D page, byte for byte.
    EXPECT_EQ(io::animation_html(animate_run(drawing, from_memory, name)),
              io::animation_html(animate_run(drawing, from_csv, name)))
        << name;
  }
}

TEST(TrajectoryMotion, ANonFiniteRowIsRefusedAsTheCsvReaderRefusesIt) {
  recorded_trajectory t;
  t.coordinate_names = {"p_x", "p_y"};
  t.times = {0.0, 0.1};
  t.coordinates = {{0.0, 1.0}, {std::numeric_limits<double>::quiet_NaN(), 1.0}};
  t.first_non_finite = recorded_trajectory::cell{1, "p_x", std::numeric_limits<double>::infinity()};
  try {
    t.check_finite("run.html");
    FAIL() << "accepted a non-finite row";
  } catch (const io::input_error& e) {
    EXPECT_STREQ(e.what(),
                 "run.html:3: column 'p_x': 'inf' is not a finite number in the range of doubles");
  }
  // The CSV reader's own words for the same row.
  try {
    (void)io::parse_csv_table("t,p_x,p_y\n0,0,1\n0.1,inf,1\n", "run.html");
    FAIL();
  } catch (const io::input_error& e) {
    EXPECT_STREQ(e.what(),
                 "run.html:3: column 'p_x': 'inf' is not a finite number in the range of doubles");
  }
}

TEST(TrajectoryMotion, ACoordinateTheDrawingNeedsAndTheRunLacksIsNamed) {
  const model_drawing drawing = model_drawing::load(examples + "/double_pendulum.toml");
  recorded_trajectory t;
  t.coordinate_names = {"zz"};
  t.times = {0.0};
  t.coordinates = {{0.0}};
  try {
    (void)trajectory_motion(drawing, t, "run.html");
    FAIL() << "drew a run without the drawing's coordinates";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("run.html: the run has no coordinate"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace kinevo::mechanics
