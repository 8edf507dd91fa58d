// Every model-file error path gives a message naming the file, line and field.
#include <gtest/gtest.h>

#include <string>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::error_of;

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
  // Block diagonal M (blocks a, b and c-d): loading checks it block by block, never forming
  // the dense M, and names the indefinite block; positive definite blocks load.
  const std::string four = R"(
[[coordinate]]
name = "a"
initial = 0.0
[[coordinate]]
name = "b"
initial = 0.0
[[coordinate]]
name = "c"
initial = 0.0
[[coordinate]]
name = "d"
initial = 0.0
[mass]
)";
  const std::string blocks =
      error_of(four + "matrix = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 2], [0, 0, 2, 1]]\n");
  EXPECT_NE(blocks.find("(the block of 'c' to 'd')"), std::string::npos) << blocks;
  const model fine = load_model_from_string(
      four + "matrix = [[2, 1, 0, 0], [1, 2, 0, 0], [0, 0, 1, 0.5], [0, 0, 0.5, 1]]\n",
      "blocks.toml");
  EXPECT_EQ(fine.mass_blocks(), (std::vector<std::pair<int, int>>{{0, 2}, {2, 2}}));
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

// The pendulum with one line replaced: `from` -> `to` (the first occurrence).
std::string pendulum_with(const std::string& from, const std::string& to) {
  std::string text = pendulum;
  text.replace(text.find(from), from.size(), to);
  return text;
}

// Issue 16.7: NaN and infinity in a TOML number field were "floating point NaN occurred", exit 1,
// with no file or line; now the field is named.
TEST(ModelFile, NanOrInfinityNamesTheField) {
  for (const std::string bad : {"nan", "-nan", "inf", "-inf", "+inf"}) {
    const std::string e = error_of(pendulum_with("initial = 1.0", "initial = " + bad));
    EXPECT_NE(e.find("bad.toml:6"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("field 'initial'"), std::string::npos) << e;
    EXPECT_NE(e.find("must be a finite number"), std::string::npos) << e;
  }
  const std::string mass = error_of(pendulum_with("mass = 1.0", "mass = nan"));
  EXPECT_NE(mass.find("bad.toml:7"), std::string::npos) << mass;
  EXPECT_NE(mass.find("field 'mass'"), std::string::npos) << mass;
  const std::string param = error_of(pendulum_with("l = 1.0", "l = inf"));
  EXPECT_NE(param.find("bad.toml:3"), std::string::npos) << param;
  EXPECT_NE(param.find("'l'"), std::string::npos) << param;
  // Inside expressions: a number beyond the double range, or one that underflows to 0.
  const std::string big = error_of(pendulum_with("initial = 1.0", "initial = \"2*1e999\""));
  EXPECT_NE(big.find("field 'initial'"), std::string::npos) << big;
  EXPECT_NE(big.find("beyond the range of doubles"), std::string::npos) << big;
  const std::string tiny = error_of(pendulum_with("mass = 1.0", "mass = \"1e-400\""));
  EXPECT_NE(tiny.find("below the smallest double"), std::string::npos) << tiny;
}

// A subnormal mass is a valid (if odd) value: it loads, and the tape sees the exact value.
TEST(ModelFile, SubnormalValuesAreKept) {
  const char* text = R"(
[[coordinate]]
name = "x"
initial = 1e-310
velocity = "2e-310"
mass = 1e-310
force = "-x"
)";
  const model m = load_model_from_string(text, "tiny.toml");
  EXPECT_EQ(m.initial_positions()[0], 1e-310);
  EXPECT_DOUBLE_EQ(m.initial_velocities()[0], 2e-310);  // decimal text: within an ulp
  const auto s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_EQ(s.mass(0, 0), 1e-310);
  EXPECT_EQ(s.force[0], -1e-310);
  EXPECT_NO_THROW((void)parse_parameter_override("m=1e-310"));
  EXPECT_EQ(parse_parameter_override("m=1e-310").value, 1e-310);
  EXPECT_THROW((void)parse_parameter_override("m=1e-400"), io::input_error);
}

// Issue 16.8: library internals leaked into messages.
TEST(ModelFile, ParseErrorsArePlain) {
  // abs in a constraint: its derivative was written with conjugate(), which did not compile.
  // abs is real here, with derivative sign(x).
  const model m =
      load_model_from_string(pendulum_with("x^2 + y^2 - l^2", "abs(x)^2 + y^2 - l^2"), "abs.toml");
  const auto s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_DOUBLE_EQ(s.jacobian(0, 0), 2.0);  // d/dx abs(x)^2 = 2 abs(x) sign(x) at x = 1
  const std::string power = error_of(pendulum_with("x^2 + y^2 - l^2", "x^2 + y^2^2 - l^2"));
  EXPECT_NE(power.find("bad.toml:15"), std::string::npos) << power;
  EXPECT_NE(power.find("a^b^c is ambiguous: write (a^b)^c or a^(b^c)"), std::string::npos) << power;
  EXPECT_EQ(power.find("make_binop_expr"), std::string::npos) << power;
  for (const std::string bad : {"x^2 + y^2 - ", "sin(x + y^2", "x x", "zeta(x)", "{x}", "x == 1",
                                "1e", "foo(1)", "log(0) + x", "1/0 + x"}) {
    const std::string e = error_of(pendulum_with("x^2 + y^2 - l^2", bad));
    EXPECT_NE(e.find("bad.toml:15"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("field 'holonomic'"), std::string::npos) << e;
    EXPECT_EQ(e.find("line 0"), std::string::npos) << e;
    EXPECT_EQ(e.find("parser.cpp"), std::string::npos) << e;
    EXPECT_EQ(e.find("GiNaC"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  const std::string f = error_of(pendulum_with("x^2 + y^2 - l^2", "zeta(x)"));
  EXPECT_NE(f.find("functions: sin"), std::string::npos) << f;
  // A long expression is echoed to 80 characters, not whole.
  const std::string long_bad =
      error_of(pendulum_with("x^2 + y^2 - l^2", std::string(5000, 'x') + " +"));
  EXPECT_LT(long_bad.size(), 400u) << long_bad;
}

// Issue 16.9: a UTF-8 byte-order mark before a comment line.
TEST(ModelFile, ByteOrderMarkIsAccepted) {
  const std::string text = "\xEF\xBB\xBF# a comment\n" + std::string(pendulum);
  EXPECT_NO_THROW((void)load_model_from_string(text, "bom.toml"));
}

// Issue 16.11: a device or a directory as the model file ended in std::bad_alloc.
TEST(ModelFile, NonRegularFilesAreRefused) {
  for (const std::string path : {"/dev/zero", "/tmp", "/nonexistent/model.toml"}) {
    try {
      (void)load_model(path);
      ADD_FAILURE() << path << " loaded";
    } catch (const io::input_error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

// Issue 16.16: loading was cubic in the number of coordinates; derivatives are taken only with
// respect to the coordinates an expression contains. A long chain of springs and rotational
// springs of bodies (not only particles) keeps every row's pattern local.
TEST(ModelFile, LargeComponentModelKeepsLocalPattern) {
  std::string text = "[model]\ngravity = [0.0, -9.81]\n";
  const int bodies = 300;
  for (int k = 1; k <= bodies; ++k) {
    text += "[[body]]\nname = \"b" + std::to_string(k) + "\"\nmass = 1.0\ninertia = 0.1\n" +
            "position = [" + std::to_string(k) + ".0, 0.0]\nangle = 0.0\n";
  }
  for (int k = 1; k < bodies; ++k) {
    // Appended, not "b" + ...: GCC 12's -Wrestrict misfires on operator+(const char*, string&&)
    // as inlined in a unity batch.
    const std::string i = std::string("b").append(std::to_string(k)),
                      j = std::string("b").append(std::to_string(k + 1));
    text += "[[force]]\ntype = \"spring_damper\"\nbody_i = \"" + i + "\"\nbody_j = \"" + j +
            "\"\nstiffness = 10.0\nrest_length = 1.0\n";
    text += "[[force]]\ntype = \"rotational_spring_damper\"\nbody_i = \"" + i + "\"\nbody_j = \"" +
            j + "\"\nstiffness = 2.0\n";
    text += "[[joint]]\ntype = \"distance\"\nname = \"d" + std::to_string(k) + "\"\nbody_i = \"" +
            i + "\"\nbody_j = \"" + j + "\"\nlength = 1.0\n";
  }
  const model m = load_model_from_string(text, "bodies.toml");
  EXPECT_EQ(m.coordinates(), 3 * bodies);
  EXPECT_EQ(m.constraints(), bodies - 1);
  EXPECT_EQ(m.jacobian_pattern().size(), 4u * (bodies - 1));  // x, y of two bodies per rod
  EXPECT_TRUE(m.has_energy());
  const auto s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  EXPECT_DOUBLE_EQ(s.force[1], -9.81);  // gravity on b1_y; the springs are at rest
  EXPECT_DOUBLE_EQ(*m.energy(m.initial_positions(), m.initial_velocities(), 0.0), 0.0);
}

// Issue 16.1: about 3,500 nested exp(-exp(-...)) overflowed GiNaC's parser (SIGSEGV).
TEST(ModelFile, NestedExponentialsAreRefused) {
  std::string deep;
  for (int i = 0; i < 3'500; ++i) deep += "exp(-";
  deep += "x";
  for (int i = 0; i < 3'500; ++i) deep += ")";
  const std::string e = error_of(pendulum_with("x^2 + y^2 - l^2", deep));
  EXPECT_NE(e.find("bad.toml:15"), std::string::npos) << e;
  EXPECT_NE(e.find("more than 200 levels"), std::string::npos) << e;
}

}  // namespace
}  // namespace kinevo::mechanics
