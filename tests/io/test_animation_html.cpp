// io::animation_html: the page holds its frames and player inline; bad animations are refused.
#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/errors.hpp"

#include <gtest/gtest.h>

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
