#include "mutator.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <tuple>

namespace kinevo::fuzz {

std::uint64_t random_source::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

const char* to_string(mutation m) {
  static constexpr std::array<const char*, mutation_kinds> names = {
      "flip_byte",  "special_number",  "insert_number",   "deep_nesting",
      "expression", "truncate",        "duplicate_line",  "delete_line",
      "swap_lines", "byte_order_mark", "structural_char", "long_token"};
  return names[static_cast<std::size_t>(m)];
}

namespace {

constexpr std::array<std::string_view, 22> special_numbers = {"nan",
                                                              "-nan",
                                                              "inf",
                                                              "-inf",
                                                              "+inf",
                                                              "1e308",
                                                              "-1e308",
                                                              "1e309",
                                                              "1.8e308",
                                                              "-0",
                                                              "-0.0",
                                                              "1e-310",
                                                              "4.9e-324",
                                                              "1e-400",
                                                              "0",
                                                              "1e999",
                                                              "-1",
                                                              "\"nan\"",
                                                              "9223372036854775807",
                                                              "-9223372036854775808",
                                                              "99999999999999999999",
                                                              "0x1p-1074"};

// The last six: calls with a wrong number of arguments (a call without any crashed the reader,
// issue 31) and characters outside the expression language ('#' silently cut the rest).
constexpr std::array<std::string_view, 30> snippets = {
    "abs(x)",   "abs(",       "2^3^2",   "x^y^z",          "{x}",      "x==1",     "1/0",
    "log(0)",   "0^0",        "0^(-1)",  "tan(pi/2)",      "zeta(x)",  "foo(1)",   "sin(1,2)",
    "I",        "1e",         "x x",     "undefined_name", "sign(t)",  "step(-1)", "exp(1e10)",
    "sqrt(-1)", "atan2(0,0)", "\\u0000", "sin()",          "atan2(1)", "pow(x)",   "sqrt()sqrt(3)",
    "x # 1",    "x $ 1"};

std::vector<std::size_t> line_starts(const std::string& s) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && i + 1 < s.size()) starts.push_back(i + 1);
  }
  return starts;
}

std::pair<std::size_t, std::size_t> line_at(const std::string& s, std::size_t start) {
  const std::size_t end = s.find('\n', start);
  return {start, end == std::string::npos ? s.size() : end + 1};
}

// The position and length of a random number token (digits with sign, '.', 'e'), if any.
bool random_number(const std::string& s, random_source& rng, std::size_t& pos, std::size_t& len) {
  std::vector<std::pair<std::size_t, std::size_t>> numbers;
  for (std::size_t i = 0; i < s.size();) {
    if (std::isdigit(static_cast<unsigned char>(s[i])) != 0) {
      std::size_t b = i;
      if (b > 0 && (s[b - 1] == '-' || s[b - 1] == '+')) --b;
      std::size_t e = i;
      while (e < s.size() && (std::isdigit(static_cast<unsigned char>(s[e])) != 0 || s[e] == '.' ||
                              s[e] == 'e' || s[e] == 'E')) {
        ++e;
      }
      numbers.emplace_back(b, e - b);
      i = e;
    } else {
      ++i;
    }
  }
  if (numbers.empty()) return false;
  std::tie(pos, len) = numbers[rng.below(numbers.size())];
  return true;
}

std::string nested(std::size_t depth, std::string_view open, std::string_view inner,
                   std::string_view close) {
  std::string s;
  s.reserve(depth * (open.size() + close.size()) + inner.size());
  for (std::size_t i = 0; i < depth; ++i) s += open;
  s += inner;
  for (std::size_t i = 0; i < depth; ++i) s += close;
  return s;
}

void apply(mutation m, std::string& s, random_source& rng) {
  const std::size_t at = s.empty() ? 0 : rng.below(s.size() + 1);
  switch (m) {
    case mutation::flip_byte:
      if (!s.empty()) s[rng.below(s.size())] ^= static_cast<char>(1U << rng.below(8));
      break;
    case mutation::special_number: {
      std::size_t pos = 0, len = 0;
      const auto v = special_numbers[rng.below(special_numbers.size())];
      if (random_number(s, rng, pos, len)) {
        s.replace(pos, len, v);
      } else {
        s.insert(at, v);
      }
      break;
    }
    case mutation::insert_number:
      s.insert(at, special_numbers[rng.below(special_numbers.size())]);
      break;
    case mutation::deep_nesting: {
      static constexpr std::array<std::size_t, 6> depths = {10, 199, 201, 1000, 3500, 8000};
      const std::size_t depth = depths[rng.below(depths.size())];
      std::size_t pos = 0, len = 0;
      if (!random_number(s, rng, pos, len)) break;
      const std::string inner = s.substr(pos, len);
      const std::string wrapped =
          rng.below(2) == 0 ? nested(depth, "(", inner, ")") : nested(depth, "exp(-", inner, ")");
      // Inside a string when the number already is an expression; quoted otherwise.
      const bool quoted = pos > 0 && s.rfind('"', pos) != std::string::npos &&
                          s.find('"', pos) != std::string::npos && rng.below(2) == 0;
      s.replace(pos, len, quoted ? wrapped : "\"" + wrapped + "\"");
      break;
    }
    case mutation::expression_snippet: {
      const auto v = snippets[rng.below(snippets.size())];
      const std::size_t quote = s.find('"', at);
      if (quote != std::string::npos && rng.below(2) == 0) {
        s.insert(quote + 1, std::string(v) + (rng.below(2) == 0 ? "+" : "*"));
      } else {
        s.insert(at, v);
      }
      break;
    }
    case mutation::truncate:
      s.resize(at);
      break;
    case mutation::duplicate_line: {
      const auto starts = line_starts(s);
      const auto [b, e] = line_at(s, starts[rng.below(starts.size())]);
      const std::string line = s.substr(b, e - b);
      s.insert(starts[rng.below(starts.size())],
               line.empty() || line.back() == '\n' ? line : line + "\n");
      break;
    }
    case mutation::delete_line: {
      const auto starts = line_starts(s);
      const auto [b, e] = line_at(s, starts[rng.below(starts.size())]);
      s.erase(b, e - b);
      break;
    }
    case mutation::swap_lines: {
      const auto starts = line_starts(s);
      auto [b1, e1] = line_at(s, starts[rng.below(starts.size())]);
      auto [b2, e2] = line_at(s, starts[rng.below(starts.size())]);
      if (b1 == b2) break;
      if (b1 > b2) {
        std::swap(b1, b2);
        std::swap(e1, e2);
      }
      const std::string l1 = s.substr(b1, e1 - b1), l2 = s.substr(b2, e2 - b2);
      if (l1.empty() || l2.empty() || l1.back() != '\n' || l2.back() != '\n') break;
      s.replace(b2, e2 - b2, l1);
      s.replace(b1, e1 - b1, l2);
      break;
    }
    case mutation::byte_order_mark: {
      const auto starts = line_starts(s);
      s.insert(rng.below(2) == 0 ? 0 : starts[rng.below(starts.size())], "\xEF\xBB\xBF");
      break;
    }
    case mutation::structural_char: {
      static constexpr std::string_view chars = "[]{}\"=,\n#'\\\r\t";
      s.insert(at, 1, chars[rng.below(chars.size())]);
      break;
    }
    case mutation::long_token: {
      static constexpr std::array<std::size_t, 3> sizes = {1000, 100'001, 1'000'000};
      s.insert(at, std::string(sizes[rng.below(sizes.size())], rng.below(2) == 0 ? '9' : 'x'));
      break;
    }
  }
}

}  // namespace

std::string mutate(const std::string& text, random_source& rng, std::vector<mutation>& applied) {
  std::string s = text;
  applied.clear();
  const std::size_t count = 1 + rng.below(3);
  for (std::size_t k = 0; k < count; ++k) {
    const auto m = static_cast<mutation>(rng.below(mutation_kinds));
    apply(m, s, rng);
    applied.push_back(m);
  }
  return s;
}

}  // namespace kinevo::fuzz
