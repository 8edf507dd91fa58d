// Interior penalty (SUMT) for min z(x) subject to f_i(x) > 0, as in Angeles et al., Diseño
// cinemático de maquinaria (1984), Grashof paper, eqs. (40)-(45): Psi = z + r sum 1/f_i for a
// decreasing r sequence, each stage solved by damped Newton on grad Psi = 0 with the analytic
// Hessian (eq. (45)), then k(r) = alpha + beta sqrt(r) + gamma r extrapolated to r -> 0.
// The damping accepts a step when Psi falls (NRDAMP accepts when ||grad Psi|| falls, which can
// stall at the barrier or end at a saddle of Psi).
#pragma once

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "kinevo/numerics/newton_options.hpp"
#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::synthesis {

// A twice-differentiable scalar function: returns the value, and fills the gradient and Hessian
// when the pointers are non-null.
using smooth_function = std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd* gradient,
                                             Eigen::MatrixXd* hessian)>;

struct penalty_problem {
  int dimension = 0;
  smooth_function objective;                  // z(x)
  std::vector<smooth_function> constraints;   // f_i(x) > 0 strictly
  std::vector<std::string> constraint_names;  // for messages; may be empty
};

struct interior_penalty_options {
  // Penalty factors r_1 > r_2 > ... (the source document uses 0.1, 0.01, 0.001; more stages bring
  // the last stage closer to an active constraint).
  std::vector<double> r = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
  bool extrapolate = true;  // fit the last three stages to alpha + beta sqrt(r) + gamma r
  numerics::newton_options newton{1e-12, 1e-12, 0.5, 100, 200, 1e-14};
};

struct penalty_stage {
  double r = 0.0;
  Eigen::VectorXd x;
  double objective = 0.0;  // z at the stage minimiser
  int iterations = 0;
  numerics::newton_status status = numerics::newton_status::converged;
};

struct interior_penalty_result {
  Eigen::VectorXd x;            // best strictly feasible point found
  double objective = 0.0;       // z(x)
  Eigen::VectorXd constraints;  // f_i(x), all > 0
  bool extrapolated = false;    // x is the r -> 0 extrapolation (else the last stage)
  Eigen::VectorXd start;        // the strictly feasible start actually used
  std::vector<penalty_stage> stages;
};

// Values of all constraints at x.
Eigen::VectorXd constraint_values(const penalty_problem& p, const Eigen::VectorXd& x);

// A strictly feasible point near `guess`: if the guess is infeasible, first minimum-norm Newton
// corrections on the violated constraints; failing that, minimises an auxiliary variable s
// subject to f_i(x) + s > 0 by the same penalty scheme and stops as soon as s < 0.
// Throws std::runtime_error when none is found (the constraints may be inconsistent).
Eigen::VectorXd find_strictly_feasible(const penalty_problem& p, const Eigen::VectorXd& guess,
                                       const interior_penalty_options& options = {});

// Runs the penalty stages from `start` (made strictly feasible first if it is not). The
// extrapolated point is used only when it is strictly feasible, `accept` (if given) agrees, and
// it does not raise z above the last stage.
interior_penalty_result minimise_interior_penalty(
    const penalty_problem& p, const Eigen::VectorXd& start,
    const interior_penalty_options& options = {},
    const std::function<bool(const Eigen::VectorXd&)>& accept = {});

}  // namespace kinevo::synthesis
