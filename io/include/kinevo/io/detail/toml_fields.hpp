// Reading the fields of a TOML file with messages that name the file, the line and the field,
// in one style for every file format kinevo reads (model, problem, config, cam, chain and loop
// chain files): "file:line: [section] 'name' field 'key': what is wrong". The expression fields
// of the model and problem files (numbers or expression strings) are read by the subclass in
// symbolic/ (symbolic/detail/toml_expression_fields.hpp).
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kinevo::io {

// Parses a TOML file's text (a byte-order mark is skipped); a syntax error is io::input_error
// "source:line: description" in kinevo's words (toml_syntax.hpp).
toml::table parse_toml(std::string_view text, const std::string& source);

class toml_fields {
 public:
  explicit toml_fields(std::string source) : source_(std::move(source)) {}
  const std::string& source() const { return source_; }

  // "file:line" of a node (or of the file when the node has no position).
  std::string where(const toml::node* node) const;
  std::string where(const toml::node& node) const { return where(&node); }
  // "file:line: <section> 'name' field 'key'": the field's line when it is present, else the
  // table's; the table's `name` when it has one; "file:line: field 'key'" for an empty section.
  std::string field_where(const toml::table& t, std::string_view section,
                          std::string_view key) const;

  // Throws io::input_error "<where>: <message>".
  [[noreturn]] void fail(const std::string& where, const std::string& message) const;
  // Throws io::input_error "<field_where(t, section, key)>: <message>".
  [[noreturn]] void fail_field(const toml::table& t, std::string_view section, std::string_view key,
                               const std::string& message) const;

  bool has(const toml::table& t, std::string_view key) const { return t.contains(key); }
  std::string string(const toml::table& t, std::string_view section, std::string_view key) const;
  std::string string_or(const toml::table& t, std::string_view section, std::string_view key,
                        const std::string& fallback) const;
  bool boolean_or(const toml::table& t, std::string_view section, std::string_view key,
                  bool fallback) const;
  // A finite number (a TOML integer or float).
  double number(const toml::table& t, std::string_view section, std::string_view key) const;
  double number_or(const toml::table& t, std::string_view section, std::string_view key,
                   double fallback) const;
  double number_of(const toml::node& node, const std::string& where) const;
  // A TOML integer in [min, max].
  std::int64_t integer(const toml::table& t, std::string_view section, std::string_view key,
                       std::int64_t min, std::int64_t max) const;
  std::int64_t integer_or(const toml::table& t, std::string_view section, std::string_view key,
                          std::int64_t min, std::int64_t max, std::int64_t fallback) const;
  // An array (of any length when `length` is 0).
  const toml::array& array(const toml::table& t, std::string_view section, std::string_view key,
                           std::size_t length = 0) const;
  // An array of finite numbers (of any length when `length` is 0).
  std::vector<double> numbers(const toml::table& t, std::string_view section, std::string_view key,
                              std::size_t length = 0) const;
  // Rejects keys outside `allowed` (catches typos such as "intial"):
  // "file:line: <section>: unknown field 'key' (expected one of: a, b)".
  void only_keys(const toml::table& t, std::string_view section,
                 const std::vector<std::string_view>& allowed) const;
  // The table [key] of `t` (nullptr if absent).
  const toml::table* table(const toml::table& t, std::string_view section,
                           std::string_view key) const;
  // The tables of an array of tables [[key]] (empty if absent).
  std::vector<const toml::table*> tables(const toml::table& root, std::string_view key) const;

 private:
  std::string source_;
};

}  // namespace kinevo::io
