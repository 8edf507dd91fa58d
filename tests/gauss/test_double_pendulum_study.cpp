#include "studies/double_pendulum_study.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "io/csv_table.hpp"
#include "kkt_reference.hpp"

namespace {

using namespace kinevo::mechanics;
using namespace kinevo::gauss;
using namespace kinevo::studies;

TEST(double_pendulum_study, system_gives_the_closed_form_acceleration) {
  const auto s = double_pendulum_system(double_pendulum_state{});
  const Eigen::VectorXd a = kinevo::test::kkt_acceleration(s);
  EXPECT_LT((a - double_pendulum_exact_t0()).cwiseAbs().maxCoeff(), 1e-13);
  // The printed y2'' violates rod 2 by -2 pi^2 - (-3.25 pi^2 + pi^2) ... = 1.25 pi^2 = 12.34.
  const auto& printed = printed_table_5_1().back();
  const Eigen::Vector4d p(printed.a[0], printed.a[1], printed.a[2], printed.a[3]);
  EXPECT_NEAR(std::abs((s.jacobian.row(1) * p)(0) - s.rhs(1)), 12.3, 0.05);
}

// Target: max |a_GA - a_exact| <= 1e-9 max |a_exact| for 10 seeds of 10 with 1, 2, 4 and 8
// islands (default preset as it is: the islands share the per-run budget).
TEST(double_pendulum_study, cold_start_meets_the_target_for_ten_seeds_and_any_islands) {
  const auto s = double_pendulum_system(double_pendulum_state{});
  const Eigen::VectorXd exact = double_pendulum_exact_t0();
  for (const int islands : {1, 2, 4, 8}) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      gauss_ga_options o = gauss_ga_preset("default");
      o.islands.islands = islands;
      o.islands.seed = seed;
      gauss_ga_solver ga(o);
      const auto r = ga.solve(s);
      ASSERT_EQ(r.acceleration.size(), 4) << r.message;
      EXPECT_EQ(r.status, solve_status::ok) << r.message;
      EXPECT_LE((r.acceleration - exact).cwiseAbs().maxCoeff(),
                1e-9 * exact.cwiseAbs().maxCoeff())
          << "seed " << seed << ", " << islands << " islands";
      EXPECT_LE(r.runs, 10) << "seed " << seed << ", " << islands << " islands";
    }
  }
}

TEST(double_pendulum_study, short_study_writes_its_outputs_and_json) {
  double_pendulum_study_options o;
  o.t_end = 0.01;
  o.out = std::filesystem::temp_directory_path() / "kinevo_test_dp_study";
  std::filesystem::remove_all(o.out);
  const auto r = run_double_pendulum_study(o);
  EXPECT_LE(r.max_rel_error_t0, 1e-9);
  EXPECT_EQ(r.thesis.runs.size(), 5U);
  EXPECT_TRUE(r.motion.completed) << r.motion.message;
  EXPECT_LE(r.motion.max_position_difference, 1e-8);
  for (const char* f : {"report.md", "table_5_1_thesis.csv", "table_5_1_default.csv",
                        "table_5_1_printed.csv", "convergence_default.csv", "convergence_z1.svg",
                        "convergence_y2dd.svg", "motion.csv", "motion_positions.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(o.out / f)) << f;
  }
  const auto table = kinevo::io::read_csv_table(o.out / "table_5_1_thesis.csv");
  EXPECT_EQ(table.rows.size(), 6U);  // the guess (run 0) and runs 1..5
  const auto j = to_json(r);
  for (const char* key : {"exact", "runs", "max_rel_error_t0", "motion"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_TRUE(j["motion"].contains("max_position_difference"));
  EXPECT_TRUE(j["motion"].contains("evaluations_per_step_median"));
  EXPECT_TRUE(j["runs"][0].contains("evaluations"));
  std::filesystem::remove_all(o.out);
}

// Target: warm solves take a median of one run (at most 6400 evaluations). Over 0.05 s (200
// solves) the first steps build the per-stage history; the rest are predicted well enough for
// one run, and the motion still matches GIGSP.
TEST(double_pendulum_study, median_warm_solve_takes_one_run) {
  double_pendulum_study_options o;
  o.t_end = 0.05;
  o.write_files = false;
  const auto r = run_double_pendulum_study(o);
  ASSERT_TRUE(r.motion.completed) << r.motion.message;
  EXPECT_EQ(r.motion.runs_per_solve_median, 1.0);
  EXPECT_LE(r.motion.evaluations_per_solve_median, 6400.0);
  EXPECT_LE(r.motion.max_position_difference, 1e-8);
}

TEST(double_pendulum_study, bad_options_are_refused_before_any_work) {
  double_pendulum_study_options o;
  o.write_files = false;
  o.preset = "quick";
  EXPECT_THROW(run_double_pendulum_study(o), std::invalid_argument);
  o.preset = "default";
  o.islands = 0;
  EXPECT_THROW(run_double_pendulum_study(o), std::invalid_argument);
  o.islands = 2;
  o.dt = -1.0;
  EXPECT_THROW(run_double_pendulum_study(o), std::invalid_argument);
}

}  // namespace
