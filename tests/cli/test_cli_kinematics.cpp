// End-to-end tests of `kinevo kinematics` (Newton-Raphson analysis over time).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

TEST(CliKinematics, LockUpStopsWithExit1AndKeepsTheCsv) {
  const auto dir = fresh_dir("kinematics_lockup");
  const auto csv = dir / "q.csv";
  const auto svg = dir / "q.svg";
  const auto r = run_kinevo("kinematics " + examples +
                            "/slider_crank_lockup.toml --t-end 1.5 --dt 0.01 --json --out " +
                            csv.string() + " --plot " + svg.string());
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("no position at t = 0.79"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("wrote"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], false);
  EXPECT_EQ(j["stop_reason"], "no_position");
  EXPECT_DOUBLE_EQ(j["t_stop"].get<double>(), 0.78);
  EXPECT_EQ(j["steps"], 79);
  EXPECT_NE(j["message"].get<std::string>().find("wander"), std::string::npos);
  const io::csv_table t = io::read_csv_table(csv);
  ASSERT_EQ(t.rows.size(), 79U);
  EXPECT_DOUBLE_EQ(t.rows.back()[t.column("t")], 0.78);
  const double l = std::sqrt(2.0) / 2.0;
  const double s = std::sin(0.78);
  EXPECT_NEAR(t.rows.back()[t.column("q")], std::cos(0.78) + std::sqrt(l * l - s * s), 1e-9);
  EXPECT_NE(read_text(svg).find("<svg"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(CliKinematics, FourBarRevolutionCompletes) {
  const auto r = run_kinevo("kinematics " + examples +
                            "/haug_fourbar.toml --t-end 6.283185307179586 --dt 0.05 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["completed"], true);
  EXPECT_EQ(j["stop_reason"], nullptr);
  EXPECT_EQ(j["steps"], 127);
  EXPECT_DOUBLE_EQ(j["t_stop"].get<double>(), 2.0 * std::numbers::pi);
  EXPECT_LT(j["max_phi_norm"].get<double>(), 1e-9);
  EXPECT_EQ(j["message"], "");
  EXPECT_EQ(j["coordinates"].size(), 12U);
}

TEST(CliKinematics, TextReportAndQuiet) {
  const auto r = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --t-end 1 --dt 0.1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("completed: 11 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Newton-Raphson"), std::string::npos) << r.out;
  const auto q = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --t-end 1 --quiet");
  EXPECT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(q.out, "");
}

TEST(CliKinematics, ToleranceOptionsReachTheAnalysis) {
  // With at most 3 iterations the singular root at t = pi/4 (dt = pi/40) is not reached.
  const auto r = run_kinevo("kinematics " + examples +
                            "/slider_crank_lockup.toml --t-end 1.5707963267948966 "
                            "--dt 0.07853981633974483 --max-iterations 3 --json");
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["max_iterations"], 3);
  EXPECT_EQ(j["stop_reason"], "no_position");
  const auto s = run_kinevo("kinematics " + examples +
                            "/slider_crank_lockup.toml --t-end 1.5707963267948966 "
                            "--dt 0.07853981633974483 --eps-e 1e-6 --eps-s 1e-6 --json");
  EXPECT_EQ(s.status, 1) << s.err;
  const auto k = nlohmann::json::parse(s.out);
  EXPECT_EQ(k["eps_e"], 1e-6);
  EXPECT_EQ(k["stop_reason"], "singular");
  EXPECT_EQ(k["failure"]["convergence"], "linear");
}

TEST(CliKinematics, BadOptionsAndUndeterminedModelsExit2) {
  const auto dt = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --dt 0");
  EXPECT_EQ(dt.status, 2);
  EXPECT_NE(dt.err.find("--dt must be finite and > 0"), std::string::npos) << dt.err;
  const auto eps = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --eps-e -1");
  EXPECT_EQ(eps.status, 2);
  EXPECT_NE(eps.err.find("--eps-e"), std::string::npos) << eps.err;
  const auto it = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --max-iterations 0");
  EXPECT_EQ(it.status, 2);
  EXPECT_NE(it.err.find("--max-iterations"), std::string::npos) << it.err;
  const auto te = run_kinevo("kinematics " + examples + "/haug_fourbar.toml --t-end -1");
  EXPECT_EQ(te.status, 2);
  EXPECT_NE(te.err.find("--t-end"), std::string::npos) << te.err;
  for (const char* bad : {"--dt inf", "--t-end nan", "--dt 1e-9", "--eps-s 0", "--rank-tolerance 2",
                          "--no-such-option"}) {
    const auto b = run_kinevo("kinematics " + examples + "/haug_fourbar.toml " + bad);
    EXPECT_EQ(b.status, 2) << bad << ": " << b.err;
  }
  EXPECT_EQ(run_kinevo("kinematics " + examples + "/missing.toml").status, 2);
  // The slider-crank with a spring has no driver: one degree of freedom left.
  const auto und = run_kinevo("kinematics " + examples + "/slider_crank.toml");
  EXPECT_EQ(und.status, 2);
  EXPECT_NE(und.err.find("add 1 driver"), std::string::npos) << und.err;
  const auto out =
      run_kinevo("kinematics " + examples + "/haug_fourbar.toml --out /nonexistent-folder/q.csv");
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.err.find("--out"), std::string::npos) << out.err;
}

TEST(CliKinematics, SetOverridesAParameter) {
  // A rod longer than the crank (l = 1.5) turns round: no lock-up.
  const auto r = run_kinevo(
      "kinematics " + examples +
      "/slider_crank_lockup.toml --set l=1.5 --t-end 6.283185307179586 --dt 0.05 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["completed"], true);
}

}  // namespace
}  // namespace kinevo::test

namespace kinevo::test {
namespace {

// Issue 10: the whole DADS organisation from the command line. A four-bar written with rough
// initial values is refused without --assemble, assembled with it, and then analysed; `model
// info` reports its rank and mobility.
TEST(CliKinematics, AssembleThenAnalyseARoughFourBar) {
  const auto dir = fresh_dir("kinematics_assemble");
  std::ifstream in(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string rough = text.str();
  // Move the coupler's initial position off the closed loop.
  const std::string from = R"(position = ["(1 + s7)/2", "(3 + s7)/2"])";
  ASSERT_NE(rough.find(from), std::string::npos);
  rough.replace(rough.find(from), from.size(), "position = [1.9, 2.7]");
  const auto file = dir / "rough.toml";
  std::ofstream(file) << rough;
  const auto refused = run_kinevo("kinematics " + file.string() + " --t-end 0.5 --dt 0.1 --quiet");
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_NE(refused.err.find("--assemble"), std::string::npos) << refused.err;
  const auto r =
      run_kinevo("kinematics " + file.string() + " --assemble --t-end 0.5 --dt 0.1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["completed"].get<bool>());
  EXPECT_TRUE(j["assembly"]["converged"].get<bool>());
  std::filesystem::remove_all(dir);
}

TEST(CliKinematics, ModelInfoReportsRankAndMobility) {
  const auto fourbar = run_kinevo("model info " + examples + "/haug_fourbar.toml --json");
  ASSERT_EQ(fourbar.status, 0) << fourbar.err;
  const auto f = nlohmann::json::parse(fourbar.out);
  EXPECT_EQ(f["rank"], 12);
  EXPECT_EQ(f["dof"], 1);
  EXPECT_EQ(f["missing_drivers"], 0);
  EXPECT_EQ(f["singular"], false);
  EXPECT_EQ(f["coordinates"].size(), 12u);  // the model's own list, not the analysis' count
  const auto para = run_kinevo("model info " + examples + "/parallelogram.toml --json");
  ASSERT_EQ(para.status, 0) << para.err;
  const auto p = nlohmann::json::parse(para.out);
  EXPECT_EQ(p["rank"], 4);
  EXPECT_EQ(p["redundant"], nlohmann::json::array({"c5"}));
  const auto text = run_kinevo("model info " + examples + "/parallelogram.toml");
  EXPECT_NE(text.out.find("redundant constraints: c5"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace kinevo::test
