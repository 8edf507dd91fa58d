// How a GA run treats constraints (one concept, chosen per run):
//   penalty      the problem's value already holds a penalty (ga/penalty.hpp, fixed or
//                increasing weights); islands compare values only;
//   multipliers  the same, with augmented-Lagrangian multiplier updates between range runs
//                (penalty_kind::multipliers);
//   feasibility  Deb's rules (K. Deb, "An efficient constraint handling method for genetic
//                algorithms", Comput. Methods Appl. Mech. Engrg. 186 (2000), sec. 3): a feasible
//                candidate beats an infeasible one, two feasible ones compare by objective, two
//                infeasible ones by total violation. No weights at all;
//   epsilon      the epsilon-level comparison (T. Takahama and S. Sakai, "Constrained
//                optimization by the epsilon constrained differential evolution with gradient-
//                based mutation and feasible elites", CEC 2006, eqs. 5-8): violations up to a
//                level eps count as feasible, eps(t) = eps(0) (1 - t / T_c)^cp for t < T_c and
//                0 after, eps(0) the violation of the candidate at quantile theta of the initial
//                population. Lets a run cross infeasible regions early and ends by Deb's rules.
// With feasibility and epsilon the problem reports each candidate's total violation
// (problem::reports_violation); the best point of a run is always chosen by Deb's rules (eps = 0),
// so a run that found a feasible point returns one.
#pragma once

#include <string>

namespace kinevo::ga {

enum class constraint_handling { penalty, multipliers, feasibility, epsilon };

// "penalty", "multipliers", "feasibility", "epsilon"; parse throws std::invalid_argument
// listing the choices.
std::string to_string(constraint_handling c);
constraint_handling parse_constraint_handling(const std::string& name);

// True when islands compare (violation, value) pairs rather than values.
inline bool compares_violations(constraint_handling c) {
  return c == constraint_handling::feasibility || c == constraint_handling::epsilon;
}

// The epsilon-level order (Takahama and Sakai, eq. 5): a precedes b when its violation, counted
// as 0 up to eps, is smaller, or equal with a smaller value. eps = 0 is Deb's rules; without
// violations it is the order of values.
inline bool precedes(double fa, double va, double fb, double vb, double eps) {
  const double ra = va <= eps ? 0.0 : va;
  const double rb = vb <= eps ? 0.0 : vb;
  return ra < rb || (ra == rb && fa < fb);
}

// Settings of the epsilon level (Takahama and Sakai's defaults: theta = 0.2, cp = 5).
struct epsilon_options {
  double quantile = 0.2;  // theta in [0, 1]: eps(0) = violation at this quantile of the start
  double exponent = 5.0;  // cp >= 0
  // T_c as a fraction of the run (its generation or evaluation limit, whichever comes first),
  // in (0, 1]; a run without either limit uses eps = 0 from the start.
  double until = 0.2;

  // Throws io::option_error naming "epsilon_quantile", "epsilon_exponent" or "epsilon_until".
  void validate() const;
};

// eps(t) for a run that is `progress` (in [0, 1]) done.
double epsilon_level(const epsilon_options& o, double eps0, double progress);

}  // namespace kinevo::ga
