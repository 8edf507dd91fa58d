#include "kinevo/analysis/guidance_chain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/damped_newton.hpp"
#include "kinevo/numerics/least_squares.hpp"

namespace kinevo::analysis {

namespace {

void guidance_residual(const guidance_chain& chain, const guidance_target& target,
                       const Eigen::VectorXd& q, Eigen::VectorXd& f, Eigen::MatrixXd& j) {
  const guided_points p = guided_points_at(chain, q);
  f.resize(6);
  f << p.a - target.a, p.b - target.b;
  j = guidance_jacobian(chain, q);
}

}  // namespace

void guidance_chain::validate() const {
  io::require_integer("links", static_cast<long long>(links.size()), 2, 6);
  for (const auto& l : links) {
    if (l.pair != pair_kind::revolute)
      throw io::option_error("links", "must all be revolute pairs");
  }
}

guided_points guided_points_at(const guidance_chain& chain, const Eigen::VectorXd& q) {
  const chain_pose pose = evaluate_chain(chain.links, q);
  return {point_after(pose, chain.links.size() - 1), pose.end};
}

Eigen::MatrixXd guidance_jacobian(const guidance_chain& chain, const Eigen::VectorXd& q) {
  const chain_pose pose = evaluate_chain(chain.links, q);
  const std::size_t n = chain.links.size();
  Eigen::MatrixXd j(6, static_cast<Eigen::Index>(n));
  j.topRows(3) = point_jacobian(chain.links, pose, n - 1);
  j.bottomRows(3) = point_jacobian(chain.links, pose, n);
  return j;
}

namespace {

chain_point solve_guidance(const guidance_chain& chain, const guidance_target& target,
                           const Eigen::VectorXd& guess, const chain_newton_options& options) {
  const numerics::newton_result out = numerics::damped_newton(
      [&](const Eigen::VectorXd& q, Eigen::VectorXd& f, Eigen::MatrixXd* j) {
        guidance_residual(chain, target, q, f, *j);
      },
      guess, options.newton(), numerics::householder_step);
  const Eigen::MatrixXd j = guidance_jacobian(chain, out.x);
  chain_point p = classify_point(out, rank_of(j).ratio(), target.t, target.t,
                                 static_cast<Eigen::Index>(chain.links.size()), options);
  if (!out.ok()) return p;
  p.q = out.x;
  if (p.status == point_status::singular || !options.rates) return p;
  // Eq. (13)-(15): J qdot = [v_A; v_B]; eq. (16)-(20) fixed: J qddot = [a_A; a_B] - (dJ/dt) qdot,
  // both in the least-squares sense (consistent when the motion keeps |AB|).
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(j);
  Eigen::VectorXd rhs(6);
  rhs << target.a_dot, target.b_dot;
  p.qdot = qr.solve(rhs);
  const chain_pose pose = evaluate_chain(chain.links, out.x);
  const velocity_products ta =
      acceleration_terms(chain.links, pose, p.qdot, chain.links.size() - 1);
  const velocity_products tb = acceleration_terms(chain.links, pose, p.qdot, chain.links.size());
  rhs << target.a_ddot - ta.linear, target.b_ddot - tb.linear;
  p.qddot = qr.solve(rhs);
  return p;
}

}  // namespace

chain_path_result analyze_guidance(const guidance_chain& chain,
                                   const std::vector<guidance_target>& targets,
                                   const Eigen::VectorXd& start,
                                   const chain_newton_options& options) {
  chain.validate();
  options.validate();
  chain_path_result r = new_path(chain.name, "guidance", chain.links, -1, options, targets.size());
  const chain_point* last = nullptr;
  for (const auto& target : targets) {
    r.points.push_back(solve_guidance(
        chain, target, last == nullptr ? start : predict_from(*last, target.t), options));
    if (r.points.back().status == point_status::converged) last = &r.points.back();
  }
  return r;
}

}  // namespace kinevo::analysis
