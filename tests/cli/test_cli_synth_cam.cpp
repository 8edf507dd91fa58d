// End-to-end tests of `kinevo synth cam` on the three example cam files (examples/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::example;
using kinevo::test::json_of;
using kinevo::test::run_kinevo;

// A cam file in a temporary folder from text.
std::string cam_file(const std::string& name, const std::string& text) {
  const auto d = kinevo::test::fresh_dir("cam_files");
  const auto p = d / name;
  std::ofstream(p) << text;
  return p.string();
}

std::string read_example(const std::string& name) {
  std::ifstream f(example(name));
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// An example with one piece of text replaced, run: exit 2 and a message containing `expect`.
void expect_bad_input(const std::string& example_name, const std::string& from,
                      const std::string& to, const std::string& file_name,
                      const std::vector<std::string>& expect) {
  std::string text = read_example(example_name);
  text.replace(text.find(from), from.size(), to);
  const auto r = run_kinevo("synth cam " + cam_file(file_name, text));
  EXPECT_EQ(r.status, 2) << file_name;
  for (const auto& e : expect) EXPECT_NE(r.err.find(e), std::string::npos) << r.err;
}

}  // namespace

// The source's design (derived values) and the design found, which meets the 30 deg bound on
// the return too; the files of -o: profile, programme and drawing.
TEST(CliSynthCam, TranslatingRoller) {
  const auto dir = kinevo::test::fresh_dir("synth_cam_translating");
  const auto j =
      json_of("synth cam " + example("cam_translating_roller.toml") + " -o " + dir.string());
  EXPECT_EQ(j["status"], "bounds met");
  EXPECT_NEAR(j["source"]["c"].get<double>(), 57.334448, 1e-6);
  EXPECT_NEAR(j["source"]["e"].get<double>(), 33.102059, 1e-6);
  EXPECT_NEAR(j["source"]["min_pressure_angle"].get<double>(), -48.14, 0.01);
  EXPECT_GE(j["design"]["min_pressure_angle"].get<double>(), -30.0);
  EXPECT_LE(j["design"]["max_pressure_angle"].get<double>(), 30.0);
  EXPECT_GT(j["design"]["base_radius"].get<double>(), j["source"]["base_radius"].get<double>());
  EXPECT_EQ(j["files"].size(), 3U);
  const auto prog = kinevo::io::read_csv_table(dir / "cam_programme.csv");
  EXPECT_EQ(prog.rows.size(), 3600U);
  for (const auto& row : prog.rows)
    EXPECT_LE(std::abs(row[prog.column("pressure_angle_deg")]), 30.0);
  const auto prof = kinevo::io::read_csv_table(dir / "cam_profile.csv");
  EXPECT_EQ(prof.columns.size(), 5U);
  EXPECT_TRUE(std::filesystem::file_size(dir / "cam.svg") > 1000);
}

TEST(CliSynthCam, OscillatingRollerMeetsTheBoundTheSourceCannot) {
  const auto j = json_of("synth cam " + example("cam_oscillating_roller.toml"));
  EXPECT_EQ(j["sense"], "counterclockwise");
  EXPECT_GT(std::max(j["source"]["max_pressure_angle"].get<double>(),
                     -j["source"]["min_pressure_angle"].get<double>()),
            30.0);
  EXPECT_LE(j["design"]["max_pressure_angle"].get<double>(), 30.0);
  EXPECT_GE(j["design"]["min_pressure_angle"].get<double>(), -30.0);
}

TEST(CliSynthCam, FlatFace) {
  const auto j = json_of("synth cam " + example("cam_flat_face.toml"));
  EXPECT_NEAR(j["design"]["base_radius"].get<double>(), 15.915494, 1e-6);
  EXPECT_NEAR(j["design"]["min_convex_radius"].get<double>(), 0.4017, 5e-4);
}

// Bounds that no design in the box meets: status in the report, message on stderr, exit 1.
TEST(CliSynthCam, NoDesignInTheBoxExitsOne) {
  std::string text = read_example("cam_translating_roller.toml");
  text.replace(text.find("c = [0.001, 1000]"), 17, "c = [0.001, 20]");
  const auto f = cam_file("small_box.toml", text);
  const auto j = json_of("synth cam " + f, 1);
  EXPECT_EQ(j["status"], "no design in the given box");
  EXPECT_TRUE(j["design"].is_null());
  const auto r = run_kinevo("synth cam " + f);
  EXPECT_NE(r.err.find("no design in the given box"), std::string::npos);
}

// Bad input names the file, the line and the field; exit 2.
TEST(CliSynthCam, BadInputNamesFileLineAndField) {
  expect_bad_input("cam_translating_roller.toml", "roller_fraction = 0.5", "roller_fraction = 1.5",
                   "bad_fraction.toml", {"bad_fraction.toml:", "[bounds] field 'roller_fraction'"});
  expect_bad_input("cam_translating_roller.toml", "interval_deg = 108", "interval_deg = 100",
                   "bad_phases.toml", {"360"});
  expect_bad_input("cam_flat_face.toml", "kind = \"rise\"", "kind = \"up\"", "bad_kind.toml",
                   {"bad_kind.toml:15: [[phase]] 2 field 'kind'"});
  expect_bad_input("cam_flat_face.toml", "max_eccentricity = 0.5", "max_eccentricty = 0.5",
                   "bad_key.toml", {"bad_key.toml:", "[bounds]: unknown field 'max_eccentricty'"});
  EXPECT_EQ(run_kinevo("synth cam /nonexistent/cam.toml").status, 2);
  // 10^7 samples took 14 s of CPU and 2.4 GB (minutes on a loaded machine): the documented
  // limit is 10^6 (max_cam_samples), refused before any work, naming file, line and field.
  expect_bad_input("cam_translating_roller.toml", "samples = 3600", "samples = 10000000",
                   "many_samples.toml", {"many_samples.toml:7", "samples", "[36, 1e6]"});
}
