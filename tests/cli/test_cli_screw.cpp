// End-to-end tests of `kinevo screw finite|instant` on the worked examples (examples/) of
// Angeles et al., Diseño cinemático de maquinaria, "Automatic computation of the screw
// parameters of rigid-body motions", Parts I and II, and on bad tables.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>

#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::example;
using kinevo::test::json_of;
using kinevo::test::run_kinevo;

const double s3 = std::sqrt(3.0);

void expect_array(const nlohmann::json& j, double x, double y, double z, double tol) {
  ASSERT_EQ(j.size(), 3u);
  EXPECT_NEAR(j[0].get<double>(), x, tol);
  EXPECT_NEAR(j[1].get<double>(), y, tol);
  EXPECT_NEAR(j[2].get<double>(), z, tol);
}

}  // namespace

TEST(CliScrew, FiniteExample) {
  const auto j = json_of("screw finite --table " + example("screw_finite_points.csv"));
  EXPECT_EQ(j["status"], "ok");
  // theta in [0, pi]: e = sqrt3/3 (1, -1, -1), theta = 2 pi/3, u = 2 sqrt3/3 (the printed
  // e = sqrt3/3 (-1, 1, 1), theta = 4 pi/3, u = -2 sqrt3/3 is the same screw).
  expect_array(j["axis"], 1 / s3, -1 / s3, -1 / s3, 1e-12);
  EXPECT_NEAR(j["angle"].get<double>(), 2 * std::numbers::pi / 3, 1e-12);
  expect_array(j["point"], 1, 2.0 / 3, 1.0 / 3, 1e-12);
  EXPECT_NEAR(j["slide"].get<double>(), 2 * s3 / 3, 1e-12);
}

TEST(CliScrew, InstantExample) {
  const auto j = json_of("screw instant --table " + example("screw_instant_points.csv"));
  EXPECT_EQ(j["status"], "ok");
  expect_array(j["axis"], 1 / s3, 1 / s3, 1 / s3, 1e-12);
  expect_array(j["point"], 0, 0, 0, 1e-12);
  EXPECT_NEAR(j["rate"].get<double>(), s3, 1e-12);
  EXPECT_NEAR(j["slide_rate"].get<double>(), s3, 1e-12);
}

TEST(CliScrew, TextReportAndFiles) {
  const auto dir = kinevo::test::fresh_dir("screw");
  const auto r =
      run_kinevo("screw instant -t " + example("screw_instant_points.csv") + " -o " + dir.string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("slide rate"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "screw_instant_points.csv"));
  const auto q = run_kinevo("screw finite -q -t " + example("screw_finite_points.csv"));
  EXPECT_EQ(q.status, 0);
  EXPECT_TRUE(q.out.empty());
  std::filesystem::remove_all(dir);
}

// Writes `text` as dir/name and runs `kinevo screw <kind> --table dir/name [extra]`.
kinevo::test::command_output run_on(const std::filesystem::path& dir, const std::string& name,
                                    const std::string& text, const std::string& kind,
                                    const std::string& extra = "") {
  std::ofstream(dir / name) << text;
  return run_kinevo("screw " + kind + " --table " + (dir / name).string() + " " + extra);
}

TEST(CliScrew, BadTableNamesFileLineAndColumn) {
  const auto dir = kinevo::test::fresh_dir("screw_bad");
  const auto r = run_on(dir, "bad.csv",
                        "point,x,y,z,x_prime,y_prime,z_prime\n1,1,0,0,2,0,-1\n2,1,1,0,2,zero,0\n"
                        "3,2,1,-1,3,-1,0\n",
                        "finite", "--json");
  EXPECT_EQ(r.status, 2);
  // --json: the one object of a failure (docs/cli.md), the message as on stderr.
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "bad_input");
  EXPECT_NE(j["message"].get<std::string>().find("bad.csv:3"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("bad.csv:3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("y_prime"), std::string::npos) << r.err;
  // The finite columns are not an instantaneous table.
  const auto w = run_kinevo("screw instant --table " + example("screw_finite_points.csv"));
  EXPECT_EQ(w.status, 2);
  EXPECT_NE(w.err.find("xdot"), std::string::npos) << w.err;
  std::filesystem::remove_all(dir);
}

TEST(CliScrew, CollinearAndNonRigidExitOne) {
  const auto dir = kinevo::test::fresh_dir("screw_singular");
  struct bad_motion {
    const char* file;
    const char* text;
    const char* kind;
    const char* status;
  };
  const bad_motion cases[] = {
      {"line.csv", "point,x,y,z,xdot,ydot,zdot\n1,0,0,0,0,0,1\n2,1,1,1,0,0,1\n3,2,2,2,0,0,1\n",
       "instant", "collinear"},
      {"stretched.csv",
       "point,x,y,z,x_prime,y_prime,z_prime\n1,0,0,0,0,0,0\n2,1,0,0,1.1,0,0\n3,0,1,0,0,1,0\n",
       "finite", "not_rigid"}};
  for (const auto& c : cases) {
    const auto r = run_on(dir, c.file, c.text, c.kind, "--json");
    EXPECT_EQ(r.status, 1) << c.file;
    EXPECT_EQ(nlohmann::json::parse(r.out)["status"], c.status);
    EXPECT_NE(r.err.find(c.status[0] == 'c' ? "collinear" : "rigid"), std::string::npos) << r.err;
  }
  std::filesystem::remove_all(dir);
}
