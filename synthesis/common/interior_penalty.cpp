#include "kinevo/synthesis/common/interior_penalty.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kinevo/io/errors.hpp"
#include "kinevo/numerics/backtracking.hpp"
#include "kinevo/numerics/least_squares.hpp"

namespace kinevo::synthesis {

Eigen::VectorXd constraint_values(const penalty_problem& p, const Eigen::VectorXd& x) {
  Eigen::VectorXd v(static_cast<Eigen::Index>(p.constraints.size()));
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    v(static_cast<Eigen::Index>(i)) = p.constraints[i](x, nullptr, nullptr);
  }
  return v;
}

namespace {

bool strictly_feasible(const penalty_problem& p, const Eigen::VectorXd& x) {
  const Eigen::VectorXd v = constraint_values(p, x);
  return v.size() == 0 || v.minCoeff() > 0.0;
}

// grad Psi and its Jacobian (the Hessian of Psi), Grashof paper eqs. (42) and (45); false outside
// the interior.
bool penalty_gradient(const penalty_problem& p, double r, const Eigen::VectorXd& x,
                      Eigen::VectorXd& g, Eigen::MatrixXd* h) {
  const Eigen::Index n = x.size();
  Eigen::VectorXd gi(n);
  Eigen::MatrixXd hi(n, n);
  g.setZero(n);
  if (h) h->setZero(n, n);
  for (const auto& c : p.constraints) {
    const double f = c(x, &gi, h ? &hi : nullptr);
    if (!(f > 0.0)) return false;
    g -= (r / (f * f)) * gi;
    if (h) *h += r * (2.0 / (f * f * f) * gi * gi.transpose() - hi / (f * f));
  }
  p.objective(x, &gi, h ? &hi : nullptr);
  g += gi;
  if (h) *h += hi;
  return g.allFinite() && (!h || h->allFinite());
}

double penalty_value(const penalty_problem& p, double r, const Eigen::VectorXd& x) {
  double v = p.objective(x, nullptr, nullptr);
  for (const auto& c : p.constraints) {
    const double f = c(x, nullptr, nullptr);
    if (!(f > 0.0)) return std::numeric_limits<double>::infinity();
    v += r / f;
  }
  return v;
}

// One stage: minimise Psi by Newton steps on grad Psi = 0 with the analytic Hessian, damped by
// halving while Psi does not fall or the trial point leaves the interior. Accepting on Psi (not on
// ||grad Psi|| as NRDAMP does) keeps the iteration away from saddles and maxima of Psi; where the
// Hessian is not positive definite a multiple of the identity is added (Levenberg).
penalty_stage solve_stage(const penalty_problem& p, double r, const Eigen::VectorXd& x0,
                          const numerics::newton_options& newton,
                          const std::function<bool(const Eigen::VectorXd&)>& stop_when = {}) {
  penalty_stage s;
  s.r = r;
  s.status = numerics::newton_status::max_iterations;
  Eigen::VectorXd x = x0, g;
  Eigen::MatrixXd h;
  double psi = penalty_value(p, r, x);
  for (s.iterations = 0; s.iterations < newton.max_iterations; ++s.iterations) {
    if (!penalty_gradient(p, r, x, g, &h)) {
      s.status = numerics::newton_status::diverged;
      break;
    }
    if (g.lpNorm<Eigen::Infinity>() <= newton.tol_f) {
      s.status = numerics::newton_status::converged;
      break;
    }
    Eigen::LLT<Eigen::MatrixXd> llt(h);
    double tau = 1e-10 * (1.0 + h.cwiseAbs().maxCoeff());
    while (llt.info() != Eigen::Success && std::isfinite(tau)) {
      llt.compute(h + tau * Eigen::MatrixXd::Identity(h.rows(), h.cols()));
      tau *= 10.0;
    }
    if (llt.info() != Eigen::Success) {
      s.status = numerics::newton_status::singular_jacobian;
      break;
    }
    Eigen::VectorXd dx = -llt.solve(g);
    double trial = 0.0;
    const int halvings = numerics::backtrack(dx, newton.damping, newton.max_halvings,
                                             [&](const Eigen::VectorXd& step) {
                                               trial = penalty_value(p, r, x + step);
                                               return trial < psi;
                                             });
    const bool tiny =
        dx.lpNorm<Eigen::Infinity>() <= newton.tol_x * (1.0 + x.lpNorm<Eigen::Infinity>());
    if (halvings > newton.max_halvings) {
      // No decrease along a descent direction: Psi is flat to working precision here.
      s.status = tiny || g.lpNorm<Eigen::Infinity>() <= 1e-8 * (1.0 + std::abs(psi))
                     ? numerics::newton_status::converged
                     : numerics::newton_status::diverged;
      break;
    }
    x += dx;
    psi = trial;
    if (stop_when && stop_when(x)) {
      ++s.iterations;
      s.status = numerics::newton_status::stopped;
      break;
    }
    if (tiny) {
      ++s.iterations;
      s.status = numerics::newton_status::converged;
      break;
    }
  }
  s.x = x;
  s.objective = p.objective(x, nullptr, nullptr);
  return s;
}

}  // namespace

namespace {

// Feasibility restoration by minimum-norm Newton corrections on the violated constraints, as in
// the gradient-projection method's restoration step (Angeles et al., Diseño cinemático de
// maquinaria (1984), SANLSU, case 3): J_V dx = margin - f_V with the least-norm dx.
bool restore_feasibility(const penalty_problem& p, Eigen::VectorXd& x) {
  const auto m = static_cast<Eigen::Index>(p.constraints.size());
  if (m == 0) return true;
  const Eigen::VectorXd f0 = constraint_values(p, x);
  // NaN constraint values are neither satisfied nor violated: no Newton correction exists.
  if (!f0.allFinite() || !x.allFinite()) return false;
  const double margin = 1e-3 * (1.0 + f0.cwiseAbs().maxCoeff());
  const auto shortfall = [&](const Eigen::VectorXd& v) {
    return (margin - v.array()).max(0.0).sum();
  };
  for (int it = 0; it < 100; ++it) {
    const Eigen::VectorXd f = constraint_values(p, x);
    if (!f.allFinite()) return false;
    if (f.minCoeff() > 0.0) return true;
    std::vector<Eigen::Index> active;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (f(i) < margin) active.push_back(i);
    }
    const auto na = static_cast<Eigen::Index>(active.size());
    if (na > p.dimension) return false;
    Eigen::MatrixXd j(na, p.dimension);
    Eigen::VectorXd rhs(na), g;
    for (Eigen::Index a = 0; a < na; ++a) {
      p.constraints[static_cast<std::size_t>(active[static_cast<std::size_t>(a)])](x, &g, nullptr);
      j.row(a) = g.transpose();
      rhs(a) = margin - f(active[static_cast<std::size_t>(a)]);
    }
    // More active constraints than unknowns: no minimum-norm step (as for a rank-deficient J).
    if (j.rows() > j.cols()) return false;
    const auto step = numerics::minimum_norm_solution(j, rhs);
    if (!step) return false;  // rank-deficient J_V: no minimum-norm correction
    Eigen::VectorXd dx = *step;
    const double before = shortfall(f);
    if (numerics::backtrack(dx, 0.5, 30, [&](const Eigen::VectorXd& trial) {
          return shortfall(constraint_values(p, x + trial)) < before;
        }) > 30) {
      return false;
    }
    x += dx;
  }
  return constraint_values(p, x).minCoeff() > 0.0;
}

}  // namespace

Eigen::VectorXd find_strictly_feasible(const penalty_problem& p, const Eigen::VectorXd& guess,
                                       const interior_penalty_options& options) {
  if (strictly_feasible(p, guess)) return guess;
  Eigen::VectorXd restored = guess;
  if (restore_feasibility(p, restored)) return restored;
  const int n = p.dimension;
  // Phase 1 on (x, s): minimise s subject to f_i(x) + s > 0.
  penalty_problem aux;
  aux.dimension = n + 1;
  aux.objective = [n](const Eigen::VectorXd& y, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    if (g) {
      g->setZero(n + 1);
      (*g)(n) = 1.0;
    }
    if (h) h->setZero(n + 1, n + 1);
    return y(n);
  };
  for (const auto& c : p.constraints) {
    aux.constraints.push_back(
        [n, c](const Eigen::VectorXd& y, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
          Eigen::VectorXd gx;
          Eigen::MatrixXd hx;
          const double v = c(y.head(n), g ? &gx : nullptr, h ? &hx : nullptr);
          if (g) {
            g->resize(n + 1);
            g->head(n) = gx;
            (*g)(n) = 1.0;
          }
          if (h) {
            h->setZero(n + 1, n + 1);
            h->topLeftCorner(n, n) = hx;
          }
          return v + y(n);
        });
  }
  const Eigen::VectorXd v = constraint_values(p, guess);
  Eigen::VectorXd y(n + 1);
  y.head(n) = guess;
  y(n) = -v.minCoeff() + 1.0 + 0.1 * v.cwiseAbs().maxCoeff();
  const auto feasible_now = [&](const Eigen::VectorXd& z) {
    return z(n) < 0.0 && strictly_feasible(p, z.head(n));
  };
  double r = 1.0;
  for (int stage = 0; stage < 12; ++stage, r *= 0.1) {
    const auto s = solve_stage(aux, r, y, options.newton, feasible_now);
    y = s.x;
    if (feasible_now(y)) return y.head(n);
  }
  throw std::runtime_error(
      "interior penalty: no strictly feasible start found; the constraints may be inconsistent "
      "(relax the bounds or give a feasible start)");
}

interior_penalty_result minimise_interior_penalty(
    const penalty_problem& p, const Eigen::VectorXd& start, const interior_penalty_options& options,
    const std::function<bool(const Eigen::VectorXd&)>& accept) {
  if (options.r.empty()) throw io::option_error("r", "must not be empty (interior penalty)");
  interior_penalty_result res;
  res.start = find_strictly_feasible(p, start, options);
  Eigen::VectorXd x = res.start;
  for (const double r : options.r) {
    auto s = solve_stage(p, r, x, options.newton);
    x = s.x;
    res.stages.push_back(std::move(s));
  }
  res.x = x;
  res.objective = p.objective(x, nullptr, nullptr);
  const std::size_t ns = res.stages.size();
  if (options.extrapolate && ns >= 3) {
    // k(r) = alpha + beta sqrt(r) + gamma r through the last three stages; k(0) = alpha.
    Eigen::Matrix3d m;
    Eigen::MatrixXd rhs(3, p.dimension);
    for (int i = 0; i < 3; ++i) {
      const auto& s = res.stages[ns - 3 + static_cast<std::size_t>(i)];
      m.row(i) << 1.0, std::sqrt(s.r), s.r;
      rhs.row(i) = s.x.transpose();
    }
    const Eigen::PartialPivLU<Eigen::Matrix3d> lu(m);
    const Eigen::VectorXd alpha = (lu.solve(rhs)).row(0).transpose();
    if (alpha.allFinite() && strictly_feasible(p, alpha) && (!accept || accept(alpha))) {
      const double z = p.objective(alpha, nullptr, nullptr);
      if (z <= res.objective) {
        res.x = alpha;
        res.objective = z;
        res.extrapolated = true;
      }
    }
  }
  res.constraints = constraint_values(p, res.x);
  return res;
}

}  // namespace kinevo::synthesis
