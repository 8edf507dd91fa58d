// Differentiation of constraints, once at load. Every constraint is reduced to its velocity
// form C(q, q', t) = A(q, t) q' + c(q, t) = 0; then A = dC/dq' and the acceleration right-hand
// side is b = -(C_q q' + C_t), so that A q'' = b. For a holonomic row C = Phi_q q' + Phi_t and
// b = gamma = -(Phi_q q')_q q' - 2 Phi_qt q' - Phi_tt (Haug, Computer-Aided Kinematics and
// Dynamics of Mechanical Systems, eq. 4.2.3; generalized-inverse
// dissertation (GIGSP), eqs. 2.2-2.5).
#pragma once

#include <ginac/ginac.h>

#include <string>
#include <vector>

namespace kinevo::symbolic {

struct constraint_row_expressions {
  GiNaC::ex velocity;               // C(q, q', t): the velocity-level violation
  std::vector<GiNaC::ex> jacobian;  // A row (n): dC/dq'
  GiNaC::ex rhs;                    // b
};

// From Phi(q, t) = 0.
constraint_row_expressions holonomic_row(const GiNaC::ex& phi, const std::vector<GiNaC::symbol>& q,
                                         const std::vector<GiNaC::symbol>& qd,
                                         const GiNaC::symbol& t);

// From C(q, q', t) = A_n(q, t) q' + a_t(q, t) = 0. Throws io::input_error naming `where` when C
// is not linear in the velocities.
constraint_row_expressions nonholonomic_row(const GiNaC::ex& c, const std::vector<GiNaC::symbol>& q,
                                            const std::vector<GiNaC::symbol>& qd,
                                            const GiNaC::symbol& t, const std::string& where);

}  // namespace kinevo::symbolic
