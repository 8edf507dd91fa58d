// End-to-end tests of spatial models (`space = "spatial"`, issue 12) through the CLI: the
// spatial parallel five-bar's rank report and solver agreement, every formulation on the
// spherical pendulum with flywheel and on the free and driven five-bars, and
// `simulate --plot-x` (a plotted column against another column instead of t).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

const std::string fivebar = examples + "/spatial_fivebar.toml";
const std::string driven = examples + "/spatial_fivebar_driven.toml";
const std::string flywheel_pendulum = examples + "/spherical_pendulum_flywheel.toml";

// In model order, the later row of each dependent pair (Haug, Example 4.6.1).
const std::vector<std::string> redundant_rows{"B.z", "B.axis1", "B.axis2", "D.x",
                                              "D.z", "D.axis1", "D.axis2"};

TEST(CliSpatial, ModelInfoReportsSevenRedundantRowsAndOneDof) {
  const auto text = run_kinevo("model info " + fivebar);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("28 coordinates, 34 constraints"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rank of Phi_q: 27"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("degrees of freedom: 1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("redundant constraints: B.z, B.axis1, B.axis2, D.x, D.z, D.axis1, "
                          "D.axis2"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("singular: no"), std::string::npos) << text.out;
  const auto js = run_kinevo("model info " + fivebar + " --json");
  ASSERT_EQ(js.status, 0) << js.err;
  const auto j = nlohmann::json::parse(js.out);
  EXPECT_EQ(j["rank"], 27);
  EXPECT_EQ(j["kinematic_rank"], 27);
  EXPECT_EQ(j["dof"], 1);
  EXPECT_EQ(j["redundant"], redundant_rows);
  EXPECT_EQ(j["singular"], false);
  // The driver makes the driven variant determined (rank 28 = n), the same rows redundant.
  const auto d = nlohmann::json::parse(run_kinevo("model info " + driven + " --json").out);
  EXPECT_EQ(d["rank"], 28);
  EXPECT_EQ(d["dof"], 1);
  EXPECT_EQ(d["determined"], true);
  EXPECT_EQ(d["redundant"], redundant_rows);
}

TEST(CliSpatial, AccelSolversAgreeOnTheFiveBarAndNameTheRedundantRows) {
  const auto r = run_kinevo("accel " + fivebar + " --solvers lm uk gigsp sl kv qtz ga --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto reference = j["solvers"]["gigsp"]["a"].get<std::vector<double>>();
  ASSERT_EQ(reference.size(), 28U);
  for (const char* name : {"uk", "gigsp", "sl", "kv", "qtz", "ga"}) {
    const auto& s = j["solvers"][name];
    ASSERT_EQ(s["status"], "ok") << name << ": " << s["message"];
    if (std::string(name) != "ga") {
      EXPECT_EQ(s["rank"], 27) << name;
      EXPECT_EQ(s["redundant"].size(), 7U) << name;
    }
    const auto a = s["a"].get<std::vector<double>>();
    ASSERT_EQ(a.size(), reference.size()) << name;
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], reference[i], 1e-8) << name;
  }
  // The sweeps in row order drop the later rows. The GA's default does not diagnose the rank
  // (GIGSP's sweep factors A, which the oracle-free default may not use): rank null.
  for (const char* name : {"uk", "gigsp", "sl"}) {
    EXPECT_EQ(j["solvers"][name]["redundant"], redundant_rows) << name;
  }
  EXPECT_TRUE(j["solvers"]["ga"]["rank"].is_null());
  EXPECT_TRUE(j["solvers"]["ga"]["redundant"].empty());
  EXPECT_EQ(j["solvers"]["lm"]["status"], "singular");
  EXPECT_TRUE(j["solvers"]["lm"]["a"].empty());
}

// The final positions (the coordinate columns: those before the first velocity column).
std::vector<double> final_positions(const std::filesystem::path& csv) {
  const io::csv_table t = io::read_csv_table(csv);
  const auto first_velocity = std::find_if(
      t.columns.begin(), t.columns.end(), [](const std::string& c) { return c.ends_with("_dot"); });
  const auto n = static_cast<std::size_t>(first_velocity - t.columns.begin());
  return {t.rows.back().begin() + 1, t.rows.back().begin() + static_cast<std::ptrdiff_t>(n)};
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return a.size() == b.size() ? d : 1e300;
}

struct formulation_case {
  std::string name;
  std::string options;  // integrator and step for this formulation
  double tolerance;     // on max |q - q_ref| at t_end
};

// Every formulation against full with a tight Dormand-Prince (rtol 1e-12, atol 1e-14).
// Tolerances, from what each integrates with:
// - Dormand-Prince at its default rtol 1e-9 (full, partitioning, projection, hybrid,
//   qtz-orthogonal, qtz-state): global error about rtol times a modest factor over these short
//   runs; measured at most 9.1e-10 on both models; 1e-8 = 10 rtol.
// - qtz-reduced, SUNDIALS IDA (BDF) at rtol 1e-9: docs/formulations.md measures BDF's global
//   error at 5-20 rtol; measured 4.1e-10 (pendulum) and 1.16e-8 (five-bar); 5e-8 = 50 rtol.
// - reuse, RK4 only, first order in h k by construction (GIGSP dissertation, section 4.3.3):
//   at dt = 1e-4 (k = 5) measured 3.5e-4 (pendulum) and 3.5e-3 (five-bar); checked below as
//   first-order convergence instead (dt 1e-3 -> 1e-4 divides the error by about 10).
void expect_formulations_agree(const std::string& model, double t_end, const std::string& tag) {
  const auto dir = fresh_dir("spatial_formulations_" + tag);
  const std::string common = model + " --quiet --t-end " + std::to_string(t_end) + " --out ";
  const auto ref_csv = dir / "ref.csv";
  const auto ref = run_kinevo("simulate " + common + ref_csv.string() +
                              " --integrator dopri --rtol 1e-12 --atol 1e-14");
  ASSERT_EQ(ref.status, 0) << ref.err;
  const std::vector<double> q_ref = final_positions(ref_csv);
  const std::vector<formulation_case> cases{{"full", "--integrator dopri", 1e-8},
                                            {"partitioning", "--integrator dopri", 1e-8},
                                            {"projection", "--integrator dopri", 1e-8},
                                            {"hybrid", "--integrator dopri", 1e-8},
                                            {"qtz-orthogonal", "--integrator dopri", 1e-8},
                                            {"qtz-state", "--integrator dopri", 1e-8},
                                            {"qtz-reduced", "", 5e-8}};
  // The runs are independent: started together (run_commands), checked in order.
  std::vector<std::string> runs;
  for (const auto& c : cases) {
    runs.push_back("simulate " + common + (dir / (c.name + ".csv")).string() + " --formulation " +
                   c.name + " " + c.options);
  }
  for (int k = 0; k < 2; ++k) {
    runs.push_back("simulate " + common + (dir / ("reuse" + std::to_string(k) + ".csv")).string() +
                   " --formulation reuse --record-every 100 --dt " + (k == 0 ? "1e-3" : "1e-4"));
  }
  const auto results = run_kinevos(runs);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    ASSERT_EQ(results[i].status, 0) << tag << " " << c.name << ": " << results[i].err;
    EXPECT_LT(max_difference(final_positions(dir / (c.name + ".csv")), q_ref), c.tolerance)
        << tag << " " << c.name;
  }
  double reuse_error[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    const auto& r = results[cases.size() + static_cast<std::size_t>(k)];
    ASSERT_EQ(r.status, 0) << tag << " reuse: " << r.err;
    reuse_error[k] =
        max_difference(final_positions(dir / ("reuse" + std::to_string(k) + ".csv")), q_ref);
  }
  EXPECT_GT(reuse_error[0] / reuse_error[1], 5.0)
      << tag << " reuse " << reuse_error[0] << " " << reuse_error[1];
  EXPECT_LT(reuse_error[0] / reuse_error[1], 20.0) << tag;
  EXPECT_LT(reuse_error[1], 1e-2) << tag;
  std::filesystem::remove_all(dir);
}

TEST(CliSpatial, EveryFormulationAgreesWithFullOnThePendulumWithFlywheel) {
  expect_formulations_agree(flywheel_pendulum, 0.5, "pendulum");
}

TEST(CliSpatial, EveryFormulationAgreesWithFullOnTheFreeFiveBar) {
  expect_formulations_agree(fivebar, 1.0, "fivebar");
}

// The driven five-bar for 5 s (each crank turn passes the two flat configurations, where the
// rank of the rows without the driver drops from 27 to 26). Kinematically determined: every
// run that completes follows the prescribed crank angle th0 + omega t and stays a
// parallelogram (the coupler parallel to the ground) to round-off.
TEST(CliSpatial, DrivenFiveBarNeedsProjectionForFullAndReuse) {
  const auto dir = fresh_dir("spatial_driven");
  // The ten runs are independent: started together (run_commands), checked in order.
  struct driven_case {
    std::string tag, options;
    int status;  // 1: GIGSP stops at the redundant row D.x near a flat configuration
  };
  std::vector<driven_case> cases;
  for (const char* f : {"partitioning", "projection", "hybrid", "qtz-orthogonal", "qtz-state"}) {
    cases.push_back({f, std::string("--formulation ") + f, 0});
  }
  for (const char* f : {"full", "reuse"}) {
    cases.push_back({std::string(f) + "_projection",
                     std::string("--formulation ") + f + " --stabilization projection", 0});
  }
  // Without projection the positions drift off the constraints until, near a flat
  // configuration, GIGSP finds the redundant row D.x inconsistent and stops (exit 1, named).
  int stopped = 0;
  for (const char* options :
       {"--formulation full --stabilization none", "--formulation full --stabilization baumgarte",
        "--formulation reuse --stabilization baumgarte"}) {
    cases.push_back({"stopped" + std::to_string(stopped++), options, 1});
  }
  std::vector<std::string> runs;
  for (const auto& c : cases) {
    runs.push_back("simulate " + driven + " --quiet --t-end 5 --out " +
                   (dir / (c.tag + ".csv")).string() + " " + c.options);
  }
  const auto results = run_kinevos(runs);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const auto& r = results[i];
    EXPECT_EQ(r.status, c.status) << c.options << ": " << r.err;
    if (c.status == 1) {
      EXPECT_NE(r.err.find("'D.x' is dependent on earlier constraints"), std::string::npos)
          << c.options << ": " << r.err;
      continue;
    }
    if (r.status != 0) continue;
    const io::csv_table t = io::read_csv_table(dir / (c.tag + ".csv"));
    EXPECT_NEAR(t.rows.back()[0], 5.0, 1e-12) << c.tag;
    double worst = 0.0;
    for (const auto& row : t.rows) {
      const double th = -20.0 * std::numbers::pi / 180.0 + 6.28 * row[0];
      worst = std::max({worst, std::abs(row[t.column("crank2_x")] - 0.5 * std::cos(th)),
                        std::abs(row[t.column("coupler3_x")] - 1.0 - std::cos(th)),
                        std::abs(row[t.column("coupler3_y")] - std::sin(th))});
    }
    EXPECT_LT(worst, 1e-9) << c.tag;
  }
  // qtz-reduced is not checked here: it stops at t = 0.001 on this model (reported in the
  // branch's notes), whatever the tolerances.
  std::filesystem::remove_all(dir);
}

TEST(CliSpatial, PlotXPlotsTheColumnsAgainstAnotherColumn) {
  const auto dir = fresh_dir("spatial_plot_x");
  const auto svg = dir / "wheel_xy.svg";
  const auto r = run_kinevo("simulate " + flywheel_pendulum + " --quiet --t-end 0.5 --plot " +
                            svg.string() + " --plot-x wheel_y --plot-columns wheel_z --json");
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(svg);
  std::stringstream text;
  text << in.rdbuf();
  // The axis titles: wheel_y along x, wheel_z along y (no "t [s]").
  EXPECT_NE(text.str().find(">wheel_y [m]</text>"), std::string::npos) << text.str().substr(0, 400);
  EXPECT_NE(text.str().find(">wheel_z [m]</text>"), std::string::npos);
  EXPECT_EQ(text.str().find("t [s]"), std::string::npos);
  // Unknown names are bad input, named with the option and the columns that exist.
  for (const auto& [options, message] : std::vector<std::pair<std::string, std::string>>{
           {"--plot-x wheel_q --plot-columns wheel_y", "--plot-x has no column 'wheel_q'"},
           {"--plot-x wheel_x --plot-columns wheel_q", "--plot-columns has no column 'wheel_q'"}}) {
    const auto bad = run_kinevo("simulate " + flywheel_pendulum + " --quiet --t-end 0.01 --plot " +
                                (dir / "bad.svg").string() + " " + options);
    EXPECT_EQ(bad.status, 2) << options;
    EXPECT_NE(bad.err.find(message), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("wheel_x, wheel_y, wheel_z"), std::string::npos) << bad.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.svg"));
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::test
