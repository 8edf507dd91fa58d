// Mutations that follow the inputs' grammars, for the loader fuzz harness (issue 31): random
// expressions of the expression language (every function the reader knows called with 0 to 3
// arguments, nesting, every operator, every constant, extreme literals) put into the
// expression fields of TOML files and the cells of CSV tables, and the TOML structure changed
// field by field (removed, duplicated, given a value of each wrong type). Byte-level mutations
// (mutator.hpp) rarely produce a well-formed call such as `sin()`, which crashed every reader
// of expressions; these do so on purpose.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "mutator.hpp"

namespace kinevo::fuzz {

// What expressions may contain, taken from the expression reader itself
// (symbolic::expression_functions() and the constants of a fresh symbolic::expression_context),
// so that a function added there is fuzzed without a change here.
struct grammar_vocabulary {
  struct function {
    std::string name;
    std::size_t arity = 0;
  };
  std::vector<function> functions;
  std::vector<std::string> constants;
  std::vector<std::string> operators;  // binary: + - * / ^
  std::vector<std::string> extreme_literals;
};
grammar_vocabulary vocabulary_from_reader();

// A random expression of at most `depth` levels. `names` are identifiers of the file being
// mutated (coordinates, parameters), so that many expressions get past the unknown-name check.
std::string random_expression(const grammar_vocabulary& v, const std::vector<std::string>& names,
                              random_source& rng, int depth);

// Every function with 0, 1, 2 and 3 arguments, every operator alone and between operands, every
// constant and every extreme literal alone and inside calls: the probes every run makes.
std::vector<std::string> probe_expressions(const grammar_vocabulary& v);

// The identifiers in the quoted strings and keys of a file (candidate names for expressions).
std::vector<std::string> identifiers_in(const std::string& text);

// `text` with the value at one random expression site replaced by `expression`: in a TOML file
// a quoted string or a bare number after '=' or inside an array (the new value is quoted), in
// a CSV table a cell (written bare). False when the text has no such site.
bool put_expression(std::string& text, const std::string& expression, bool csv, random_source& rng);

// One change of the file's structure: the mutated text and what was done, for messages.
struct structural_variant {
  std::string text;
  std::string what;
};

// Every field of every section of a TOML text (the first occurrence of each section.key not in
// `seen`, which is updated) removed, duplicated, and given a value of each wrong type (string,
// integer, float, bool, array, table, empty string, empty array, extreme numbers); every
// section header removed and duplicated.
std::vector<structural_variant> toml_field_variants(const std::string& text,
                                                    std::vector<std::string>& seen);

// Every column of a CSV table removed and duplicated, its first value given each wrong kind of
// cell, the header and the data rows removed and duplicated.
std::vector<structural_variant> csv_field_variants(const std::string& text);

}  // namespace kinevo::fuzz
