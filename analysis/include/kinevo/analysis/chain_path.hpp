// What the spatial-chain analysers share: the options of their damped Newton method (NRDAMP of
// Angeles et al., Diseño cinemático de maquinaria, 7R paper eq. (6), numerics::damped_newton
// with the step solver passed in: LU for a closed chain, Householder least squares for
// guidance), and the path result
// (joint values, rates and accelerations per input point, iterations, status) that reports
// itself as text, JSON, CSV and an SVG plot.
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/analysis/dh_chain.hpp"
#include "kinevo/core/outcome.hpp"
#include "kinevo/numerics/newton_options.hpp"
#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::analysis {

// The rotation residual of a closed chain. invariant: the printed f_r = 2 vect(P) - 2 vect(Q)
// (7R paper eq. (3)-(5)), whose Jacobian (1 tr P - P) u_i is singular when Q's rotation angle
// is 90, 180 or 270 deg; relative: f_r = vect(P Q^T), regular at every angle (Jacobian u_i at
// the solution); automatic: invariant unless |det(1 tr Q - Q)| = |4 cos(phi) (1 + cos(phi))|
// is below switch_determinant.
enum class rotation_residual { automatic, invariant, relative };

struct chain_newton_options {
  double tolerance = 1e-12;      // on max |step| and max |residual|
  double damping = 0.5;          // step factor while the residual does not decrease (DAMP)
  int max_iterations = 50;       // Newton iterations per point
  int max_damping_steps = 30;    // factors per iteration (KMAX)
  double singular_ratio = 1e-6;  // sigma_min / sigma_max of the twist Jacobian below this: singular
  double switch_determinant = 1.0;  // automatic residual: invariant while |det| >= this
  rotation_residual residual = rotation_residual::automatic;
  bool skip_singular = false;  // singular points are reported but do not fail the path
  bool rates = true;           // also velocities and accelerations (false: positions only)
  void validate() const;       // throws io::option_error naming the field
  // The family's options: tol_x = tol_f = tolerance, max_halvings = max_damping_steps.
  numerics::newton_options newton() const;
};

rotation_residual parse_rotation_residual(const std::string& name);  // io::option_error
std::string to_string(rotation_residual r);

enum class point_status { converged, singular, not_converged };
std::string to_string(point_status s);

// Singular values of a twist Jacobian, for the regularity test of a point.
struct rank_report {
  double sigma_min = 0.0;
  double sigma_max = 0.0;
  double ratio() const { return sigma_max > 0.0 ? sigma_min / sigma_max : 0.0; }
};
rank_report rank_of(const Eigen::MatrixXd& jacobian);

struct chain_point {
  double t = 0.0;                  // time (or the sample's index when the input is a range)
  double input = 0.0;              // input joint value (rad or length); guidance: t
  Eigen::VectorXd q, qdot, qddot;  // all joints; NaN where unknown (singular, not converged)
  int iterations = 0;
  point_status status = point_status::converged;
  double sigma_ratio = 0.0;  // sigma_min / sigma_max of the twist Jacobian
  std::string residual;      // rotation residual used (closed chains)
  // Newton stopped on a rank-deficient residual Jacobian at a regular configuration: the
  // formulation's singularity (1 tr P - P at 90/180/270 deg), not the chain's.
  bool formulation_singular = false;
};

// The continuation guess from the last regular point: q + qdot dt + qddot dt^2 / 2.
Eigen::VectorXd predict_from(const chain_point& last, double t);

struct chain_path_result {
  std::string name;
  std::string kind;                      // "closure" or "guidance"
  std::vector<std::string> joint_names;  // theta1, b7, ...
  std::vector<bool> joint_is_angle;
  int input_joint = -1;  // 0-based; -1 for guidance
  bool skip_singular = false;
  std::vector<chain_point> points;
  // Singular configurations stepped over between two regular points (sign change of the
  // Jacobian's determinant), as "between input a and b".
  std::vector<std::string> crossings;

  std::size_t count(point_status s) const;
  // Regular path: every point converged and regular, no crossing (singular ones allowed when
  // skip_singular).
  bool ok() const;
  // One line per failed point ("singular at theta7 = 180 deg"), for stderr.
  std::vector<std::string> problems() const;
  // ok when ok(), else failed with the problems, one a line, as its message.
  core::summary summary() const;
  std::string full_report() const;
  nlohmann::json to_json() const;
  std::string csv() const;
  std::string svg() const;  // joint values against the input
};

// An empty path of the chain `links` (joint names and units), `kind` "closure" or "guidance",
// input_joint -1 for guidance; room for `points` points.
chain_path_result new_path(std::string name, std::string kind, const std::vector<dh_link>& links,
                           int input_joint, const chain_newton_options& options,
                           std::size_t points);

// A point from Newton's outcome: status by the outcome and the twist Jacobian's sigma ratio,
// joint values, rates and accelerations NaN (the caller fills in what is determined).
chain_point classify_point(const numerics::newton_result& out, double sigma_ratio, double t,
                           double input, Eigen::Index joints, const chain_newton_options& options);

}  // namespace kinevo::analysis
