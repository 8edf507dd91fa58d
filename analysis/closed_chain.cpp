#include "kinevo/analysis/closed_chain.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/damped_newton.hpp"

namespace kinevo::analysis {

namespace {

// The loop cut at the input joint: the open chain's links and the target frame and point.
struct cut_chain {
  std::vector<dh_link> links;
  std::vector<int> joint;  // loop index of each open-chain joint
  Eigen::Matrix3d target;  // Q = Q_k^T
  Eigen::Vector3d point;   // r = -Q_k^T a_k
  Eigen::Vector3d axis;    // Q_k^T e_z: the input's axis seen from frame k+1
};

cut_chain cut_at_input(const closed_chain& chain, double input) {
  const int n = static_cast<int>(chain.links.size());
  const dh_link& in = chain.links[static_cast<std::size_t>(chain.input)];
  const bool revolute = in.pair == pair_kind::revolute;
  const double theta = revolute ? input : in.theta;
  const double b = revolute ? in.b : input;
  cut_chain c;
  for (int j = 1; j < n; ++j) {
    const int i = (chain.input + j) % n;
    c.links.push_back(chain.links[static_cast<std::size_t>(i)]);
    c.joint.push_back(i);
  }
  const Eigen::Matrix3d qk = dh_rotation(theta, in.alpha);
  c.target = qk.transpose();
  c.point = -(c.target * dh_offset(in.a, b, theta));
  c.axis = c.target.col(2);
  return c;
}

bool use_invariant(const Eigen::Matrix3d& target, const chain_newton_options& o) {
  if (o.residual != rotation_residual::automatic) return o.residual == rotation_residual::invariant;
  const double c = std::cos(rotation_angle(target));
  return std::abs(4.0 * c * (1.0 + c)) >= o.switch_determinant;
}

// f = [f_r; x_1 - r] and its Jacobian (7R paper eq. (3)-(5), (8a); RSRC paper eq. (11a)-(11c)).
void loop_residual(const cut_chain& c, bool invariant, const Eigen::VectorXd& x, Eigen::VectorXd& f,
                   Eigen::MatrixXd& j) {
  const chain_pose pose = evaluate_chain(c.links, x);
  const Eigen::MatrixXd axes = axis_jacobian(c.links, pose);
  f.resize(6);
  j.resize(6, x.size());
  if (invariant) {
    f.head<3>() = 2.0 * vect(pose.product) - 2.0 * vect(c.target);
    j.topRows(3) = invariant_matrix(pose.product) * axes;
  } else {
    // vect(P Q^T): d/dtheta_i = vect([u_i]x P Q^T) = 1/2 (tr R 1 - R) u_i, R = P Q^T.
    const Eigen::Matrix3d r = pose.product * c.target.transpose();
    f.head<3>() = vect(r);
    j.topRows(3) = 0.5 * invariant_matrix(r) * axes;
  }
  f.tail<3>() = pose.end - c.point;
  j.bottomRows(3) = point_jacobian(c.links, pose, c.links.size());
}

Eigen::MatrixXd twist_jacobian(const std::vector<dh_link>& links, const chain_pose& pose) {
  Eigen::MatrixXd j(6, static_cast<Eigen::Index>(links.size()));
  j.topRows(3) = axis_jacobian(links, pose);
  j.bottomRows(3) = point_jacobian(links, pose, links.size());
  return j;
}

// Rates of the open chain by eq. (13) and (19)-(20): [M U; J_t] qdot = [M omega; v] and
// [M U; J_t] qddot = [M (omega' - angular terms); v' - linear terms], M = 1 tr P - P for the
// invariant residual, 1 for the relative one (its Jacobian at the solution).
void open_chain_rates(const cut_chain& c, const chain_pose& pose, bool invariant,
                      const input_sample& in, bool revolute, Eigen::VectorXd& qdot,
                      Eigen::VectorXd& qddot) {
  const Eigen::Matrix3d m =
      invariant ? invariant_matrix(pose.product) : Eigen::Matrix3d::Identity();
  Eigen::MatrixXd a = twist_jacobian(c.links, pose);
  a.topRows(3) = m * a.topRows(3);
  // The target turns about the input's axis (revolute) or slides along it (prismatic).
  const Eigen::Vector3d omega =
      revolute ? Eigen::Vector3d(-in.rate * c.axis) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d omega_dot =
      revolute ? Eigen::Vector3d(-in.acceleration * c.axis) : Eigen::Vector3d::Zero();
  const Eigen::Vector3d v = revolute ? Eigen::Vector3d::Zero() : Eigen::Vector3d(-in.rate * c.axis);
  const Eigen::Vector3d v_dot =
      revolute ? Eigen::Vector3d::Zero() : Eigen::Vector3d(-in.acceleration * c.axis);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
  Eigen::VectorXd rhs(6);
  rhs << m * omega, v;
  qdot = lu.solve(rhs);
  const velocity_products t = acceleration_terms(c.links, pose, qdot, c.links.size());
  rhs << m * (omega_dot - t.angular), v_dot - t.linear;
  qddot = lu.solve(rhs);
}

}  // namespace

void closed_chain::validate() const {
  io::require_integer("links", static_cast<long long>(links.size()), 7, 7);
  io::require_integer("input", input, 0, static_cast<long long>(links.size()) - 1);
}

chain_point solve_closed_chain(const closed_chain& chain, const input_sample& input,
                               const Eigen::VectorXd& guess, const chain_newton_options& options) {
  const cut_chain c = cut_at_input(chain, input.value);
  const bool invariant = use_invariant(c.target, options);
  Eigen::VectorXd x0(static_cast<Eigen::Index>(c.links.size()));
  for (std::size_t j = 0; j < c.links.size(); ++j)
    x0[static_cast<Eigen::Index>(j)] = guess[c.joint[j]];
  const numerics::newton_result out = numerics::damped_newton(
      [&](const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::MatrixXd* jac) {
        loop_residual(c, invariant, x, f, *jac);
      },
      x0, options.newton(), numerics::lu_step);

  const chain_pose pose = evaluate_chain(c.links, out.x);
  chain_point p =
      classify_point(out, rank_of(twist_jacobian(c.links, pose)).ratio(), input.t, input.value,
                     static_cast<Eigen::Index>(chain.links.size()), options);
  p.residual = invariant ? "invariant" : "relative";
  if (!out.ok()) return p;  // never a guess reported as an answer
  p.q[chain.input] = input.value;
  for (std::size_t j = 0; j < c.links.size(); ++j)
    p.q[c.joint[j]] = out.x[static_cast<Eigen::Index>(j)];
  // A singular position is known, its rates are not determined.
  if (p.status == point_status::singular || !options.rates) return p;
  Eigen::VectorXd qdot, qddot;
  const bool revolute =
      chain.links[static_cast<std::size_t>(chain.input)].pair == pair_kind::revolute;
  open_chain_rates(c, pose, invariant, input, revolute, qdot, qddot);
  p.qdot[chain.input] = input.rate;
  p.qddot[chain.input] = input.acceleration;
  for (std::size_t j = 0; j < c.links.size(); ++j) {
    p.qdot[c.joint[j]] = qdot[static_cast<Eigen::Index>(j)];
    p.qddot[c.joint[j]] = qddot[static_cast<Eigen::Index>(j)];
  }
  return p;
}

namespace {

// Sign of det of the twist Jacobian at a regular point (the open chain cut at the input).
double twist_determinant(const closed_chain& chain, const chain_point& p) {
  const cut_chain c = cut_at_input(chain, p.input);
  Eigen::VectorXd x(static_cast<Eigen::Index>(c.links.size()));
  for (std::size_t j = 0; j < c.links.size(); ++j)
    x[static_cast<Eigen::Index>(j)] = p.q[c.joint[j]];
  return twist_jacobian(c.links, evaluate_chain(c.links, x)).determinant();
}

}  // namespace

chain_path_result analyze_closed_chain(const closed_chain& chain,
                                       const std::vector<input_sample>& inputs,
                                       const Eigen::VectorXd& start,
                                       const chain_newton_options& options) {
  chain.validate();
  options.validate();
  chain_path_result r =
      new_path(chain.name, "closure", chain.links, chain.input, options, inputs.size());
  const chain_point* last = nullptr;  // the last regular point (points never reallocate)
  double last_det = 0.0;
  for (const auto& in : inputs) {
    const Eigen::VectorXd guess = last == nullptr ? start : predict_from(*last, in.t);
    r.points.push_back(solve_closed_chain(chain, in, guess, options));
    const chain_point& p = r.points.back();
    if (p.status != point_status::converged) continue;
    const double det = twist_determinant(chain, p);
    if (last != nullptr && det * last_det < 0.0) {
      const auto k = static_cast<std::size_t>(chain.input);
      const double scale = r.joint_is_angle[k] ? 180.0 / std::numbers::pi : 1.0;
      r.crossings.push_back(fmt::format("between {} = {:g} and {:g}", r.joint_names[k],
                                        last->input * scale, p.input * scale));
    }
    last = &p;
    last_det = det;
  }
  return r;
}

}  // namespace kinevo::analysis
