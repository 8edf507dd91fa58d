// kinevo animate --view 2d: the SVG page's drawing checked in a real browser (the 3D viewer's
// tests are in test_cli_viewer.cpp). Headless Chromium loads motion.html#t=T, the page draws that
// frame paused and --dump-dom gives the SVG attributes it set, which must be the model's points
// computed here from the CSV in closed form.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/headless_browser.hpp"

namespace {

using kinevo::test::fresh_dir;
using kinevo::test::read_text;
using kinevo::test::run_command;
using kinevo::test::run_kinevo;

// The DOM after the page's scripts ran, with a fresh profile and nothing reaching the network.
// With `shot`, the same launch saves a screenshot there (1000 x 800).
std::string dump_dom_command(const std::filesystem::path& page, const std::string& fragment,
                             const std::filesystem::path& profile,
                             const std::filesystem::path& shot = {}) {
  const std::string screenshot = shot.empty() ? "" : " --screenshot=" + shot.string();
  return kinevo::test::headless_browser_command(profile) + screenshot + " --dump-dom 'file://" +
         page.string() + "#" + fragment + "'";
}

std::string dump_dom(const std::filesystem::path& page, const std::string& fragment,
                     const std::filesystem::path& profile) {
  const auto r = run_command(dump_dom_command(page, fragment, profile));
  EXPECT_EQ(r.status, 0) << r.err;
  return r.out;
}

// An attribute of the element with this id, as the browser serialised it.
double attribute(const std::string& dom, const std::string& id, const std::string& name) {
  const std::size_t at = dom.find(" id=\"" + id + "\"");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no element " << id;
    return NAN;
  }
  const std::size_t open = dom.rfind('<', at), close = dom.find('>', at);
  const std::string tag = dom.substr(open, close - open);
  const std::string key = " " + name + "=\"";
  const std::size_t value = tag.find(key);
  if (value == std::string::npos) {
    ADD_FAILURE() << id << " has no " << name << ": " << tag;
    return NAN;
  }
  const std::size_t begin = value + key.size();
  return std::stod(tag.substr(begin, tag.find('"', begin) - begin));
}

struct slider_crank_run {
  std::filesystem::path dir, csv, html;
  kinevo::io::csv_table table;
};

slider_crank_run animate_slider_crank(const std::string& name) {
  slider_crank_run s;
  s.dir = fresh_dir(name);
  s.csv = s.dir / "run.csv";
  s.html = s.dir / "motion.html";
  const std::string model = std::string(KINEVO_EXAMPLES) + "/slider_crank.toml";
  const auto sim =
      run_kinevo("simulate " + model + " --t-end 0.2 --dt 0.01 --quiet --out " + s.csv.string());
  EXPECT_EQ(sim.status, 0) << sim.err;
  const auto r = run_kinevo("animate " + s.csv.string() + " --model " + model + " -o " +
                            s.html.string() + " --view 2d --json --title 'slider-crank'");
  EXPECT_EQ(r.status, 0) << r.err;
  s.table = kinevo::io::read_csv_table(s.csv);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["frames"].get<std::size_t>(), s.table.rows.size());
  return s;
}

TEST(CliAnimate, WritesOneSelfContainedPage) {
  const auto s = animate_slider_crank("animate_page");
  const std::string page = read_text(s.html);
  EXPECT_NE(page.find("<script>"), std::string::npos);
  // Nothing is fetched: no external script, style sheet or image.
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("href="), std::string::npos);
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(page.find("https://"), std::string::npos);
}

TEST(CliAnimate, BadInputNamesTheFile) {
  const auto dir = fresh_dir("animate_bad");
  const auto csv = dir / "run.csv";
  std::ofstream(csv) << "t,b1_x\n0,1\n";
  const auto r = run_kinevo("animate " + csv.string() + " --model " + std::string(KINEVO_EXAMPLES) +
                            "/slider_crank.toml -o " + (dir / "m.html").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("run.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("b1_y"), std::string::npos) << r.err;
}

TEST(CliAnimate, SimulateWritesThePage) {
  const auto dir = fresh_dir("animate_simulate");
  const auto html = dir / "sim.html";
  const auto r = run_kinevo("simulate " + std::string(KINEVO_EXAMPLES) +
                            "/double_pendulum.toml --t-end 0.05 --json --animate " + html.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["animate"], html.string());
  const std::string page = read_text(html);
  // The 3D viewer's scene: the two particles and the rod between them.
  EXPECT_NE(page.find(R"("solids":[{"name":"p1","particle":true)"), std::string::npos);
  EXPECT_NE(page.find(R"("name":"rod1","spring":false)"), std::string::npos);
}

// A spatial model is drawn projected onto XY: the point (0.5, 0, 0) of crank2 against r + R s'
// with R from Eigen's quaternion (a second, independent rotation formula).
TEST(CliAnimate, ChromiumDrawsASpatialModelProjectedOntoXy) {
  if (!kinevo::test::headless_browser_present()) GTEST_SKIP() << "no Chromium is installed";
  const auto dir = fresh_dir("animate_spatial");
  const auto csv = dir / "run.csv", html = dir / "sp.html";
  const std::string model = std::string(KINEVO_EXAMPLES) + "/spatial_fivebar.toml";
  const auto r = run_kinevo("simulate " + model + " --t-end 0.2 --quiet --out " + csv.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto a = run_kinevo("animate " + csv.string() + " --model " + model + " --view 2d -o " +
                            html.string());
  ASSERT_EQ(a.status, 0) << a.err;
  const auto tab = kinevo::io::read_csv_table(csv);
  const std::size_t row = tab.rows.size() / 2;
  const auto q = [&](const std::string& c) { return tab.rows[row][tab.column("crank2_" + c)]; };
  const double t = tab.rows[row][tab.column("t")];
  const std::string dom = dump_dom(html, "t=" + std::to_string(t), dir / "profile");
  const Eigen::Quaterniond p(q("e0"), q("e1"), q("e2"), q("e3"));
  const Eigen::Vector3d g =
      Eigen::Vector3d(q("x"), q("y"), q("z")) + p.toRotationMatrix() * Eigen::Vector3d(0.5, 0, 0);
  EXPECT_NEAR(attribute(dom, "panel0", "data-t"), t, 1e-12);
  EXPECT_NEAR(attribute(dom, "panel0-A_i", "cx"), g.x(), 1e-9);
  EXPECT_NEAR(attribute(dom, "panel0-A_i", "cy"), g.y(), 1e-9);
}

TEST(CliAnimate, ChromiumDrawsTheCsvPositionsAtTwoTimes) {
  if (!kinevo::test::headless_browser_present()) GTEST_SKIP() << "no Chromium is installed";
  const auto s = animate_slider_crank("animate_chromium");
  const auto& tab = s.table;
  const std::array<std::size_t, 2> rows{5, 15};
  const auto time_at = [&](std::size_t row) { return tab.rows[row][tab.column("t")]; };
  // The second time is the documentation's picture of the 2D page. Both launches start together
  // (each keeps about one core busy; the README's ctest runs one test at a time).
  std::filesystem::create_directories(KINEVO_SCREENSHOT_DIR);
  const auto shot = std::filesystem::path(KINEVO_SCREENSHOT_DIR) / "animation_slider_crank.png";
  const auto doms = kinevo::test::run_commands(
      {dump_dom_command(s.html, "t=" + std::to_string(time_at(rows[0])), s.dir / "profile_a"),
       dump_dom_command(s.html, "t=" + std::to_string(time_at(rows[1])), s.dir / "profile_b",
                        shot)});
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t row = rows[k];
    const double t = time_at(row);
    EXPECT_EQ(doms[k].status, 0) << doms[k].err;
    const std::string& dom = doms[k].out;
    EXPECT_NEAR(attribute(dom, "panel0", "data-t"), t, 1e-12);
    const auto q = [&](const std::string& c) { return tab.rows[row][tab.column(c)]; };
    // The crank pin: (1, 0) on the crank, r + A(phi) s' in closed form.
    EXPECT_NEAR(attribute(dom, "panel0-crank_pin_i", "cx"), q("b1_x") + std::cos(q("b1_phi")),
                1e-12);
    EXPECT_NEAR(attribute(dom, "panel0-crank_pin_i", "cy"), q("b1_y") + std::sin(q("b1_phi")),
                1e-12);
    // The wrist pin on the slider's origin; the crank pivot fixed at the ground origin.
    EXPECT_NEAR(attribute(dom, "panel0-wrist_pin_j", "cx"), q("b3_x"), 1e-12);
    EXPECT_NEAR(attribute(dom, "panel0-wrist_pin_j", "cy"), q("b3_y"), 1e-12);
    EXPECT_NEAR(attribute(dom, "panel0-crank_pivot_i", "cx"), 0.0, 1e-15);
  }
}

// Without three.js the synthesised four-bar's page is the 2D fallback, with the warning; its
// points are the four-bar's (the 3D page's drawing is checked in test_cli_viewer.cpp).
TEST(CliAnimate, SynthesisedFourbarFallsBackTo2DWithoutThreeJs) {
  const auto dir = fresh_dir("animate_fourbar");
  const auto html = dir / "fourbar.html";
  const auto r = run_command("KINEVO_THREE_JS=" + (dir / "none.js").string() + " " +
                             std::string(KINEVO_BINARY) + " synth fourbar --table " +
                             std::string(KINEVO_EXAMPLES) +
                             "/grashof_table1.csv --json --animate " + html.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("libjs-three"), std::string::npos) << r.err;
  const std::string page = read_text(html);
  EXPECT_NE(page.find("id=\"animation-data\""), std::string::npos);
  EXPECT_NE(page.find(R"("names":["O2","O4","A","B"])"), std::string::npos);
}

}  // namespace
