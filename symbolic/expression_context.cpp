#include "kinevo/symbolic/detail/expression_context.hpp"

#include <fmt/format.h>

#include <cln/integer.h>
#include <cln/number_io.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "kinevo/io/errors.hpp"
#include "kinevo/symbolic/detail/decimal_literals.hpp"
#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/symbolic/detail/expression_text.hpp"
#include "kinevo/symbolic/detail/real_functions.hpp"

namespace kinevo::symbolic {

namespace {

// The functions the evaluation tape compiles and whose derivatives it compiles too, as the
// parser's table: anything else is "unknown function" at parse time, naming the field, not a
// failure deep in compilation. abs, sign and step map to their real versions.
const GiNaC::prototype_table& reader_table() {
  static const GiNaC::prototype_table table = [] {
    GiNaC::prototype_table t;
    for (const auto& [proto, read] : GiNaC::get_default_reader()) {
      const expression_function* f = find_expression_function(proto.first);
      if (f != nullptr && f->arity == proto.second) t.emplace(proto, read);
    }
    // GiNaC's reader tables name a registered function by its serial s, stored as the odd
    // value 2 s + 1 in place of a reader pointer (get_builtin_reader() does this for all of
    // its functions); a real pointer stored there is taken for a serial when its address is
    // odd (a crash under ASan and valgrind).
    auto by_serial = [](unsigned serial) {
      return reinterpret_cast<GiNaC::reader_func>(static_cast<std::uintptr_t>(serial) * 2 + 1);
    };
    t[{"abs", 1}] = by_serial(real_abs_SERIAL::serial);
    t[{"sign", 1}] = by_serial(real_sign_SERIAL::serial);
    t[{"step", 1}] = by_serial(real_step_SERIAL::serial);
    return t;
  }();
  return table;
}

// Function names that may appear in a parsed expression (GiNaC's automatic simplification
// may also produce these from the ones above).
bool is_supported_function(const std::string& name) {
  static const std::set<std::string> names = {
      "sin",  "cos",  "tan",  "exp", "log",  "asin", "acos",     "atan",      "atan2",
      "sinh", "cosh", "tanh", "abs", "csgn", "step", "real_abs", "real_sign", "real_step"};
  return names.count(name) != 0;
}

// The name of GiNaC's strict-parser failure `find_or_insert_symbol: symbol "l3" not found`
// (std::invalid_argument), or empty for any other error.
std::string unknown_name(const std::exception& err) {
  if (dynamic_cast<const GiNaC::parse_error*>(&err) != nullptr) return {};
  const std::string why = err.what();
  const auto pos = why.find("symbol \"");
  if (pos == std::string::npos || why.find("not found") == std::string::npos) return {};
  const auto end = why.find('"', pos + 8);
  return why.substr(pos + 8, end == std::string::npos ? 0 : end - pos - 8);
}

// The reason of a parse failure in plain words: GiNaC's messages carry its internal function
// names, "line 0, column 0" and a source frame, CLN's may carry unprintable bytes.
std::string plain_reason(const std::exception& err) {
  std::string why = err.what();
  if (dynamic_cast<const GiNaC::parse_error*>(&err) != nullptr) {
    if (const auto colon = why.find("column "); colon != std::string::npos) {
      const auto start = why.find(": ", colon);
      why = start == std::string::npos ? why : why.substr(start + 2);
    }
    why = why.substr(0, why.find('\n'));
    if (why.rfind("no function \"", 0) == 0) {
      // no function "zeta" with 1 arguments
      const auto name_end = why.find('"', 13);
      const std::string name = why.substr(13, name_end == std::string::npos ? 0 : name_end - 13);
      const std::string count = why.substr(why.find(" with ") + 6);
      return fmt::format("unknown function '{}' with {} (functions: {})", io::excerpt(name, 40),
                         count, supported_functions());
    }
    if (const auto eof = why.find("got: EOF"); eof != std::string::npos) {
      why.replace(eof, 8, "got the end of the expression");
    }
    // GiNaC prints the token code of its literals (Pi, I, Euler, Catalan) as a byte: "x Pi"
    // gave `expected EOF, got: "\xfa"` (the fuzz harness found it).
    if (const auto got = why.find("got: \""); got != std::string::npos) {
      const std::string token = why.substr(got + 6, why.find('"', got + 6) - (got + 6));
      const bool printable =
          std::all_of(token.begin(), token.end(), [](char c) { return c >= ' ' && c <= '~'; });
      if (!printable) why = why.substr(0, got) + "got a constant (Pi, I, Euler or Catalan)";
    }
    if (why.rfind("expected EOF", 0) == 0) why.replace(0, 12, "expected the end of the expression");
    return io::excerpt(why, 200);  // GiNaC echoes the offending token
  }
  // GiNaC's parser takes a name or number right after one of its literals for a literal it
  // does not know: std::logic_error "GiNaC::ex GiNaC::parser::parse_literal_expr()(parser/
  // parser.cpp:NNN: unknown literal: "x"" for "Pi x" (the fuzz harness found it).
  if (why.find("unknown literal") != std::string::npos) {
    return "a name or number right after Pi, I, Euler or Catalan (an operator is missing)";
  }
  if (dynamic_cast<const cln::read_number_exception*>(&err) != nullptr) {
    return "malformed number";
  }
  if (is_floating_point_trap(err)) {
    return "a constant in it leaves the double range (overflow, underflow or NaN)";
  }
  // pole_error, domain_error of GiNaC's evaluation: "power::eval(): division by zero".
  why = why.substr(0, why.find('\n'));
  if (const auto pos = why.rfind("): "); pos != std::string::npos) why = why.substr(pos + 3);
  // Any other message of GiNaC's internal checks: "<function>(<file>.cpp:<line>: <what>".
  if (const auto file = why.find(".cpp:"); file != std::string::npos) {
    const auto text = why.find(": ", file);
    why = text == std::string::npos ? "an internal check of the symbolic library failed"
                                    : why.substr(text + 2);
  }
  return fmt::format("it is undefined ({})", io::excerpt(why, 60));
}

// Checks what GiNaC built (parsing or substituting definitions): only numbers, names, sums,
// products, powers and supported functions; every number within the double range. Each shared node
// is visited once. `context` starts the message's reason ("cannot parse '<text>': ").
namespace {
// A power or function of numbers that GiNaC keeps unevaluated because its numbers are exact
// (sqrt(-2), log(-2), asin(2)) but whose value is not real. With floating-point operands GiNaC
// evaluates it to a complex number, which the check of numbers below refuses; exact operands
// (decimal literals and the file's values are exact, see exact_number) leave it to this test.
bool is_complex_constant(const GiNaC::ex& x) {
  if (!GiNaC::is_a<GiNaC::power>(x) && !GiNaC::is_a<GiNaC::function>(x)) return false;
  for (std::size_t k = 0; k < x.nops(); ++k) {
    if (!GiNaC::is_a<GiNaC::numeric>(x.op(k))) return false;
  }
  try {
    const GiNaC::ex v = GiNaC::evalf(x);
    return GiNaC::is_a<GiNaC::numeric>(v) && !GiNaC::ex_to<GiNaC::numeric>(v).is_real();
  } catch (const std::exception&) {
    return false;  // a pole or a trap: reported where the value is computed
  }
}
}  // namespace

void check_built(const GiNaC::ex& e, const std::string& context, const std::string& where) {
  auto fail = [&](const std::string& reason) {
    throw io::input_error(fmt::format("{}: {}{}", where, context, reason));
  };
  std::unordered_set<const GiNaC::basic*> seen;
  std::vector<GiNaC::ex> visited;  // keeps op() temporaries alive (see coordinate_symbols)
  std::vector<GiNaC::ex> stack{e};
  while (!stack.empty()) {
    GiNaC::ex x = stack.back();
    stack.pop_back();
    if (!seen.insert(&GiNaC::ex_to<GiNaC::basic>(x)).second) continue;
    visited.push_back(x);
    if (GiNaC::is_a<GiNaC::numeric>(x)) {
      const auto& n = GiNaC::ex_to<GiNaC::numeric>(x);
      if (!n.is_real()) fail("it is not real");
      const double d = nearest_double(n);
      if (!std::isfinite(d)) {
        fail(fmt::format("the number {} is beyond the range of doubles (1.8e308)",
                         io::excerpt(text_of(x), 40)));
      }
      if (d == 0.0 && !n.is_zero()) {
        fail(fmt::format("the number {} is below the smallest double (4.9e-324); write 0",
                         io::excerpt(text_of(x), 40)));
      }
      continue;
    }
    if (GiNaC::is_a<GiNaC::symbol>(x) || GiNaC::is_a<GiNaC::constant>(x)) continue;
    if (is_complex_constant(x)) fail("it is not real");
    if (GiNaC::is_a<GiNaC::function>(x)) {
      const std::string name = GiNaC::ex_to<GiNaC::function>(x).get_name();
      if (!is_supported_function(name)) {
        fail(fmt::format("function '{}' is not supported (functions: {})", name,
                         supported_functions()));
      }
    } else if (!GiNaC::is_a<GiNaC::add>(x) && !GiNaC::is_a<GiNaC::mul>(x) &&
               !GiNaC::is_a<GiNaC::power>(x)) {
      fail("it is not a real-valued expression (lists, relations and matrices are not allowed)");
    }
    for (std::size_t k = 0; k < x.nops(); ++k) stack.push_back(x.op(k));
  }
}

}  // namespace

bool is_identifier(const std::string& name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name[0])) return false;
  for (char c : name) {
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  }
  return true;
}

expression_context::expression_context() {
  // GiNaC spells it Pi; model files may write either.
  table_["pi"] = GiNaC::Pi;
  table_["Pi"] = GiNaC::Pi;
}

expression_context::expression_context(const expression_context& other)
    : table_(other.table_),
      order_(other.order_),
      name_kinds_(other.name_kinds_),
      substitutions_(other.substitutions_) {}

expression_context& expression_context::operator=(const expression_context& other) {
  if (this != &other) {
    table_ = other.table_;
    order_ = other.order_;
    name_kinds_ = other.name_kinds_;
    substitutions_ = other.substitutions_;
    parser_.reset();
  }
  return *this;
}

expression_context::expression_context(expression_context&&) noexcept = default;
expression_context& expression_context::operator=(expression_context&&) noexcept = default;
expression_context::~expression_context() = default;

void expression_context::define(const std::string& name, const GiNaC::ex& value) {
  table_[name] = value;
  order_.push_back(name);
  if (parser_) parser_->get_syms()[name] = value;
}

GiNaC::symbol expression_context::add_symbol(const std::string& name, const std::string& where) {
  if (!is_identifier(name)) {
    throw io::input_error(fmt::format("{}: '{}' is not a valid name (letters, digits, '_')", where,
                                      io::excerpt(name, 40)));
  }
  if (table_.count(name) != 0) {
    throw io::input_error(
        fmt::format("{}: the name '{}' is already defined", where, io::excerpt(name, 40)));
  }
  GiNaC::symbol s(name);
  define(name, s);
  return s;
}

void expression_context::add_constant(const std::string& name, double value,
                                      const std::string& where) {
  if (!is_identifier(name)) {
    throw io::input_error(fmt::format("{}: '{}' is not a valid name (letters, digits, '_')", where,
                                      io::excerpt(name, 40)));
  }
  if (table_.count(name) != 0) {
    throw io::input_error(
        fmt::format("{}: the name '{}' is already defined", where, io::excerpt(name, 40)));
  }
  define(name, number(value, where));
}

std::string expression_context::known_names() const {
  constexpr std::size_t shown = 20;
  std::string s;
  for (std::size_t i = 0; i < order_.size() && i < shown; ++i) {
    s += (s.empty() ? "" : ", ") + io::excerpt(order_[i], 40);
  }
  if (order_.size() > shown) s += fmt::format(", ... ({} more)", order_.size() - shown);
  return s.empty() ? "(none)" : s;
}

std::vector<std::string> expression_context::names() const {
  std::vector<std::string> out;
  out.reserve(table_.size());
  for (const auto& [name, value] : table_) out.push_back(name);
  return out;
}

namespace {

// Number literals whose exponent is beyond any double (1e999999999) made CLN compute 10^e
// exactly while reading them: a hang, found by the fuzz harness. A literal longer than
// max_number_length characters or with an exponent beyond +-max_number_exponent is refused
// before GiNaC reads it (both far beyond the double range: 1.8e308, 4.9e-324).
constexpr std::size_t max_number_length = 1000;
constexpr long max_number_exponent = 1000;

using detail::in_exponent;
using detail::is_digit;
using detail::is_identifier_char;

void check_number_literals(const std::string& text, const std::string& where) {
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!detail::number_literal_starts(text, i)) continue;
    const std::size_t begin = i;
    i = detail::number_literal_end(text, begin);
    const std::string literal = text.substr(begin, i - begin);
    long exponent = 0;
    if (const std::size_t marker = literal.find_first_of("eE"); marker != std::string::npos) {
      std::size_t j = marker + 1;
      const bool negative = j < literal.size() && literal[j] == '-';
      if (j < literal.size() && (literal[j] == '-' || literal[j] == '+')) ++j;
      for (; j < literal.size(); ++j) {
        exponent = std::min(exponent * 10 + (literal[j] - '0'), 10 * max_number_exponent);
      }
      if (negative) exponent = -exponent;
    }
    if (literal.size() > max_number_length) {
      throw io::input_error(fmt::format("{}: the number '{}' is longer than {} characters", where,
                                        io::excerpt(literal, 40), max_number_length));
    }
    if (in_exponent(text, begin) && std::abs(std::strtod(literal.c_str(), nullptr)) > 1024.0) {
      throw io::input_error(fmt::format(
          "{}: the exponent '{}' is larger than 1024: exact powers of exact numbers are "
          "computed exactly when the file is read (write a decimal base, e.g. 2.0^x)",
          where, io::excerpt(literal, 40)));
    }
    if (exponent > max_number_exponent || exponent < -max_number_exponent) {
      throw io::input_error(
          fmt::format("{}: the number '{}' is {} the range of doubles (1.8e308 to 4.9e-324)", where,
                      io::excerpt(literal, 40), exponent > 0 ? "beyond" : "below"));
    }
  }
}

// Exact numbers are computed exactly while GiNaC reads an expression, with no hook where a
// result's size could be checked first: ((9^999)^999)^999 (every exponent within the literal
// limit) did not finish. exact_size_reader reads the text the way GiNaC's parser does (sums,
// products, quotients, signs, one '^' per operand, calls, brackets) and bounds, for every
// subexpression, the number of decimal digits of the exact numbers it evaluates to: a literal
// its digits, a name the exact numbers of its value, a sum or product the sum of its operands'
// (a rational's numerator and denominator grow so), a^k for an exact k the digits of a times
// |k|. A power whose bound exceeds max_exact_digits is refused before GiNaC reads the text.
// Floating-point numbers (2.0, 1e3) stay floating point in GiNaC and are not counted; a text
// that is not well formed is left to GiNaC's own message.
struct exact_size {
  double digits = 0.0;  // bound on the decimal digits of the exact numbers in it
  double value = std::numeric_limits<double>::quiet_NaN();  // when an exact number: its value
  bool exact = false;                                       // an exact number (no symbol)
};

class exact_size_reader {
 public:
  exact_size_reader(const std::string& text, const std::string& where,
                    const std::function<exact_size(const std::string&)>& name_size)
      : text_(text), where_(where), name_size_(name_size) {}

  // Reads the whole text; false when it is not well formed (GiNaC then says why).
  bool read() {
    try {
      (void)sum();
      skip_spaces();
      return pos_ == text_.size();
    } catch (const malformed&) {
      return false;
    }
  }

 private:
  struct malformed {};

  void skip_spaces() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_spaces();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  exact_size sum() {
    exact_size a = product();
    for (char c = peek(); c == '+' || c == '-'; c = peek()) {
      ++pos_;
      const exact_size b = product();
      // Exact operands make one rational; with a symbol the sum keeps its terms apart.
      const bool exact = a.exact && b.exact;
      a = {exact ? a.digits + b.digits + 1.0 : std::max(a.digits, b.digits),
           c == '+' ? a.value + b.value : a.value - b.value, exact};
    }
    return a;
  }

  exact_size product() {
    exact_size a = signed_power();
    for (char c = peek(); c == '*' || c == '/'; c = peek()) {
      ++pos_;
      const exact_size b = signed_power();
      a = {a.digits + b.digits, c == '*' ? a.value * b.value : a.value / b.value,
           a.exact && b.exact};
    }
    return a;
  }

  exact_size signed_power() {
    const char c = peek();
    if (c == '-' || c == '+') {
      ++pos_;
      exact_size a = signed_power();
      if (c == '-') a.value = -a.value;
      return a;
    }
    return power();
  }

  exact_size power() {
    const std::size_t begin = pos_;
    const exact_size base = primary();
    if (peek() != '^') return base;
    ++pos_;
    const exact_size expo = signed_power();
    return power_of(base, expo, begin);
  }

  // base^expo (also pow(base, expo)), the text from `begin` to here.
  exact_size power_of(const exact_size& base, const exact_size& expo, std::size_t begin) const {
    exact_size r;
    if (expo.exact) {
      r = {base.digits * std::abs(expo.value), std::pow(base.value, expo.value), base.exact};
    } else {
      r = {std::max(base.digits, expo.digits), std::numeric_limits<double>::quiet_NaN(), false};
    }
    if (!(r.digits <= static_cast<double>(max_exact_digits))) {
      throw io::input_error(fmt::format(
          "{}: the exact power '{}' would have about {} digits, more than the limit of {}: "
          "powers of exact numbers are computed exactly when the file is read (write a "
          "decimal base, e.g. 9.0 for 9, to compute in floating point)",
          where_, io::excerpt(text_.substr(begin, pos_ - begin), 40),
          std::isfinite(r.digits) ? fmt::format("{:.3g}", r.digits)
                                  : std::string("infinitely many"),
          max_exact_digits));
    }
    return r;
  }

  exact_size primary() {
    const char c = peek();
    if (c == '(' || c == '[' || c == '{') {
      ++pos_;
      const exact_size inner = sum();
      if (peek() != (c == '(' ? ')' : c == '[' ? ']' : '}')) throw malformed{};
      ++pos_;
      return inner;
    }
    if (is_digit(c) || c == '.') return number();
    if (!is_identifier_char(c)) throw malformed{};
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && is_identifier_char(text_[pos_])) ++pos_;
    const std::string name = text_.substr(begin, pos_ - begin);
    if (peek() != '(') return name_size_(name);
    ++pos_;
    // A call: pow(a, b) is a^b; another function's value is not an exact number this reader
    // follows, its arguments' sizes count.
    std::vector<exact_size> args;
    if (peek() == ')') {
      ++pos_;
      return {};
    }
    for (;;) {
      args.push_back(sum());
      const char d = peek();
      ++pos_;
      if (d == ')') break;
      if (d != ',') throw malformed{};
    }
    if (name == "pow" && args.size() == 2) return power_of(args[0], args[1], begin);
    exact_size r;
    for (const auto& a : args) r.digits = std::max(r.digits, a.digits);
    return r;
  }

  exact_size number() {
    const std::size_t begin = pos_;
    pos_ = detail::number_literal_end(text_, begin);
    const std::string literal = text_.substr(begin, pos_ - begin);
    const bool decimal = detail::is_decimal_literal(literal);
    // A decimal literal is read as the exact number it denotes unless it is a power's base or
    // exponent (detail::with_exact_decimals).
    if (decimal && detail::decimal_stays_floating(text_, begin, pos_)) {
      return {0.0, std::strtod(literal.c_str(), nullptr), false};
    }
    if (decimal) {
      return {detail::exact_decimal_digits(literal), std::strtod(literal.c_str(), nullptr), true};
    }
    return {static_cast<double>(literal.size()), std::strtod(literal.c_str(), nullptr), true};
  }

  const std::string& text_;
  const std::string& where_;
  const std::function<exact_size(const std::string&)>& name_size_;
  std::size_t pos_ = 0;
};

// The decimal digits of the largest exact rational in `e` (numerator and denominator), and
// its value when `e` is one.
exact_size exact_size_of(const GiNaC::ex& e) {
  exact_size r;
  constexpr double log10_2 = 0.30102999566398120;
  const auto digits = [&](const GiNaC::numeric& n) {
    const auto bits = [](const GiNaC::numeric& i) {
      return static_cast<double>(cln::integer_length(cln::the<cln::cl_I>(i.to_cl_N())));
    };
    return (bits(n.numer()) + bits(n.denom())) * log10_2 + 1.0;
  };
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
    if (n.is_rational()) return {digits(n), n.to_double(), true};
    return r;
  }
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (!GiNaC::is_a<GiNaC::numeric>(*it)) continue;
    const auto& n = GiNaC::ex_to<GiNaC::numeric>(*it);
    if (n.is_rational()) r.digits = std::max(r.digits, digits(n));
  }
  return r;
}

}  // namespace

void expression_context::check_exact_sizes(const std::string& text,
                                           const std::string& where) const {
  const std::function<exact_size(const std::string&)> name_size = [&](const std::string& name) {
    const auto it = table_.find(name);
    if (it == table_.end()) return exact_size{};
    const auto sub = substitutions_.find(it->second);
    return exact_size_of(sub == substitutions_.end() ? it->second : sub->second);
  };
  exact_size_reader(text, where, name_size).read();
}

void check_expression_limits(const std::string& text, const std::string& where) {
  if (text.size() > max_expression_length) {
    throw io::input_error(
        fmt::format("{}: expression is {} characters long, more than the limit "
                    "of {}",
                    where, text.size(), max_expression_length));
  }
  // GiNaC's parser recurses once per bracket, per prefix sign (which swallows the rest of its
  // bracket level, so `-a + -b + ...` nests too) and per chained '^'; each open level counts
  // 1 + its prefix signs so far + its current '^' run. An upper bound on the parser's (and the
  // later tree walks') recursion, checked before GiNaC sees the text.
  struct level {
    std::size_t signs = 0;
    std::size_t power_run = 0;
  };
  std::vector<level> open(1);
  std::size_t depth = 0;
  bool operand_before = false;  // the previous token ends an operand: a sign after it is binary
  // The sign of a literal's exponent (1e-400) is not an operator: taken for one, it ended the
  // '^' run and let 2^1e-400^2 through to GiNaC (found by the grammar fuzzer).
  bool number_token = false;
  char prev = ' ';
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    const char before = prev;
    prev = c;
    const bool digit = (c >= '0' && c <= '9') || c == '.';
    if (digit) {
      if (!is_identifier_char(before) && before != '.') number_token = true;
    } else if (is_identifier_char(c)) {
      if (!(number_token && (c == 'e' || c == 'E'))) number_token = false;
    } else if ((c == '-' || c == '+') && number_token && (before == 'e' || before == 'E')) {
      continue;
    } else {
      number_token = false;
    }
    level& here = open.back();
    if (c == '(' || c == '[' || c == '{') {
      open.emplace_back();
      ++depth;
      operand_before = false;
    } else if (c == ')' || c == ']' || c == '}') {
      if (open.size() > 1) {
        depth -= 1 + here.signs + here.power_run;
        open.pop_back();
      }
      operand_before = true;
    } else if ((c == '-' || c == '+') && !operand_before) {
      ++here.signs;
      ++depth;
    } else if (c == '^') {
      if (here.power_run > 0) {
        // GiNaC refuses it with "make_binop_expr: power should have exactly 2 operands".
        throw io::input_error(
            fmt::format("{}: a^b^c is ambiguous: write (a^b)^c or a^(b^c)", where));
      }
      ++here.power_run;
      ++depth;
      operand_before = false;
    } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == ',' || c == '=') {
      depth -= here.power_run;
      here.power_run = 0;
      operand_before = false;
    } else {
      operand_before = true;
    }
    if (depth > max_expression_depth) {
      throw io::input_error(fmt::format(
          "{}: expression nests more than {} levels deep (brackets, function calls, prefix "
          "signs, chained '^')",
          where, max_expression_depth));
    }
  }
  check_number_literals(text, where);
}

GiNaC::ex expression_context::parse(const std::string& text, const std::string& where) const {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw io::input_error(fmt::format("{}: empty expression", where));
  }
  check_expression_limits(text, where);
  // Before GiNaC: its lexer drops what follows a '#', its reader table calls a function's
  // reader for a call without arguments (check_expression_grammar()).
  check_expression_grammar(text, where);
  check_exact_sizes(text, where);
  if (!parser_) parser_ = std::make_unique<GiNaC::parser>(table_, true, reader_table());
  GiNaC::ex e;
  try {
    e = (*parser_)(detail::with_exact_decimals(text));
  } catch (const std::exception& err) {
    if (const std::string name = unknown_name(err); !name.empty()) {
      throw io::input_error(fmt::format("{}: unknown name '{}' in '{}' ({}known names: {})", where,
                                        io::excerpt(name, 40), io::excerpt(text),
                                        name_kinds_.empty() ? "" : "not " + name_kinds_ + "; ",
                                        known_names()));
    }
    throw io::input_error(
        fmt::format("{}: cannot parse '{}': {}", where, io::excerpt(text), plain_reason(err)));
  }
  check_built(e, fmt::format("cannot parse '{}': ", io::excerpt(text)), where);
  return substitute(e, where);
}

GiNaC::ex expression_context::substitute(const GiNaC::ex& e, const std::string& where) const {
  if (substitutions_.empty()) return e;
  return substitute_symbols(e, substitutions_, where);
}

GiNaC::ex substitute_symbols(const GiNaC::ex& e, const GiNaC::exmap& map,
                             const std::string& where) {
  // subs() walks only `e` itself, not the values it puts in, so this is linear in `e`; the
  // result is measured as a whole.
  GiNaC::ex s;
  try {
    s = e.subs(map, GiNaC::subs_options::no_pattern);
  } catch (const io::input_error&) {
    throw;
  } catch (const std::exception& err) {
    throw io::input_error(
        fmt::format("{}: with its definitions written out, {}", where, plain_reason(err)));
  }
  check_substituted_limits(s, where);
  // Substituting evaluates: d = "-1 - x^2 + x^2" makes sqrt(d) the imaginary unit.
  if (!s.is_equal(e)) check_built(s, "with its definitions written out, ", where);
  return s;
}

void check_substituted_limits(const GiNaC::ex& e, const std::string& where) {
  // Post-order over the distinct nodes with an explicit stack; (tree size, depth) per node,
  // saturated just above the limits so that nothing overflows.
  struct measure {
    std::size_t size = 0, depth = 0;
  };
  std::unordered_map<const GiNaC::basic*, measure> done;
  // op() may return temporaries (the factors of a product): every node measured is kept alive
  // here, so that an address in `done` is never reused by another node.
  std::vector<GiNaC::ex> alive;
  struct item {
    GiNaC::ex x;
    std::vector<GiNaC::ex> children;
    bool expanded = false;
  };
  std::vector<item> stack(1);
  stack.back().x = e;
  while (!stack.empty()) {
    item& top = stack.back();
    const GiNaC::basic* key = &GiNaC::ex_to<GiNaC::basic>(top.x);
    if (done.count(key) != 0) {
      stack.pop_back();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      for (std::size_t k = 0; k < top.x.nops(); ++k) top.children.push_back(top.x.op(k));
      const std::vector<GiNaC::ex> children = top.children;  // `top` moves as the stack grows
      for (const GiNaC::ex& c : children) stack.push_back(item{c, {}, false});
      continue;
    }
    measure m{1, 1};
    for (const GiNaC::ex& child : top.children) {
      const measure& c = done.at(&GiNaC::ex_to<GiNaC::basic>(child));
      m.size = std::min(m.size + c.size, max_substituted_size + 1);
      m.depth = std::max(m.depth, std::min(c.depth + 1, max_substituted_depth + 1));
    }
    alive.push_back(top.x);
    stack.pop_back();
    done.emplace(key, m);
    if (m.depth > max_substituted_depth) {
      throw io::input_error(fmt::format(
          "{}: with its definitions written out the expression nests more than {} levels deep "
          "(definitions used inside one another)",
          where, max_substituted_depth));
    }
    if (m.size > max_substituted_size) {
      throw io::input_error(
          fmt::format("{}: with its definitions written out the expression has more than {} terms "
                      "(definitions used several times inside one another)",
                      where, max_substituted_size));
    }
  }
}

GiNaC::ex number(double value, const std::string& where) {
  if (!std::isfinite(value)) {
    throw io::input_error(fmt::format("{}: must be a finite number (got {})", where, value));
  }
  return exact_number(value);
}

double to_double(const GiNaC::ex& e, const std::string& where) {
  GiNaC::ex v;
  try {
    v = value_to_round(e);
  } catch (const GiNaC::pole_error&) {
    // 0^(-pi) once the file's values are put in (found by the grammar fuzzer).
    throw io::input_error(fmt::format("{}: the value divides by zero", where));
  } catch (const std::exception& err) {
    if (!is_floating_point_trap(err)) throw;
    throw io::input_error(fmt::format("{}: the value leaves the range of doubles", where));
  }
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real()) {
    throw io::input_error(
        fmt::format("{}: '{}' is not a constant number here", where, io::excerpt(text_of(e))));
  }
  const double d = nearest_double(GiNaC::ex_to<GiNaC::numeric>(v));
  if (!std::isfinite(d)) throw io::input_error(fmt::format("{}: value is not finite", where));
  return d;
}

double expression_context::evaluate_constant(const std::string& text,
                                             const std::string& where) const {
  return to_double(parse(text, where), where);
}

}  // namespace kinevo::symbolic
