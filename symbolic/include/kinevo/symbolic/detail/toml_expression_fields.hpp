// The TOML field reader (io/detail/toml_fields.hpp) with the fields of the model and problem
// files that are numbers or expression strings over the file's names.
#pragma once

#include <ginac/ginac.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "kinevo/io/detail/toml_fields.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::symbolic {

class toml_expression_fields : public io::toml_fields {
 public:
  using io::toml_fields::toml_fields;

  // A number or an expression string.
  GiNaC::ex expression(const toml::table& t, std::string_view section, std::string_view key,
                       const expression_context& ctx) const;
  GiNaC::ex expression_or(const toml::table& t, std::string_view section, std::string_view key,
                          const expression_context& ctx, const GiNaC::ex& fallback) const;
  GiNaC::ex expression_of(const toml::node& node, const std::string& where,
                          const expression_context& ctx) const;
  // The value of a constant expression; a field that names a coordinate, velocity, t or a
  // [definitions] name is refused saying that it must be a constant.
  double constant_value(const GiNaC::ex& e, const std::string& where) const;
  // A constant (number or expression of parameters only).
  double constant(const toml::table& t, std::string_view section, std::string_view key,
                  const expression_context& ctx) const;
  double constant_or(const toml::table& t, std::string_view section, std::string_view key,
                     const expression_context& ctx, double fallback) const;
  // A fixed-length array of numbers/expressions (e.g. a 2-vector).
  std::vector<GiNaC::ex> vector(const toml::table& t, std::string_view section,
                                std::string_view key, const expression_context& ctx,
                                std::size_t length) const;
  std::vector<GiNaC::ex> vector_or(const toml::table& t, std::string_view section,
                                   std::string_view key, const expression_context& ctx,
                                   std::size_t length,
                                   const std::vector<GiNaC::ex>& fallback) const;
};

}  // namespace kinevo::symbolic
