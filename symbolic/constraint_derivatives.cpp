#include "symbolic/constraint_derivatives.hpp"

#include <fmt/format.h>

#include "io/csv_table.hpp"

namespace kinevo::symbolic {

namespace {
constraint_row_expressions from_velocity_form(const GiNaC::ex& c,
                                              const std::vector<GiNaC::symbol>& q,
                                              const std::vector<GiNaC::symbol>& qd,
                                              const GiNaC::symbol& t) {
  constraint_row_expressions r;
  r.velocity = c;
  GiNaC::ex b = -c.diff(t);
  for (std::size_t j = 0; j < q.size(); ++j) {
    r.jacobian.push_back(c.diff(qd[j]));  // exactly 0 when q'_j does not appear: keeps sparsity
    b -= c.diff(q[j]) * qd[j];
  }
  r.rhs = b;
  return r;
}
}  // namespace

constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const std::vector<GiNaC::symbol>& q,
                                         const std::vector<GiNaC::symbol>& qd,
                                         const GiNaC::symbol& t) {
  GiNaC::ex c = phi.diff(t);
  for (std::size_t j = 0; j < q.size(); ++j) c += phi.diff(q[j]) * qd[j];
  return from_velocity_form(c, q, qd, t);
}

constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const std::vector<GiNaC::symbol>& q,
                                            const std::vector<GiNaC::symbol>& qd,
                                            const GiNaC::symbol& t, const std::string& where) {
  for (std::size_t j = 0; j < qd.size(); ++j) {
    for (std::size_t k = 0; k < qd.size(); ++k) {
      if (!GiNaC::normal(c.diff(qd[j]).diff(qd[k])).is_zero()) {
        throw io::input_error(
            fmt::format("{}: a nonholonomic constraint must be linear in the velocities (it is not "
                        "in {} and {})",
                        where, qd[j].get_name(), qd[k].get_name()));
      }
    }
  }
  return from_velocity_form(c, q, qd, t);
}

}  // namespace kinevo::symbolic
