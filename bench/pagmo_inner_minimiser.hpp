// pagmo2's cmaes and sade as inner minimisers of the "ga" solver's multiplier loop
// (gauss/inner_minimiser.hpp): each range run's objective (the augmented Z1 in mass-scaled axes,
// relative to the run's centre), box, evaluation budget and start point are handed to pagmo
// instead of the island GA; the loop around them (weights, multiplier updates, boxes, stopping
// rule) is the solver's own. Bench-only (pagmo is installed by ./setup.sh --bench).
//
// Settings (docs/gauss.md, "Against gradient methods on the same objective"):
//   cmaes  population 4 + floor(3 ln n) (Hansen's default lambda; pagmo takes the population it
//          is given), sigma0 = 1 / (2 box_margin) of the box width per axis: pagmo samples
//          mean + sigma B D z with D the box widths, and the solver draws its box box_margin
//          times the estimated distance to the answer, so the first step is that distance;
//          force_bounds on (the GA's children are clipped to the box too); no memory between
//          runs (the GA starts a fresh population every run).
//   sade   population as the GA's (100), pagmo's default variant (rand/1/exp) and jDE
//          self-adaptation, no memory.
// Both: ftol = xtol = 0 (never stop early: the run spends the GA's budget, the initial
// population and whole generations, never more than the budget plus the start point); the
// run's start point (the previous best, when the GA gets one) replaces the first random
// individual, so that cmaes' mean starts there; seeds from (seed, run index).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <string>
#include <utility>

#include "kinevo/gauss/inner_minimiser.hpp"

namespace kinevo::bench {

// One run's objective as a pagmo problem (a view: the run's problem outlives the run).
struct pagmo_run_problem {
  const ga::problem* objective = nullptr;
  pagmo::vector_double lower, upper;

  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    const Eigen::Map<const Eigen::VectorXd> column(x.data(), static_cast<Eigen::Index>(x.size()));
    Eigen::VectorXd value(1);
    objective->evaluate(column, value);
    return {value(0)};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {lower, upper};
  }
};

// A 32-bit seed for run `run_index` of a solve seeded `seed` (splitmix64).
inline unsigned pagmo_run_seed(std::uint64_t seed, std::uint64_t run_index) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + run_index + 0x632BE59BD9B4E019ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<unsigned>((z ^ (z >> 31)) & 0xffffffffULL);
}

inline pagmo::vector_double to_vector(const Eigen::VectorXd& v) {
  return {v.data(), v.data() + v.size()};
}

enum class pagmo_method { cmaes, sade };

inline std::string to_string(pagmo_method m) {
  return m == pagmo_method::cmaes ? "cmaes" : "sade";
}

struct pagmo_inner_settings {
  pagmo_method method = pagmo_method::cmaes;
  std::uint64_t seed = 1;          // the GA's island seed
  unsigned sade_population = 100;  // the GA's population
  double box_margin = 4.0;         // the solver's box_margin (cmaes' sigma0)
};

// One run by pagmo: the initial population (plus the start point) and as many whole
// generations as the budget holds.
inline ga::run_result pagmo_run(const pagmo_inner_settings& ps, const ga::problem& objective,
                                const ga::search_box& box, const ga::termination& limits,
                                const ga::run_settings& settings) {
  const auto t0 = std::chrono::steady_clock::now();
  const int n = box.dimension();
  const unsigned seed = pagmo_run_seed(ps.seed, settings.run_index);
  const unsigned lambda =
      ps.method == pagmo_method::cmaes
          ? 4u + static_cast<unsigned>(std::floor(3.0 * std::log(static_cast<double>(n))))
          : ps.sade_population;
  pagmo::population pop(
      pagmo::problem(pagmo_run_problem{&objective, to_vector(box.lower), to_vector(box.upper)}),
      lambda, seed);
  if (settings.start_point != nullptr) pop.set_x(0, to_vector(*settings.start_point));
  const long long spent = static_cast<long long>(pop.get_problem().get_fevals());
  const auto generations = static_cast<unsigned>(
      std::max<long long>(1, (limits.max_evaluations - spent) / static_cast<long long>(lambda)));
  if (ps.method == pagmo_method::cmaes) {
    const double sigma0 = 1.0 / (2.0 * ps.box_margin);
    pop = pagmo::algorithm(
              pagmo::cmaes(generations, -1, -1, -1, -1, sigma0, 0.0, 0.0, false, true, seed))
              .evolve(pop);
  } else {
    pop = pagmo::algorithm(pagmo::sade(generations, 2u, 1u, 0.0, 0.0, false, seed)).evolve(pop);
  }
  ga::run_result r;
  const pagmo::vector_double& x = pop.champion_x();
  r.best_x = Eigen::Map<const Eigen::VectorXd>(x.data(), n);
  r.best_value = pop.champion_f()[0];
  r.evaluations = static_cast<long long>(pop.get_problem().get_fevals());
  r.generations = generations;
  r.reason = ga::stop_reason::evaluations;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

inline gauss::inner_minimiser pagmo_inner_minimiser(pagmo_inner_settings ps) {
  return [ps](const ga::problem& objective, const ga::search_box& box,
              const ga::termination& limits, const ga::run_settings& settings) {
    return pagmo_run(ps, objective, box, limits, settings);
  };
}

}  // namespace kinevo::bench
