#include "kinevo/ga/range_runs.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/interrupt.hpp"

namespace kinevo::ga {
namespace {

// The interrupt flag (io/interrupt.hpp).
using io::clear_interrupt;
using io::interrupt_flag;
using io::request_interrupt;

TEST(RangeRuns, ShrinkAroundTheBestAndImprove) {
  // The source document's procedure on a Gauss-like quadratic: [-50, 50] first, GAucsd settings.
  const auto q = quadratic_function::four_variable();
  island_model m(gaucsd_options(), island_options{});
  termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = 6400;
  range_run_options ro;
  ro.runs = 5;
  ro.shrink = 0.1;
  const auto r = run_range_runs(m, q, search_box::of(q), per_run, ro);
  ASSERT_EQ(r.runs.size(), 5u);
  for (int k = 1; k < 5; ++k) {
    const auto& prev = r.runs[k - 1];
    const auto& cur = r.runs[k];
    // Re-centred on the previous best, radius shrunk by the factor.
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(cur.centre[j], prev.result.best_x[j]);
      EXPECT_DOUBLE_EQ(cur.radii[j], 0.1 * prev.radii[j]);
    }
    // The previous best is in the initial population: never worse.
    EXPECT_LE(cur.result.best_value, prev.result.best_value);
  }
  // Run 1 is limited by the 16-bit grid of [-50, 50] (step 1.5e-3); run 5 by 1.5e-7.
  const double first = (r.runs[0].result.best_x - q.centre()).norm();
  const double last = (r.runs[4].result.best_x - q.centre()).norm();
  EXPECT_LT(last, 1e-4);
  EXPECT_LT(last, first / 100.0);
  EXPECT_EQ(r.best_value, r.runs[4].result.best_value);
  EXPECT_EQ(r.evaluations, 5 * r.runs[0].result.evaluations);
}

// The hook sets the next run's start point, limits and box (as the Gauss solver does, which
// re-parametrises its problem around the best); the first run starts at the caller's point;
// another minimiser takes every run, with exactly what the island model would have been given.
TEST(RangeRuns, HookSetsTheNextStartAndLimitsAndAMinimiserTakesEveryRun) {
  const auto q = quadratic_function::four_variable();
  island_model m(ga_options{}, island_options{});
  termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = 500;
  range_run_options ro;
  ro.runs = 3;
  ro.first_run_index = 7;
  ro.floor_radii = false;
  struct call {
    search_box box;
    termination limits;
    Eigen::VectorXd start;
    std::uint64_t run_index = 0;
  };
  std::vector<call> calls;
  const run_minimiser fake = [&](const problem&, const search_box& box, const termination& t,
                                 const run_settings& s) {
    calls.push_back({box, t, s.start_point ? *s.start_point : Eigen::VectorXd(), s.run_index});
    run_result r;
    r.best_x = box.centre();
    r.evaluations = t.max_evaluations;
    return r;
  };
  const auto hook = [&](range_run_step& step) {
    step.centre = Eigen::VectorXd::Constant(4, 0.5 * step.next_run);
    step.radii = Eigen::VectorXd::Constant(4, 1e-14);  // below the floor, which is off
    step.start = step.centre + Eigen::VectorXd::Constant(4, 1e-15);
    step.limits.max_evaluations = 100 * step.next_run;
    return true;
  };
  const Eigen::VectorXd first_start = Eigen::VectorXd::Constant(4, 0.25);
  run_settings settings;
  settings.start_point = &first_start;
  const auto r = run_range_runs(m, q, search_box::of(q), per_run, ro, hook, settings, fake);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].start, first_start);
  EXPECT_EQ(calls[0].limits.max_evaluations, 500);
  for (int k = 1; k < 3; ++k) {
    const auto& c = calls[static_cast<std::size_t>(k)];
    EXPECT_EQ(c.run_index, 7u + static_cast<std::uint64_t>(k));
    EXPECT_EQ(c.limits.max_evaluations, 100 * k);
    EXPECT_EQ(c.box.centre(), Eigen::VectorXd::Constant(4, 0.5 * k));
    EXPECT_NEAR(c.box.radii().maxCoeff(), 1e-14, 1e-15);
    EXPECT_EQ(c.start, Eigen::VectorXd::Constant(4, 0.5 * k) + Eigen::VectorXd::Constant(4, 1e-15));
  }
  EXPECT_EQ(r.evaluations, 500 + 100 + 200);

  // Without a start from the hook the previous best is the start; with the floor on, the radii
  // keep a few hundred ulps of the centre.
  calls.clear();
  ro.floor_radii = true;
  const auto plain = [&](range_run_step& step) {
    step.radii = Eigen::VectorXd::Constant(4, 1e-14);
    return true;
  };
  (void)run_range_runs(m, q, search_box::of(q), per_run, ro, plain, {}, fake);
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].start.size(), 0);
  EXPECT_EQ(calls[1].start, search_box::of(q).centre());
  EXPECT_GT(calls[1].box.radii().minCoeff(), 5e-14);

  // A sequence whose runs are not the island model's cannot checkpoint.
  run_settings checkpointing;
  checkpointing.checkpoint_file = std::filesystem::temp_directory_path() / "kinevo_no_such.ckpt";
  try {
    (void)run_range_runs(m, q, search_box::of(q), per_run, ro, {}, checkpointing, fake);
    ADD_FAILURE() << "a minimiser with a checkpoint file was accepted";
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "checkpoint_file");
  }
}

TEST(RangeRuns, GivenRadiiAndHookChangingTheProblem) {
  // A problem whose centre the hook moves between runs (like a multiplier update).
  struct shifted : problem {
    double shift = 0.0;
    int dimension() const override { return 2; }
    Eigen::VectorXd lower_bounds() const override { return Eigen::Vector2d(-10, -10); }
    Eigen::VectorXd upper_bounds() const override { return Eigen::Vector2d(10, 10); }
    void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                  Eigen::Ref<Eigen::VectorXd> v) const override {
      v = (x.array() - shift).square().colwise().sum().transpose();
    }
  } p;
  island_model m(ga_options{}, island_options{});
  termination t;
  t.max_generations = 60;
  range_run_options ro;
  ro.runs = 3;
  ro.radii_per_run = {10.0, 2.0, 0.5};
  int calls = 0;
  const auto r = run_range_runs(m, p, search_box::of(p), t, ro, [&](range_run_step& s) {
    ++calls;
    p.shift += 1.0;
    s.centre = Eigen::Vector2d::Constant(p.shift);  // caller re-centres on its new optimum
    return true;
  });
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_EQ(r.runs[1].radii, Eigen::Vector2d::Constant(2.0));
  EXPECT_EQ(r.runs[2].radii, Eigen::Vector2d::Constant(0.5));
  EXPECT_EQ(r.runs[2].centre, Eigen::Vector2d::Constant(2.0));
  EXPECT_LT((r.runs[2].result.best_x - Eigen::Vector2d::Constant(2.0)).norm(), 1e-3);

  range_run_options bad;
  bad.runs = 3;
  bad.radii_per_run = {1.0};
  EXPECT_THROW(run_range_runs(m, p, search_box::of(p), t, bad), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::ga

namespace kinevo::ga {
namespace {

TEST(RangeRuns, RotatedTrustRegionFollowsTheRosenbrockValley) {
  // The valley of Rosenbrock's function is curved and not parallel to the axes: boxes aligned
  // with the recent moves of the best follow it; axis-parallel boxes crawl.
  rosenbrock_function p(5);
  ga_options o;
  o.population = 30;
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 600;
  range_run_options ro;
  ro.runs = 40;
  ro.shrink = 0.5;
  ro.move_factor = 4.0;
  ro.first_run_budget = 10.0;
  ro.clip_lower = p.lower_bounds();
  ro.clip_upper = p.upper_bounds();
  island_model m(o, island_options{});
  const auto plain = run_range_runs(m, p, search_box::of(p), t, ro);
  ro.rotate = true;
  const auto rotated = run_range_runs(m, p, search_box::of(p), t, ro);
  EXPECT_LT(rotated.best_value, 1e-8);
  EXPECT_LT((rotated.best_x - Eigen::VectorXd::Ones(5)).norm(), 1e-3);
  EXPECT_LT(rotated.best_value, plain.best_value);
  // Every run's axes are orthonormal; the best reported is the point evaluated.
  for (const auto& r : rotated.runs) {
    EXPECT_LT((r.axes.transpose() * r.axes - Eigen::MatrixXd::Identity(5, 5)).norm(), 1e-12);
  }
  Eigen::VectorXd v(1);
  p.evaluate(rotated.best_x, v);
  EXPECT_EQ(v[0], rotated.best_value);

  range_run_options bad = ro;
  bad.move_factor = 0.0;
  EXPECT_THROW(run_range_runs(m, p, search_box::of(p), t, bad), std::invalid_argument);
}

// Range runs are checkpointable (issue 16, item 13): interrupted in run 2, resumed from the
// checkpoint and its range-run state, they end exactly as the uninterrupted sequence, plain and
// rotated, with and without periodic checkpoints.
TEST(RangeRuns, AnInterruptedSequenceResumesToTheUninterruptedResult) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_range_checkpoint_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  rosenbrock_function p(4);
  island_options io;
  io.islands = 2;
  io.migration_interval = 5;
  io.seed = 8;
  termination per_run;
  per_run.max_generations = 30;
  per_run.interrupt = &interrupt_flag();
  // A carried population (not with rotate) is in the island checkpoint already.
  for (const int variant : {0, 1, 2}) {
    const bool rotate = variant == 1;
    for (const long long every : {0LL, 10LL}) {
      range_run_options ro;
      ro.runs = 5;
      ro.shrink = 0.5;
      ro.move_factor = 4.0;
      ro.rotate = rotate;
      ro.carry = variant == 2 ? carry_mode::fill : carry_mode::off;
      ro.clip_lower = p.lower_bounds();
      ro.clip_upper = p.upper_bounds();
      clear_interrupt();
      island_model straight_model(ga_options{}, io);
      const auto straight = run_range_runs(straight_model, p, search_box::of(p), per_run, ro);
      ASSERT_EQ(straight.runs.size(), 5u);

      int run = 0;
      const range_run_hook track = [&](range_run_step& step) {
        run = step.next_run;
        return true;
      };
      run_settings s;
      s.checkpoint_file = dir / "state.txt";
      s.checkpoint_every = every;
      s.on_sync = [&](const sync_report& r) {
        if (run == 2 && r.generation == 15) request_interrupt();
      };
      island_model m(ga_options{}, io);
      const auto cut = run_range_runs(m, p, search_box::of(p), per_run, ro, track, s);
      clear_interrupt();
      ASSERT_EQ(cut.runs.size(), 3u);
      EXPECT_EQ(cut.runs.back().result.reason, stop_reason::interrupted);
      ASSERT_TRUE(std::filesystem::exists(range_state_path(s.checkpoint_file)));

      island_model again(ga_options{}, io);
      run_settings quiet;
      quiet.checkpoint_file = s.checkpoint_file;
      const auto resumed =
          resume_range_runs(again, p, search_box::of(p), per_run, ro, s.checkpoint_file, {}, quiet);
      ASSERT_EQ(resumed.runs.size(), straight.runs.size()) << rotate << every;
      EXPECT_EQ(resumed.best_value, straight.best_value) << rotate << every;
      EXPECT_EQ(resumed.best_x, straight.best_x);
      EXPECT_EQ(resumed.evaluations, straight.evaluations);
      for (std::size_t k = 0; k < straight.runs.size(); ++k) {
        EXPECT_EQ(resumed.runs[k].result.best_value, straight.runs[k].result.best_value) << k;
        EXPECT_EQ(resumed.runs[k].centre, straight.runs[k].centre) << k;
        EXPECT_EQ(resumed.runs[k].radii, straight.runs[k].radii) << k;
      }

      // Other range-run options or an edited state are refused by name.
      range_run_options other = ro;
      other.shrink = 0.25;
      island_model m2(ga_options{}, io);
      run_settings s2 = s;
      s2.on_sync = [&](const sync_report& r) {
        if (r.generation == 5) request_interrupt();
      };
      run_range_runs(m2, p, search_box::of(p), per_run, ro, {}, s2);
      clear_interrupt();
      island_model m3(ga_options{}, io);
      try {
        resume_range_runs(m3, p, search_box::of(p), per_run, other, s.checkpoint_file);
        FAIL() << "other range-run options accepted";
      } catch (const io::input_error& e) {
        EXPECT_NE(std::string(e.what()).find("state.txt.ranges:2:"), std::string::npos) << e.what();
      }
      std::stringstream text;
      text << std::ifstream(range_state_path(s.checkpoint_file)).rdbuf();
      std::string edited = text.str();
      edited.replace(edited.find("next 0"), 6, "next 1");
      std::ofstream(range_state_path(s.checkpoint_file)) << edited;
      island_model m4(ga_options{}, io);
      EXPECT_THROW(resume_range_runs(m4, p, search_box::of(p), per_run, ro, s.checkpoint_file),
                   io::input_error);
    }
  }
  std::filesystem::remove_all(dir);
}

// Carried populations (range_run_options::carry): run k + 1's islands start from their own
// final populations of run k, moved onto the new centre, instead of a uniform draw. Seen in the
// initial population's diversity (std of x_j over the box width; a uniform draw: 1/sqrt(12)):
// kept small by translate and rescale (the converged population), brought back towards a uniform
// draw's size by fill. Each run still keeps the best, and the sequence stays deterministic.
TEST(RangeRuns, CarriedPopulationsStartWhereThePreviousRunEnded) {
  const auto ellipsoid = make_test_function("ellipsoid", 6);
  const problem& p = *ellipsoid;
  termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = 4000;
  run_settings s;
  s.record_history = true;
  const auto initial_diversity = [](const range_run_record& r) {
    return r.result.history.at(0).diversity;
  };
  range_run_result result[2];
  for (const carry_mode mode : {carry_mode::off, carry_mode::fill}) {
    range_run_options ro;
    ro.runs = 4;
    ro.shrink = 0.5;
    ro.carry = mode;
    island_model m(g3_pcx_options(), island_options{});
    const auto r = run_range_runs(m, p, search_box::of(p), per_run, ro, {}, s);
    ASSERT_EQ(r.runs.size(), 4u);
    for (std::size_t k = 1; k < r.runs.size(); ++k) {
      EXPECT_LE(r.runs[k].result.best_value, r.runs[k - 1].result.best_value);
      const double d = initial_diversity(r.runs[k]);
      if (mode == carry_mode::off) {
        EXPECT_GT(d, 0.2) << static_cast<int>(mode) << " run " << k;
      } else {
        // The mean square deviation of a uniform draw, along the valley's shape: anisotropic, so
        // the mean of std_j / width_j is below a uniform draw's.
        EXPECT_GT(d, 0.05) << static_cast<int>(mode) << " run " << k;
        EXPECT_LT(d, 0.3) << static_cast<int>(mode) << " run " << k;
      }
    }
    island_model again(g3_pcx_options(), island_options{});
    const auto twice = run_range_runs(again, p, search_box::of(p), per_run, ro, {}, s);
    EXPECT_EQ(twice.best_x, r.best_x);
    EXPECT_EQ(twice.best_value, r.best_value);
    result[static_cast<int>(mode)] = r;
  }
  // The first run is the same whatever is carried later.
  EXPECT_EQ(result[1].runs[0].result.best_x, result[0].runs[0].result.best_x);
}

TEST(RangeRuns, CarryIsRefusedWithRotatedBoxes) {
  range_run_options ro;
  ro.move_factor = 4.0;
  ro.rotate = true;
  ro.carry = carry_mode::fill;
  EXPECT_THROW(ro.validate(), io::option_error);
}

}  // namespace
}  // namespace kinevo::ga
