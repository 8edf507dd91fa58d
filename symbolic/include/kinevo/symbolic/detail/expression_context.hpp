// Names usable in model and problem expressions (coordinates, velocities, t, parameters) and
// the parser that turns text into GiNaC expressions with those names. Parsing happens once at
// load; nothing here is used in a step loop.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/symbolic/expression_grammar.hpp"

namespace kinevo::symbolic {

class expression_context {
 public:
  expression_context();
  expression_context(const expression_context& other);
  expression_context& operator=(const expression_context& other);
  expression_context(expression_context&&) noexcept;
  expression_context& operator=(expression_context&&) noexcept;
  ~expression_context();

  // A new symbol usable in expressions; throws io::input_error (naming `where`) if the name is
  // taken or is not an identifier.
  GiNaC::symbol add_symbol(const std::string& name, const std::string& where);
  // A named constant (a parameter): expressions see its value, not a symbol. Throws
  // io::input_error naming `where` when the value is not finite.
  void add_constant(const std::string& name, double value, const std::string& where);
  bool has(const std::string& name) const { return table_.count(name) != 0; }

  // Parses `text`. Throws io::input_error "<where>: unknown name 'l3' in '<text>' (not <name
  // kinds>; known names: ...)" for an undefined name, otherwise "<where>: cannot parse '<text>':
  // <reason>" with a plain reason (unknown function with the supported ones,
  // ambiguous a^b^c, a number out of the double range, ...); the text is echoed to at most 80
  // characters. abs, sign and step parse to their real versions
  // (symbolic/detail/real_functions.hpp).
  GiNaC::ex parse(const std::string& text, const std::string& where) const;
  // Parses and evaluates an expression that may only use constants (parameters, pi).
  double evaluate_constant(const std::string& text, const std::string& where) const;

  // The names known, for messages (the first 20 and how many more).
  std::string known_names() const;
  // Every name expressions may use here, sorted: the built-in constants (pi, Pi) and the names
  // added since. The grammar fuzzer (tests/fuzz/) draws its constants from a fresh context's.
  std::vector<std::string> names() const;

  // What a name may be in these expressions, for the unknown-name message: "unknown name 'l3'
  // in '...' (not a coordinate, velocity, parameter or definition; known names: ...)".
  // Empty (the default) gives "(known names: ...)" alone.
  void set_name_kinds(std::string kinds) { name_kinds_ = std::move(kinds); }

  // Named intermediate expressions (a model file's [definitions]): each is a symbol added with
  // add_symbol() and, once all are parsed, mapped here to its expression free of other
  // definitions. From then on parse() returns expressions with the definitions substituted, so
  // that derivatives taken later are exact.
  void set_substitutions(GiNaC::exmap map) { substitutions_ = std::move(map); }
  // `e` with the definitions substituted; throws io::input_error naming `where` when the result
  // is beyond the limits of check_substituted_limits().
  GiNaC::ex substitute(const GiNaC::ex& e, const std::string& where) const;

 private:
  // Throws io::input_error naming `where` when an exact power in `text` would have more than
  // max_exact_digits digits (its names' values counted): GiNaC computes those while reading.
  void check_exact_sizes(const std::string& text, const std::string& where) const;

  GiNaC::symtab table_;
  std::vector<std::string> order_;
  std::string name_kinds_;
  GiNaC::exmap substitutions_;
  // One parser for all expressions, made on first use: GiNaC's parser copies the symbol table
  // when it is made, which made every parse O(number of names) and loading quadratic.
  mutable std::unique_ptr<GiNaC::parser> parser_;
  void define(const std::string& name, const GiNaC::ex& value);
};

// Limits on expression text, far below what overflows GiNaC's recursive parser (about 8,000
// nested brackets in a release build, fewer under AddressSanitizer) and above any real model.
inline constexpr std::size_t max_expression_depth = 200;
inline constexpr std::size_t max_expression_length = 100'000;
// Exact numbers (integers and rationals, the values of exact literals and of doubles read from
// a file) beyond this many decimal digits are refused where a power would make them: GiNaC
// computes them exactly while it reads the text (((9^999)^999)^999 did not finish). Far
// above a model's numbers: a double is an exact rational of at most about 1,100 digits.
inline constexpr std::size_t max_exact_digits = 100'000;

// Throws io::input_error naming `where` when `text` is longer than max_expression_length,
// nests deeper than max_expression_depth, chains powers (a^b^c, which GiNaC refuses with an
// internal message), or holds a number literal longer than 1,000 characters, with a decimal
// exponent beyond +-1000, or written as a power's exponent (after ^ or as pow's second argument)
// and larger than 1024 in magnitude (CLN would expand those exactly: a hang); parse() calls it
// before GiNaC sees the text.
void check_expression_limits(const std::string& text, const std::string& where);

// Limits on an expression with its definitions written out. Definitions nested in each other
// make trees far larger and deeper than any text (a_k = "sin(a_j) + cos(a_j)" with j = k - 1
// doubles the tree at each line, a_k = "sin(a_j)" deepens it by one): GiNaC shares the copies
// in memory, but its tree walks (diff, subs, printing) are recursive and visit every copy, so
// they would overflow the stack or not finish. Both far above a real model; the size limit
// matches max_expression_length (a constraint of 100,000 nodes takes about 15 s to load: its
// second derivatives are built for gamma).
inline constexpr std::size_t max_substituted_depth = 4 * max_expression_depth;
inline constexpr std::size_t max_substituted_size = 100'000;

// e.subs(map) for symbols as keys; throws io::input_error naming `where` when the result is
// undefined (GiNaC evaluates while substituting: d = "x - x" makes "1/d" a division by zero)
// or beyond the limits of check_substituted_limits().
GiNaC::ex substitute_symbols(const GiNaC::ex& e, const GiNaC::exmap& map, const std::string& where);

// Throws io::input_error naming `where` when `e`, counted as a tree (every shared copy
// counted), nests deeper than max_substituted_depth or has more than max_substituted_size
// nodes. Linear in the number of distinct nodes.
void check_substituted_limits(const GiNaC::ex& e, const std::string& where);

// True when `name` is a valid identifier for expressions ([A-Za-z_][A-Za-z0-9_]*).
bool is_identifier(const std::string& name);

// A finite double from a file as a GiNaC number; throws io::input_error naming `where` for NaN
// or infinity ("must be a finite number"). Subnormal values are kept exactly.
GiNaC::ex number(double value, const std::string& where);

// Converts a numeric (constant-only) expression to double; throws io::input_error naming
// `where` if it still contains symbols or is not real and finite.
double to_double(const GiNaC::ex& e, const std::string& where);

}  // namespace kinevo::symbolic
