// Writing an assembled state back into the user's model file: only the initial values change.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/kinematics/assembly.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/model/model_writer.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::load_unassembled;
using kinevo::test::read_example;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) out.push_back(line);
  return out;
}

bool is_initial_value_line(const std::string& line) {
  for (const char* key :
       {"initial =", "velocity =", "position =", "angle =", "angular_velocity ="}) {
    if (line.rfind(key, 0) == 0) return true;
  }
  return false;
}

TEST(AssemblyModelFile, NumbersReadBack) {
  for (const double v : {1.0, -0.25, 1e-17, 3.0e20, 0.1, M_PI, -0.0, 123456789.0,
                         std::numeric_limits<double>::denorm_min()}) {
    const std::string s = toml_number(v);
    EXPECT_NE(s.find_first_of(".e"), std::string::npos) << s;
    EXPECT_EQ(std::strtod(s.c_str(), nullptr), v) << s;
  }
}

// The four-bar perturbed by rewriting its own file, then assembled and written back: the file
// loads with the check, holds the assembled state, and differs from the example only on the
// lines of initial values.
TEST(AssemblyModelFile, FourBarRoundTripChangesOnlyInitialValues) {
  const std::string original = read_example("haug_fourbar.toml");
  const model m = load_model_from_string(original, "haug_fourbar.toml");
  Eigen::VectorXd q0 = m.initial_positions();
  for (int i = 0; i < 9; ++i) q0[i] += (i % 2 ? -0.1 : 0.1);  // bodies 1-3; the ground is exact
  const rewritten_model_file bad =
      rewrite_initial_values(original, "haug_fourbar.toml", m, q0, m.initial_velocities());
  EXPECT_EQ(bad.replaced, 9);
  EXPECT_EQ(bad.added, 0);
  EXPECT_THROW((void)load_model_from_string(bad.text, "perturbed.toml"), io::input_error);
  const model u = load_unassembled(bad.text, "perturbed.toml");
  EXPECT_EQ(u.initial_positions(), q0);

  const assembly_result r = assemble(u);
  ASSERT_TRUE(r.converged) << r.message;
  const rewritten_model_file good =
      rewrite_initial_values(bad.text, "perturbed.toml", u, r.q, r.qd);
  const model back = load_model_from_string(good.text, "assembled.toml");  // the check passes
  EXPECT_EQ(back.initial_positions(), r.q);
  EXPECT_EQ(back.initial_velocities(), r.qd);

  const auto a = lines_of(original), b = lines_of(good.text);
  ASSERT_EQ(a.size(), b.size());
  int differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    ++differing;
    EXPECT_TRUE(is_initial_value_line(a[i]) && is_initial_value_line(b[i]))
        << "line " << i + 1 << ":\n"
        << a[i] << "\n"
        << b[i];
    // The key and any comment after the value are kept.
    EXPECT_EQ(a[i].substr(0, a[i].find('=')), b[i].substr(0, b[i].find('=')));
    const auto ca = a[i].find('#'), cb = b[i].find('#');
    if (ca != std::string::npos) {
      ASSERT_NE(cb, std::string::npos) << b[i];
      EXPECT_EQ(a[i].substr(ca), b[i].substr(cb));
    }
  }
  EXPECT_GT(differing, 0);
  // Comments and the other sections are untouched.
  EXPECT_NE(good.text.find("# Four-bar mechanism of Haug"), std::string::npos);
  EXPECT_NE(good.text.find("value = \"pi/2 + omega*t\""), std::string::npos);
}

// Equations form with an expression initial value and no velocity key: the driver's velocity
// is added as a line of its own, after the table's last key.
TEST(AssemblyModelFile, EquationsFormAddsAMissingVelocity) {
  const std::string text =
      "# driven slider\n"
      "[parameters]\n"
      "a = 0.5\n"
      "[[coordinate]]\n"
      "name = \"x\"   # the slider\n"
      "initial = \"a*0.1\"\n"
      "mass = 1.0\n"
      "\n"
      "[[coordinate]]\n"
      "name = \"y\"\n"
      "initial = 0.0\n"
      "mass = 1.0\n"
      "[[constraint]]\n"
      "name = \"drive\"\n"
      "holonomic = \"x - 1 - 3*t\"";  // no newline at the end of the file
  const model u = load_unassembled(text, "slider.toml");
  const assembly_result r = assemble(u);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.qd[0], 3.0, 1e-12);
  const rewritten_model_file w = rewrite_initial_values(text, "slider.toml", u, r.q, r.qd);
  EXPECT_EQ(w.replaced, 1);
  EXPECT_EQ(w.added, 1);
  EXPECT_NE(
      w.text.find("initial = 1.0\nmass = 1.0\nvelocity = 3.0\n\n[[coordinate]]\nname = \"y\""),
      std::string::npos)
      << w.text;
  EXPECT_NE(w.text.find("name = \"x\"   # the slider\n"), std::string::npos);
  EXPECT_NE(w.text.find("a = 0.5\n"), std::string::npos);
  const model back = load_model_from_string(w.text, "back.toml");
  EXPECT_EQ(back.initial_positions(), r.q);
  EXPECT_EQ(back.initial_velocities(), r.qd);
}

// Particles (a chain) with expression positions: replaced by numbers; a velocity array added to
// the last table at the end of a file.
TEST(AssemblyModelFile, ParticleChainPositionsAndAddedVelocities) {
  chain_options c;
  c.links = 4;
  const std::string text = chain_model_text(c);
  const model m = load_model_from_string(text, "chain.toml");
  Eigen::VectorXd q0 = m.initial_positions();
  for (Eigen::Index i = 0; i < q0.size(); ++i) q0[i] += 0.05 * double(i % 3);
  Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(m.coordinates());
  qd0[7] = 0.5;  // p4_y: its velocity array is added
  const rewritten_model_file w = rewrite_initial_values(text, "chain.toml", m, q0, qd0);
  EXPECT_EQ(w.added, 1);
  const model back = load_unassembled(w.text, "back.toml");
  EXPECT_EQ(back.initial_positions(), q0);
  EXPECT_EQ(back.initial_velocities(), qd0);
  EXPECT_NE(w.text.find("velocity = [0.0, 0.5]\n"), std::string::npos) << w.text;
}

// A spatial body given by rotation_axis and rotation_angle is written back as Euler parameters
// (an axis and angle would not read back bit for bit), and its angular velocity in its frame.
TEST(AssemblyModelFile, SpatialBodyOrientationAndAngularVelocity) {
  const std::string text = R"([model]
space = "spatial"
[[body]]
name = "b"
mass = 1
inertia = [1, 2, 3]
position = [0, 0, 0]
rotation_axis = [1, 0, 0]
rotation_angle = "pi/6"
angular_velocity = [0, 0, 1]
angular_velocity_frame = "body"
)";
  const model m = load_model_from_string(text, "body.toml");
  Eigen::VectorXd q = m.initial_positions(), qd = m.initial_velocities();
  const Eigen::Vector4d p = Eigen::Vector4d(q[3] + 0.01, q[4], q[5] + 0.02, q[6]).normalized();
  q.segment<4>(3) = p;
  // The rates of a body angular velocity (1, 2, 3): p' = 1/2 G^T w'.
  Eigen::Matrix<double, 3, 4> g;
  g << -p[1], p[0], p[3], -p[2], -p[2], -p[3], p[0], p[1], -p[3], p[2], -p[1], p[0];
  qd.segment<4>(3) = 0.5 * g.transpose() * Eigen::Vector3d(1, 2, 3);
  const rewritten_model_file w = rewrite_initial_values(text, "body.toml", m, q, qd);
  EXPECT_EQ(w.text.find("rotation_axis"), std::string::npos) << w.text;
  EXPECT_NE(w.text.find("orientation = ["), std::string::npos) << w.text;
  EXPECT_NE(w.text.find("angular_velocity_frame = \"body\""), std::string::npos) << w.text;
  const model back = load_model_from_string(w.text, "back.toml");
  EXPECT_LT((back.initial_positions() - q).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_LT((back.initial_velocities() - qd).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(AssemblyModelFile, InlineTableCannotTakeANewKey) {
  const std::string text =
      "body = [{name = \"b\", mass = 1.0, inertia = 1.0, position = [0.0, 0.0], angle = 0.0}]\n";
  const model m = load_model_from_string(text, "inline.toml");
  Eigen::VectorXd qd = m.initial_velocities();
  qd[2] = 1.0;
  try {
    (void)rewrite_initial_values(text, "inline.toml", m, m.initial_positions(), qd);
    FAIL() << "no error";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("inline.toml:1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("angular_velocity"), std::string::npos) << e.what();
  }
  // Values already in an inline table are replaced in place.
  Eigen::VectorXd q = m.initial_positions();
  q[0] = 0.25;
  const rewritten_model_file w =
      rewrite_initial_values(text, "inline.toml", m, q, m.initial_velocities());
  EXPECT_NE(w.text.find("position = [0.25, 0.0]"), std::string::npos) << w.text;
}

}  // namespace
}  // namespace kinevo::mechanics
