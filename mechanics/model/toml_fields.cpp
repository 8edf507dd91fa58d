#include "kinevo/mechanics/model/detail/toml_fields.hpp"

#include <fmt/format.h>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/io/toml_syntax.hpp"

namespace kinevo::mechanics {

toml::table parse_model_toml(std::string_view text, const std::string& source) {
  try {
    return toml::parse(io::strip_byte_order_mark(text), source);
  } catch (const toml::parse_error& e) {
    throw io::input_error(fmt::format("{}:{}: {}", source, e.source().begin.line,
                                      io::toml_syntax_reason(e.description())));
  }
}

std::string toml_fields::where(const toml::node* node) const {
  if (node == nullptr || node->source().begin.line == 0) return source_;
  return fmt::format("{}:{}", source_, node->source().begin.line);
}

std::string toml_fields::field_where(const toml::table& t, std::string_view section,
                                     std::string_view key) const {
  std::string label(section);
  if (const auto* n = t.get("name"); n != nullptr && n->is_string()) {
    label += fmt::format(" '{}'", io::excerpt(n->value<std::string>().value_or(""), 40));
  }
  const toml::node* at = t.get(key);
  return fmt::format("{}: {} field '{}'", where(at != nullptr ? at : &t), label, key);
}

void toml_fields::fail(const std::string& at, const std::string& message) const {
  throw io::input_error(fmt::format("{}: {}", at, message));
}

std::string toml_fields::string(const toml::table& t, std::string_view section,
                                std::string_view key) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail(field_where(t, section, key), "missing");
  if (!n->is_string()) fail(field_where(t, section, key), "must be a string");
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
  if (!n->is_boolean()) fail(field_where(t, section, key), "must be true or false");
  return n->value<bool>().value_or(fallback);
}

GiNaC::ex toml_fields::expression_of(const toml::node& n, const std::string& at,
                                     const symbolic::expression_context& ctx) const {
  if (n.is_integer()) return GiNaC::numeric(static_cast<long>(n.value<int64_t>().value_or(0)));
  // NaN and infinity (TOML's nan, inf) are refused here, naming the field; CLN would throw
  // "floating point NaN occurred" with no file or line. Subnormals are kept exactly.
  if (n.is_floating_point()) return symbolic::number(n.value<double>().value_or(0.0), at);
  if (n.is_string()) return ctx.parse(n.value<std::string>().value_or(""), at);
  fail(at, "must be a number or an expression string");
}

GiNaC::ex toml_fields::expression(const toml::table& t, std::string_view section,
                                  std::string_view key,
                                  const symbolic::expression_context& ctx) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail(field_where(t, section, key), "missing");
  return expression_of(*n, field_where(t, section, key), ctx);
}

GiNaC::ex toml_fields::expression_or(const toml::table& t, std::string_view section,
                                     std::string_view key, const symbolic::expression_context& ctx,
                                     const GiNaC::ex& fallback) const {
  return t.contains(key) ? expression(t, section, key, ctx) : fallback;
}

double toml_fields::constant_value(const GiNaC::ex& e, const std::string& at) const {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (GiNaC::is_a<GiNaC::symbol>(*it)) {
      fail(at, fmt::format("must be a constant (a number or an expression of parameters), but it "
                           "names '{}' (a coordinate, velocity, t or definition)",
                           io::excerpt(GiNaC::ex_to<GiNaC::symbol>(*it).get_name(), 40)));
    }
  }
  return symbolic::to_double(e, at);
}

double toml_fields::constant(const toml::table& t, std::string_view section, std::string_view key,
                             const symbolic::expression_context& ctx) const {
  return constant_value(expression(t, section, key, ctx), field_where(t, section, key));
}

double toml_fields::constant_or(const toml::table& t, std::string_view section,
                                std::string_view key, const symbolic::expression_context& ctx,
                                double fallback) const {
  return t.contains(key) ? constant(t, section, key, ctx) : fallback;
}

std::vector<GiNaC::ex> toml_fields::vector(const toml::table& t, std::string_view section,
                                           std::string_view key,
                                           const symbolic::expression_context& ctx,
                                           std::size_t length) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail(field_where(t, section, key), "missing");
  const toml::array* a = n->as_array();
  if (a == nullptr || a->size() != length) {
    fail(field_where(t, section, key), fmt::format("must be an array of {} values", length));
  }
  std::vector<GiNaC::ex> v;
  for (const auto& e : *a) v.push_back(expression_of(e, field_where(t, section, key), ctx));
  return v;
}

std::vector<GiNaC::ex> toml_fields::vector_or(const toml::table& t, std::string_view section,
                                              std::string_view key,
                                              const symbolic::expression_context& ctx,
                                              std::size_t length,
                                              const std::vector<GiNaC::ex>& fallback) const {
  return t.contains(key) ? vector(t, section, key, ctx, length) : fallback;
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
                                 io::excerpt(k.str(), 40), list));
    }
  }
}

std::vector<const toml::table*> toml_fields::tables(const toml::table& root,
                                                    std::string_view key) const {
  std::vector<const toml::table*> out;
  const toml::node* n = root.get(key);
  if (n == nullptr) return out;
  const toml::array* a = n->as_array();
  if (a == nullptr) fail(where(n), fmt::format("'{}' must be written as [[{}]] tables", key, key));
  for (const auto& e : *a) {
    if (!e.is_table())
      fail(where(e), fmt::format("'{}' must be written as [[{}]] tables", key, key));
    out.push_back(e.as_table());
  }
  return out;
}

}  // namespace kinevo::mechanics
