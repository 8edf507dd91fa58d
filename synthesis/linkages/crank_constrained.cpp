#include "kinevo/synthesis/linkages/crank_constrained.hpp"

#include <algorithm>
#include <array>
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "kinevo/io/option_error.hpp"
#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/grashof.hpp"
#include "kinevo/synthesis/linkages/mobility_conditions.hpp"

namespace kinevo::synthesis {

std::string to_string(crank_requirement c) {
  switch (c) {
    case crank_requirement::none:
      return "none";
    case crank_requirement::input:
      return "input";
    case crank_requirement::output:
      return "output";
    case crank_requirement::both:
      return "both";
  }
  return "none";
}

std::string to_string(coupler_requirement c) {
  switch (c) {
    case coupler_requirement::crank:
      return "crank";
    case coupler_requirement::rocker:
      return "rocker";
    case coupler_requirement::none:
      break;
  }
  return "none";
}

coupler_requirement parse_coupler_requirement(const std::string& s) {
  if (s == "none") return coupler_requirement::none;
  if (s == "crank") return coupler_requirement::crank;
  if (s == "rocker") return coupler_requirement::rocker;
  throw io::option_error("coupler", "'" + s + "': use none, crank or rocker");
}

bool parse_output_rocker(const std::string& s) {
  if (s == "any") return false;
  if (s == "rocker") return true;
  throw io::option_error("output", "'" + s + "': use any or rocker");
}

void crank_constrained_options::validate() const {
  if (output_rocker && (crank == crank_requirement::output || crank == crank_requirement::both)) {
    throw io::option_error("output", "the output cannot be both a crank and a rocker");
  }
  // A ratio of 1e160 squares to inf and the constraints to NaN: refuse it here, at the source.
  if (max_link_ratio != 0.0) {
    io::require_real("max_link_ratio", max_link_ratio, {1.0, max_link_ratio_limit, true, false});
  }
  io::require_real("min_transmission", min_transmission, {0.0, std::numbers::pi / 2, false, true});
  io::require_integer("random_starts", random_starts, 0, 1'000'000);
  for (const double w : weights) io::require_real("weights", w, io::positive());
}

crank_requirement parse_crank_requirement(const std::string& s) {
  if (s == "none") return crank_requirement::none;
  if (s == "input") return crank_requirement::input;
  if (s == "output") return crank_requirement::output;
  if (s == "both") return crank_requirement::both;
  throw io::option_error("crank", "'" + s + "': use none, input, output or both");
}

namespace {

// A constraint known only by value: gradient and Hessian by central differences (the link-ratio
// and transmission bounds; the crank conditions have analytic derivatives).
smooth_function numeric_derivatives(std::function<double(const Eigen::Vector3d&)> f) {
  return [f](const Eigen::VectorXd& x, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    const Eigen::Vector3d x0 = x;
    const double f0 = f(x0);
    if (!g && !h) return f0;
    const double step = 1e-4;
    Eigen::Vector3d hs;
    for (int i = 0; i < 3; ++i) hs(i) = step * (1.0 + std::abs(x0(i)));
    if (g) {
      g->resize(3);
      for (int i = 0; i < 3; ++i) {
        Eigen::Vector3d p = x0, m = x0;
        p(i) += hs(i);
        m(i) -= hs(i);
        (*g)(i) = (f(p) - f(m)) / (2.0 * hs(i));
      }
    }
    if (h) {
      h->resize(3, 3);
      for (int i = 0; i < 3; ++i) {
        for (int j = i; j < 3; ++j) {
          Eigen::Vector3d pp = x0, pm = x0, mp = x0, mm = x0;
          pp(i) += hs(i), pp(j) += hs(j);
          pm(i) += hs(i), pm(j) -= hs(j);
          mp(i) -= hs(i), mp(j) += hs(j);
          mm(i) -= hs(i), mm(j) -= hs(j);
          (*h)(i, j) = (*h)(j, i) = (f(pp) - f(pm) - f(mp) + f(mm)) / (4.0 * hs(i) * hs(j));
        }
      }
    }
    return f0;
  };
}

// Input-crank conditions composed with the k2 <-> -k3 swap give the output-crank ones (19).
smooth_function swapped(double (*f)(const Eigen::VectorXd&, Eigen::VectorXd*, Eigen::MatrixXd*)) {
  return [f](const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    Eigen::Matrix3d p;
    p << 1, 0, 0, 0, 0, -1, 0, -1, 0;
    const Eigen::VectorXd ks = p * k;
    const double v = f(ks, g, h);
    if (g) *g = p.transpose() * *g;
    if (h) *h = p.transpose() * *h * p;
    return v;
  };
}

// Squared link lengths (frame 1) from k; a3^2 may be negative for k that define no linkage.
std::array<double, 4> squared_links(const Eigen::Vector3d& k) {
  const double a2 = 1.0 / k(1), a4 = 1.0 / k(2);
  return {1.0, a2 * a2, 1.0 + a2 * a2 + a4 * a4 - 2.0 * k(0) * a2 * a4, a4 * a4};
}

}  // namespace

namespace {

// z = 1/2 ||W^(1/2) (A k - b)||^2 with its gradient and constant Hessian (eq. (45)).
smooth_function weighted_objective(const std::vector<double>& psi, const std::vector<double>& phi,
                                   const std::vector<double>& weights) {
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  freudenstein_system(psi, phi, a, b);
  if (!weights.empty()) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const double s = std::sqrt(weights.at(static_cast<std::size_t>(i)));
      a.row(i) *= s;
      b(i) *= s;
    }
  }
  const Eigen::MatrixXd ata = a.transpose() * a;  // the Hessian of z (eq. (45)), not a solver
  return [a, b, ata](const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    const Eigen::VectorXd e = a * k - b;
    if (g) *g = a.transpose() * e;
    if (h) *h = ata;
    return 0.5 * e.squaredNorm();
  };
}

// The crank conditions (18) of the input, or those of the output (19) (the input's at swapped
// k): f1 and f2, or f1 and both factors of f2 with `strict_factors`.
void add_crank_conditions(penalty_problem& p, bool output, bool strict_factors) {
  using condition = double (*)(const Eigen::VectorXd&, Eigen::VectorXd*, Eigen::MatrixXd*);
  const auto map = [output](condition f) { return output ? swapped(f) : smooth_function(f); };
  const std::string link = output ? "output crank (19" : "input crank (18";
  p.constraints.push_back(map(input_crank_f1));
  p.constraint_names.push_back(output ? link + "a)" : "input crank f1 (18a)");
  if (strict_factors) {
    p.constraints.push_back(map(input_crank_h1));
    p.constraint_names.push_back(link + "b), first factor");
    p.constraints.push_back(map(input_crank_h2));
    p.constraint_names.push_back(link + "b), second factor");
  } else {
    p.constraints.push_back(map(input_crank_f2));
    p.constraint_names.push_back(output ? link + "b)" : "input crank f2 (18b)");
  }
}

// R^2 a_i^2 - a_j^2 > 0 for every ordered pair: longest / shortest < R.
void add_link_ratio_bounds(penalty_problem& p, double max_link_ratio) {
  const double r2 = max_link_ratio * max_link_ratio;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (i == j) continue;
      p.constraints.push_back(numeric_derivatives([i, j, r2](const Eigen::Vector3d& k) {
        const auto s = squared_links(k);
        return (r2 * s[static_cast<std::size_t>(i)] - s[static_cast<std::size_t>(j)]) / (1.0 + r2);
      }));
      p.constraint_names.push_back("link ratio a" + std::to_string(i + 1) + "/a" +
                                   std::to_string(j + 1));
    }
  }
}

// cos^2(mu_min) - cos^2(mu) > 0 (mu within [mu_min, pi - mu_min]) at the inputs where the
// transmission angle is extreme: 0 and pi for an input crank, else the ends of the table's range
// and any of 0, +-pi inside it.
void add_transmission_bounds(penalty_problem& p, const std::vector<double>& psi,
                             double min_transmission, bool input_crank) {
  std::vector<double> at;
  if (input_crank) {
    at = {0.0, std::numbers::pi};
  } else {
    const auto [lo, hi] = std::minmax_element(psi.begin(), psi.end());
    at = {*lo, *hi};
    for (const double c : {0.0, std::numbers::pi, -std::numbers::pi}) {
      if (c > *lo && c < *hi) at.push_back(c);
    }
  }
  const double cmax = std::cos(min_transmission);
  for (const double ps : at) {
    p.constraints.push_back(numeric_derivatives([ps, cmax](const Eigen::Vector3d& k) {
      const auto s = squared_links(k);
      const double a2 = 1.0 / k(1);
      const double d2 = 1.0 + a2 * a2 - 2.0 * a2 * std::cos(ps);
      const double num = s[2] + s[3] - d2;
      // (2 a3 a4)^2 cos^2(mu_min) - num^2, scaled to stay O(1).
      const double den = 4.0 * s[2] * s[3];
      return (den * cmax * cmax - num * num) / (1.0 + den);
    }));
    p.constraint_names.push_back(
        "transmission angle at psi = " + std::to_string(ps * 180.0 / std::numbers::pi) + " deg");
  }
}

// One of two functions negative: -f_branch > 0, or -min(f_0, f_1) > 0 for branch -1. A k with no
// real coupler (NaN) counts as violated.
void add_rocker_condition(penalty_problem& p, double (*f)(const Eigen::Vector3d&, int), int branch,
                          const std::string& name) {
  p.constraints.push_back(numeric_derivatives([f, branch](const Eigen::Vector3d& k) {
    const double v = branch >= 0 ? f(k, branch) : std::min(f(k, 0), f(k, 1));
    return std::isnan(v) ? -1.0 : -v;
  }));
  p.constraint_names.push_back(branch < 0    ? name
                               : branch == 0 ? name + " (at 0)"
                                             : name + " (at pi)");
}

void add_coupler_crank(penalty_problem& p) {
  for (int which = 0; which < 2; ++which) {
    p.constraints.push_back(numeric_derivatives([which](const Eigen::Vector3d& k) {
      const double v = coupler_condition(k, which);
      return std::isnan(v) ? -1.0 : v;
    }));
    p.constraint_names.push_back(which == 0 ? "coupler crank (32a, fixed)"
                                            : "coupler crank (32b, fixed)");
  }
}

bool input_is_crank(crank_requirement c) {
  return c == crank_requirement::input || c == crank_requirement::both;
}
bool output_is_crank(crank_requirement c) {
  return c == crank_requirement::output || c == crank_requirement::both;
}

}  // namespace

bool meets_link_types(const Eigen::Vector3d& k, const crank_constrained_options& o) {
  const bool in = input_is_crank(o.crank), out = output_is_crank(o.crank);
  if (in && !(input_crank(k).crank && input_turns_fully(k))) return false;
  if (out && !(output_crank(k).crank && output_turns_fully(k))) return false;
  if (o.output_rocker &&
      !(std::min(output_factor(k, 0), output_factor(k, 1)) < 0.0 && !output_turns_fully(k))) {
    return false;
  }
  if (o.coupler != coupler_requirement::none) {
    const auto c = coupler_conditions(k);
    if (!c.real || c.turns() != (o.coupler == coupler_requirement::crank)) return false;
  }
  return true;
}

penalty_problem crank_constrained_problem(const std::vector<double>& psi,
                                          const std::vector<double>& phi,
                                          const crank_constrained_options& o, bool strict_factors,
                                          rocker_branches branches) {
  o.validate();
  penalty_problem p;
  p.dimension = 3;
  p.objective = weighted_objective(psi, phi, o.weights);
  const bool in = input_is_crank(o.crank), out = output_is_crank(o.crank);
  if (in) add_crank_conditions(p, false, strict_factors);
  if (out) add_crank_conditions(p, true, strict_factors);
  if (o.output_rocker) add_rocker_condition(p, output_factor, branches.output, "output rocker");
  if (o.coupler == coupler_requirement::crank) add_coupler_crank(p);
  if (o.coupler == coupler_requirement::rocker) {
    add_rocker_condition(p, coupler_condition, branches.coupler, "coupler rocker (32, fixed)");
  }
  if (o.max_link_ratio > 0.0) add_link_ratio_bounds(p, o.max_link_ratio);
  if (o.min_transmission > 0.0) add_transmission_bounds(p, psi, o.min_transmission, in);
  return p;
}

crank_constrained_result crank_constrained_least_squares(const std::vector<double>& psi,
                                                         const std::vector<double>& phi,
                                                         const crank_constrained_options& o) {
  o.validate();
  const bool in = input_is_crank(o.crank), out = output_is_crank(o.crank);
  // Feasible starts to try: the unconstrained optimum (through phase 1), then textbook linkages of
  // the required type (frame 1): a short crank beside equal links, or a short frame for both.
  // Points that do not determine k (rank-deficient fit) give no such start; the others remain.
  std::vector<Eigen::Vector3d> starts;
  if (const auto ls = freudenstein_least_squares(psi, phi, o.weights); ls.summary.usable()) {
    starts.push_back(ls.k);
  }
  if (in && out) {
    starts.push_back(k_from_links({1.0, 2.0, 2.2, 2.5}));
  } else if (in) {
    starts.push_back(k_from_links({1.0, 0.3, 1.0, 1.0}));
    starts.push_back(k_from_links({1.0, -0.3, 1.0, 1.0}));
  } else if (out) {
    starts.push_back(k_from_links({1.0, 1.0, 1.0, 0.3}));
    starts.push_back(k_from_links({1.0, 1.0, 1.0, -0.3}));
  }
  if (o.output_rocker || o.coupler != coupler_requirement::none) {
    // A short coupler (double rocker, coupler turns) and a non-Grashof chain (all rockers).
    for (const double s : {1.0, -1.0}) {
      starts.push_back(k_from_links({1.0, 1.1, 0.3, 1.2 * s}));
      starts.push_back(k_from_links({1.0, 1.5, 1.2, 1.3 * s}));
    }
  }
  boost::random::mt19937 rng(static_cast<std::uint32_t>(o.seed));
  boost::random::uniform_real_distribution<double> u(-3.0, 3.0);
  for (int i = 0; i < o.random_starts; ++i) starts.emplace_back(u(rng), u(rng), u(rng));
  return crank_constrained_from_starts(psi, phi, o, starts);
}

crank_constrained_result crank_constrained_from_starts(const std::vector<double>& psi,
                                                       const std::vector<double>& phi,
                                                       const crank_constrained_options& o,
                                                       const std::vector<Eigen::Vector3d>& starts) {
  o.validate();
  const auto accept = [&](const Eigen::VectorXd& k) { return meets_link_types(k, o); };
  // A rocker requirement is one of two smooth conditions: every combination is solved.
  std::vector<rocker_branches> combos;
  for (const int ob : o.output_rocker ? std::vector<int>{0, 1} : std::vector<int>{-1}) {
    for (const int cb :
         o.coupler == coupler_requirement::rocker ? std::vector<int>{0, 1} : std::vector<int>{-1}) {
      combos.push_back({ob, cb});
    }
  }
  crank_constrained_result best;
  bool found = false;
  std::string last_error = "no start tried";
  for (const auto& branches : combos) {
    const penalty_problem p = crank_constrained_problem(psi, phi, o, false, branches);
    const penalty_problem strict = crank_constrained_problem(psi, phi, o, true, branches);
    for (const auto& s : starts) {
      try {
        auto r = minimise_interior_penalty(p, find_strictly_feasible(strict, s, o.penalty),
                                           o.penalty, accept);
        if (!accept(r.x)) {
          last_error = "the penalty iterates left the required linkage type";
          continue;
        }
        if (!found || r.objective < best.penalty.objective) {
          best.penalty = std::move(r);
          found = true;
        }
      } catch (const std::exception& e) {
        last_error = e.what();
      }
    }
  }
  if (!found)
    throw std::runtime_error("constrained synthesis found no linkage of the required type: " +
                             last_error);
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  freudenstein_system(psi, phi, a, b);
  best.fit.k = best.penalty.x;
  best.fit.residual = a * best.fit.k - b;
  best.fit.residual_norm = best.fit.residual.norm();
  return best;
}

}  // namespace kinevo::synthesis
