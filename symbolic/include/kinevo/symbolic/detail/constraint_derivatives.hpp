// Differentiation of constraints, once at load. Every constraint is reduced to its velocity
// form C(q, q', t) = A(q, t) q' + c(q, t) = 0; then A = dC/dq' and the acceleration right-hand
// side is b = -(C_q q' + C_t), so that A q'' = b. For a holonomic row C = Phi_q q' + Phi_t and
// b = gamma = -(Phi_q q')_q q' - 2 Phi_qt q' - Phi_tt (Haug, Computer-Aided Kinematics and
// Dynamics of Mechanical Systems, eq. 4.2.3; generalized-inverse
// dissertation (GIGSP), eqs. 2.2-2.5).
// Derivatives are taken only with respect to the coordinates a row contains, so a row costs
// O(its size), not O(n): loading stays linear in the number of coordinates.
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <utility>
#include <vector>

#include "kinevo/symbolic/detail/coordinate_symbols.hpp"

namespace kinevo::symbolic {

struct constraint_row_expressions {
  GiNaC::ex velocity;  // C(q, q', t): the velocity-level violation
  // The structurally non-zero entries of the A row, dC/dq'_j, as (j, entry), ascending j.
  std::vector<std::pair<int, GiNaC::ex>> jacobian;
  GiNaC::ex rhs;  // b

  // dC/dq'_column (0 when the row does not contain q'_column).
  GiNaC::ex jacobian_at(int column) const;
};

// From Phi(q, t) = 0.
constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const coordinate_symbols& s);

// From C(q, q', t) = A_n(q, t) q' + a_t(q, t) = 0. Throws io::input_error naming `where` when C
// is not linear in the velocities.
constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const coordinate_symbols& s,
                                            const std::string& where);

// The same with the coordinates given as vectors (for small systems and tests).
constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const std::vector<GiNaC::symbol>& q,
                                         const std::vector<GiNaC::symbol>& qd,
                                         const GiNaC::symbol& t);
constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const std::vector<GiNaC::symbol>& q,
                                            const std::vector<GiNaC::symbol>& qd,
                                            const GiNaC::symbol& t, const std::string& where);

}  // namespace kinevo::symbolic
