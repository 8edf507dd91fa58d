#include "kinevo/symbolic/detail/constraint_derivatives.hpp"

#include <fmt/format.h>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::symbolic {

namespace {
constraint_row_expressions from_velocity_form(const GiNaC::ex& c, const coordinate_symbols& s) {
  constraint_row_expressions r;
  r.velocity = c;
  for (const int j : s.velocities_in(c)) {
    const GiNaC::ex a = c.diff(s.velocities()[static_cast<std::size_t>(j)]);
    if (!a.is_zero()) r.jacobian.emplace_back(j, a);
  }
  // Terms in ascending coordinate order, as a loop over every coordinate adds them (adding
  // the zero terms of absent coordinates changes nothing), so the expression is the same.
  GiNaC::ex b = -c.diff(s.time());
  for (const int j : s.positions_in(c)) {
    const auto k = static_cast<std::size_t>(j);
    b -= c.diff(s.positions()[k]) * s.velocities()[k];
  }
  r.rhs = b;
  return r;
}
}  // namespace

GiNaC::ex constraint_row_expressions::jacobian_at(int column) const {
  for (const auto& [j, a] : jacobian) {
    if (j == column) return a;
  }
  return 0;
}

constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const coordinate_symbols& s) {
  GiNaC::ex c = phi.diff(s.time());
  for (const int j : s.positions_in(phi)) {
    const auto k = static_cast<std::size_t>(j);
    c += phi.diff(s.positions()[k]) * s.velocities()[k];
  }
  return from_velocity_form(c, s);
}

constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const coordinate_symbols& s,
                                            const std::string& where) {
  const std::vector<int> used = s.velocities_in(c);
  for (const int j : used) {
    const GiNaC::symbol& vj = s.velocities()[static_cast<std::size_t>(j)];
    const GiNaC::ex cj = c.diff(vj);
    for (const int k : used) {
      const GiNaC::symbol& vk = s.velocities()[static_cast<std::size_t>(k)];
      if (!GiNaC::normal(cj.diff(vk)).is_zero()) {
        throw io::input_error(
            fmt::format("{}: a nonholonomic constraint must be linear in the velocities (it is not "
                        "in {} and {})",
                        where, vj.get_name(), vk.get_name()));
      }
    }
  }
  return from_velocity_form(c, s);
}

constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const std::vector<GiNaC::symbol>& q,
                                         const std::vector<GiNaC::symbol>& qd,
                                         const GiNaC::symbol& t) {
  return holonomic_row(phi, coordinate_symbols(q, qd, t));
}

constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const std::vector<GiNaC::symbol>& q,
                                            const std::vector<GiNaC::symbol>& qd,
                                            const GiNaC::symbol& t, const std::string& where) {
  return nonholonomic_row(c, coordinate_symbols(q, qd, t), where);
}

}  // namespace kinevo::symbolic
