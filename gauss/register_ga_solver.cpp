#include "kinevo/gauss/register_ga_solver.hpp"

#include <mutex>

#include "kinevo/gauss/ga_solver_options.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::gauss {

void register_ga_solver() {
  static std::once_flag once;
  std::call_once(once, [] {
    mechanics::register_solver(
        "ga", "Gauss' principle minimised by the island GA (range runs, warm starts)",
        [](const mechanics::solver_options& o) -> std::unique_ptr<mechanics::acceleration_solver> {
          const ga_solver_options own = ga_solver_options_of(o);
          gauss_ga_options g = gauss_ga_preset(own.preset);
          g.islands.islands = own.islands;
          g.islands.threads = own.threads;
          g.islands.seed = own.seed;
          if (own.preset != "thesis") g.tolerance = own.tolerance;
          return std::make_unique<gauss_ga_solver>(std::move(g));
        },
        [](const std::any& own) { std::any_cast<const ga_solver_options&>(own).validate(); });
  });
}

}  // namespace kinevo::gauss
