// kinevo animate's 3D viewer checked in a real browser: headless Chromium with software WebGL
// (SwiftShader) loads the page at #t=T; the page writes what it drew (each solid's pose, each
// joint's point, the camera) into <script id="scene-state">, and a screenshot gives the pixels.
// Positions are checked against the CSV with the body-fixed points computed here by Eigen's
// quaternion rotation, independently of three.js.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "tests/cli/cli_test_support.hpp"
#include "tests/cli/headless_browser.hpp"

#ifdef KINEVO_TEST_PNG
#include <png.h>
#endif

namespace {

using kinevo::test::fresh_dir;
using kinevo::test::read_text;
using kinevo::test::run_command;
using kinevo::test::run_kinevo;

const std::string three_js = "/usr/share/javascript/three/three.min.js";

std::string chromium_command(const std::filesystem::path& profile) {
  return kinevo::test::headless_browser_command(profile);
}

// Where a test saves a screenshot for the documentation (docs/animation.md, docs/figures.md):
// the build folder's docs_screenshots/, copied into docs/figures/ by the CMake target
// docs_screenshots.
std::filesystem::path docs_screenshot(const std::string& name) {
  const std::filesystem::path dir = KINEVO_SCREENSHOT_DIR;
  std::filesystem::create_directories(dir);
  return dir / name;
}

// One load of a page in the headless browser: the page at `fragment`, a profile of its own (the
// launches of one test run side by side), and with `shot` a screenshot saved there.
struct page_view {
  std::filesystem::path page;
  std::string fragment;
  std::filesystem::path profile, shot;
};

// The page's #scene-state from the DOM a launch dumped after the page's scripts ran.
nlohmann::json scene_state_in(const kinevo::test::command_output& r) {
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string open = "id=\"scene-state\">";
  const std::size_t at = r.out.find(open);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no scene-state in the page";
    return nlohmann::json::object();
  }
  const std::size_t begin = at + open.size();
  const std::string text = r.out.substr(begin, r.out.find("</script>", begin) - begin);
  EXPECT_FALSE(text.empty()) << "the page wrote no state (no WebGL?)";
  return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
}

// What each page drew, the launches started together (kinevo::test::run_commands: the README's
// ctest runs one test at a time, and a launch keeps about one core busy); the states in order.
std::vector<nlohmann::json> scene_states(const std::vector<page_view>& views) {
  std::vector<std::string> commands;
  for (const auto& v : views) {
    const std::string screenshot = v.shot.empty() ? "" : " --screenshot=" + v.shot.string();
    commands.push_back(chromium_command(v.profile) + screenshot + " --dump-dom 'file://" +
                       v.page.string() + "#" + v.fragment + "'");
  }
  std::vector<nlohmann::json> states;
  for (const auto& r : kinevo::test::run_commands(commands)) states.push_back(scene_state_in(r));
  return states;
}

// What the page drew at `fragment` (its #scene-state), from the DOM after its scripts ran; with
// `shot`, the same launch also saves a screenshot there.
nlohmann::json scene_state(const std::filesystem::path& page, const std::string& fragment,
                           const std::filesystem::path& profile,
                           const std::filesystem::path& shot = {}) {
  return scene_states({{page, fragment, profile, shot}}).front();
}

// The player driven as a user would, in one Chromium launch: a harness page beside `page` loads
// it (at `fragment`) into a frame filling the window, presses Play, waits until the drawn time
// moves and 0.2 s more, presses Pause, waits 0.3 s, then sets the time slider to frame
// `slider_a` and to `slider_b`; after each step it records the page's #scene-state (and
// performance.now()). The clock runs in Chromium's virtual time (--virtual-time-budget), which
// the page's own clock reads through performance.now(). Returns the steps as JSON.
nlohmann::json drive_player(const std::filesystem::path& page, const std::string& fragment,
                            int slider_a, int slider_b, const std::filesystem::path& profile,
                            const std::filesystem::path& shot = {}) {
  const auto harness = page.parent_path() / (page.stem().string() + "_harness.html");
  std::string text = R"(<!DOCTYPE html><html><head><style>
body { margin: 0; } #result { display: none; }
#page { position: fixed; left: 0; top: 0; width: 100%; height: 100%; border: 0; }
</style></head><body><pre id="result"></pre><iframe id="page"></iframe><script>
const frame = document.getElementById('page'), steps = [];
const sleep = ms => new Promise(r => setTimeout(r, ms));
frame.onload = async () => {
  let error = null;
  try {
    const w = frame.contentWindow, d = w.document, view = d.getElementById('view');
    for (let i = 0; i < 400 && d.body.dataset.ready !== '1'; ++i) await sleep(50);
    const record = (what, extra) =>
        steps.push(Object.assign({what, now: w.performance.now(),
                                  state: JSON.parse(JSON.stringify(w.kinevo_scene))}, extra));
    record('loaded', {});
    const t0 = view.dataset.t, play = d.getElementById('play');
    play.click();
    const started = w.performance.now();
    record('pressed', {button: play.textContent});
    for (let i = 0; i < 400 && view.dataset.t === t0; ++i) await sleep(25);
    await sleep(200);
    const playedFrom = started, pausedAt = w.performance.now();
    play.click();
    record('paused', {played_ms: pausedAt - playedFrom, button: play.textContent});
    await sleep(300);
    record('waited', {});
    const slider = d.getElementById('time');
    for (const k of [SLIDER_A, SLIDER_B]) {
      slider.value = k;
      slider.dispatchEvent(new w.Event('input'));
      record('slider', {slider: k});
    }
  } catch (e) { error = String(e); }
  document.getElementById('result').textContent = JSON.stringify({steps, error});
};
frame.src = 'PAGE' + location.hash;
</script></body></html>)";
  for (const auto& [key, value] :
       {std::pair<std::string, std::string>{"SLIDER_A", std::to_string(slider_a)},
        {"SLIDER_B", std::to_string(slider_b)},
        {"PAGE", page.filename().string()}}) {
    text.replace(text.find(key), key.size(), value);
  }
  std::ofstream(harness) << text;
  const std::string screenshot = shot.empty() ? "" : " --screenshot=" + shot.string();
  // The harness reads the page's DOM through its frame: file:// pages may do that only with
  // --allow-file-access-from-files.
  const auto r = run_command(chromium_command(profile) + screenshot +
                             " --allow-file-access-from-files --virtual-time-budget=60000"
                             " --dump-dom 'file://" +
                             harness.string() + "#" + fragment + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string open = "<pre id=\"result\">";
  const std::size_t at = r.out.find(open);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no result in the harness";
    return nlohmann::json::object();
  }
  std::string json = r.out.substr(at + open.size(), r.out.find("</pre>", at) - at - open.size());
  for (const auto& [entity, c] : {std::pair<std::string, std::string>{"&quot;", "\""},
                                  {"&lt;", "<"},
                                  {"&gt;", ">"},
                                  {"&amp;", "&"}}) {
    for (std::size_t k = json.find(entity); k != std::string::npos; k = json.find(entity, k + 1)) {
      json.replace(k, entity.size(), c);
    }
  }
  if (json.empty()) {
    ADD_FAILURE() << "the harness wrote no result";
    return nlohmann::json::object();
  }
  auto result = nlohmann::json::parse(json);
  EXPECT_TRUE(result["error"].is_null()) << result["error"];
  return result;
}

struct rgb_image {
  int width = 0, height = 0;
  std::vector<unsigned char> pixels;  // RGB rows
  std::array<int, 3> at(int x, int y) const {
    const std::size_t i = 3 * (static_cast<std::size_t>(y) * width + x);
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
  }
};

#ifdef KINEVO_TEST_PNG
rgb_image read_png(const std::filesystem::path& png) {
  rgb_image img;
  png_image p{};
  p.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&p, png.c_str()) == 0) {
    ADD_FAILURE() << "cannot read " << png << ": " << p.message;
    return img;
  }
  p.format = PNG_FORMAT_RGB;
  img.width = static_cast<int>(p.width);
  img.height = static_cast<int>(p.height);
  img.pixels.resize(PNG_IMAGE_SIZE(p));
  EXPECT_NE(png_image_finish_read(&p, nullptr, img.pixels.data(), 0, nullptr), 0) << p.message;
  return img;
}
#endif

// Where the page's camera puts a world point on the page, in CSS pixels (= screenshot pixels:
// the page draws at device pixel ratio 1).
Eigen::Vector2d on_page(const nlohmann::json& state, const Eigen::Vector3d& p) {
  Eigen::Matrix4d vp;
  for (int k = 0; k < 16; ++k) vp(k % 4, k / 4) = state["view_projection"][k];  // column-major
  const Eigen::Vector4d clip = vp * p.homogeneous();
  const auto& c = state["canvas"];
  const double x = clip.x() / clip.w(), y = clip.y() / clip.w();
  return {c[0].get<double>() + (x + 1) / 2 * c[2].get<double>(),
          c[1].get<double>() + (1 - y) / 2 * c[3].get<double>()};
}

const nlohmann::json& entry_named(const nlohmann::json& list, const std::string& name) {
  for (const auto& e : list) {
    if (e["name"] == name) return e;
  }
  static const nlohmann::json none = nlohmann::json::object();
  ADD_FAILURE() << "nothing named " << name;
  return none;
}

Eigen::Vector3d vec(const nlohmann::json& a) {
  return Eigen::Vector3d(a[0].get<double>(), a[1].get<double>(), a[2].get<double>());
}

bool chromium_and_three() {
  return kinevo::test::headless_browser_present() && std::filesystem::exists(three_js);
}

// The pages' title (the documentation's screenshot shows it), the same for both spellings.
const std::string flywheel_title = "'spherical pendulum with flywheel'";

struct flywheel_run {
  std::filesystem::path dir, model, csv, html;
  kinevo::io::csv_table table;
};

// The spherical pendulum with flywheel, 2 s; the page with the wheel's trail.
flywheel_run animate_flywheel(const std::string& name) {
  flywheel_run f;
  f.dir = fresh_dir(name);
  f.model = std::string(KINEVO_EXAMPLES) + "/spherical_pendulum_flywheel.toml";
  f.csv = f.dir / "run.csv";
  f.html = f.dir / "flywheel.html";
  const auto sim = run_kinevo("simulate " + f.model.string() +
                              " --t-end 2 --dt 0.01 --quiet --out " + f.csv.string());
  EXPECT_EQ(sim.status, 0) << sim.err;
  const auto r = run_kinevo("animate " + f.csv.string() + " --model " + f.model.string() + " -o " +
                            f.html.string() + " --trail wheel --json --title " + flywheel_title);
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["view"], "3d");
  f.table = kinevo::io::read_csv_table(f.csv);
  EXPECT_EQ(j["frames"].get<std::size_t>(), f.table.rows.size());
  return f;
}

TEST(CliAnimate, ViewerPageIsSelfContained) {
  if (!std::filesystem::exists(three_js)) GTEST_SKIP() << three_js << " is not installed";
  const auto f = animate_flywheel("viewer_page");
  const std::string page = read_text(f.html);
  EXPECT_NE(page.find("OrbitControls"), std::string::npos);
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("import("), std::string::npos);
  EXPECT_NE(page.find("\"sized_by\":\"cylinder of equal inertia\""), std::string::npos);
}

TEST(CliAnimate, ViewerFallsBackTo2DWithAWarningWithoutThreeJs) {
  const auto dir = fresh_dir("viewer_fallback");
  const std::string model = std::string(KINEVO_EXAMPLES) + "/slider_crank.toml";
  const auto html = dir / "m.html";
  const auto r =
      run_kinevo("simulate " + model + " --t-end 0.05 --quiet --out " + (dir / "r.csv").string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto a = run_command("KINEVO_THREE_JS=" + (dir / "none.js").string() + " " +
                             std::string(KINEVO_BINARY) + " animate " + (dir / "r.csv").string() +
                             " --model " + model + " -o " + html.string() + " --json");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.err.find("libjs-three"), std::string::npos) << a.err;
  EXPECT_EQ(nlohmann::json::parse(a.out)["view"], "2d");
  EXPECT_NE(read_text(html).find("http://www.w3.org/2000/svg"), std::string::npos);
}

TEST(CliAnimate, ViewerRefusesATrailOfNothing) {
  if (!std::filesystem::exists(three_js)) GTEST_SKIP() << three_js << " is not installed";
  const auto dir = fresh_dir("viewer_trail");
  const std::string model = std::string(KINEVO_EXAMPLES) + "/slider_crank.toml";
  ASSERT_EQ(
      run_kinevo("simulate " + model + " --t-end 0.05 --quiet --out " + (dir / "r.csv").string())
          .status,
      0);
  const auto r = run_kinevo("animate " + (dir / "r.csv").string() + " --model " + model + " -o " +
                            (dir / "m.html").string() + " --trail nowhere");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--trail: 'nowhere'"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "m.html"));
}

// The rod and the wheel where the CSV puts them at two times; the hub (the rod's point
// (0, 0, L/2)) at r + R(p) s' with Eigen's rotation; the solids sized from their inertia.
TEST(CliAnimate, Chromium3DDrawsTheFlywheelWhereTheCsvPutsIt) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto f = animate_flywheel("viewer_flywheel");
  const auto& tab = f.table;
  const std::array<std::size_t, 2> rows{40, 170};
  const auto time_at = [&](std::size_t row) { return tab.rows[row][tab.column("t")]; };
  // The second time is the documentation's picture, with the labels shown.
  const auto states =
      scene_states({{f.html, "t=" + std::to_string(time_at(rows[0])), f.dir / "profile_a", {}},
                    {f.html, "t=" + std::to_string(time_at(rows[1])) + "&labels=1",
                     f.dir / "profile_b", docs_screenshot("viewer_flywheel.png")}});
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t row = rows[k];
    const double t = time_at(row);
    const auto& state = states[k];
    ASSERT_TRUE(state.contains("solids"));
    EXPECT_NEAR(state["t"].get<double>(), t, 1e-12);
    for (const std::string body : {"rod", "wheel"}) {
      const auto q = [&](const std::string& c) {
        return tab.rows[row][tab.column(body + "_" + c)];
      };
      const auto& s = entry_named(state["solids"], body);
      const Eigen::Vector3d r(q("x"), q("y"), q("z"));
      EXPECT_LT((vec(s["position"]) - r).norm(), 1e-6) << body << " at t = " << t;
      const Eigen::Quaterniond drawn(s["quaternion"][0], s["quaternion"][1], s["quaternion"][2],
                                     s["quaternion"][3]);
      const Eigen::Quaterniond csv(q("e0"), q("e1"), q("e2"), q("e3"));
      EXPECT_NEAR(std::abs(drawn.dot(csv)), 1.0, 1e-6) << body;
      EXPECT_EQ(s["shape"], "cylinder") << body;
    }
    const auto q = [&](const std::string& c) { return tab.rows[row][tab.column("rod_" + c)]; };
    const Eigen::Vector3d hub =
        Eigen::Vector3d(q("x"), q("y"), q("z")) +
        Eigen::Quaterniond(q("e0"), q("e1"), q("e2"), q("e3")).toRotationMatrix() *
            Eigen::Vector3d(0, 0, 0.25);
    EXPECT_LT((vec(entry_named(state["joints"], "hub")["position"]) - hub).norm(), 1e-6);
    EXPECT_LT(vec(entry_named(state["joints"], "pivot")["position"]).norm(), 1e-6);
    // The example's disc (R = 0.15, t = 0.025) and rod (r = 0.025, L = 0.5), from their inertia.
    const auto wheel = vec(entry_named(state["solids"], "wheel")["size"]);
    EXPECT_LT((wheel - Eigen::Vector3d(0.3, 0.3, 0.025)).norm(), 2e-4) << wheel.transpose();
    const auto rod = vec(entry_named(state["solids"], "rod")["size"]);
    EXPECT_LT((rod - Eigen::Vector3d(0.05, 0.05, 0.5)).norm(), 2e-4) << rod.transpose();
    EXPECT_EQ(state["trails"], nlohmann::json::array({"wheel"}));
  }
}

#ifdef KINEVO_TEST_PNG
bool bluish(const std::array<int, 3>& c) {
  return c[2] > c[0] + 30 && c[2] >= c[1];
}

// The wheel's disc in the screenshot: points at 0.7 R in the wheel's plane (off the rod, which
// is along the wheel's axis) are body-coloured, a corner of the view is background.
TEST(CliAnimate, Chromium3DScreenshotShowsTheWheel) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto f = animate_flywheel("viewer_wheel_pixels");
  const auto& tab = f.table;
  const std::size_t row = 150;
  const std::string fragment = "t=" + std::to_string(tab.rows[row][tab.column("t")]);
  const auto state = scene_state(f.html, fragment, f.dir / "profile", f.dir / "shot.png");
  const rgb_image img = read_png(f.dir / "shot.png");
  ASSERT_GT(img.width, 0);
  const auto q = [&](const std::string& c) { return tab.rows[row][tab.column("wheel_" + c)]; };
  const Eigen::Matrix3d R =
      Eigen::Quaterniond(q("e0"), q("e1"), q("e2"), q("e3")).toRotationMatrix();
  const Eigen::Vector3d centre(q("x"), q("y"), q("z"));
  int on_wheel = 0;
  for (int k = 0; k < 8; ++k) {
    const double a = k * std::acos(-1.0) / 4;
    const Eigen::Vector3d p =
        centre + R * Eigen::Vector3d(0.105 * std::cos(a), 0.105 * std::sin(a), 0);
    const Eigen::Vector2d px = on_page(state, p);
    const auto c =
        img.at(static_cast<int>(std::lround(px.x())), static_cast<int>(std::lround(px.y())));
    on_wheel += bluish(c) ? 1 : 0;
  }
  // Seen from the camera, a few of the points may lie behind the rod or the trail.
  EXPECT_GE(on_wheel, 6);
  const auto& c = state["canvas"];
  const auto corner =
      img.at(static_cast<int>(c[0].get<double>()) + 3, static_cast<int>(c[1].get<double>()) + 3);
  EXPECT_EQ(corner, (std::array<int, 3>{255, 255, 255}));
}

// body_i = "ground" and body_j = "ground" for the same pivot: the same scene, the same pixels.
TEST(CliAnimate, Chromium3DDrawsBothGroundPivotSpellingsTheSame) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto f = animate_flywheel("viewer_spellings");
  std::string text = read_text(f.model);
  const std::string pivot =
      "body_i = \"ground\"\nbody_j = \"rod\"\npoint_i = [0, 0, 0]\npoint_j = [0, 0, \"-L/2\"]";
  const std::size_t at = text.find(pivot);
  ASSERT_NE(at, std::string::npos);
  text.replace(
      at, pivot.size(),
      "body_i = \"rod\"\nbody_j = \"ground\"\npoint_i = [0, 0, \"-L/2\"]\npoint_j = [0, 0, 0]");
  const auto swapped = f.dir / "swapped.toml";
  std::ofstream(swapped) << text;
  const auto html2 = f.dir / "swapped.html";
  const auto r = run_kinevo("animate " + f.csv.string() + " --model " + swapped.string() + " -o " +
                            html2.string() + " --trail wheel --title " + flywheel_title);
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string fragment = "t=1.2";
  auto states = scene_states({{f.html, fragment, f.dir / "profile_a", f.dir / "shot_a.png"},
                              {html2, fragment, f.dir / "profile_b", f.dir / "shot_b.png"}});
  auto& a = states[0];
  auto& b = states[1];
  EXPECT_EQ(a["anchors"].size(), 1u);
  EXPECT_LT((vec(entry_named(a["joints"], "pivot")["position"]) -
             vec(entry_named(b["joints"], "pivot")["position"]))
                .norm(),
            1e-12);
  for (auto* s : {&a, &b}) s->erase("draw_ms");
  EXPECT_EQ(a, b);
  const rgb_image ia = read_png(f.dir / "shot_a.png");
  const rgb_image ib = read_png(f.dir / "shot_b.png");
  ASSERT_EQ(ia.pixels.size(), ib.pixels.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < ia.pixels.size(); ++i) differ += ia.pixels[i] != ib.pixels[i];
  EXPECT_EQ(differ, 0u);
}
#endif

// A planar model lies in the XY plane: the slider-crank's bodies and its crank pin at two times.
TEST(CliAnimate, Chromium3DDrawsThePlanarSliderCrankInTheXyPlane) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto dir = fresh_dir("viewer_planar");
  const std::string model = std::string(KINEVO_EXAMPLES) + "/slider_crank.toml";
  const auto csv = dir / "run.csv", html = dir / "sc.html";
  ASSERT_EQ(run_kinevo("simulate " + model + " --t-end 0.2 --dt 0.01 --quiet --out " +
                       csv.string() + " --animate " + html.string())
                .status,
            0);
  const auto tab = kinevo::io::read_csv_table(csv);
  const std::array<std::size_t, 2> rows{5, 15};
  const auto time_at = [&](std::size_t row) { return tab.rows[row][tab.column("t")]; };
  const auto states =
      scene_states({{html, "t=" + std::to_string(time_at(rows[0])), dir / "profile_a", {}},
                    {html, "t=" + std::to_string(time_at(rows[1])), dir / "profile_b",
                     docs_screenshot("viewer_slider_crank.png")}});
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const std::size_t row = rows[k];
    const auto& state = states[k];
    ASSERT_TRUE(state.contains("solids"));
    const auto q = [&](const std::string& c) { return tab.rows[row][tab.column(c)]; };
    for (const std::string b : {"b1", "b2", "b3"}) {
      const auto& s = entry_named(state["solids"], b);
      EXPECT_LT((vec(s["position"]) - Eigen::Vector3d(q(b + "_x"), q(b + "_y"), 0)).norm(), 1e-6);
      // A turn by phi about z: quaternion (cos phi/2, 0, 0, sin phi/2), up to sign.
      const double phi = q(b + "_phi");
      EXPECT_NEAR(std::abs(s["quaternion"][0].get<double>() * std::cos(phi / 2) +
                           s["quaternion"][3].get<double>() * std::sin(phi / 2)),
                  1.0, 1e-6);
    }
    const Eigen::Vector3d pin(q("b1_x") + std::cos(q("b1_phi")), q("b1_y") + std::sin(q("b1_phi")),
                              0);
    EXPECT_LT((vec(entry_named(state["joints"], "crank_pin")["position"]) - pin).norm(), 1e-6);
  }
}

// Hundreds of bodies: a 200-link chain is drawn with a few instanced meshes (one draw call per
// kind of shape), not one object per body. The time to draw a frame is printed, not tested.
TEST(CliAnimate, Chromium3DDrawsAChainOfTwoHundredLinksInstanced) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto dir = fresh_dir("viewer_chain");
  const auto model = dir / "chain.toml", csv = dir / "run.csv", html = dir / "chain.html";
  ASSERT_EQ(run_kinevo("model chain --links 200 --spatial --out " + model.string()).status, 0);
  const auto sim =
      run_kinevo("simulate " + model.string() + " --t-end 0.02 --dt 0.01 --quiet --out " +
                 csv.string() + " --animate " + html.string());
  ASSERT_EQ(sim.status, 0) << sim.err;
  const auto state = scene_state(html, "t=0.01&redraw=10", dir / "profile");
  ASSERT_TRUE(state.contains("solids"));
  EXPECT_EQ(state["solids"].size(), 200u);
  EXPECT_LT(state["draw_calls"].get<int>(), 12);
  std::printf("200-link chain: %.2f ms per frame drawn, %d draw calls, page %.2f MB\n",
              state["draw_ms"].get<double>(), state["draw_calls"].get<int>(),
              static_cast<double>(std::filesystem::file_size(html)) / 1e6);
}

// The study's motion page is the 3D viewer too: the GA solver's and GIGSP's particles, each panel
// shifted beside the other by its panel's shift, where motion.csv puts them at two times (set by
// the time slider, one Chromium launch).
TEST(CliAnimate, Chromium3DDrawsTheStudyPanelsWhereTheCsvPutsThem) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto dir = fresh_dir("viewer_study");
  const auto r =
      run_kinevo("study double-pendulum --t-end 0.01 --seed 2 --quiet --out " + dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = read_text(dir / "motion.html");
  EXPECT_NE(page.find("id=\"scene-data\""), std::string::npos);
  EXPECT_NE(page.find(R"("panels":[{"caption_at")"), std::string::npos);
  const auto tab = kinevo::io::read_csv_table(dir / "motion.csv");
  const auto run = drive_player(dir / "motion.html", "t=0.002&labels=1", 3, 9, dir / "profile",
                                docs_screenshot("viewer_study.png"));
  ASSERT_EQ(run["steps"].size(), 6u);
  for (const auto& step : {run["steps"][4], run["steps"][5]}) {
    const auto& state = step["state"];
    const std::size_t row = step["slider"].get<std::size_t>();
    EXPECT_NEAR(state["t"].get<double>(), tab.rows[row][tab.column("t")], 1e-12);
    ASSERT_EQ(state["panels"].size(), 2u);
    for (const auto& [k, title, solver_name] :
         {std::tuple{0, "GA solver", "ga"}, std::tuple{1, "GIGSP", "gigsp"}}) {
      const std::string solver = solver_name;  // clang 14 cannot capture a structured binding
      const auto& panel = state["panels"][k];
      EXPECT_EQ(panel["title"], title);
      const Eigen::Vector3d shift = vec(panel["shift"]);
      const auto q = [&](const std::string& c) {
        return tab.rows[row][tab.column(c + "_" + solver)];
      };
      for (const std::string p : {"1", "2"}) {
        const auto& s = entry_named(state["solids"], "p" + p + " (" + title + ")");
        EXPECT_LT((vec(s["position"]) - shift - Eigen::Vector3d(q("x" + p), q("y" + p), 0)).norm(),
                  1e-6)
            << title << " p" << p << " at row " << row;
      }
    }
  }
  // The panels side by side: the study's +y is down, so the page keeps -y up on the screen (the
  // camera turned half a turn, the pendulum hanging down) and GIGSP's panel, on the screen's
  // right, lies towards -x of everything the GA panel draws.
  EXPECT_EQ(run["steps"][5]["state"]["panels"][0]["shift"][0], 0.0);
  EXPECT_LT(run["steps"][5]["state"]["panels"][1]["shift"][0].get<double>(), 0.0);
}

// Playback, in one Chromium launch: Play advances the drawn time as the elapsed time says
// (1x: the four-bar's clock, the input angle psi, runs at 1 degree per second), the drawn input
// tip follows a2 e^{i psi} at the time drawn; Pause stops it; the slider sets the time.
TEST(CliAnimate, Chromium3DPlaysPausesAndSeeksTheSynthesisedFourbar) {
  if (!chromium_and_three()) GTEST_SKIP() << "needs chromium and libjs-three";
  const auto dir = fresh_dir("viewer_fourbar");
  const auto html = dir / "fourbar.html";
  const auto r = run_kinevo("synth fourbar --table " + std::string(KINEVO_EXAMPLES) +
                            "/grashof_table1.csv --json --animate " + html.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double a1 = j["links"][0], a2 = j["links"][1];
  const double deg = std::acos(-1.0) / 180.0;
  // The page's own times, to know the frames.
  const std::string page = read_text(html);
  const std::size_t at = page.find("\"times\":");
  ASSERT_NE(at, std::string::npos);
  const auto times = nlohmann::json::parse(page.substr(at + 8, page.find(']', at) - at - 7))
                         .get<std::vector<double>>();
  ASSERT_GT(times.size(), 100u);
  // Freudenstein's equation fixes only the ratios: the axes and grid are in frame lengths, not m.
  EXPECT_NE(page.find("\"length_unit\":\"frame lengths\""), std::string::npos);
  const auto run =
      drive_player(html, "t=-1e9", 20, 150, dir / "profile", docs_screenshot("viewer_fourbar.png"));
  ASSERT_EQ(run["steps"].size(), 6u);
  const auto& steps = run["steps"];
  const auto tip_at_drawn_time = [&](const nlohmann::json& state) {
    const double psi = state["t"].get<double>() * deg;
    EXPECT_LT((vec(entry_named(state["solids"], "A")["position"]) -
               Eigen::Vector3d(a2 * std::cos(psi), a2 * std::sin(psi), 0))
                  .norm(),
              1e-6)
        << "at psi = " << state["t"];
    EXPECT_EQ(state["anchors"][1], nlohmann::json::array({a1, 0.0, 0.0}));
  };
  // Loaded paused at the first input; the button reads Pause while playing, Play after.
  EXPECT_EQ(steps[0]["state"]["t"].get<double>(), times.front());
  EXPECT_EQ(steps[1]["button"], "Pause");
  EXPECT_EQ(steps[2]["button"], "Play");
  const auto& paused = steps[2]["state"];
  EXPECT_FALSE(paused["playing"].get<bool>());
  const double advanced = paused["t"].get<double>() - times.front();
  const double played = steps[2]["played_ms"].get<double>() / 1000.0;
  EXPECT_GT(advanced, 0.0);
  // The clock runs at 1 unit per second from the press; Pause draws the frame nearest to the
  // time it was pressed at: within half a frame's spacing (and the moment between the harness's
  // reading of the time and its click).
  const double spacing = times[1] - times[0];
  EXPECT_NEAR(advanced, played, 0.5 * spacing + 1e-3) << "played " << played << " s";
  EXPECT_NE(paused["clock"].get<std::string>().find("psi = "), std::string::npos);
  tip_at_drawn_time(paused);
  // Paused: 0.3 s later the same frame, nothing drawn since.
  EXPECT_EQ(steps[3]["state"]["frame"], paused["frame"]);
  EXPECT_EQ(steps[3]["state"]["frames_drawn"], paused["frames_drawn"]);
  // The slider: frames 20 and 150, drawn paused.
  for (const auto& step : {steps[4], steps[5]}) {
    const std::size_t k = step["slider"].get<std::size_t>();
    EXPECT_EQ(step["state"]["frame"].get<std::size_t>(), k);
    EXPECT_NEAR(step["state"]["t"].get<double>(), times[k], 1e-9);
    tip_at_drawn_time(step["state"]);
  }
}

}  // namespace
