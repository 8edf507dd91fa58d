// The expression reader refuses calls with the wrong number of arguments and characters outside
// the language before GiNaC reads the text: a call without arguments crashed (GiNaC's reader
// table takes arity 0 for a wildcard) and '#' silently dropped the rest of the expression.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"
#include "kinevo/symbolic/expression_grammar.hpp"
#include "problem_test_support.hpp"

namespace kinevo::symbolic {
namespace {

// The message of parsing `text` in a context with the symbol x ("(no error)" when it parses).
std::string parse_error_of(const std::string& text) {
  expression_context ctx;
  (void)ctx.add_symbol("x", "test");
  try {
    (void)ctx.parse(text, "f.toml:3: field 'e'");
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A call of `name` with `count` arguments, each a small expression in x with a value inside
// every function's domain near x = 0.3.
std::string call_of(std::string_view name, std::size_t count) {
  std::string s = std::string(name) + "(";
  for (std::size_t k = 0; k < count; ++k)
    s += (k == 0 ? "" : ", ") + std::string("x/") + std::to_string(k + 2);
  return s + ")";
}

TEST(ExpressionGrammar, EveryFunctionWithZeroToThreeArguments) {
  ASSERT_EQ(expression_functions().size(), 17u);
  for (const auto& f : expression_functions()) {
    for (std::size_t count = 0; count <= 3; ++count) {
      for (const std::string& text :
           {call_of(f.name, count), call_of(f.name, count) + call_of(f.name, count) + "/2",
            "1 + " + call_of(f.name, count) + "*x"}) {
        const std::string e = parse_error_of(text);
        if (count == f.arity) {
          // A juxtaposed second call is no operator: a parse error, never a crash.
          if (text.find(")" + std::string(f.name)) == std::string::npos) {
            EXPECT_EQ(e, "(no error)") << text;
          } else {
            EXPECT_TRUE(contains(e, "cannot parse")) << text << ": " << e;
          }
          continue;
        }
        EXPECT_TRUE(contains(e, "f.toml:3: field 'e': cannot parse '")) << text << ": " << e;
        EXPECT_TRUE(contains(e, "function '" + std::string(f.name) + "' takes " +
                                    std::to_string(f.arity) + " argument"))
            << text << ": " << e;
        EXPECT_TRUE(contains(e, "as in " + std::string(f.usage))) << e;
        EXPECT_TRUE(contains(e, count == 0 ? "has none" : "has " + std::to_string(count))) << e;
      }
    }
  }
}

// The right arity gives the function's value (a closed form per function), so the check
// does not stand in the way of what it guards.
TEST(ExpressionGrammar, RightArityGivesTheFunctionsValue) {
  expression_context ctx;
  EXPECT_NEAR(ctx.evaluate_constant("atan2(1, 1)", "t"), std::atan(1.0), 1e-15);
  EXPECT_NEAR(ctx.evaluate_constant("pow(2, 0.5)", "t"), std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(ctx.evaluate_constant("sqrt(3)/2", "t"), std::sin(M_PI / 3), 1e-15);
  EXPECT_NEAR(ctx.evaluate_constant("abs(-2) + sign(-3) + step(1)", "t"), 2.0, 1e-15);
  EXPECT_NEAR(ctx.evaluate_constant("sin ( 0.5 )", "t"), std::sin(0.5), 1e-15);
}

TEST(ExpressionGrammar, ReportedReproducersAreRefused) {
  for (const std::string text : {"sin()", "sqrt()sqrt(3)/2", "sin()(1 + x)/2", "atan2(1)",
                                 "atan2()", "pow(x)", "exp(x, x)", "sin( )", "cos(\t)"}) {
    const std::string e = parse_error_of(text);
    EXPECT_TRUE(contains(e, "f.toml:3: field 'e'")) << text << ": " << e;
    EXPECT_TRUE(contains(e, "takes")) << text << ": " << e;
  }
  // Nested calls count their own arguments: atan2(sin(x), 1) has 2, sin(atan2(x, 1)) has 1.
  EXPECT_EQ(parse_error_of("atan2(sin(x), (1 + x))"), "(no error)");
  EXPECT_EQ(parse_error_of("sin(atan2(x, 1))"), "(no error)");
  EXPECT_TRUE(contains(parse_error_of("sin(atan2(x))"), "function 'atan2' takes 2"));
  EXPECT_TRUE(contains(parse_error_of("sin(x, atan2(x, 1))"), "function 'sin' takes 1"));
}

TEST(ExpressionGrammar, UnknownFunctionsAreNamedWithTheKnownOnes) {
  for (const std::string text : {"zeta(x)", "foo()", "x(1)", "pi(2)", "Sin(x)"}) {
    const std::string e = parse_error_of(text);
    EXPECT_TRUE(contains(e, "unknown function '" + text.substr(0, text.find('(')) + "'"))
        << text << ": " << e;
    EXPECT_TRUE(contains(e, "functions: sin, cos")) << e;
    EXPECT_TRUE(contains(e, "atan2(y, x)")) << e;
  }
}

TEST(ExpressionGrammar, CharactersOutsideTheLanguageAreRefused) {
  // '#' was GiNaC's comment: "1 # + 100" read as 1.
  const std::string hash = parse_error_of("1 # + 100");
  EXPECT_TRUE(contains(hash, "f.toml:3: field 'e': cannot parse '1 # + 100': '#' at column 3"))
      << hash;
  EXPECT_TRUE(contains(hash, "TOML comment")) << hash;
  for (const std::string text :
       {"x $ 2", "x; 2", "x == 1", "x < 1", "{x}", "[x]", "x!", "x % 2", "x & 1", "'x'", "\"x\"",
        "x @ 2", "x ~ 2", "x \\ 2", "x|1", "x?", "x:1", "`x`"}) {
    const std::string e = parse_error_of(text);
    EXPECT_TRUE(contains(e, "is not part of the expression language")) << text << ": " << e;
    EXPECT_TRUE(contains(e, "f.toml:3: field 'e'")) << e;
  }
  // Bytes that are not printable ASCII are shown by value, so the message stays one line without
  // control bytes (the echoed text keeps its UTF-8).
  for (const std::string& text : {std::string("x \xC3\xA9"), std::string("x\x01"),
                                  std::string("x") + '\0' + "+ 1", std::string("x\x7f")}) {
    const std::string e = parse_error_of(text);
    EXPECT_TRUE(contains(e, "the byte 0x")) << e;
    EXPECT_TRUE(std::all_of(e.begin(), e.end(), [](char c) {
      return c < 0 || (c >= ' ' && c != 0x7f);
    })) << e;
  }
  // White space of every kind, names with '_' and digits, exponents, are all in the language.
  EXPECT_EQ(parse_error_of("x\t+\r\n1.5e-3 * x"), "(no error)");
  EXPECT_EQ(parse_error_of(".5E+2*x + 2.^x"), "(no error)");
}

// Through a problem file: the file, line and field are named, the objective is not loaded.
TEST(ExpressionGrammar, ProblemFileNamesLineFieldAndFunction) {
  const std::string tail = "\n[[variable]]\nname = \"x\"\nlower = -1\nupper = 1\n";
  std::string e = test_support::error_of("[problem]\nobjective = \"sin()\"" + tail);
  EXPECT_TRUE(contains(e, "p.toml:2")) << e;
  EXPECT_TRUE(contains(e, "objective")) << e;
  EXPECT_TRUE(contains(e, "function 'sin' takes 1 argument")) << e;
  e = test_support::error_of(
      "[problem]\nobjective = \"x^2\"\n[[variable]]\nname = \"x\"\nlower = "
      "\"sin()\"\nupper = 1\n");
  EXPECT_TRUE(contains(e, "p.toml:5")) << e;
  EXPECT_TRUE(contains(e, "function 'sin' takes 1 argument")) << e;
  e = test_support::error_of("[problem]\nobjective = \"x^2 # + 100\"" + tail);
  EXPECT_TRUE(contains(e, "p.toml:2")) << e;
  EXPECT_TRUE(contains(e, "'#' at column 5")) << e;
}

}  // namespace
}  // namespace kinevo::symbolic
