#include "grammar_mutator.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "kinevo/symbolic/detail/expression_context.hpp"
#include "kinevo/symbolic/expression_grammar.hpp"

namespace kinevo::fuzz {

grammar_vocabulary vocabulary_from_reader() {
  grammar_vocabulary v;
  for (const auto& f : symbolic::expression_functions()) {
    v.functions.push_back({std::string(f.name), f.arity});
  }
  v.constants = symbolic::expression_context{}.names();
  v.operators = {"+", "-", "*", "/", "^"};
  v.extreme_literals = {"1e308",    "-1e308",  "1e309",   "1e-320", "4.9e-324",
                        "1e-400",   "0",       "0.0",     "-0",     "nan",
                        "inf",      "-inf",    "NaN",     "Inf",    "99999999999999999999999",
                        "1e999999", "1.7e308", "2.2e-308"};
  return v;
}

namespace {

bool grammar_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string grammar_leaf(const grammar_vocabulary& v, const std::vector<std::string>& names,
                         random_source& rng) {
  static constexpr std::array<std::string_view, 6> plain = {"0", "1", "2", "0.5", "3.25", "t"};
  switch (rng.below(5)) {
    case 0:
      return std::string(plain[rng.below(plain.size())]);
    case 1:
      return v.extreme_literals[rng.below(v.extreme_literals.size())];
    case 2:
      return v.constants.empty() ? "1" : v.constants[rng.below(v.constants.size())];
    default:
      return names.empty() ? "x" : names[rng.below(names.size())];
  }
}

}  // namespace

std::string random_expression(const grammar_vocabulary& v, const std::vector<std::string>& names,
                              random_source& rng, int depth) {
  if (depth <= 0 || rng.below(4) == 0) return grammar_leaf(v, names, rng);
  switch (rng.below(5)) {
    case 0:
      return "-" + random_expression(v, names, rng, depth - 1);
    case 1:
      return "(" + random_expression(v, names, rng, depth - 1) + ")";
    case 2:
    case 3:
      return random_expression(v, names, rng, depth - 1) +
             v.operators[rng.below(v.operators.size())] +
             random_expression(v, names, rng, depth - 1);
    default: {
      const auto& f = v.functions[rng.below(v.functions.size())];
      // The right number of arguments most of the time (to reach the evaluation), any of 0..3
      // otherwise (to reach the arity check).
      const std::size_t count = rng.below(3) != 0 ? f.arity : rng.below(4);
      std::string s = f.name + "(";
      for (std::size_t k = 0; k < count; ++k) {
        s += (k == 0 ? "" : ", ") + random_expression(v, names, rng, depth - 1);
      }
      return s + ")";
    }
  }
}

std::vector<std::string> probe_expressions(const grammar_vocabulary& v) {
  std::vector<std::string> p;
  static constexpr std::array<std::string_view, 4> args = {"", "1", "1, 2", "1, 2, 3"};
  for (const auto& f : v.functions) {
    for (const auto a : args) p.push_back(f.name + "(" + std::string(a) + ")");
    p.push_back(f.name + "()" + f.name + "(1)");  // sqrt()sqrt(3) of issue 31
    p.push_back(f.name + "(" + f.name + "(" + f.name + "(0.5" +
                (f.arity == 2 ? ", 2), 2), 2)" : ")))"));
    for (const auto& x : v.extreme_literals) {
      p.push_back(f.name + "(" + x + (f.arity == 2 ? ", " + x : "") + ")");
    }
  }
  for (const auto& op : v.operators) {
    p.push_back(op);
    p.push_back("1" + op);
    p.push_back(op + "1");
    p.push_back("1" + op + op + "2");
    p.push_back("2" + op + "3");
    p.push_back("1e308" + op + "1e308");
    p.push_back("1e-320" + op + "1e-320");
    p.push_back("0" + op + "0");
  }
  for (const auto& c : v.constants) {
    p.push_back(c);
    p.push_back(c + "()");
    p.push_back(c + "(1)");
    p.push_back("2*" + c);
  }
  for (const auto& x : v.extreme_literals) p.push_back(x);
  // Characters outside the language and GiNaC's own constants and names.
  for (const char* s : {"1 # + 100", "x $ 1", "I", "Euler", "Catalan", "1;2", "x==1", "{x}", "",
                        " ", "()", "(,)", ",", "1,2", "1e", "1e+", ".", "..", "1..2"}) {
    p.push_back(s);
  }
  return p;
}

std::vector<std::string> identifiers_in(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
      std::size_t e = i;
      while (e < text.size() && grammar_identifier_char(text[e])) ++e;
      if (e - i <= 20) out.push_back(text.substr(i, e - i));
      i = e;
    } else if (grammar_identifier_char(c)) {
      while (i < text.size() && grammar_identifier_char(text[i])) ++i;
    } else {
      ++i;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

struct value_site {
  std::size_t begin = 0, end = 0;  // the value, quotes included
};

// Quoted strings and bare numbers after a '=' (on the same line or in an array that began
// there), outside comments: the places a TOML input holds numbers and expressions.
std::vector<value_site> toml_value_sites(const std::string& s) {
  std::vector<value_site> sites;
  bool after_equals = false;
  int brackets = 0;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '\n') {
      if (brackets == 0) after_equals = false;
      ++i;
    } else if (c == '=') {
      after_equals = true;
      ++i;
    } else if (c == '[' && after_equals) {
      ++brackets;
      ++i;
    } else if (c == ']' && after_equals) {
      brackets = std::max(0, brackets - 1);
      ++i;
    } else if (c == '"') {
      const std::size_t close = s.find('"', i + 1);
      const std::size_t end = close == std::string::npos ? s.size() : close + 1;
      if (after_equals) sites.push_back({i, end});
      i = end;
    } else if (after_equals && ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')) {
      std::size_t e = i + 1;
      while (e < s.size() &&
             (grammar_identifier_char(s[e]) || s[e] == '.' || s[e] == '+' || s[e] == '-')) {
        ++e;
      }
      sites.push_back({i, e});
      i = e;
    } else {
      ++i;
    }
  }
  return sites;
}

// The cells of the data rows of a CSV table (after the first line).
std::vector<value_site> csv_cell_sites(const std::string& s) {
  std::vector<value_site> sites;
  std::size_t i = s.find('\n');
  if (i == std::string::npos) return sites;
  ++i;
  std::size_t begin = i;
  for (; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == ',' || s[i] == '\n' || s[i] == '\r') {
      if (i > begin) sites.push_back({begin, i});
      begin = i + 1;
    }
  }
  return sites;
}

}  // namespace

bool put_expression(std::string& text, const std::string& expression, bool csv,
                    random_source& rng) {
  const std::vector<value_site> sites = csv ? csv_cell_sites(text) : toml_value_sites(text);
  if (sites.empty()) return false;
  const value_site site = sites[rng.below(sites.size())];
  text.replace(site.begin, site.end - site.begin, csv ? expression : "\"" + expression + "\"");
  return true;
}

namespace {

struct toml_line {
  std::size_t begin = 0, end = 0;  // whole line(s), newline included
  std::size_t value = 0;           // first character of the value
  std::string section;             // enclosing [a] or [[a]]
  std::string key;                 // empty for a header
};

std::size_t line_end_after(const std::string& s, std::size_t from) {
  const std::size_t nl = s.find('\n', from);
  return nl == std::string::npos ? s.size() : nl + 1;
}

// The end of a value that may continue over lines: an array or inline table whose brackets
// are not closed at the end of its first line.
std::size_t value_end(const std::string& s, std::size_t value) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = value; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      quoted = c != '"';
    } else if (c == '"') {
      quoted = true;
    } else if (c == '#') {
      i = s.find('\n', i);
      if (i == std::string::npos) return s.size();
      if (depth == 0) return i + 1;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == '\n' && depth <= 0) {
      return i + 1;
    }
  }
  return s.size();
}

std::vector<toml_line> toml_lines(const std::string& s) {
  std::vector<toml_line> out;
  std::string section;
  for (std::size_t b = 0; b < s.size();) {
    std::size_t i = b;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    std::size_t e = line_end_after(s, b);
    if (i < s.size() && s[i] == '[') {
      const std::size_t close = s.find(']', i);
      if (close != std::string::npos && close < e) {
        std::size_t name = i;
        while (name < close && s[name] == '[') ++name;
        section = s.substr(name, close - name);
        out.push_back({b, e, e, section, ""});
      }
    } else if (i < s.size() && grammar_identifier_char(s[i])) {
      std::size_t k = i;
      while (k < s.size() && (grammar_identifier_char(s[k]) || s[k] == '.' || s[k] == '-')) ++k;
      std::size_t eq = k;
      while (eq < s.size() && (s[eq] == ' ' || s[eq] == '\t')) ++eq;
      if (eq < s.size() && s[eq] == '=') {
        std::size_t v = eq + 1;
        while (v < s.size() && (s[v] == ' ' || s[v] == '\t')) ++v;
        e = value_end(s, v);
        out.push_back({b, e, v, section, s.substr(i, k - i)});
      }
    }
    b = e;
  }
  return out;
}

}  // namespace

std::vector<structural_variant> toml_field_variants(const std::string& text,
                                                    std::vector<std::string>& seen) {
  static constexpr std::array<std::string_view, 14> wrong_values = {
      "\"text\"", "7",    "2.5",  "true",   "[1, 2]", "{ a = 1 }", "\"\"",
      "[]",       "[[]]", "{  }", "-1e308", "nan",    "1e-320",    "9223372036854775807"};
  std::vector<structural_variant> out;
  for (const toml_line& l : toml_lines(text)) {
    const std::string id = l.key.empty() ? "[" + l.section + "]" : l.section + "." + l.key;
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    const std::string line = text.substr(l.begin, l.end - l.begin);
    const std::string copy = line.empty() || line.back() != '\n' ? "\n" + line : line;
    out.push_back({text.substr(0, l.begin) + text.substr(l.end), id + " removed"});
    out.push_back({text.substr(0, l.end) + copy + text.substr(l.end), id + " duplicated"});
    if (l.key.empty()) continue;
    for (const auto w : wrong_values) {
      out.push_back({text.substr(0, l.value) + std::string(w) + "\n" + text.substr(l.end),
                     id + " = " + std::string(w)});
    }
  }
  return out;
}

std::vector<structural_variant> csv_field_variants(const std::string& text) {
  static constexpr std::array<std::string_view, 12> wrong_cells = {
      "abc", "", "true", "\"1\"", "[1]", "1e308", "-1e308", "1e-320", "nan", "inf", "1,2", "0x10"};
  std::vector<structural_variant> out;
  std::vector<std::string> rows;
  for (std::size_t b = 0; b < text.size();) {
    const std::size_t e = line_end_after(text, b);
    rows.push_back(text.substr(b, e - b));
    b = e;
  }
  if (rows.empty()) return out;
  auto split = [](const std::string& row) {
    std::vector<std::string> cells{""};
    for (char c : row) {
      if (c == ',') {
        cells.emplace_back();
      } else if (c != '\n' && c != '\r') {
        cells.back() += c;
      }
    }
    return cells;
  };
  auto join = [](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t k = 0; k < cells.size(); ++k) s += (k == 0 ? "" : ",") + cells[k];
    return s + "\n";
  };
  // The first line that is not a comment is the header.
  std::size_t header = 0;
  while (header < rows.size() && !rows[header].empty() && rows[header][0] == '#') ++header;
  if (header >= rows.size()) return out;
  const std::size_t columns = split(rows[header]).size();
  auto edited = [&](auto&& edit) {
    std::string s;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (r < header) {
        s += rows[r];
        continue;
      }
      std::vector<std::string> cells = split(rows[r]);
      edit(r, cells);
      s += join(cells);
    }
    return s;
  };
  for (std::size_t c = 0; c < columns; ++c) {
    out.push_back({edited([&](std::size_t, std::vector<std::string>& cells) {
                     if (c < cells.size()) cells.erase(cells.begin() + static_cast<long>(c));
                   }),
                   "column " + std::to_string(c + 1) + " removed"});
    out.push_back({edited([&](std::size_t, std::vector<std::string>& cells) {
                     if (c < cells.size())
                       cells.insert(cells.begin() + static_cast<long>(c), cells[c]);
                   }),
                   "column " + std::to_string(c + 1) + " duplicated"});
    for (const auto w : wrong_cells) {
      out.push_back({edited([&](std::size_t r, std::vector<std::string>& cells) {
                       if (r == header + 1 && c < cells.size()) cells[c] = std::string(w);
                     }),
                     "column " + std::to_string(c + 1) + " row 1 = '" + std::string(w) + "'"});
    }
  }
  std::string no_header, two_headers, no_rows, doubled_rows;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (r != header) no_header += rows[r];
    two_headers += rows[r] + (r == header ? rows[r] : "");
    if (r <= header) no_rows += rows[r];
    doubled_rows += rows[r] + (r > header ? rows[r] : "");
  }
  out.push_back({no_header, "header removed"});
  out.push_back({two_headers, "header duplicated"});
  out.push_back({no_rows, "data rows removed"});
  out.push_back({doubled_rows, "data rows duplicated"});
  return out;
}

}  // namespace kinevo::fuzz
