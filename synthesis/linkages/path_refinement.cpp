#include "kinevo/synthesis/linkages/path_refinement.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <vector>

namespace kinevo::synthesis {

namespace {

// The design's free variables as a vector, and back.
struct path_packing {
  const path_problem& p;
  Eigen::VectorXd pack(const path_design& d) const {
    std::vector<double> v{d.linkage.r1, d.linkage.r2,  d.linkage.r3,
                          d.linkage.r4, d.linkage.rcx, d.linkage.rcy};
    if (!p.fixed_frame) {
      v.insert(v.end(), {d.linkage.x0, d.linkage.y0, d.linkage.theta0});
    }
    if (p.timing == path_timing::relative) v.push_back(d.input[0] - p.input[0]);
    if (p.timing == path_timing::free) v.insert(v.end(), d.input.begin(), d.input.end());
    return Eigen::Map<Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
  }
  path_design unpack(const Eigen::VectorXd& v, int branch) const {
    path_design d;
    d.branch = branch;
    path_linkage& l = d.linkage;
    Eigen::Index k = 0;
    l.r1 = v(k++), l.r2 = v(k++), l.r3 = v(k++), l.r4 = v(k++), l.rcx = v(k++), l.rcy = v(k++);
    if (!p.fixed_frame) l.x0 = v(k++), l.y0 = v(k++), l.theta0 = v(k++);
    if (p.timing == path_timing::prescribed) d.input = p.input;
    if (p.timing == path_timing::relative) {
      const double offset = v(k++);
      for (const double a : p.input) d.input.push_back(offset + a);
    }
    if (p.timing == path_timing::free) {
      for (std::size_t i = 0; i < p.size(); ++i) d.input.push_back(v(k++));
    }
    return d;
  }
  // The nearest point inside the search bounds (angles are unbounded).
  Eigen::VectorXd project(Eigen::VectorXd v) const {
    for (int i = 0; i < 4; ++i) v(i) = std::clamp(v(i), p.link_bounds.lo, p.link_bounds.hi);
    for (int i = 4; i < 6; ++i) v(i) = std::clamp(v(i), p.coupler_bounds.lo, p.coupler_bounds.hi);
    if (!p.fixed_frame) {
      v(6) = std::clamp(v(6), p.frame_x_bounds.lo, p.frame_x_bounds.hi);
      v(7) = std::clamp(v(7), p.frame_y_bounds.lo, p.frame_y_bounds.hi);
    }
    repair_link_type(v);
    return v;
  }
  // Back onto the link-type conditions when a step crossed them, so that the refinement can
  // slide along an active condition (the published optima often lie on Grashof's boundary): the
  // input no longer than the others (crank-rocker), then the longest link shortened to
  // s + l = p + q, just inside.
  void repair_link_type(Eigen::VectorXd& v) const {
    if (p.link_type == path_link_type::any) return;
    if (p.link_type == path_link_type::crank_rocker) {
      v(1) = std::min(v(1), std::min({v(0), v(2), v(3)}));
    }
    Eigen::Index longest = 0, shortest = 0;
    for (Eigen::Index i = 1; i < 4; ++i) {
      if (v(i) > v(longest)) longest = i;
      if (v(i) < v(shortest)) shortest = i;
    }
    const double others = v.head(4).sum() - v(longest) - v(shortest);
    if (v(shortest) + v(longest) > others) {
      v(longest) = std::max(v(shortest), (others - v(shortest)) * (1.0 - 1e-13));
    }
  }
  // Inside the search bounds (angles are unbounded).
  bool in_bounds(const Eigen::VectorXd& v) const {
    for (int i = 0; i < 4; ++i) {
      if (!(v(i) >= p.link_bounds.lo && v(i) <= p.link_bounds.hi)) return false;
    }
    for (int i = 4; i < 6; ++i) {
      if (!(v(i) >= p.coupler_bounds.lo && v(i) <= p.coupler_bounds.hi)) return false;
    }
    if (!p.fixed_frame) {
      if (!(v(6) >= p.frame_x_bounds.lo && v(6) <= p.frame_x_bounds.hi)) return false;
      if (!(v(7) >= p.frame_y_bounds.lo && v(7) <= p.frame_y_bounds.hi)) return false;
    }
    return v.allFinite();
  }
};

// The link-type conditions whose margin at w is below `inside`, as rows a with margin a . w:
// Grashof's p + q - s - l and the crank's min(r1, r3, r4) - r2 are linear in the lengths for a
// given order of the links.
std::vector<Eigen::VectorXd> path_condition_rows(const path_problem& p, const Eigen::VectorXd& w,
                                                 double inside) {
  std::vector<Eigen::VectorXd> rows;
  if (p.link_type == path_link_type::any) return rows;
  Eigen::Index longest = 0, shortest = 0;
  for (Eigen::Index i = 1; i < 4; ++i) {
    if (w(i) > w(longest)) longest = i;
    if (w(i) < w(shortest)) shortest = i;
  }
  const auto e = [&](Eigen::Index i) { return Eigen::VectorXd::Unit(w.size(), i); };
  if (longest != shortest) {
    const Eigen::VectorXd a = e(0) + e(1) + e(2) + e(3) - 2.0 * e(longest) - 2.0 * e(shortest);
    if (a.dot(w) < inside) rows.push_back(a);
  }
  if (p.link_type == path_link_type::crank_rocker) {
    for (const Eigen::Index i : {0, 2, 3}) {
      const Eigen::VectorXd a = e(i) - e(1);
      if (a.dot(w) < inside) rows.push_back(a);
    }
  }
  return rows;
}

// Residuals C^i - C_d^i; false where a point does not assemble.
bool path_residuals(const path_problem& p, const path_design& d, Eigen::VectorXd& r) {
  r.resize(2 * static_cast<Eigen::Index>(p.size()));
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto pos = path_position_at(d.linkage, d.input[i], d.branch);
    if (!pos) return false;
    r(2 * static_cast<Eigen::Index>(i)) = pos->c.x() - p.x[i];
    r(2 * static_cast<Eigen::Index>(i) + 1) = pos->c.y() - p.y[i];
  }
  return true;
}

// One damped step: the Householder least-squares solution of
// [J; sqrt(lambda) D; W A] dx = [-r; 0; W c], where the rows A dx = c hold the link-type
// conditions and bounds that the unconstrained step would cross at their edge (found by
// solving again, at most four times): the step slides along what is active, and leaves a
// condition when the error falls away from it.
Eigen::VectorXd path_step(const path_problem& p, const Eigen::MatrixXd& jac,
                          const Eigen::VectorXd& r, const Eigen::VectorXd& v, double lambda,
                          const Eigen::VectorXd& scale, bool pin_active) {
  const Eigen::Index m = jac.rows(), n = jac.cols();
  // Conditions a step would cross are added as rows holding them a hair inside (margin
  // 1e-10 of the links, so that rounding never tips the step out), then the step is solved again.
  // With `pin_active`, conditions already (near) active at v start as rows (the step slides
  // along them); without, the step may leave them (the caller tries both: the published case
  // 4's optimum lies on Grashof's condition but off the crank condition next to it).
  const double inside = 1e-10 * (1.0 + v.head(4).maxCoeff());
  std::vector<Eigen::VectorXd> rows;
  if (pin_active) rows = path_condition_rows(p, v, 1e-9 * (1.0 + v.head(4).maxCoeff()));
  std::vector<double> rhs;
  for (const auto& row : rows) rhs.push_back(inside - row.dot(v));
  std::vector<std::pair<double, double>> bounds(6, {p.link_bounds.lo, p.link_bounds.hi});
  for (int i = 4; i < 6; ++i)
    bounds[static_cast<std::size_t>(i)] = {p.coupler_bounds.lo, p.coupler_bounds.hi};
  if (!p.fixed_frame) {
    bounds.emplace_back(p.frame_x_bounds.lo, p.frame_x_bounds.hi);
    bounds.emplace_back(p.frame_y_bounds.lo, p.frame_y_bounds.hi);
  }
  const double weight = 1e6 * (1.0 + scale.maxCoeff());
  Eigen::VectorXd dx;
  for (int pass = 0; pass < 5; ++pass) {
    const auto k = static_cast<Eigen::Index>(rows.size());
    Eigen::MatrixXd a(m + n + k, n);
    a.topRows(m) = jac;
    a.middleRows(m, n) = (std::sqrt(lambda) * scale).asDiagonal().toDenseMatrix();
    Eigen::VectorXd b = Eigen::VectorXd::Zero(m + n + k);
    b.head(m) = -r;
    for (Eigen::Index i = 0; i < k; ++i) {
      a.row(m + n + i) = weight * rows[static_cast<std::size_t>(i)].transpose();
      b(m + n + i) = weight * rhs[static_cast<std::size_t>(i)];
    }
    dx = a.colPivHouseholderQr().solve(b);
    bool pinned = false;
    for (const auto& row : path_condition_rows(p, v + dx, inside)) {
      const bool known = std::any_of(rows.begin(), rows.end(), [&](const Eigen::VectorXd& q) {
        return (q - row).squaredNorm() == 0.0;
      });
      if (known) continue;
      rows.push_back(row);
      rhs.push_back(inside - row.dot(v));
      pinned = true;
    }
    for (std::size_t i = 0; i < bounds.size(); ++i) {
      const auto j = static_cast<Eigen::Index>(i);
      const double target = v(j) + dx(j);
      const double edge = target < bounds[i].first    ? bounds[i].first
                          : target > bounds[i].second ? bounds[i].second
                                                      : target;
      if (edge == target) continue;
      rows.push_back(Eigen::VectorXd::Unit(n, j));
      rhs.push_back(edge - v(j));
      pinned = true;
    }
    if (!pinned) break;
  }
  return dx;
}

// The Jacobian of the residuals in closed form (path_coupler_derivatives), its columns mapped
// to the packed variables: lengths and coupler point, the frame unless fixed, then the input
// angles (one offset shared by every point with relative timing, one per point when free).
// False where some point has no derivative (not assembled, or exactly folded).
bool path_closed_form_jacobian(const path_problem& p, const path_design& d, Eigen::MatrixXd& jac) {
  jac.setZero();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto ji = path_coupler_derivatives(d.linkage, d.input[i], d.branch);
    if (!ji) return false;
    const auto row = 2 * static_cast<Eigen::Index>(i);
    jac.block(row, 0, 2, 6) = ji->leftCols(6);
    Eigen::Index k = 6;
    if (!p.fixed_frame) {
      jac.block(row, k, 2, 3) = ji->middleCols(6, 3);
      k += 3;
    }
    if (p.timing == path_timing::relative) jac.block(row, k, 2, 1) = ji->col(9);
    if (p.timing == path_timing::free) {
      jac.block(row, k + static_cast<Eigen::Index>(i), 2, 1) = ji->col(9);
    }
  }
  return true;
}

// The Jacobian in closed form, counted as the n evaluations a forward-difference Jacobian
// would cost (so that the budget compares with the papers' evaluation counts). Where it has no
// value (a point exactly at a fold), forward differences, or backward where the forward step
// leaves the assembly; each residual counts as an evaluation. False when neither assembles.
bool path_jacobian(const path_problem& p, const path_packing& pk, int branch, Eigen::VectorXd& v,
                   const Eigen::VectorXd& r, Eigen::MatrixXd& jac, long long& evaluations) {
  evaluations += v.size();
  if (path_closed_form_jacobian(p, pk.unpack(v, branch), jac)) return true;
  Eigen::VectorXd rt;
  for (Eigen::Index j = 0; j < v.size(); ++j) {
    bool ok = false;
    for (const double sign : {1.0, -1.0}) {
      const double saved = v(j);
      const double h = sign * 1e-7 * (1.0 + std::abs(saved));
      v(j) = saved + h;
      ok = path_residuals(p, pk.unpack(v, branch), rt);
      v(j) = saved;
      if (ok) {
        jac.col(j) = (rt - r) / h;
        break;
      }
      ++evaluations;  // the failed forward step, beyond the n counted above
    }
    if (!ok) return false;
  }
  return true;
}

// A candidate point of the refinement: the step that led to it, the point, and when it is
// usable (inside the bounds, assembled, feasible), its design, residuals and error.
struct path_trial {
  Eigen::VectorXd dx, v, r;
  path_design design;
  double f = 0.0;
  bool ok = false;
};

bool try_path_point(const path_problem& p, const path_packing& pk, const Eigen::VectorXd& v,
                    int branch, path_trial& t) {
  t.design = pk.unpack(v, branch);
  t.ok = pk.in_bounds(v) && path_residuals(p, t.design, t.r) &&
         evaluate_path_design(p, t.design).feasible();
  if (t.ok) t.f = t.r.squaredNorm();
  return t.ok;
}

}  // namespace

path_refinement_result refine_path_design(const path_problem& p, const path_design& start,
                                          const path_refinement_options& o) {
  path_refinement_result out;
  out.design = start;
  const path_evaluation e0 = evaluate_path_design(p, start);
  out.objective = e0.objective;
  ++out.evaluations;
  const path_packing pk{p};
  Eigen::VectorXd v = pk.pack(start);
  Eigen::VectorXd r;
  if (!e0.feasible() || !pk.in_bounds(v) || !path_residuals(p, start, r)) {
    out.stop = "start infeasible";
    return out;
  }
  const Eigen::Index n = v.size(), m = r.size();
  double f = r.squaredNorm();
  double lambda = -1.0;
  Eigen::MatrixXd jac(m, n);
  std::vector<double> history{f};
  out.stop = "iteration limit";
  for (int it = 0; it < o.max_iterations; ++it) {
    if (out.evaluations + n + 1 > o.max_evaluations) {
      out.stop = "evaluation limit";
      break;
    }
    const bool jacobian_ok = path_jacobian(p, pk, start.branch, v, r, jac, out.evaluations);
    if (!jacobian_ok) {
      out.stop = "at the edge of assembly";
      break;
    }
    const Eigen::VectorXd scale = jac.colwise().norm().transpose().cwiseMax(1e-12);
    if (lambda < 0.0) lambda = 1e-3;
    const bool near_active =
        !path_condition_rows(p, v, 1e-9 * (1.0 + v.head(4).maxCoeff())).empty();
    bool accepted = false;
    while (!accepted && out.evaluations < o.max_evaluations && lambda < 1e16) {
      // The step along the (near) active conditions, and the one free to leave them: the
      // better of the two that stays feasible and lowers the error.
      path_trial best;
      for (const bool pin : {true, false}) {
        if (!pin && !near_active) break;
        if (out.evaluations >= o.max_evaluations) break;
        path_trial t;
        t.dx = path_step(p, jac, r, v, lambda, scale, pin);
        t.v = pk.project(v + t.dx);
        ++out.evaluations;
        if (try_path_point(p, pk, t.v, start.branch, t) && (!best.ok || t.f < best.f)) {
          best = std::move(t);
        }
      }
      if (best.ok && best.f < f) {
        const double decrease = (f - best.f) / std::max(f, 1e-300);
        v = best.v, r = best.r, f = best.f;
        out.design = best.design;
        // Extrapolate along an accepted step while the error keeps falling: Gauss-Newton
        // steps shrink on large-residual valleys (the published case 4 runs into its bounds).
        for (double factor = 2.0; out.evaluations < o.max_evaluations; factor *= 2.0) {
          path_trial more;
          more.v = pk.project(v + (factor - 1.0) * best.dx);
          ++out.evaluations;
          if (!try_path_point(p, pk, more.v, start.branch, more) || !(more.f < f)) break;
          v = more.v, r = more.r, f = more.f;
          out.design = more.design;
        }
        out.improved = true;
        ++out.iterations;
        lambda = std::max(lambda / 3.0, 1e-12);
        accepted = true;
        if (decrease < o.tol || f == 0.0) {
          out.stop = "converged";
          out.objective = f;
          return out;
        }
        history.push_back(f);
        const std::size_t k = history.size();
        if (o.stall_steps > 0 && k > static_cast<std::size_t>(o.stall_steps) &&
            f > (1.0 - o.stall_fraction) *
                    history[k - 1 - static_cast<std::size_t>(o.stall_steps)]) {
          out.stop = "stalled";
          out.objective = f;
          return out;
        }
      } else {
        lambda *= 4.0;
      }
    }
    if (!accepted) {
      out.stop = lambda >= 1e16 ? "converged (no step lowers the error)" : "evaluation limit";
      break;
    }
  }
  out.objective = f;
  return out;
}

}  // namespace kinevo::synthesis
