// Reading fields of a TOML model file with messages that name the file, line and field.
// Values may be numbers or expression strings over the model's names.
#pragma once

#include <ginac/ginac.h>

#include <toml++/toml.h>
#include <string>

#include <string_view>
#include <vector>
#include "kinevo/io/csv_table.hpp"

#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::mechanics {

// Parses a model file's text (a byte-order mark is skipped); a syntax error is io::input_error
// "source:line: description".
toml::table parse_model_toml(std::string_view text, const std::string& source);

class toml_fields {
 public:
  explicit toml_fields(std::string source) : source_(std::move(source)) {}
  const std::string& source() const { return source_; }

  // "file:line" of a node (or of the file when the node has no position).
  std::string where(const toml::node* node) const;
  std::string where(const toml::node& node) const { return where(&node); }
  // "file:line: [[section]] 'name' field 'key'"-style location of a field in a table.
  std::string field_where(const toml::table& t, std::string_view section,
                          std::string_view key) const;

  [[noreturn]] void fail(const std::string& where, const std::string& message) const;

  bool has(const toml::table& t, std::string_view key) const { return t.contains(key); }
  std::string string(const toml::table& t, std::string_view section, std::string_view key) const;
  std::string string_or(const toml::table& t, std::string_view section, std::string_view key,
                        const std::string& fallback) const;
  bool boolean_or(const toml::table& t, std::string_view section, std::string_view key,
                  bool fallback) const;
  // A number or an expression string.
  GiNaC::ex expression(const toml::table& t, std::string_view section, std::string_view key,
                       const symbolic::expression_context& ctx) const;
  GiNaC::ex expression_or(const toml::table& t, std::string_view section, std::string_view key,
                          const symbolic::expression_context& ctx, const GiNaC::ex& fallback) const;
  GiNaC::ex expression_of(const toml::node& node, const std::string& where,
                          const symbolic::expression_context& ctx) const;
  // The value of a constant expression; a field that names a coordinate, velocity, t or a
  // [definitions] name is refused saying that it must be a constant.
  double constant_value(const GiNaC::ex& e, const std::string& where) const;
  // A constant (number or expression of parameters only).
  double constant(const toml::table& t, std::string_view section, std::string_view key,
                  const symbolic::expression_context& ctx) const;
  double constant_or(const toml::table& t, std::string_view section, std::string_view key,
                     const symbolic::expression_context& ctx, double fallback) const;
  // A fixed-length array of numbers/expressions (e.g. a 2-vector).
  std::vector<GiNaC::ex> vector(const toml::table& t, std::string_view section,
                                std::string_view key, const symbolic::expression_context& ctx,
                                std::size_t length) const;
  std::vector<GiNaC::ex> vector_or(const toml::table& t, std::string_view section,
                                   std::string_view key, const symbolic::expression_context& ctx,
                                   std::size_t length,
                                   const std::vector<GiNaC::ex>& fallback) const;
  // Rejects keys outside `allowed` (catches typos such as "intial").
  void only_keys(const toml::table& t, std::string_view section,
                 const std::vector<std::string_view>& allowed) const;
  // The tables of an array of tables [[key]] (empty if absent).
  std::vector<const toml::table*> tables(const toml::table& root, std::string_view key) const;

 private:
  std::string source_;
};

// The keys of a map by name as "a, b, c, ... (n more)" for a message: at most 20, each cut short
// (a model may have thousands of bodies, and a name may be huge).
template <class Map>
std::string listed_names(const Map& all) {
  std::string names;
  std::size_t listed = 0;
  for (const auto& entry : all) {
    if (listed++ == 20) {
      names += ", ... (" + std::to_string(all.size() - 20) + " more)";
      break;
    }
    names += (names.empty() ? "" : ", ") + io::excerpt(entry.first, 40);
  }
  return names;
}

}  // namespace kinevo::mechanics
