#include "kinevo/gauss/register_ga_solver.hpp"

#include <mutex>

#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::gauss {

void register_ga_solver() {
  static std::once_flag once;
  std::call_once(once, [] {
    mechanics::register_solver(
        "ga", "Gauss' principle minimised by the island GA (range runs, warm starts)",
        [](const mechanics::solver_options& o) -> std::unique_ptr<mechanics::acceleration_solver> {
          gauss_ga_options g = gauss_ga_preset(o.preset);
          g.islands.islands = o.islands;
          g.islands.threads = o.threads;
          g.islands.seed = o.seed;
          if (o.preset != "thesis") g.tolerance = o.tolerance;
          return std::make_unique<gauss_ga_solver>(std::move(g));
        });
  });
}

}  // namespace kinevo::gauss
