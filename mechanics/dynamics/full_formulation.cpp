#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"

#include <Eigen/QR>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

Eigen::VectorXd pack_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  Eigen::VectorXd y(q.size() + qd.size());
  y << q, qd;
  return y;
}

void split_state(const Eigen::VectorXd& y, Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  const Eigen::Index n = y.size() / 2;
  q = y.head(n);
  qd = y.tail(n);
}

void project_weighted(const model& m, double t, double tolerance, int iterations,
                      Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  constrained_system s;
  m.evaluate(q, qd, t, s);
  mass_factor mf;
  if (!mf.compute(s)) return;
  if (m.holonomic_constraints() > 0) {
    for (int it = 0; it < iterations; ++it) {
      const Eigen::VectorXd phi = m.position_violation(q, t);
      if (phi.cwiseAbs().maxCoeff() <= tolerance) break;
      // dq = -M^-1 Phi_q^T (Phi_q M^-1 Phi_q^T)^+ Phi, in the scaled form A^ = Phi_q L^-T.
      const Eigen::MatrixXd a_hat = mf.right_solve_upper(m.position_jacobian(q, t));
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a_hat);
      q -= mf.solve_upper(cod.solve(phi));
    }
    m.evaluate(q, qd, t, s);
  }
  if (s.constraints() > 0) {
    const Eigen::VectorXd c = m.velocity_violation(q, qd, t);
    if (c.cwiseAbs().maxCoeff() > tolerance) {
      const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a_hat);
      qd -= mf.solve_upper(cod.solve(c));
    }
  }
}

full_formulation::full_formulation(const model& m, stabilization_kind stabilization,
                                   double projection_tolerance, int projection_iterations)
    : model_(m),
      stabilization_(stabilization),
      tolerance_(projection_tolerance),
      iterations_(projection_iterations) {
  report_.name = to_string(formulation_kind::full);
}

step_outcome full_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                          Eigen::VectorXd& y) {
  if (stabilization_ != stabilization_kind::projection) return step_outcome::unchanged;
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  project_weighted(model_, t, tolerance_, iterations_, q, qd);
  y = pack_state(q, qd);
  ++report_.corrections;
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
