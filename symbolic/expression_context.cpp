#include "symbolic/expression_context.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "io/csv_table.hpp"

namespace kinevo::symbolic {

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

GiNaC::symbol expression_context::add_symbol(const std::string& name, const std::string& where) {
  if (!is_identifier(name)) {
    throw io::input_error(
        fmt::format("{}: '{}' is not a valid name (letters, digits, '_')", where, name));
  }
  if (table_.count(name) != 0) {
    throw io::input_error(fmt::format("{}: the name '{}' is already defined", where, name));
  }
  GiNaC::symbol s(name);
  table_[name] = s;
  order_.push_back(name);
  return s;
}

void expression_context::add_constant(const std::string& name, double value,
                                      const std::string& where) {
  if (!is_identifier(name)) {
    throw io::input_error(
        fmt::format("{}: '{}' is not a valid name (letters, digits, '_')", where, name));
  }
  if (table_.count(name) != 0) {
    throw io::input_error(fmt::format("{}: the name '{}' is already defined", where, name));
  }
  table_[name] = GiNaC::numeric(value);
  order_.push_back(name);
}

std::string expression_context::known_names() const {
  std::string s;
  for (const auto& n : order_) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "(none)" : s;
}

void check_expression_limits(const std::string& text, const std::string& where) {
  if (text.size() > max_expression_length) {
    throw io::input_error(fmt::format("{}: expression is {} characters long, more than the limit "
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
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
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
}

GiNaC::ex expression_context::parse(const std::string& text, const std::string& where) const {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw io::input_error(fmt::format("{}: empty expression", where));
  }
  check_expression_limits(text, where);
  GiNaC::parser reader(table_, true);
  try {
    GiNaC::ex e = reader(text);
    if (GiNaC::has(e, GiNaC::I)) {
      throw io::input_error(fmt::format("{}: '{}' is not real", where, text));
    }
    return e;
  } catch (const io::input_error&) {
    throw;
  } catch (const std::exception& err) {
    // GiNaC reports an unknown identifier as "symbol ... not found": list the known names.
    const std::string why = err.what();
    if (why.find("not found") != std::string::npos) {
      throw io::input_error(fmt::format("{}: cannot parse '{}': {} (known names: {})", where, text,
                                        why, known_names()));
    }
    throw io::input_error(fmt::format("{}: cannot parse '{}': {}", where, text, why));
  }
}

double to_double(const GiNaC::ex& e, const std::string& where) {
  GiNaC::ex v = GiNaC::evalf(e);
  if (!GiNaC::is_a<GiNaC::numeric>(v) || !GiNaC::ex_to<GiNaC::numeric>(v).is_real()) {
    std::ostringstream os;
    os << e;
    throw io::input_error(fmt::format("{}: '{}' is not a constant number here", where, os.str()));
  }
  const double d = GiNaC::ex_to<GiNaC::numeric>(v).to_double();
  if (!std::isfinite(d)) throw io::input_error(fmt::format("{}: value is not finite", where));
  return d;
}

double expression_context::evaluate_constant(const std::string& text,
                                             const std::string& where) const {
  return to_double(parse(text, where), where);
}

}  // namespace kinevo::symbolic
