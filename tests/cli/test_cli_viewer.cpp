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

// What the page drew at `fragment` (its #scene-state), from the DOM after its scripts ran.
nlohmann::json scene_state(const std::filesystem::path& page, const std::string& fragment,
                           const std::filesystem::path& profile) {
  const auto r = run_command(chromium_command(profile) + " --dump-dom 'file://" + page.string() +
                             "#" + fragment + "'");
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

struct rgb_image {
  int width = 0, height = 0;
  std::vector<unsigned char> pixels;  // RGB rows
  std::array<int, 3> at(int x, int y) const {
    const std::size_t i = 3 * (static_cast<std::size_t>(y) * width + x);
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
  }
};

#ifdef KINEVO_TEST_PNG
rgb_image screenshot(const std::filesystem::path& page, const std::string& fragment,
                     const std::filesystem::path& profile) {
  const auto png = profile.parent_path() / (profile.filename().string() + ".png");
  std::filesystem::remove(png);
  const auto r = run_command(chromium_command(profile) + " --screenshot=" + png.string() +
                             " 'file://" + page.string() + "#" + fragment + "'");
  EXPECT_EQ(r.status, 0) << r.err;
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
                            f.html.string() + " --trail wheel --json");
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
  for (const std::size_t row : {std::size_t{40}, std::size_t{170}}) {
    const double t = tab.rows[row][tab.column("t")];
    const auto state = scene_state(f.html, "t=" + std::to_string(t), f.dir / "profile");
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
  const auto state = scene_state(f.html, fragment, f.dir / "profile");
  const rgb_image img = screenshot(f.html, fragment, f.dir / "shot");
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
                            html2.string() + " --trail wheel");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string fragment = "t=1.2";
  auto a = scene_state(f.html, fragment, f.dir / "profile");
  auto b = scene_state(html2, fragment, f.dir / "profile");
  EXPECT_EQ(a["anchors"].size(), 1u);
  EXPECT_LT((vec(entry_named(a["joints"], "pivot")["position"]) -
             vec(entry_named(b["joints"], "pivot")["position"]))
                .norm(),
            1e-12);
  for (auto* s : {&a, &b}) s->erase("draw_ms");
  EXPECT_EQ(a, b);
  const rgb_image ia = screenshot(f.html, fragment, f.dir / "shot_a");
  const rgb_image ib = screenshot(html2, fragment, f.dir / "shot_b");
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
  for (const std::size_t row : {std::size_t{5}, std::size_t{15}}) {
    const double t = tab.rows[row][tab.column("t")];
    const auto state = scene_state(html, "t=" + std::to_string(t), dir / "profile");
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

}  // namespace
