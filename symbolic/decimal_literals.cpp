#include "kinevo/symbolic/detail/decimal_literals.hpp"

#include <algorithm>
#include <cstdlib>

namespace kinevo::symbolic::detail {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool in_exponent(const std::string& text, std::size_t pos) {
  while (pos > 0) {
    const char c = text[--pos];
    if (c == '^') return true;
    if (c == ',') break;
    if (c != ' ' && c != '\t' && c != '(' && c != '+' && c != '-') return false;
  }
  if (pos == 0 || text[pos] != ',') return false;
  // After the first comma of a call: is the call pow's?
  for (std::size_t depth = 0; pos > 0;) {
    const char c = text[--pos];
    if (c == ')') {
      ++depth;
    } else if (c == '(' && depth > 0) {
      --depth;
    } else if (c == '(') {
      std::size_t b = pos;
      while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
      return b >= 3 && text.compare(b - 3, 3, "pow") == 0 &&
             (b == 3 || !is_identifier_char(text[b - 4]));
    } else if (c == ',' && depth == 0) {
      return false;  // a third argument
    }
  }
  return false;
}

bool number_literal_starts(const std::string& text, std::size_t i) {
  const bool starts =
      is_digit(text[i]) || (text[i] == '.' && i + 1 < text.size() && is_digit(text[i + 1]));
  return starts && !(i > 0 && (is_identifier_char(text[i - 1]) || text[i - 1] == '.'));
}

std::size_t number_literal_end(const std::string& text, std::size_t begin) {
  const std::size_t n = text.size();
  std::size_t i = begin;
  while (i < n && (is_digit(text[i]) || text[i] == '.')) ++i;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
    while (i < n && is_digit(text[i])) ++i;
  }
  return i;
}

bool is_decimal_literal(const std::string& literal) {
  return literal.find_first_of(".eE") != std::string::npos;
}

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// True when the literal in [begin, end) is a power's whole exponent: right after '^' (past signs;
// '^' binds tighter than whatever follows), alone in brackets there, or pow's whole second
// argument. A literal inside a longer exponent (`x^(0.5*y + 0.1)`) is an ordinary coefficient.
bool is_whole_exponent(const std::string& text, std::size_t begin, std::size_t end) {
  for (;;) {
    while (begin > 0 &&
           (is_blank(text[begin - 1]) || text[begin - 1] == '+' || text[begin - 1] == '-')) {
      --begin;
    }
    while (end < text.size() && is_blank(text[end])) ++end;
    if (begin == 0) return false;
    const char before = text[begin - 1];
    if (before == '^') return true;
    if (end >= text.size() || text[end] != ')') return false;
    if (before == ',') return in_exponent(text, begin);
    if (before != '(') return false;
    --begin;  // (literal): look outside the brackets
    ++end;
  }
}

}  // namespace

bool decimal_stays_floating(const std::string& text, std::size_t begin, std::size_t end) {
  if (is_whole_exponent(text, begin, end)) return true;
  std::size_t i = end;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return i < text.size() && text[i] == '^';
}

namespace {

// A decimal literal as mantissa digits (leading zeros dropped) times 10^scale; nullopt-like
// `valid = false` for what is not one number (two points, an exponent marker without digits):
// GiNaC then reports the text as it is.
struct decimal_parts {
  std::string digits;
  long scale = 0;
  bool valid = false;
};

decimal_parts split_decimal(const std::string& literal) {
  decimal_parts p;
  const std::size_t marker = literal.find_first_of("eE");
  const std::string mantissa = literal.substr(0, marker);
  if (std::count(mantissa.begin(), mantissa.end(), '.') > 1) return p;
  const std::size_t point = mantissa.find('.');
  for (char c : mantissa) {
    if (c != '.') p.digits += c;
  }
  if (p.digits.empty()) return p;
  p.scale = point == std::string::npos ? 0 : -static_cast<long>(mantissa.size() - point - 1);
  if (marker != std::string::npos) {
    const std::string exponent = literal.substr(marker + 1);
    const std::size_t first = exponent.find_first_not_of("+-");
    if (first == std::string::npos || first > 1 || exponent.size() > 12) return p;
    p.scale += std::strtol(exponent.c_str(), nullptr, 10);
  }
  const std::size_t nonzero = p.digits.find_first_not_of('0');
  p.digits = nonzero == std::string::npos ? "0" : p.digits.substr(nonzero);
  p.valid = true;
  return p;
}

std::string exact_text(const decimal_parts& p) {
  if (p.digits == "0") return "0";
  if (p.scale >= 0) return p.digits + std::string(static_cast<std::size_t>(p.scale), '0');
  return "(" + p.digits + "/1" + std::string(static_cast<std::size_t>(-p.scale), '0') + ")";
}

}  // namespace

double exact_decimal_digits(const std::string& literal) {
  const decimal_parts p = split_decimal(literal);
  if (!p.valid) return 0.0;
  return static_cast<double>(p.digits.size()) + static_cast<double>(std::abs(p.scale));
}

std::string with_exact_decimals(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    if (!number_literal_starts(text, i)) {
      out += text[i++];
      continue;
    }
    const std::size_t end = number_literal_end(text, i);
    const std::string literal = text.substr(i, end - i);
    const decimal_parts parts = split_decimal(literal);
    if (is_decimal_literal(literal) && parts.valid && !decimal_stays_floating(text, i, end)) {
      out += exact_text(parts);
    } else {
      out += literal;
    }
    i = end;
  }
  return out;
}

}  // namespace kinevo::symbolic::detail
