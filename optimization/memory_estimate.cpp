#include "kinevo/optimization/detail/memory_estimate.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::optimization {

namespace {

// Per island (ga/detail/island.hpp): points and offspring, the tiled bounds and the mutation sites,
// n doubles each per individual; two bit genomes for binary/Gray genes; a few per-individual
// vectors (values, order, parents, weights).
double island_bytes(const ga::ga_options& g, int dim) {
  const double individuals = g.population + 1.0;
  const double n = dim;
  double per_individual = 5.0 * 8.0 * n + 48.0;
  if (g.genes != ga::encoding::real) {
    per_individual += 2.0 * 8.0 * std::ceil(n * g.bits_per_variable / 64.0);
  }
  return individuals * per_individual;
}

// Generations a run can reach: its generation limit, or what its evaluation limit allows.
double generations_bound(const run_plan& p) {
  const double per_generation =
      static_cast<double>(p.islands.islands) * std::max(1, p.ga.offspring_per_generation());
  double g = p.per_run.max_generations > 0 ? static_cast<double>(p.per_run.max_generations) : 0.0;
  if (p.per_run.max_evaluations > 0) {
    const double by_evals = static_cast<double>(p.per_run.max_evaluations) / per_generation;
    g = g > 0.0 ? std::min(g, by_evals) : by_evals;
  }
  return g;  // 0: bounded only by time, stall or target (not estimated)
}

std::string gigabytes(double bytes) {
  return fmt::format("{:.3g} GB", bytes / 1e9);
}

}  // namespace

memory_estimate estimate_memory(const run_plan& p, int dim, bool record_history) {
  memory_estimate m;
  m.populations = static_cast<double>(p.islands.islands) * island_bytes(p.ga, dim);
  if (record_history) {
    const double runs_budget = p.range.runs - 1 + p.range.first_run_budget;
    m.history = static_cast<double>(p.islands.islands) * (generations_bound(p) + 1.0) *
                runs_budget * static_cast<double>(sizeof(ga::generation_record));
  }
  if (p.range.runs > 1 && p.range.rotate) {
    // Every run record keeps its axes, and the rotation keeps the recent moves.
    m.rotation = (p.range.runs + 2.0) * 8.0 * static_cast<double>(dim) * dim;
  }
  return m;
}

double memory_limit_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 4.0 * 1024 * 1024 * 1024;
  return 0.5 * static_cast<double>(pages) * static_cast<double>(page);
}

void check_memory(const memory_estimate& m, const run_plan& p, int dim, double limit) {
  if (m.total() <= limit) return;
  std::string parts =
      fmt::format("{} for {} island(s) of {} individuals in {} variables", gigabytes(m.populations),
                  p.islands.islands, p.ga.population, dim);
  if (m.history > 0.0) parts += fmt::format(", {} of history", gigabytes(m.history));
  if (m.rotation > 0.0)
    parts += fmt::format(", {} of rotated range-run axes", gigabytes(m.rotation));
  const std::string why = fmt::format(
      "needs about {} of memory ({}), more than the limit of {} (half the physical memory); "
      "make it smaller",
      gigabytes(m.total()), parts, gigabytes(limit));
  if (m.history > m.populations && m.history >= m.rotation) {
    throw io::option_error("generations", "(with --log or --plot) " + why);
  }
  if (m.rotation > m.populations) throw io::option_error("dim", "(with --rotate) " + why);
  if (static_cast<double>(p.islands.islands) > p.ga.population) {
    throw io::option_error("islands", why);
  }
  throw io::option_error("population", why);
}

}  // namespace kinevo::optimization
