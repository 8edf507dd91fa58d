// The compiled tape must give what GiNaC's own numeric evaluation gives, share common
// subexpressions, and reject what it cannot compile.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/symbolic/detail/decimal_literals.hpp"
#include "kinevo/symbolic/detail/evaluation_tape.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::symbolic {
namespace {

double ginac_value(const GiNaC::ex& e, const std::vector<GiNaC::symbol>& s,
                   const std::vector<double>& v) {
  GiNaC::exmap m;
  for (std::size_t i = 0; i < s.size(); ++i) m[s[i]] = v[i];
  return GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(e.subs(m))).to_double();
}

TEST(EvaluationTape, MatchesGinacOnAssortedExpressions) {
  expression_context ctx;
  const auto x = ctx.add_symbol("x", "test"), y = ctx.add_symbol("y", "test"),
             z = ctx.add_symbol("z", "test");
  ctx.add_constant("k", 2.5, "test");
  const std::vector<std::string> texts = {"x + y - z",
                                          "x*y/z",
                                          "x^2 - 3*y^3 + z^-2",
                                          "sqrt(x^2 + y^2)",
                                          "1/sqrt(x + 4)",
                                          "sin(x)*cos(y) - tan(z/3)",
                                          "exp(-x)*log(y + 3)",
                                          "atan2(y, x) + abs(z - 5)",
                                          "k*x^7 - (x - y)^5",
                                          "x^1.5 + pi",
                                          "-x",
                                          "2*sin(x)^2 + 2*cos(x)^2",
                                          "sinh(x) - tanh(y)"};
  const std::vector<double> values = {0.7, 1.3, 2.1};
  for (const auto& text : texts) {
    const GiNaC::ex e = ctx.parse(text, "test");
    tape_builder b({x, y, z});
    b.set_output(0, e);
    const evaluation_tape t = b.build();
    std::vector<double> scratch(static_cast<std::size_t>(t.registers()));
    double out = 0.0;
    t.evaluate(values.data(), &out, scratch.data());
    EXPECT_NEAR(out, ginac_value(e, {x, y, z}, values), 1e-12 * (1.0 + std::abs(out))) << text;
  }
}

TEST(EvaluationTape, SharesCommonSubexpressions) {
  expression_context ctx;
  const auto x = ctx.add_symbol("x", "test"), y = ctx.add_symbol("y", "test");
  const GiNaC::ex s = GiNaC::sin(x * y);
  tape_builder shared({x, y});
  shared.set_output(0, s + 1);
  shared.set_output(1, s * 2);
  shared.set_output(2, s);
  tape_builder single({x, y});
  single.set_output(0, s);
  // Two extra outputs cost one operation each: sin(x y) is computed once.
  EXPECT_EQ(shared.build().instructions(), single.build().instructions() + 2);
}

// Values of `outputs` compiled in one builder in the order given, at `points` (rows of inputs).
std::vector<std::vector<double>> tape_values(const std::vector<GiNaC::symbol>& inputs,
                                             const std::vector<GiNaC::ex>& outputs,
                                             const std::vector<std::vector<double>>& points) {
  tape_builder b(inputs);
  for (std::size_t k = 0; k < outputs.size(); ++k) b.set_output(static_cast<int>(k), outputs[k]);
  const evaluation_tape t = b.build();
  std::vector<double> scratch(static_cast<std::size_t>(t.registers()));
  std::vector<std::vector<double>> values;
  for (const auto& p : points) {
    std::vector<double> out(outputs.size());
    t.evaluate(p.data(), out.data(), scratch.data());
    values.push_back(out);
  }
  return values;
}

// Inputs spread over many magnitudes and both signs, so that a different summation order or a
// different formula (pow against repeated multiplication) shows in the last bits.
std::vector<std::vector<double>> spread_points(std::size_t inputs, int count) {
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0), exponent(-8.0, 8.0);
  std::bernoulli_distribution negative(0.5);
  std::vector<std::vector<double>> points(static_cast<std::size_t>(count));
  for (auto& p : points) {
    for (std::size_t i = 0; i < inputs; ++i) {
      const double v = std::ldexp(mantissa(rng), static_cast<int>(exponent(rng)));
      p.push_back(negative(rng) ? -v : v);
    }
  }
  return points;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// GiNaC's equality (which the builder's memo tables use) compares numbers by value: 2 and 2.0
// are one entry. Keyed by their form, the order of a sum's terms depended on which form the
// builder met first, and GiNaC's address-dependent order decides that, so the same model gave
// different bits in different processes (yoo_parallelogram's b by 1 ulp).
TEST(EvaluationTape, SumOrderIndependentOfWhichFormOfAnEqualNumberComesFirst) {
  const std::vector<GiNaC::symbol> s = {GiNaC::symbol("x"), GiNaC::symbol("u"), GiNaC::symbol("v"),
                                        GiNaC::symbol("w"), GiNaC::symbol("y"), GiNaC::symbol("z")};
  const GiNaC::ex& x = s[0];
  const GiNaC::ex powers = GiNaC::pow(x, 2) + GiNaC::pow(x, 3) + GiNaC::pow(x, 4);  // 2, 3, 4
  const GiNaC::ex sum = GiNaC::numeric(2.0) * s[1] + GiNaC::numeric(3.0) * s[2] +
                        GiNaC::numeric(4.0) * s[3] + s[4] + s[5];  // 2.0, 3.0, 4.0
  const auto points = spread_points(s.size(), 2000);
  const auto exact_first = tape_values(s, {powers, sum}, points);
  const auto float_first = tape_values(s, {sum, powers}, points);
  const auto negated = tape_values(s, {powers, GiNaC::ex(-sum)}, points);  // -2.0, -3.0, -4.0
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double v = exact_first[i][1];
    ASSERT_TRUE(same_bits(v, float_first[i][0])) << i << ": " << v << " " << float_first[i][0];
    ASSERT_TRUE(same_bits(v, -negated[i][1])) << i << ": " << v << " " << -negated[i][1];
  }
}

// x^3 and x^3.0 are one expression to GiNaC: both compile to repeated multiplication (pow
// rounds once where x*x*x rounds twice, so the tape would depend on which one came first).
TEST(EvaluationTape, IntegerValuedFloatExponentCompilesAsTheInteger) {
  const std::vector<GiNaC::symbol> s = {GiNaC::symbol("x"), GiNaC::symbol("y")};
  const GiNaC::ex& x = s[0];
  const GiNaC::ex exact = GiNaC::pow(x, 3) * s[1] + GiNaC::pow(x, -5);
  const GiNaC::ex floating =
      GiNaC::pow(x, GiNaC::numeric(3.0)) * s[1] + GiNaC::pow(x, GiNaC::numeric(-5.0));
  ASSERT_TRUE(exact.is_equal(floating));  // the premise: one memo entry
  const auto points = spread_points(s.size(), 2000);
  const auto a = tape_values(s, {exact}, points);
  const auto b = tape_values(s, {floating}, points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    ASSERT_TRUE(same_bits(a[i][0], b[i][0])) << i << ": " << a[i][0] << " " << b[i][0];
  }
  tape_builder ba(s), bb(s);
  ba.set_output(0, exact);
  bb.set_output(0, floating);
  EXPECT_EQ(ba.build().instructions(), bb.build().instructions());
}

// GiNaC orients the base of an integer power by the sign of its first term in hash order, so
// one process holds 0.1956 (x - y)^3 and another -0.1956 (y - x)^3 (CEC 2006 g16). Both forms,
// built here without GiNaC's evaluation, must give the same bits, the sign of a zero included
// (x = y, where a - b is +0 and -(b - a) is -0).
TEST(EvaluationTape, OppositeOrientationsOfOneExpressionGiveTheSameBits) {
  const std::vector<GiNaC::symbol> s = {GiNaC::symbol("x"), GiNaC::symbol("y"), GiNaC::symbol("z")};
  const GiNaC::ex &x = s[0], &y = s[1], &z = s[2];
  // Held: built as written, without GiNaC's evaluation (which would orient them its own way).
  const auto sum = [](const GiNaC::ex& a, const GiNaC::ex& b) -> GiNaC::ex {
    return GiNaC::dynallocate<GiNaC::add>(a, b).hold();
  };
  const auto product = [](const GiNaC::exvector& f) -> GiNaC::ex {
    return GiNaC::dynallocate<GiNaC::mul>(f).hold();
  };
  const auto power = [](const GiNaC::ex& b, int k) -> GiNaC::ex {
    return GiNaC::dynallocate<GiNaC::power>(b, k).hold();
  };
  const GiNaC::ex minus_one = GiNaC::numeric(-1);
  const GiNaC::ex xy = sum(x, product({y, minus_one}));
  const GiNaC::ex yx = sum(y, product({x, minus_one}));
  const std::vector<std::pair<GiNaC::ex, GiNaC::ex>> pairs = {
      {xy, product({yx, minus_one})},
      {product({power(xy, 3), GiNaC::numeric(1956, 10000)}),
       product({power(yx, 3), GiNaC::numeric(-1956, 10000)})},
      {sum(product({z, power(xy, -1)}), GiNaC::numeric(-21)),
       sum(product({minus_one, z, power(yx, -1)}), GiNaC::numeric(-21))},
      {product({power(xy, 2), z}), product({power(yx, 2), z})}};
  auto points = spread_points(s.size(), 500);
  points.push_back({1.5, 1.5, 2.0});  // x = y: a zero of either sign
  points.push_back({0.25, 0.25, 0.0});
  points.push_back({1.0, 2.0, 21.0});  // z / (x - y) - 21 = -42; z / (y - x) = 21
  for (const auto& [a, b] : pairs) {
    const auto va = tape_values(s, {a}, points);
    const auto vb = tape_values(s, {b}, points);
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (std::isnan(va[i][0]) && std::isnan(vb[i][0])) continue;
      ASSERT_TRUE(same_bits(va[i][0], vb[i][0]))
          << a << " and " << b << " at point " << i << ": " << va[i][0] << " " << vb[i][0];
    }
  }
}

// Decimal literals are exact rationals: coefficients GiNaC combines are exact, so the result
// cannot depend on the order in which it combines them, and terms that cancel do cancel.
TEST(ExpressionContext, DecimalLiteralsAreExactNumbers) {
  expression_context ctx;
  const auto x = ctx.add_symbol("x", "test");
  EXPECT_TRUE(ctx.parse("0.1*x + 0.2*x - 0.3*x", "test").is_zero());
  EXPECT_TRUE(ctx.parse("0.6376*19*x + 1.594*x - 0.04782*x", "test")
                  .is_equal(GiNaC::numeric(683029, 50000) * x));  // 13.66058 exactly
  EXPECT_TRUE(
      ctx.parse("1.5e3*x + 2E-3 + .5", "test").is_equal(1500 * x + GiNaC::numeric(502, 1000)));
  EXPECT_EQ(ctx.evaluate_constant("0.1", "test"), 0.1);  // rounded once, to the nearest double
  EXPECT_EQ(ctx.evaluate_constant("1e-320", "test"), 1e-320);
  EXPECT_EQ(ctx.evaluate_constant("2.5e307*4", "test"), 1e308);
  // A power's base or exponent stays floating point (the documented way to compute a power in
  // floating point rather than exactly).
  EXPECT_EQ(detail::with_exact_decimals("2.0^x + x^0.5 + pow(x, 1.5) + 9.0 ^ 999"),
            "2.0^x + x^0.5 + pow(x, 1.5) + 9.0 ^ 999");
  EXPECT_EQ(detail::with_exact_decimals("0.04782*x1 - 1.e2 + 3 + x2.5"),
            "(4782/100000)*x1 - 100 + 3 + x2.5");
  EXPECT_EQ(detail::with_exact_decimals("0.000"), "0");
  // Only a whole exponent stays floating; a coefficient inside a longer exponent is exact (it
  // takes part in GiNaC's coefficient arithmetic when the power is differentiated).
  EXPECT_EQ(detail::with_exact_decimals("x^(-0.5) + x^((1.5)) + x^-2.5*y + pow(x, (0.5))"),
            "x^(-0.5) + x^((1.5)) + x^-2.5*y + pow(x, (0.5))");
  EXPECT_EQ(detail::with_exact_decimals("x^(0.5*y + 0.1) + pow(x, 0.5*y) + x^(y - 0.5)"),
            "x^((5/10)*y + (1/10)) + pow(x, (5/10)*y) + x^(y - (5/10))");
  EXPECT_EQ(detail::with_exact_decimals("(0.5*y)^2 + x^(0.5)^y"), "((5/10)*y)^2 + x^(0.5)^y");
}

TEST(EvaluationTape, RejectsSymbolsThatAreNotInputs) {
  GiNaC::symbol x("x"), w("w");
  tape_builder b({x});
  EXPECT_THROW(b.set_output(0, x + w), std::invalid_argument);
}

TEST(ExpressionContext, ParseErrorsNameTheFieldAndKnownNames) {
  expression_context ctx;
  ctx.add_symbol("theta", "test");
  try {
    (void)ctx.parse("thet + 1", "model.toml:4: [[constraint]] field 'holonomic'");
    FAIL() << "expected an input error";
  } catch (const io::input_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("model.toml:4"), std::string::npos) << m;
    EXPECT_NE(m.find("theta"), std::string::npos) << m;
  }
  EXPECT_THROW((void)ctx.parse("theta ^^ 2", "f"), io::input_error);
  EXPECT_THROW((void)ctx.parse("", "f"), io::input_error);
  EXPECT_THROW(ctx.add_symbol("theta", "f"), io::input_error);
  EXPECT_THROW(ctx.add_symbol("2x", "f"), io::input_error);
}

std::string nested(const std::string& open, const std::string& inner, const std::string& close,
                   int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += open;
  s += inner;
  for (int i = 0; i < n; ++i) s += close;
  return s;
}

std::string error_of_parse(const std::string& text) {
  expression_context ctx;
  ctx.add_symbol("x", "test");
  try {
    (void)ctx.parse(text, "m.toml:3: [[coordinate]] 'x' field 'initial'");
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "(no error)";
}

// GiNaC's recursive parser overflowed the stack (SIGSEGV) at about 8,000 nested brackets or
// 3,500 nested exp(-exp(-...)); such text is refused, naming the field, before GiNaC sees it.
TEST(ExpressionContext, DeepOrLongExpressionsAreRefusedBeforeParsing) {
  const int n = 10'000;
  std::string chain_signs, chain_power = "x";
  for (int i = 0; i < n; ++i) chain_signs += "-x + ";
  chain_signs += "x";
  for (int i = 0; i < n; ++i) chain_power += "^x";
  const std::vector<std::string> deep = {nested("(", "1", ")", n),
                                         nested("exp(-", "x", ")", n),
                                         nested("[", "1", "]", n),
                                         std::string(static_cast<std::size_t>(5 * n), '-') + "x",
                                         chain_signs,
                                         nested("sin(", "x", ")", n) + "+1",
                                         "1 + " + nested("(", "x", ")", n)};
  for (const auto& text : deep) {
    const std::string e = error_of_parse(text);
    EXPECT_NE(e.find("m.toml:3: [[coordinate]] 'x' field 'initial'"), std::string::npos) << e;
    EXPECT_NE(e.find("more than 200 levels"), std::string::npos) << e;
    EXPECT_LT(e.size(), 300u) << "the text is not echoed";
  }
  // A chain of powers is refused at its second '^', before its depth matters: a^b^c is
  // ambiguous (and GiNaC refused it with an internal message).
  const std::string power_error = error_of_parse(chain_power);
  EXPECT_NE(power_error.find("a^b^c is ambiguous"), std::string::npos) << power_error;
  EXPECT_LT(power_error.size(), 300u);
  std::string long_sum = "x";
  while (long_sum.size() <= max_expression_length) long_sum += " + x";
  const std::string e = error_of_parse(long_sum);
  EXPECT_NE(e.find("field 'initial'"), std::string::npos) << e;
  EXPECT_NE(e.find("limit of 100000"), std::string::npos) << e;

  // A number whose exponent is beyond any double made CLN compute 10^e exactly: a hang found
  // by the fuzz harness. Refused before parsing, as is a 1,001-character literal.
  for (const std::string number : {"1e999999999", "1e-999999999", "2.5E+99999999999999999999"}) {
    const std::string m = error_of_parse("x + " + number);
    EXPECT_NE(m.find("range of doubles"), std::string::npos) << m;
  }
  EXPECT_NE(error_of_parse(std::string(1001, '7')).find("longer than 1000"), std::string::npos);
  for (const std::string power : {"10^99999999999", "2^(-9223372036854775807)", "x + 3^ 2000"}) {
    const std::string m = error_of_parse(power);
    EXPECT_NE(m.find("is larger than 1024"), std::string::npos) << m;
  }
  EXPECT_EQ(error_of_parse("2^1000 + x^-3 + (x^(-2)) + 2^-1000"), "(no error)");

  // Below the limits, and real models' shapes: parsed as before.
  expression_context ctx;
  const GiNaC::symbol x = ctx.add_symbol("x", "test");
  EXPECT_TRUE((ctx.parse(nested("(", "x", ")", 150), "f") - x).is_zero());
  EXPECT_NO_THROW((void)ctx.parse(nested("exp(-", "x", ")", 60), "f"));
  std::string polynomial = "-x^2";
  for (int i = 0; i < 2'000; ++i) polynomial += " - x^2*x^3 + (-x)^2 - 2*x/3 - 1e-3";
  EXPECT_NO_THROW((void)ctx.parse(polynomial, "f"));
  EXPECT_NO_THROW((void)ctx.parse(std::string(150, '-') + "x", "f"));
}

// Nested exact powers, each exponent within the literal limit, were computed exactly while
// GiNaC read them: ((9^999)^999)^999 has about 9.5e8 digits and did not finish. A power whose
// exact result would exceed max_exact_digits digits is refused before GiNaC reads the text,
// whether written with ^, pow() or through a name's value; smaller ones read as before.
TEST(ExpressionContext, NestedExactPowersBeyondTheDigitLimitAreRefusedBeforeParsing) {
  for (const std::string text :
       {"((9^999)^999)^999", "x + pow(pow(pow(9, 999), 999), 999)", "(x*9^999)^999",
        "((2^1000)^(1000))", "(1/3^999)^(-999)", "2^(10^400)"}) {
    const std::string m = error_of_parse(text);
    EXPECT_NE(m.find("m.toml:3: [[coordinate]] 'x' field 'initial'"), std::string::npos) << m;
    EXPECT_NE(m.find("more than the limit of 100000"), std::string::npos) << m;
    EXPECT_LT(m.size(), 400u) << m;
  }
  // Through a name: 1e300 is an exact integer of 301 digits, its 999th power 3e5 digits.
  expression_context ctx;
  ctx.add_constant("c", 1e300, "test");
  const GiNaC::symbol x = ctx.add_symbol("x", "test");
  EXPECT_THROW((void)ctx.parse("(x + c^999)", "f"), io::input_error);
  // Within the limit: exact, with the closed-form values.
  EXPECT_TRUE(ctx.parse("(2^10)^10 - 2^100", "f").is_zero());
  EXPECT_TRUE((ctx.parse("(3^5)^2", "f") - 59049).is_zero());
  EXPECT_TRUE((ctx.parse("(2*x)^3", "f") - 8 * GiNaC::pow(x, 3)).expand().is_zero());
  EXPECT_EQ(error_of_parse("(9^999)^99 * 0 + (1 + x^2 + 3*x)^500"), "(no error)");
  // Floating point is not expanded exactly and not limited here.
  EXPECT_NO_THROW((void)ctx.parse("((9.0^9)^2)^2 + c*x", "f"));
}

}  // namespace
}  // namespace kinevo::symbolic
