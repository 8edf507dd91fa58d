// The drawing of a model file (mechanics/model/model_drawing.hpp) reads its geometry from the
// description of the one model file reader: parameters resolved in file order with --set applied
// and checked, [definitions] substituted, as the model itself reads them.
#include "kinevo/mechanics/model/model_drawing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// A pendulum body on a revolute joint at its point `a_half` (a parameter defined from `z_len`,
// which sorts after it: toml++ hands the keys sorted, the reader takes them in file order).
const std::string pin_pendulum = R"(
[model]
name = "pendulum"
gravity = [0.0, -9.81]

[parameters]
z_len = 2.0
a_half = "z_len/2"

[[body]]
name = "b"
mass = 1.0
inertia = "z_len^2/12"
position = ["a_half", 0.0]
angle = 0.0

[[joint]]
type = "revolute"
name = "pin"
body_i = "ground"
body_j = "b"
point_j = ["-a_half", 0.0]
)";

// The scene at the file's initial state (one frame).
io::motion_scene scene_at_start(const model_drawing& d, const model& m) {
  drawing_motion run;
  std::vector<double> q;
  for (const auto& c : d.coordinate_names()) {
    const auto& names = m.coordinate_names();
    const auto at = std::find(names.begin(), names.end(), c) - names.begin();
    q.push_back(m.initial_positions()[at]);
  }
  run.add(0.0, q);
  return animate_scene(d, run, "start");
}

TEST(ModelDrawing, ParametersInFileOrderThatIsNotKeyOrder) {
  const model_drawing d = model_drawing::from_string(pin_pendulum, "pendulum.toml");
  const model m = load_model_from_string(pin_pendulum, "pendulum.toml");
  const io::motion_scene s = scene_at_start(d, m);
  ASSERT_EQ(s.joints.size(), 1u);
  EXPECT_EQ(s.joints[0].j.at[0], -1.0);  // -a_half = -z_len/2
  EXPECT_EQ(s.poses.at(0).at(0), 1.0);   // b_x = a_half
}

TEST(ModelDrawing, SetOverridesTheParameterAndWhatIsDefinedFromIt) {
  const std::vector<parameter_override> set{{"z_len", 4.0}};
  const model_drawing d = model_drawing::from_string(pin_pendulum, "pendulum.toml", set);
  model_options o;
  o.overrides = set;
  const model m = load_model_from_string(pin_pendulum, "pendulum.toml", o);
  const io::motion_scene s = scene_at_start(d, m);
  ASSERT_EQ(s.joints.size(), 1u);
  EXPECT_EQ(s.joints[0].j.at[0], -2.0);  // a_half follows the --set z_len
  EXPECT_EQ(s.poses.at(0).at(0), 2.0);
}

// What the model refuses, the drawing refuses with the same words: an unknown --set name, a
// parameter that uses one defined below it.
TEST(ModelDrawing, RefusesWhatTheModelRefusesInItsWords) {
  const auto message = [](const auto& load) -> std::string {
    try {
      load();
    } catch (const io::input_error& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::vector<parameter_override> unknown{{"nope", 1.0}};
  model_options o;
  o.overrides = unknown;
  const std::string drawing_says =
      message([&] { (void)model_drawing::from_string(pin_pendulum, "p.toml", unknown); });
  EXPECT_NE(drawing_says.find("--set nope"), std::string::npos) << drawing_says;
  EXPECT_EQ(drawing_says, message([&] { (void)load_model_from_string(pin_pendulum, "p.toml", o); }));

  std::string below = pin_pendulum;
  below.replace(below.find("z_len = 2.0\na_half = \"z_len/2\""),
                std::string("z_len = 2.0\na_half = \"z_len/2\"").size(),
                "a_half = \"z_len/2\"\nz_len = 2.0");
  const std::string order_says =
      message([&] { (void)model_drawing::from_string(below, "p.toml"); });
  EXPECT_NE(order_says, "accepted");
  EXPECT_EQ(order_says, message([&] { (void)load_model_from_string(below, "p.toml"); }));
}

// Joint points given by [definitions] (examples/slider_crank_definitions.toml) are drawn as the
// numbers of examples/slider_crank.toml, the same model written out.
TEST(ModelDrawing, DefinitionsAreSubstitutedAsTheModelSubstitutesThem) {
  const model_drawing plain = model_drawing::load(examples + "/slider_crank.toml");
  const model_drawing defined = model_drawing::load(examples + "/slider_crank_definitions.toml");
  const model m = load_model(examples + "/slider_crank.toml");
  EXPECT_EQ(plain.coordinate_names(), defined.coordinate_names());
  EXPECT_EQ(scene_at_start(plain, m).to_json(), scene_at_start(defined, m).to_json());
}

}  // namespace
}  // namespace kinevo::mechanics
