#include "kinevo/ga/detail/memory_budget.hpp"
#include "kinevo/io/errors.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace kinevo::ga {

std::uint64_t island_model_bytes(const ga_options& ga, const island_options& islands,
                                 int local_islands, int dimension) {
  // In double precision to stay clear of overflow for absurd settings; converted at the end.
  const double n = dimension;
  const double cols = static_cast<double>(ga.population) + 1.0;
  const double words =
      ga.genes == encoding::real ? 0.0 : std::ceil(n * ga.bits_per_variable / 64.0);
  // Per island (island::configure, set_box): x, x_next, lower/upper tiled (double) and the
  // mutation sites (size_t), n per column; f, f_next, weights (double), order and parents (int)
  // per column; two genome arrays of `words` per column; bounds, width and best point.
  // g3: the rotation frame (n x n, only when population > n) and the parents' and family's
  // columns; a learned metric (C, its root and inverse root, the eigen-decomposition's copies:
  // about 6 n x n), its recorded steps (n per child of an update, at most about n of them),
  // the members' kept u and the points they were mapped from (2 n per member), and a family's
  // children in u and their steps in x (2 n per child) and its moved members' u (n each).
  const double frame = dimension < ga.population ? n : 0.0;
  const double metric =
      ga.metric == metric_model::learned
          ? 7.0 * n + ga.parents + 2.0 * ga.population + 2.0 * ga.offspring + ga.replaced
          : 0.0;
  const double g3 = ga.steady_state()
                        ? 8.0 * n * (frame + metric + ga.parents + ga.replaced + 8.0) +
                              8.0 * (ga.population + ga.replaced + ga.offspring)
                        : 0.0;
  const double per_island = cols * (n * (4.0 * 8.0 + 8.0) + 3.0 * 8.0 + 2.0 * 4.0) +
                            cols * words * 2.0 * 8.0 + 4.0 * n * 8.0 + 1024.0 + g3;
  // Exchange buffers: every island's head, best point and emigrants, on every process.
  const double individual = 8.0 + (words > 0.0 ? words * 8.0 : n * 8.0);
  const double exchange =
      static_cast<double>(islands.islands) * (16.0 + n * 8.0 + islands.migrants * individual);
  const double total = static_cast<double>(local_islands) * per_island + 2.0 * exchange;
  return total >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(total);
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

void require_memory(const ga_options& ga, const island_options& islands, int local_islands,
                    int dimension, std::uint64_t available) {
  if (available == 0) return;
  const std::uint64_t need = island_model_bytes(ga, islands, local_islands, dimension);
  if (need <= available) return;
  throw io::option_error(
      "population",
      fmt::format("{} on {} islands in {} variables would need about {:.3g} GB, more than this "
                  "machine's {:.3g} GB of memory: lower islands, population or the dimension",
                  ga.population, islands.islands, dimension, static_cast<double>(need) / 1e9,
                  static_cast<double>(available) / 1e9));
}

}  // namespace kinevo::ga
