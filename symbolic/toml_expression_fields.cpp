#include "kinevo/symbolic/detail/toml_expression_fields.hpp"

#include <fmt/format.h>

#include <cstdint>

#include "kinevo/io/errors.hpp"

namespace kinevo::symbolic {

GiNaC::ex toml_expression_fields::expression_of(const toml::node& n, const std::string& at,
                                                const expression_context& ctx) const {
  if (n.is_integer()) return GiNaC::numeric(static_cast<long>(n.value<int64_t>().value_or(0)));
  // NaN and infinity (TOML's nan, inf) are refused here, naming the field; CLN would throw
  // "floating point NaN occurred" with no file or line. Subnormals are kept exactly.
  if (n.is_floating_point()) return symbolic::number(n.value<double>().value_or(0.0), at);
  if (n.is_string()) return ctx.parse(n.value<std::string>().value_or(""), at);
  fail(at, "must be a number or an expression string");
}

GiNaC::ex toml_expression_fields::expression(const toml::table& t, std::string_view section,
                                             std::string_view key,
                                             const expression_context& ctx) const {
  const toml::node* n = t.get(key);
  if (n == nullptr) fail_field(t, section, key, "missing");
  return expression_of(*n, field_where(t, section, key), ctx);
}

GiNaC::ex toml_expression_fields::expression_or(const toml::table& t, std::string_view section,
                                                std::string_view key, const expression_context& ctx,
                                                const GiNaC::ex& fallback) const {
  return t.contains(key) ? expression(t, section, key, ctx) : fallback;
}

double toml_expression_fields::constant_value(const GiNaC::ex& e, const std::string& at) const {
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (GiNaC::is_a<GiNaC::symbol>(*it)) {
      fail(at, fmt::format("must be a constant (a number or an expression of parameters), but it "
                           "names '{}' (a coordinate, velocity, t or definition)",
                           io::excerpt(GiNaC::ex_to<GiNaC::symbol>(*it).get_name(), 40)));
    }
  }
  return to_double(e, at);
}

double toml_expression_fields::constant(const toml::table& t, std::string_view section,
                                        std::string_view key, const expression_context& ctx) const {
  return constant_value(expression(t, section, key, ctx), field_where(t, section, key));
}

double toml_expression_fields::constant_or(const toml::table& t, std::string_view section,
                                           std::string_view key, const expression_context& ctx,
                                           double fallback) const {
  return t.contains(key) ? constant(t, section, key, ctx) : fallback;
}

std::vector<GiNaC::ex> toml_expression_fields::vector(const toml::table& t,
                                                      std::string_view section,
                                                      std::string_view key,
                                                      const expression_context& ctx,
                                                      std::size_t length) const {
  const toml::array& a = array(t, section, key, length);
  std::vector<GiNaC::ex> v;
  for (const auto& e : a) v.push_back(expression_of(e, field_where(t, section, key), ctx));
  return v;
}

std::vector<GiNaC::ex> toml_expression_fields::vector_or(
    const toml::table& t, std::string_view section, std::string_view key,
    const expression_context& ctx, std::size_t length,
    const std::vector<GiNaC::ex>& fallback) const {
  return t.contains(key) ? vector(t, section, key, ctx, length) : fallback;
}

}  // namespace kinevo::symbolic
