// Model-file conveniences (issue 10, item 4): [definitions] (named intermediate expressions) in
// both model forms, the lower triangle of M, and unknown-name messages without GiNaC internals.
// A model written with them must evaluate to the same (M, f, A, b) as the expanded one.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::error_of;

// `text` with its first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// (M, f, A, b), the constraint violations and the energy of two models agree at the initial
// state and at `states` random states around it (fixed seed).
void expect_same_numbers(const model& a, const model& b, int states = 5) {
  ASSERT_EQ(a.coordinates(), b.coordinates());
  ASSERT_EQ(a.constraints(), b.constraints());
  EXPECT_EQ(a.constraint_names(), b.constraint_names());
  EXPECT_EQ(a.mass_is_diagonal(), b.mass_is_diagonal());
  EXPECT_EQ(a.has_energy(), b.has_energy());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k <= states; ++k) {
    Eigen::VectorXd q = a.initial_positions(), qd = a.initial_velocities();
    double t = 0.0;
    if (k > 0) {
      for (Eigen::Index i = 0; i < q.size(); ++i) {
        q[i] += 0.3 * u(rng);
        qd[i] += 2.0 * u(rng);
      }
      t = 1.5 * (u(rng) + 1.0);
    }
    const auto sa = a.evaluate(q, qd, t), sb = b.evaluate(q, qd, t);
    const auto near = [](const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
      return (x - y).cwiseAbs().maxCoeff() <= 1e-12 * (1.0 + y.cwiseAbs().maxCoeff());
    };
    EXPECT_TRUE(near(sa.mass, sb.mass)) << "state " << k << "\n" << sa.mass << "\n" << sb.mass;
    EXPECT_TRUE(near(sa.force, sb.force)) << "state " << k << "\n" << sa.force << "\n" << sb.force;
    if (a.constraints() > 0) {
      EXPECT_TRUE(near(sa.jacobian, sb.jacobian)) << "state " << k;
      EXPECT_TRUE(near(sa.rhs, sb.rhs)) << "state " << k << "\n" << sa.rhs << "\n" << sb.rhs;
      EXPECT_TRUE(near(a.velocity_violation(q, qd, t), b.velocity_violation(q, qd, t)));
    }
    if (a.holonomic_constraints() > 0) {
      EXPECT_TRUE(near(a.position_violation(q, t), b.position_violation(q, t)));
    }
    const auto ea = a.energy(q, qd, t), eb = b.energy(q, qd, t);
    ASSERT_EQ(ea.has_value(), eb.has_value());
    if (ea) {
      EXPECT_NEAR(*ea, *eb, 1e-12 * (1.0 + std::abs(*eb)));
    }
  }
}

// Equations form: a disc of radius R on a circle of radius L, rolling without slip (a
// nonholonomic row through a definition of velocities), with drag through a definition of
// velocities, a time-dependent torque, and a definition used in M and in the potential.
const char* disc_expanded = R"toml(
[parameters]
m = 2.0
R = 0.25
L = 1.5
c = 0.3
g = 9.81
F0 = 0.7
w = 3.0
[[coordinate]]
name = "x"
initial = "L"
force = "-c*(x_dot*cos(th) + y_dot*sin(th))*cos(th)"
[[coordinate]]
name = "y"
initial = 0.0
force = "-c*(x_dot*cos(th) + y_dot*sin(th))*sin(th) - m*g"
[[coordinate]]
name = "th"
initial = 0.0
force = "F0*sin(w*t)*sqrt(x^2 + y^2)"
[mass]
matrix = [["m + m*R^2/2*sin(th)^2/10", 0, "m*R*cos(th)/10"],
          [0, "m", 0],
          ["m*R*cos(th)/10", 0, "m*R^2/2"]]
[energy]
potential = "m*g*y + (sqrt(x^2 + y^2) - L)^2"
[[constraint]]
name = "circle"
holonomic = "sqrt(x^2 + y^2) - L"
[[constraint]]
name = "rolling"
nonholonomic = "R*th_dot - (x_dot*cos(th) + y_dot*sin(th))"
)toml";

// The same with [definitions] (written in an order that uses names defined further down) and
// the lower triangle of M.
const char* disc_defined = R"toml(
[parameters]
m = 2.0
R = 0.25
L = 1.5
c = 0.3
g = 9.81
F0 = 0.7
w = 3.0
[definitions]
drag = "-c*speed"
slip = "R*th_dot - speed"
speed = "x_dot*cos(th) + y_dot*sin(th)"
r = "sqrt(x^2 + y^2)"
J = "m*R^2/2"
push = "F0*sin(w*t)"
[[coordinate]]
name = "x"
initial = "L"
force = "drag*cos(th)"
[[coordinate]]
name = "y"
initial = 0.0
force = "drag*sin(th) - m*g"
[[coordinate]]
name = "th"
initial = 0.0
force = "push*r"
[mass]
lower = [["m + J*sin(th)^2/10"],
         [0, "m"],
         ["m*R*cos(th)/10", 0, "J"]]
[energy]
potential = "m*g*y + (r - L)^2"
[[constraint]]
name = "circle"
holonomic = "r - L"
[[constraint]]
name = "rolling"
nonholonomic = "slip"
)toml";

TEST(ModelDefinitions, EquationsFormEqualsTheExpandedModel) {
  const model expanded = load_model_from_string(disc_expanded, "expanded.toml");
  const model defined = load_model_from_string(disc_defined, "defined.toml");
  EXPECT_EQ(defined.holonomic_constraints(), 1);
  expect_same_numbers(defined, expanded);
  // Kinematic mode too (M = I, f = 0).
  model_options kinematic;
  kinematic.kinematic = true;
  expect_same_numbers(load_model_from_string(disc_defined, "defined.toml", kinematic),
                      load_model_from_string(disc_expanded, "expanded.toml", kinematic));
}

// Components form: a bar pinned to the ground, its mass, pin point, spring stiffness and an
// applied velocity-dependent force given through definitions.
const char* bar_expanded = R"toml(
[model]
gravity = [0.0, "-g"]
[parameters]
g = 9.81
rho = 3.0
len = 0.8
c = 0.4
k = 25.0
[[body]]
name = "bar"
mass = "rho*len"
inertia = "rho*len*len^2/12"
position = ["len/2", 0.0]
angle = 0.0
[[joint]]
type = "revolute"
name = "pin"
body_i = "ground"
point_i = [0.0, 0.0]
body_j = "bar"
point_j = ["-len/2", 0.0]
[[force]]
type = "spring_damper"
body_i = "ground"
point_i = [1.0, 1.0]
body_j = "bar"
point_j = ["len/2", 0.0]
stiffness = "k*(1 + bar_phi^2)"
rest_length = 0.5
[[force]]
type = "applied"
body = "bar"
point = ["len/2", 0.0]
force = ["-c*bar_x_dot*sqrt(bar_x^2 + bar_y^2)", "-c*bar_y_dot"]
torque = "-c*bar_phi_dot*sin(t)"
)toml";

const char* bar_defined = R"toml(
[model]
gravity = [0.0, "-g"]
[parameters]
g = 9.81
rho = 3.0
len = 0.8
c = 0.4
k = 25.0
[definitions]
half = "len/2"
mass_of_bar = "rho*len"
stiff = "k*(1 + bar_phi^2)"
drag_x = "-c*bar_x_dot*dist"
dist = "sqrt(bar_x^2 + bar_y^2)"
[[body]]
name = "bar"
mass = "mass_of_bar"
inertia = "mass_of_bar*len^2/12"
position = ["len/2", 0.0]
angle = 0.0
[[joint]]
type = "revolute"
name = "pin"
body_i = "ground"
point_i = [0.0, 0.0]
body_j = "bar"
point_j = ["-half", 0.0]
[[force]]
type = "spring_damper"
body_i = "ground"
point_i = [1.0, 1.0]
body_j = "bar"
point_j = ["half", 0.0]
stiffness = "stiff"
rest_length = 0.5
[[force]]
type = "applied"
body = "bar"
point = ["half", 0.0]
force = ["drag_x", "-c*bar_y_dot"]
torque = "-c*bar_phi_dot*sin(t)"
)toml";

TEST(ModelDefinitions, ComponentsFormEqualsTheExpandedModel) {
  expect_same_numbers(load_model_from_string(bar_defined, "defined.toml"),
                      load_model_from_string(bar_expanded, "expanded.toml"));
}

// examples/seven_link_loop_definitions.toml is examples/seven_link_loop.toml written with
// [definitions] and [mass] lower; slider_crank_definitions.toml is slider_crank.toml with them.
TEST(ModelDefinitions, ExamplesLoadToTheSameNumbers) {
  const model expanded = load_model(std::string(KINEVO_EXAMPLES) + "/seven_link_loop.toml");
  const model defined =
      load_model(std::string(KINEVO_EXAMPLES) + "/seven_link_loop_definitions.toml");
  expect_same_numbers(defined, expanded, 10);
  // The components form: examples/slider_crank_definitions.toml.
  expect_same_numbers(load_model(std::string(KINEVO_EXAMPLES) + "/slider_crank_definitions.toml"),
                      load_model(std::string(KINEVO_EXAMPLES) + "/slider_crank.toml"), 10);
}

// A definition of t in a driver (Haug's four-bar, examples/haug_fourbar.toml): the same
// (M, f, A, b), gamma included, and in kinematic mode.
TEST(ModelDefinitions, DefinitionOfTimeInADriver) {
  const std::string path = std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string defined = replaced(text.str(), "value = \"pi/2 + omega*t\"", "value = \"crank\"");
  defined = replaced(defined, "[[body]]",
                     "[definitions]\ncrank = \"pi/2 + turned\"\nturned = \"omega*t\"\n\n[[body]]");
  expect_same_numbers(load_model_from_string(defined, "defined.toml"), load_model(path));
  model_options kinematic;
  kinematic.kinematic = true;
  expect_same_numbers(load_model_from_string(defined, "defined.toml", kinematic),
                      load_model(path, kinematic));
}

// A definition of velocities used in a holonomic constraint is a velocity in it: refused as
// for a constraint that names the velocity itself.
TEST(ModelDefinitions, VelocityDefinitionInAHolonomicRowIsRefused) {
  std::string text = disc_defined;
  text = replaced(text, "holonomic = \"r - L\"", "holonomic = \"r - L + 0*slip\"");
  EXPECT_NO_THROW((void)load_model_from_string(text, "zero.toml"));  // 0*slip vanishes
  text = replaced(text, "0*slip", "slip");
  const std::string e = error_of(text);
  EXPECT_TRUE(contains(e, "field 'holonomic'")) << e;
}

TEST(ModelDefinitions, CyclesAreRefusedNamingThem) {
  std::string text = disc_defined;
  text = replaced(text, "speed = \"x_dot*cos(th) + y_dot*sin(th)\"",
                  "speed = \"x_dot*cos(th) + y_dot*sin(th) + drag/1000\"");
  const std::string e = error_of(text);
  EXPECT_TRUE(contains(e, "bad.toml:11: [definitions] 'drag'")) << e;
  EXPECT_TRUE(contains(e, "the definitions form a cycle: drag -> speed -> drag")) << e;
  // A definition naming itself.
  std::string self = disc_defined;
  self = replaced(self, "r = \"sqrt(x^2 + y^2)\"", "r = \"sqrt(x^2 + y^2) + r\"");
  const std::string s = error_of(self);
  EXPECT_TRUE(contains(s, "bad.toml:14: [definitions] 'r'")) << s;
  EXPECT_TRUE(contains(s, "cycle: r -> r")) << s;
}

TEST(ModelDefinitions, UnknownNamesAndClashesAreRefused) {
  std::string text = disc_defined;
  text = replaced(text, "r = \"sqrt(x^2 + y^2)\"", "r = \"sqrt(x^2 + y3^2)\"");
  const std::string e = error_of(text);
  EXPECT_TRUE(contains(e, "bad.toml:14: [definitions] 'r': unknown name 'y3'")) << e;
  EXPECT_TRUE(contains(e, "not a coordinate, velocity, parameter or definition")) << e;
  // A definition named like a parameter or a coordinate.
  std::string param = disc_defined;
  param = replaced(param, "J = \"m*R^2/2\"", "g = \"m*R^2/2\"");
  const std::string p = error_of(param);
  EXPECT_TRUE(contains(p, "[definitions] 'g'")) << p;
  EXPECT_TRUE(contains(p, "already defined")) << p;
  std::string coordinate = disc_defined;
  coordinate = replaced(coordinate, "J = \"m*R^2/2\"", "x = \"m*R^2/2\"");
  EXPECT_TRUE(contains(error_of(coordinate), "'x' is already defined")) << error_of(coordinate);
  // [definitions] must be a table of expressions.
  std::string array = disc_defined;
  array = replaced(array, "J = \"m*R^2/2\"", "J = [1, 2]");
  EXPECT_TRUE(contains(error_of(array), "must be a number or an expression string"))
      << error_of(array);
}

// Issue 10.4: "find_or_insert_symbol: symbol "l3" not found" for a force or constraint that
// names an undefined parameter.
TEST(ModelDefinitions, UnknownSymbolMessageNamesItWithoutInternals) {
  for (const std::string field : {"force = \"drag*cos(th)\"", "holonomic = \"r - L\""}) {
    std::string text = disc_defined;
    text = replaced(text, field, field.substr(0, field.find('"') + 1) + "l3*x\"");
    const std::string e = error_of(text);
    EXPECT_TRUE(contains(e, "bad.toml:")) << e;
    EXPECT_TRUE(contains(e, "field '" + field.substr(0, field.find(' ')) + "'")) << e;
    EXPECT_TRUE(contains(e,
                         "unknown name 'l3' in 'l3*x' (not a coordinate, velocity, parameter "
                         "or definition; known names:"))
        << e;
    EXPECT_FALSE(contains(e, "find_or_insert_symbol")) << e;
    EXPECT_FALSE(contains(e, "not found")) << e;
  }
  // GiNaC's literals (Pi, I, Euler, Catalan) next to a name or number: its internal function
  // name and an unprintable byte leaked (found by the fuzz harness's check for internals).
  for (const std::string bad : {"Pi x", "x +I x", "x Pi", "2 Euler"}) {
    const std::string e = error_of(replaced(disc_defined, "\"push*r\"", "\"" + bad + "\""));
    EXPECT_TRUE(contains(e, "field 'force': cannot parse '" + bad + "': ")) << e;
    EXPECT_TRUE(contains(e, "Pi, I, Euler or Catalan")) << e;
    EXPECT_FALSE(contains(e, "GiNaC")) << e;
    EXPECT_FALSE(contains(e, ".cpp")) << e;
    EXPECT_TRUE(std::all_of(e.begin(), e.end(), [](char c) { return c >= ' ' && c <= '~'; })) << e;
  }
  // In a component field.
  std::string bar = bar_defined;
  bar = replaced(bar, "stiffness = \"stiff\"", "stiffness = \"l3\"");
  const std::string b = error_of(bar);
  EXPECT_TRUE(contains(b, "[[force]] field 'stiffness': unknown name 'l3'")) << b;
  // The problem loader says what its names are.
  try {
    (void)symbolic::load_optimization_problem_from_string(
        "[problem]\nobjective = \"x1^2 + l3\"\n[[variable]]\nname = \"x1\"\nlower = -1\n"
        "upper = 1\n",
        "p.toml");
    FAIL() << "an unknown name was accepted";
  } catch (const io::input_error& err) {
    const std::string m = err.what();
    EXPECT_TRUE(contains(m, "p.toml:2: [problem] field 'objective': unknown name 'l3'")) << m;
    EXPECT_TRUE(contains(m, "not a variable or parameter")) << m;
  }
}

// Definitions nested in each other can make trees far larger or deeper than any text; GiNaC's
// recursive tree walks would not finish or would overflow the stack. Refused, naming the
// definition (in any order of the lines).
TEST(ModelDefinitions, ExponentialOrDeepExpansionsAreRefused) {
  const std::string head =
      "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nmass = 1.0\nforce = \"-a1\"\n"
      "[definitions]\n";
  std::string doubling = head + "a0 = \"sin(x)\"\n";
  for (int k = 1; k <= 40; ++k) {
    doubling += fmt::format("a{} = \"sin(a{}) + cos(a{})\"\n", k, k - 1, k - 1);
  }
  const std::string d = error_of(doubling);
  EXPECT_TRUE(contains(d, "[definitions] 'a")) << d;
  EXPECT_TRUE(contains(d, "more than 100000 terms")) << d;
  std::string deep = head;
  for (int k = 2000; k >= 1; --k) deep += fmt::format("a{} = \"sin(a{})\"\n", k, k + 1);
  deep += "a2001 = \"x\"\n";
  const std::string e = error_of(deep);
  EXPECT_TRUE(contains(e, "[definitions] 'a")) << e;
  EXPECT_TRUE(contains(e, "nests more than 800 levels deep")) << e;
  // Within the limits: 100 levels, each definition used once.
  std::string fine = head;
  for (int k = 1; k <= 100; ++k) fine += fmt::format("a{} = \"sin(a{})\"\n", k, k + 1);
  fine += "a101 = \"x\"\n";
  EXPECT_NO_THROW((void)load_model_from_string(fine, "fine.toml"));
}

// GiNaC evaluates while it substitutes: a definition that is 0 under a division is undefined,
// refused naming the definition or field (it threw GiNaC's "power::eval(): division by zero").
TEST(ModelDefinitions, UndefinedAfterSubstitutionIsRefused) {
  std::string in_definition = replaced(disc_defined, "J = \"m*R^2/2\"", "J = \"m/(r - r)\"");
  EXPECT_TRUE(contains(error_of(in_definition), "it is undefined")) << error_of(in_definition);
  std::string zero = replaced(disc_defined, "J = \"m*R^2/2\"", "J = \"r - sqrt(x^2 + y^2)\"");
  zero = replaced(zero, "force = \"push*r\"", "force = \"push/J\"");
  const std::string e = error_of(zero);
  EXPECT_TRUE(contains(e,
                       "[[coordinate]] 'th' field 'force': with its definitions written out, "
                       "it is undefined (division by zero)"))
      << e;
  EXPECT_FALSE(contains(e, "eval")) << e;
  // ... and a square root of a negative constant is imaginary.
  std::string imaginary = replaced(disc_defined, "J = \"m*R^2/2\"", "J = \"-m\"");
  imaginary = replaced(imaginary, "force = \"push*r\"", "force = \"push*sqrt(J)\"");
  const std::string i = error_of(imaginary);
  EXPECT_TRUE(contains(i, "field 'force': with its definitions written out, it is not real")) << i;
}

// A definition in a constant field (an initial value) is refused naming the field.
TEST(ModelDefinitions, InitialValuesTakeConstantsOnly) {
  std::string text = disc_defined;
  text = replaced(text, "initial = \"L\"", "initial = \"J\"");
  const std::string e = error_of(text);
  EXPECT_TRUE(contains(e, "[[coordinate]] 'x' field 'initial'")) << e;
  EXPECT_TRUE(contains(e, "definition")) << e;
}

const char* three_masses = R"toml(
[parameters]
a = 2.0
b = 0.5
[[coordinate]]
name = "p"
initial = 0.1
force = "-p"
[[coordinate]]
name = "q"
initial = 0.2
[[coordinate]]
name = "s"
initial = 0.3
[mass]
)toml";

TEST(ModelMassLower, LowerTriangleEqualsTheFullMatrix) {
  const std::string full = std::string(three_masses) +
                           "matrix = [[\"a + b*cos(q)\", \"b*sin(p)\", 0.1],\n"
                           "          [\"b*sin(p)\", \"a\", \"b*q\"],\n"
                           "          [0.1, \"b*q\", 3]]\n";
  const std::string lower = std::string(three_masses) +
                            "lower = [[\"a + b*cos(q)\"],\n"
                            "         [\"b*sin(p)\", \"a\"],\n"
                            "         [0.1, \"b*q\", 3]]\n";
  const model mf = load_model_from_string(full, "full.toml");
  const model ml = load_model_from_string(lower, "lower.toml");
  EXPECT_FALSE(ml.mass_is_diagonal());
  expect_same_numbers(ml, mf);
  const auto s = ml.evaluate(ml.initial_positions(), ml.initial_velocities(), 0.0);
  EXPECT_DOUBLE_EQ(s.mass(0, 1), 0.5 * std::sin(0.1));
  EXPECT_DOUBLE_EQ(s.mass(1, 0), 0.5 * std::sin(0.1));
  EXPECT_DOUBLE_EQ(s.mass(2, 1), 0.1);
}

TEST(ModelMassLower, IllShapedLowerTriangleNamesTheRow) {
  // Row 2 given in full.
  const std::string wide = std::string(three_masses) +
                           "lower = [[\"a\"],\n"
                           "         [0.1, \"a\", 0.2],\n"
                           "         [0.1, 0.2, 3]]\n";
  const std::string e = error_of(wide);
  EXPECT_TRUE(contains(e, "bad.toml:17: [mass] field 'lower'")) << e;
  EXPECT_TRUE(contains(e, "row 2 must have 2 entries")) << e;
  // Too few rows, a row that is not an array.
  EXPECT_TRUE(
      contains(error_of(std::string(three_masses) + "lower = [[1], [0, 1]]\n"), "array of 3 rows"));
  EXPECT_TRUE(contains(error_of(std::string(three_masses) + "lower = [[1], 2, [0, 0, 1]]\n"),
                       "row 2 must have 2 entries"));
  // Both forms at once.
  const std::string both = std::string(three_masses) +
                           "lower = [[1], [0, 1], [0, 0, 1]]\n"
                           "matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]\n";
  EXPECT_TRUE(contains(error_of(both), "give exactly one of matrix")) << error_of(both);
  // A full matrix that is not symmetric still names the entries.
  const std::string skew =
      std::string(three_masses) + "matrix = [[1, 0.1, 0], [0.2, 1, 0], [0, 0, 1]]\n";
  EXPECT_TRUE(contains(error_of(skew), "is not symmetric: entry (2,1) differs from (1,2)"))
      << error_of(skew);
  // A lower triangle that makes M indefinite is refused as a full one is.
  const std::string indefinite = std::string(three_masses) + "lower = [[1], [2, 1], [0, 0, 1]]\n";
  EXPECT_TRUE(contains(error_of(indefinite), "positive definite")) << error_of(indefinite);
}

}  // namespace
}  // namespace kinevo::mechanics
