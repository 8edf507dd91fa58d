// End-to-end tests of assembly: `kinevo model assemble`, `simulate --assemble`,
// `accel --assemble`, and the refusal of an unassembled file without them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

// Haug's four-bar with bodies 1-3 moved by about 0.1 (positions and angles) and a wrong crank
// velocity.
std::filesystem::path perturbed_fourbar(const std::filesystem::path& dir) {
  std::string text = read_text(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  replace_once(text, "position = [0.0, 1.0]", "position = [0.1, 0.9]");
  replace_once(text, "velocity = [-1.0, 0.0]", "velocity = [-0.8, 0.1]");
  replace_once(text, R"x(position = ["(1 + s7)/2", "(3 + s7)/2"])x",
               R"x(position = ["(1 + s7)/2 + 0.1", "(3 + s7)/2 - 0.1"])x");
  replace_once(text, R"x(angle = "atan2(1 + s7, s7 - 1)")x",
               R"x(angle = "atan2(1 + s7, s7 - 1) + 0.1")x");
  const auto file = dir / "fourbar_perturbed.toml";
  std::ofstream(file) << text;
  return file;
}

// Ground pivots 20 apart: the links (2 + 4 + 4) cannot close.
std::filesystem::path open_fourbar(const std::filesystem::path& dir) {
  std::string text = read_text(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml");
  const std::string pivot = "point_j = [2.0, 0.0]";
  text.replace(text.rfind(pivot), pivot.size(), "point_j = [20.0, 0.0]");
  const auto file = dir / "fourbar_open.toml";
  std::ofstream(file) << text;
  return file;
}

TEST(CliAssembly, UnassembledFileIsRefusedNamingTheWayOut) {
  const auto dir = fresh_dir("assembly_refused");
  const auto file = perturbed_fourbar(dir);
  for (const std::string cmd : {"model info ", "simulate ", "accel "}) {
    const auto r = run_kinevo(cmd + file.string());
    EXPECT_EQ(r.status, 2) << cmd << r.err;
    EXPECT_NE(r.err.find("run with --assemble or `kinevo model assemble`"), std::string::npos)
        << cmd << r.err;
  }
}

TEST(CliAssembly, ModelAssembleWritesAFileThatLoadsAndDiffersOnlyInInitialValues) {
  const auto dir = fresh_dir("assembly_write");
  const auto file = perturbed_fourbar(dir);
  const auto out = dir / "assembled.toml";
  const auto r = run_kinevo("model assemble " + file.string() + " -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("assembled at t = 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + out.string()), std::string::npos) << r.out;
  const auto info = run_kinevo("model info " + out.string() + " --json");
  ASSERT_EQ(info.status, 0) << info.err;
  const auto j = nlohmann::json::parse(info.out);
  // The example's exact start (the driven four-bar is determined on this branch).
  const auto ex =
      run_kinevo("model info " + std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml --json");
  ASSERT_EQ(ex.status, 0) << ex.err;
  const auto e = nlohmann::json::parse(ex.out);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_NEAR(j["initial_positions"][i].get<double>(), e["initial_positions"][i].get<double>(),
                1e-9);
    EXPECT_NEAR(j["initial_velocities"][i].get<double>(), e["initial_velocities"][i].get<double>(),
                1e-9);
  }
  const auto a = lines_of(read_text(file)), b = lines_of(read_text(out));
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    bool initial = false;
    for (const char* key : {"position =", "velocity =", "angle =", "angular_velocity ="}) {
      initial = initial || (a[i].rfind(key, 0) == 0 && b[i].rfind(key, 0) == 0);
    }
    EXPECT_TRUE(initial) << a[i] << "\n" << b[i];
  }
  // Assembling the assembled file again changes nothing.
  const auto again = run_kinevo("model assemble " + out.string() + " --json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["penalty_stages"], 0);
}

TEST(CliAssembly, ModelAssembleJson) {
  const auto dir = fresh_dir("assembly_json");
  const auto file = perturbed_fourbar(dir);
  const auto out = dir / "a.toml";
  const auto r = run_kinevo("model assemble " + file.string() + " -o " + out.string() + " --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["converged"], true);
  EXPECT_LT(j["violation_after"].get<double>(), 1e-10);
  EXPECT_GT(j["violation_before"].get<double>(), 0.01);
  EXPECT_GT(j["replaced"].get<int>(), 0);
  EXPECT_EQ(j["out"], out.string());
  EXPECT_FALSE(j["worst_before"].empty());
  EXPECT_TRUE(j["worst"].empty());
}

// -o the input file itself: replaced atomically, the file then loads.
TEST(CliAssembly, ModelAssembleInPlace) {
  const auto dir = fresh_dir("assembly_in_place");
  const auto file = perturbed_fourbar(dir);
  const auto report = run_kinevo("model assemble " + file.string());
  ASSERT_EQ(report.status, 0) << report.err;
  EXPECT_EQ(report.out.find("wrote"), std::string::npos) << report.out;  // without -o: no file
  EXPECT_EQ(run_kinevo("model info " + file.string() + " --quiet").status, 2);
  const auto r =
      run_kinevo("model assemble " + file.string() + " -o " + file.string() + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const auto info = run_kinevo("model info " + file.string() + " --quiet");
  EXPECT_EQ(info.status, 0) << info.err;
}

TEST(CliAssembly, InfeasibleDesignExitsOneNamingTheConstraints) {
  const auto dir = fresh_dir("assembly_open");
  const auto file = open_fourbar(dir);
  const auto out = dir / "never.toml";
  const auto r = run_kinevo("model assemble " + file.string() + " -o " + out.string() + " --json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("the design may be infeasible or a better estimate is needed"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("'R"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["converged"], false);
  EXPECT_FALSE(j["worst"].empty());
  const auto sim = run_kinevo("simulate " + file.string() + " --assemble --t-end 0.01");
  EXPECT_EQ(sim.status, 1) << sim.err;
  EXPECT_NE(sim.err.find("the design may be infeasible"), std::string::npos) << sim.err;
  const auto acc = run_kinevo("accel " + file.string() + " --assemble --json");
  EXPECT_EQ(acc.status, 1) << acc.err;
  EXPECT_EQ(nlohmann::json::parse(acc.out)["assembly"]["converged"], false);
}

TEST(CliAssembly, BadOptionsExitTwo) {
  const auto dir = fresh_dir("assembly_options");
  const auto file = perturbed_fourbar(dir);
  const auto tol = run_kinevo("model assemble " + file.string() + " --position-tolerance -1");
  EXPECT_EQ(tol.status, 2);
  EXPECT_NE(tol.err.find("--position-tolerance"), std::string::npos) << tol.err;
  const auto cap = run_kinevo("model assemble " + file.string() + " --max-newton-iterations 0");
  EXPECT_EQ(cap.status, 2);
  EXPECT_NE(cap.err.find("--max-newton-iterations"), std::string::npos) << cap.err;
  const auto folder = run_kinevo("model assemble " + file.string() + " -o " +
                                 (dir / "missing" / "a.toml").string());
  EXPECT_EQ(folder.status, 2) << folder.err;
  const auto missing = run_kinevo("model assemble " + (dir / "nothing.toml").string());
  EXPECT_EQ(missing.status, 2) << missing.err;
}

TEST(CliAssembly, SimulateAndAccelAssembleFirst) {
  const auto dir = fresh_dir("assembly_run");
  const auto file = perturbed_fourbar(dir);
  const auto sim = run_kinevo("simulate " + file.string() + " --assemble --t-end 0.05 --json");
  ASSERT_EQ(sim.status, 0) << sim.err;
  const auto j = nlohmann::json::parse(sim.out);
  EXPECT_EQ(j["completed"], true);
  EXPECT_EQ(j["assembly"]["converged"], true);
  const auto text = run_kinevo("simulate " + file.string() + " --assemble --t-end 0.05");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.err.find("kinevo simulate: " + file.string() + ": assembled"), std::string::npos)
      << text.err;
  const auto acc = run_kinevo("accel " + file.string() + " --assemble --json");
  ASSERT_EQ(acc.status, 0) << acc.err;
  EXPECT_EQ(nlohmann::json::parse(acc.out)["assembly"]["converged"], true);
}

}  // namespace
}  // namespace kinevo::test
