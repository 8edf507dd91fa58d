#include "kinevo/symbolic/expression_grammar.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "kinevo/io/errors.hpp"

namespace kinevo::symbolic {

namespace {

// One table for the parser (symbolic/expression_context.cpp builds GiNaC's reader table from
// it), the arity check below and the messages. sqrt and pow parse to powers.
constexpr std::array<expression_function, 17> function_table{{
    {"sin", 1, "sin(x)"},
    {"cos", 1, "cos(x)"},
    {"tan", 1, "tan(x)"},
    {"asin", 1, "asin(x)"},
    {"acos", 1, "acos(x)"},
    {"atan", 1, "atan(x)"},
    {"atan2", 2, "atan2(y, x)"},
    {"sinh", 1, "sinh(x)"},
    {"cosh", 1, "cosh(x)"},
    {"tanh", 1, "tanh(x)"},
    {"exp", 1, "exp(x)"},
    {"log", 1, "log(x)"},
    {"sqrt", 1, "sqrt(x)"},
    {"pow", 2, "pow(x, y)"},
    {"abs", 1, "abs(x)"},
    {"sign", 1, "sign(x)"},
    {"step", 1, "step(x)"},
}};

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_decimal_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_operator(char c) {
  return c == '+' || c == '-' || c == '*' || c == '/' || c == '^' || c == '(' || c == ')' ||
         c == ',';
}

// The character at `pos` for a message: itself when printable, its byte value otherwise (a
// UTF-8 sequence, a control byte), so that the message stays one printable line.
std::string shown_character(char c) {
  const auto b = static_cast<unsigned char>(c);
  if (b >= 0x21 && b <= 0x7e) return fmt::format("'{}'", c);
  return fmt::format("the byte 0x{:02X}", b);
}

// Where a call's arguments end: the index of the ')' closing the '(' at `open`, with the
// number of arguments (top-level commas + 1, or 0 when only white space is inside). npos when
// the bracket is not closed (GiNaC then reports the missing bracket).
struct call_arguments {
  std::size_t close = std::string::npos;
  std::size_t count = 0;
};
call_arguments arguments_of(const std::string& text, std::size_t open) {
  std::size_t depth = 0, commas = 0;
  bool content = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') {
      ++depth;
      if (depth > 1) content = true;
    } else if (c == ')') {
      if (--depth == 0) return {i, content ? commas + 1 : 0};
      content = true;
    } else if (c == ',' && depth == 1) {
      ++commas;
      content = true;
    } else if (!is_blank(c)) {
      content = true;
    }
  }
  return {};
}

}  // namespace

std::string supported_functions() {
  std::string s;
  for (const auto& f : function_table) {
    s += (s.empty() ? "" : ", ") + std::string(f.arity == 1 ? f.name : f.usage);
  }
  return s;
}

std::span<const expression_function> expression_functions() {
  return function_table;
}

const expression_function* find_expression_function(std::string_view name) {
  const auto it = std::find_if(function_table.begin(), function_table.end(),
                               [&](const expression_function& f) { return f.name == name; });
  return it == function_table.end() ? nullptr : &*it;
}

void check_expression_grammar(const std::string& text, const std::string& where) {
  auto fail = [&](const std::string& reason) {
    throw io::input_error(
        fmt::format("{}: cannot parse '{}': {}", where, io::excerpt(text), reason));
  };
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const char c = text[i];
    if (is_blank(c) || is_operator(c)) {
      ++i;
    } else if (is_decimal_digit(c) || c == '.') {
      // A number: digits and points, then an optional exponent e[+-]digits.
      while (i < n && (is_decimal_digit(text[i]) || text[i] == '.')) ++i;
      if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        while (i < n && is_decimal_digit(text[i])) ++i;
      }
    } else if (is_letter(c)) {
      const std::size_t begin = i;
      while (i < n && (is_letter(text[i]) || is_decimal_digit(text[i]))) ++i;
      const std::string name = text.substr(begin, i - begin);
      std::size_t next = i;
      while (next < n && is_blank(text[next])) ++next;
      if (next == n || text[next] != '(') continue;
      const expression_function* f = find_expression_function(name);
      if (f == nullptr) {
        fail(fmt::format("unknown function '{}' (functions: {})", io::excerpt(name, 40),
                         supported_functions()));
      }
      const call_arguments args = arguments_of(text, next);
      if (args.close == std::string::npos || args.count == f->arity) continue;
      fail(fmt::format("function '{}' takes {} argument{}, as in {}; '{}' has {}", f->name,
                       f->arity, f->arity == 1 ? "" : "s", f->usage,
                       io::excerpt(text.substr(begin, args.close + 1 - begin), 40),
                       args.count == 0 ? std::string("none") : fmt::format("{}", args.count)));
    } else {
      fail(fmt::format(
          "{} at column {} is not part of the expression language (names, numbers, white "
          "space and + - * / ^ ( ) ,){}",
          shown_character(c), i + 1,
          c == '#' ? "; a TOML comment goes after the closing quote, not inside it" : ""));
    }
  }
}

}  // namespace kinevo::symbolic
