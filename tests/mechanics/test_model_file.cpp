// Every model-file error path gives a message naming the file, line and field.
#include <gtest/gtest.h>

#include <string>

#include "io/csv_table.hpp"
#include "mechanics/model.hpp"

namespace kinevo::mechanics {
namespace {

std::string error_of(const std::string& text, const model_options& o = {}) {
  try {
    (void)load_model_from_string(text, "bad.toml", o);
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "(no error)";
}

const char* pendulum = R"(
[parameters]
l = 1.0
[[coordinate]]
name = "x"
initial = 1.0
mass = 1.0
[[coordinate]]
name = "y"
initial = 0.0
mass = 1.0
gravity = "-9.81"
[[constraint]]
name = "rod"
holonomic = "x^2 + y^2 - l^2"
)";

TEST(ModelFile, ValidEquationsModelLoads) {
  const model m = load_model_from_string(pendulum, "ok.toml");
  EXPECT_EQ(m.coordinates(), 2);
  EXPECT_EQ(m.constraint_names(), std::vector<std::string>{"rod"});
  EXPECT_TRUE(m.mass_is_diagonal());
  EXPECT_TRUE(m.has_energy());
}

TEST(ModelFile, UnknownCoordinateInDriver) {
  const std::string e =
      error_of(std::string(pendulum) +
               "[[joint]]\ntype = \"driver\"\nname = \"d\"\ncoordinate = \"z\"\nvalue = \"t\"\n");
  EXPECT_NE(e.find("bad.toml:19"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown coordinate 'z'"), std::string::npos) << e;
}

TEST(ModelFile, UnknownNameInExpression) {
  std::string text = pendulum;
  text.replace(text.find("x^2 + y^2 - l^2"), 15, "x^2 + w^2 - l^2");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.toml:15"), std::string::npos) << e;
  EXPECT_NE(e.find("holonomic"), std::string::npos) << e;
  EXPECT_NE(e.find("known names"), std::string::npos) << e;
}

TEST(ModelFile, ExpressionParseError) {
  std::string text = pendulum;
  text.replace(text.find("x^2 + y^2 - l^2"), 15, "x^2 + (y^2 - l^2");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.toml:15"), std::string::npos) << e;
  EXPECT_NE(e.find("cannot parse"), std::string::npos) << e;
}

// About 8,000 nested brackets overflowed GiNaC's recursive parser (SIGSEGV): now a named error.
TEST(ModelFile, DeeplyNestedExpressionIsRefused) {
  std::string deep = "\"";
  for (int i = 0; i < 10'000; ++i) deep += "(";
  deep += "1";
  for (int i = 0; i < 10'000; ++i) deep += ")";
  deep += "\"";
  std::string text = pendulum;
  text.replace(text.find("initial = 1.0"), 13, "initial = " + deep);
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.toml:6"), std::string::npos) << e;
  EXPECT_NE(e.find("initial"), std::string::npos) << e;
  EXPECT_NE(e.find("more than 200 levels"), std::string::npos) << e;
}

TEST(ModelFile, MissingInitialValue) {
  std::string text = pendulum;
  text.replace(text.find("initial = 0.0\n"), 14, "");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.toml:8"), std::string::npos) << e;
  EXPECT_NE(e.find("missing initial value"), std::string::npos) << e;
  const std::string p = error_of("[[particle]]\nname = \"p\"\nmass = 1.0\n");
  EXPECT_NE(p.find("bad.toml:1"), std::string::npos) << p;
  EXPECT_NE(p.find("position"), std::string::npos) << p;
}

TEST(ModelFile, MassNotPositiveDefinite) {
  std::string text = pendulum;
  text.replace(text.find("mass = 1.0\n[[coordinate]]"), 10, "mass = -2.0");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("not positive definite"), std::string::npos) << e;
  EXPECT_NE(e.find("'x'"), std::string::npos) << e;
  const std::string full = error_of(R"(
[[coordinate]]
name = "a"
initial = 0.0
[[coordinate]]
name = "b"
initial = 0.0
[mass]
matrix = [[1.0, 2.0], [2.0, 1.0]]
)");
  EXPECT_NE(full.find("bad.toml:9"), std::string::npos) << full;
  EXPECT_NE(full.find("not positive definite"), std::string::npos) << full;
  const std::string asym = error_of(R"(
[[coordinate]]
name = "a"
initial = 0.0
[[coordinate]]
name = "b"
initial = 0.0
[mass]
matrix = [[1.0, 0.1], [0.2, 1.0]]
)");
  EXPECT_NE(asym.find("not symmetric"), std::string::npos) << asym;
}

TEST(ModelFile, InitialStateViolatesConstraint) {
  std::string text = pendulum;
  text.replace(text.find("initial = 1.0"), 13, "initial = 1.1");
  const std::string e = error_of(text);
  EXPECT_NE(e.find("bad.toml:15"), std::string::npos) << e;
  EXPECT_NE(e.find("violate constraint 'rod'"), std::string::npos) << e;
  std::string v = pendulum;
  v.replace(v.find("initial = 1.0"), 13, "initial = 1.0\nvelocity = 1.0");
  const std::string ev = error_of(v);
  EXPECT_NE(ev.find("velocities violate constraint 'rod'"), std::string::npos) << ev;
}

TEST(ModelFile, TomlSyntaxAndUnknownFields) {
  const std::string syntax = error_of("[parameters]\nl = = 1\n");
  EXPECT_NE(syntax.find("bad.toml:2"), std::string::npos) << syntax;
  std::string text = pendulum;
  text.replace(text.find("mass = 1.0"), 10, "mas = 1.0");
  const std::string typo = error_of(text);
  EXPECT_NE(typo.find("bad.toml:7"), std::string::npos) << typo;
  EXPECT_NE(typo.find("unknown field 'mas'"), std::string::npos) << typo;
  const std::string section = error_of(std::string(pendulum) + "[solver]\nx = 1\n");
  EXPECT_NE(section.find("unknown field 'solver'"), std::string::npos) << section;
}

TEST(ModelFile, ParameterOverrides) {
  model_options o;
  o.overrides.push_back(parse_parameter_override("l=1.0"));
  EXPECT_NO_THROW((void)load_model_from_string(pendulum, "ok.toml", o));
  o.overrides[0] = parse_parameter_override("l=2");  // the initial state no longer fits
  EXPECT_NE(error_of(pendulum, o).find("violate constraint 'rod'"), std::string::npos);
  o.overrides[0] = parse_parameter_override("length=2");
  const std::string e = error_of(pendulum, o);
  EXPECT_NE(e.find("no parameter 'length'"), std::string::npos) << e;
  EXPECT_NE(e.find("l"), std::string::npos) << e;
  EXPECT_THROW(parse_parameter_override("l"), io::input_error);
  EXPECT_THROW(parse_parameter_override("l=abc"), io::input_error);
}

TEST(ModelFile, ConstraintKindsAreChecked) {
  std::string text = pendulum;
  text.replace(text.find("x^2 + y^2 - l^2"), 15, "x_dot*y");
  EXPECT_NE(error_of(text).find("write it as nonholonomic"), std::string::npos);
  const std::string nl = error_of(std::string(pendulum) +
                                  "[[constraint]]\nname = \"n\"\nnonholonomic = \"x_dot^2\"\n");
  EXPECT_NE(nl.find("linear in the velocities"), std::string::npos) << nl;
  EXPECT_NE(nl.find("bad.toml:18"), std::string::npos) << nl;
  const std::string dup =
      error_of(std::string(pendulum) + "[[constraint]]\nname = \"rod\"\nholonomic = \"x - 1\"\n");
  EXPECT_NE(dup.find("already used"), std::string::npos) << dup;
}

TEST(ModelFile, UnknownBodyInJoint) {
  const std::string e = error_of(R"(
[[particle]]
name = "p"
mass = 1.0
position = [1.0, 0.0]
[[joint]]
type = "distance"
name = "rod"
body_i = "ground"
body_j = "q"
length = 1.0
)");
  EXPECT_NE(e.find("bad.toml:10"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown body or particle 'q'"), std::string::npos) << e;
}

}  // namespace
}  // namespace kinevo::mechanics
