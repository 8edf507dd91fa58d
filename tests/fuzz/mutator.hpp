// A deterministic mutator of text inputs for the loader fuzz harness: the same seed gives the
// same inputs on every machine (its own generator and bounded draws, not the standard library's
// distributions, whose results differ between implementations).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kinevo::fuzz {

// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators").
class random_source {
 public:
  explicit random_source(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // In [0, n), n > 0 (modulo bias is irrelevant here).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

 private:
  std::uint64_t state_;
};

// The kinds of mutation, each aimed at a class of defect seen in loaders.
enum class mutation {
  flip_byte,           // random corruption
  special_number,      // a number replaced by nan, inf, 1e308, -0, subnormals, huge integers
  insert_number,       // such a number inserted anywhere
  deep_nesting,        // a value wrapped in many brackets or exp(-exp(...)) (stack depth)
  expression_snippet,  // abs(x), 2^3^2, {x}, 1/0, unknown names and functions
  truncate,            // the file cut short
  duplicate_line,      // duplicated keys, sections, rows
  delete_line,
  swap_lines,
  byte_order_mark,  // a UTF-8 BOM at the start or before a line
  structural_char,  // stray [, ], {, }, ", =, ',', newline, #
  long_token        // a very long cell or string (message size)
};
inline constexpr int mutation_kinds = 12;

const char* to_string(mutation m);

// Applies 1 to 3 random mutations to `text`; `applied` receives their kinds.
std::string mutate(const std::string& text, random_source& rng, std::vector<mutation>& applied);

}  // namespace kinevo::fuzz
