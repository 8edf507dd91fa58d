#include "kinevo/io/detail/toml_fields.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"

namespace kinevo::io {

toml::table parse_toml(std::string_view text, const std::string& source) {
  try {
    return toml::parse(strip_byte_order_mark(text), source);
  } catch (const toml::parse_error& e) {
    throw input_error(fmt::format("{}:{}: {}", source, e.source().begin.line,
                                  toml_syntax_reason(e.description())));
  }
}

std::string toml_fields::where(const toml::node* node) const {
  if (node == nullptr || node->source().begin.line == 0) return source_;
  return fmt::format("{}:{}", source_, node->source().begin.line);
}

std::string toml_fields::field_where(const toml::table& t, std::string_view section,
                                     std::string_view key) const {
  std::string label(section);
  // The name tells the tables of an array [[section]] apart (the top level's is the file's).
  if (const auto* n = t.get("name"); !section.empty() && n != nullptr && n->is_string()) {
    label += fmt::format(" '{}'", excerpt(n->value<std::string>().value_or(""), 40));
  }
  const toml::node* at = t.get(key);
  return fmt::format("{}: {}{}field '{}'", where(at != nullptr ? at : &t), label,
                     label.empty() ? "" : " ", excerpt(key, 40));
}

void toml_fields::fail(const std::string& at, const std::string& message) const {
  throw input_error(fmt::format("{}: {}", at, message));
}

void toml_fields::fail_field(const toml::table& t, std::string_view section, std::string_view key,
                             const std::string& message) const {
  fail(field_where(t, section, key), message);
}

std::string toml_fields::string(const toml::table& t, std::string_view section,
                                std::string_view key) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail_field(t, section, key, "missing");
  if (!n->is_string()) fail_field(t, section, key, "must be a string");
  return n->value<std::string>().value_or("");
}

std::string toml_fields::string_or(const toml::table& t, std::string_view section,
                                   std::string_view key, const std::string& fallback) const {
  return t.contains(key) ? string(t, section, key) : fallback;
}

bool toml_fields::boolean_or(const toml::table& t, std::string_view section, std::string_view key,
                             bool fallback) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return fallback;
  if (!n->is_boolean()) fail_field(t, section, key, "must be true or false");
  return n->value<bool>().value_or(fallback);
}

double toml_fields::number_of(const toml::node& n, const std::string& at) const {
  const auto v = n.is_number() ? n.value<double>() : std::nullopt;  // integers convert too
  if (!v || !std::isfinite(*v)) fail(at, "must be a finite number");
  return *v;
}

double toml_fields::number(const toml::table& t, std::string_view section,
                           std::string_view key) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail_field(t, section, key, "missing");
  return number_of(*n, field_where(t, section, key));
}

double toml_fields::number_or(const toml::table& t, std::string_view section, std::string_view key,
                              double fallback) const {
  return t.contains(key) ? number(t, section, key) : fallback;
}

std::int64_t toml_fields::integer(const toml::table& t, std::string_view section,
                                  std::string_view key, std::int64_t min, std::int64_t max) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail_field(t, section, key, "missing");
  const auto v = n->value_exact<std::int64_t>();
  if (!v || *v < min || *v > max) {
    fail_field(t, section, key, fmt::format("must be an integer in [{}, {}]", min, max));
  }
  return *v;
}

std::int64_t toml_fields::integer_or(const toml::table& t, std::string_view section,
                                     std::string_view key, std::int64_t min, std::int64_t max,
                                     std::int64_t fallback) const {
  return t.contains(key) ? integer(t, section, key, min, max) : fallback;
}

const toml::array& toml_fields::array(const toml::table& t, std::string_view section,
                                      std::string_view key, std::size_t length) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail_field(t, section, key, "missing");
  const toml::array* a = n->as_array();
  if (a == nullptr && length == 0) fail_field(t, section, key, "must be an array");
  if (a == nullptr || (length != 0 && a->size() != length)) {
    fail_field(t, section, key, fmt::format("must be an array of {} values", length));
  }
  return *a;
}

std::vector<double> toml_fields::numbers(const toml::table& t, std::string_view section,
                                         std::string_view key, std::size_t length) const {
  const toml::array& a = array(t, section, key, length);
  std::vector<double> v;
  v.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    v.push_back(number_of(a[i], fmt::format("{} item {}", field_where(t, section, key), i + 1)));
  }
  return v;
}

void toml_fields::only_keys(const toml::table& t, std::string_view section,
                            const std::vector<std::string_view>& allowed) const {
  for (const auto& [k, v] : t) {
    bool ok = false;
    for (auto a : allowed) ok = ok || k.str() == a;
    if (!ok) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(where(v), fmt::format("{}: unknown field '{}' (expected one of: {})", section,
                                 excerpt(k.str(), 40), list));
    }
  }
}

const toml::table* toml_fields::table(const toml::table& t, std::string_view section,
                                      std::string_view key) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) return nullptr;
  if (!n->is_table()) fail_field(t, section, key, fmt::format("must be a table [{}]", key));
  return n->as_table();
}

std::vector<const toml::table*> toml_fields::tables(const toml::table& root,
                                                    std::string_view key) const {
  std::vector<const toml::table*> out;
  const toml::node* n = root.get(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) fail(where(n), fmt::format("'{}' must be written as [[{}]] tables", key, key));
  for (const auto& e : *a) {
    if (!e.is_table()) {
      fail(where(e), fmt::format("'{}' must be written as [[{}]] tables", key, key));
    }
    out.push_back(e.as_table());
  }
  return out;
}

}  // namespace kinevo::io
