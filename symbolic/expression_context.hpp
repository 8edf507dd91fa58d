// Names usable in model and problem expressions (coordinates, velocities, t, parameters) and
// the parser that turns text into GiNaC expressions with those names. Parsing happens once at
// load; nothing here is used in a step loop.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace kinevo::symbolic {

class expression_context {
 public:
  expression_context();

  // A new symbol usable in expressions; throws io::input_error (naming `where`) if the name is
  // taken or is not an identifier.
  GiNaC::symbol add_symbol(const std::string& name, const std::string& where);
  // A named constant (a parameter): expressions see its value, not a symbol.
  void add_constant(const std::string& name, double value, const std::string& where);
  bool has(const std::string& name) const { return table_.count(name) != 0; }

  // Parses `text`. Throws io::input_error "<where>: cannot parse '<text>': <reason>", naming the
  // unknown name and the available ones when that is the reason.
  GiNaC::ex parse(const std::string& text, const std::string& where) const;
  // Parses and evaluates an expression that may only use constants (parameters, pi).
  double evaluate_constant(const std::string& text, const std::string& where) const;

  // The names known, for messages.
  std::string known_names() const;

 private:
  GiNaC::symtab table_;
  std::vector<std::string> order_;
};

// Limits on expression text, far below what overflows GiNaC's recursive parser (about 8,000
// nested brackets in a release build, fewer under AddressSanitizer) and above any real model.
inline constexpr std::size_t max_expression_depth = 200;
inline constexpr std::size_t max_expression_length = 100'000;

// Throws io::input_error naming `where` when `text` is longer than max_expression_length or
// nests deeper than max_expression_depth; parse() calls it before GiNaC sees the text.
void check_expression_limits(const std::string& text, const std::string& where);

// True when `name` is a valid identifier for expressions ([A-Za-z_][A-Za-z0-9_]*).
bool is_identifier(const std::string& name);

// Converts a numeric (constant-only) expression to double; throws io::input_error naming
// `where` if it still contains symbols or is not real and finite.
double to_double(const GiNaC::ex& e, const std::string& where);

}  // namespace kinevo::symbolic
