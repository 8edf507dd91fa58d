// io::animation_html: the page holds its frames and player inline; bad animations are refused.
// io::animation_scene: a 2D animation as the 3D viewer's scene.
#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/animation_scene.hpp"
#include "kinevo/io/errors.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

namespace {

using kinevo::io::animation;
using kinevo::io::point_style;

animation two_frames() {
  animation a;
  a.title = "rod";
  a.times = {0.0, 0.5};
  a.panels.resize(1);
  auto& p = a.panels[0];
  p.title = "panel";
  p.point_names = {"pivot", "tip"};
  p.point_styles = {point_style::ground, point_style::particle};
  p.links = {{"rod", {0, 1}, false}};
  p.frames = {{0.0, 0.0, 1.0, 0.0}, {0.0, 0.0, 0.0, 1.0}};
  return a;
}

TEST(AnimationHtml, PageHoldsFramesAndPlayer) {
  const std::string page = kinevo::io::animation_html(two_frames());
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("\"times\":[0.0,0.5]"), std::string::npos);
  EXPECT_NE(page.find("id=\"play\""), std::string::npos);
  EXPECT_NE(page.find("id=\"time\""), std::string::npos);
  EXPECT_NE(page.find("id=\"speed\""), std::string::npos);
}

TEST(AnimationHtml, NamesCannotCloseTheScript) {
  animation a = two_frames();
  a.title = "</script><b>";
  a.panels[0].point_names[1] = "</script>";
  const std::string page = kinevo::io::animation_html(a);
  // Only the page's own two script elements end.
  std::size_t ends = 0;
  for (auto at = page.find("</script>"); at != std::string::npos;
       at = page.find("</script>", at + 1))
    ++ends;
  EXPECT_EQ(ends, 2u);
  EXPECT_NE(page.find("<title>&lt;/script&gt;&lt;b&gt;</title>"), std::string::npos);
}

TEST(AnimationHtml, RefusesInconsistentAnimations) {
  animation a = two_frames();
  a.times = {0.0, 0.0};
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
  a = two_frames();
  a.panels[0].frames[1].pop_back();
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
  a = two_frames();
  a.panels[0].links[0].points = {0, 2};
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
  a = two_frames();
  a.panels[0].frames[0][2] = NAN;
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
  a = two_frames();
  a.panels[0].frames.pop_back();
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
}

}  // namespace

// The 3D viewer's scene of a 2D animation: moving points are particles at (x, y, 0) with no
// turn, a ground point that stays put is a ground anchor, a link is a rod; a second panel lies
// right of the first (its shift added to every position) and names carry the panel's title.
TEST(AnimationScene, PanelsSideBySideWithTheirShift) {
  animation a = two_frames();
  a.panels.push_back(a.panels[0]);
  a.panels[1].title = "other";
  const auto s = kinevo::io::animation_scene(a);
  EXPECT_TRUE(s.planar);
  ASSERT_EQ(s.solids.size(), 2u);
  EXPECT_EQ(s.solids[0].name, "tip (panel)");
  EXPECT_EQ(s.solids[1].name, "tip (other)");
  ASSERT_EQ(s.links.size(), 2u);
  EXPECT_EQ(s.links[0].i.solid, -1);  // the pivot: fixed, on ground
  EXPECT_EQ(s.links[0].j.solid, 0);
  ASSERT_EQ(s.panels.size(), 2u);
  EXPECT_EQ(s.panels[0].shift[0], 0.0);
  // The first panel spans x in [0, 1]: the second starts half its size (0.5) to the right.
  EXPECT_DOUBLE_EQ(s.panels[1].shift[0], 1.5);
  EXPECT_DOUBLE_EQ(s.links[1].i.at[0], 1.5);
  // Frame 1: the tip at (0, 1) in both panels, the second shifted.
  EXPECT_EQ(s.poses[1], (std::vector<double>{0.0, 1.0, 0.0, 1.5, 1.0, 0.0}));
}

// With -y up (a model whose +y is down) the camera turns half a turn: the scene's up is -y and
// the second panel lies towards -x, which is the screen's right. A zero or non-finite up is
// refused.
TEST(AnimationScene, DownwardYTurnsTheViewAndPlacesPanelsTowardsMinusX) {
  animation a = two_frames();
  a.panels.push_back(a.panels[0]);
  a.panels[1].title = "other";
  a.up = {0.0, -1.0};
  const auto s = kinevo::io::animation_scene(a);
  EXPECT_EQ(s.up, (std::array<double, 3>{0.0, -1.0, 0.0}));
  ASSERT_EQ(s.panels.size(), 2u);
  // The first panel spans x in [0, 1]: the second ends half its size (0.5) left of x = 0.
  EXPECT_DOUBLE_EQ(s.panels[1].shift[0], -1.5);
  a.up = {0.0, 0.0};
  EXPECT_THROW(kinevo::io::animation_scene(a), kinevo::io::input_error);
  a.up = {std::nan(""), 1.0};
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
}

// The unit of the panels' lengths reaches the scene (the 3D page's axes and grid), metres unless
// the animation says otherwise; an empty unit is refused.
TEST(AnimationScene, CarriesTheLengthUnit) {
  animation a = two_frames();
  EXPECT_EQ(kinevo::io::animation_scene(a).length_unit, "m");
  a.length_unit = "frame lengths";
  EXPECT_EQ(kinevo::io::animation_scene(a).length_unit, "frame lengths");
  EXPECT_EQ(a.to_json()["length_unit"], "frame lengths");
  a.length_unit.clear();
  EXPECT_THROW(a.validate(), kinevo::io::input_error);
}
