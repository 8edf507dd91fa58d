#include "kinevo/gauss/ga_solver_options.hpp"

#include "kinevo/io/option_error.hpp"

namespace kinevo::gauss {

void ga_solver_options::validate() const {
  // The island-count rule of ga::require_island_count, and the GA's islands.threads rule.
  io::require_integer("islands", islands, 1);
  io::require_integer("threads", threads, 0, 4096);
  io::require_real("tolerance", tolerance, io::positive());
}

ga_solver_options& ga_solver_options_of(mechanics::solver_options& o) {
  std::any& entry = o.registered["ga"];
  if (!entry.has_value()) entry = ga_solver_options{};
  return std::any_cast<ga_solver_options&>(entry);
}

ga_solver_options ga_solver_options_of(const mechanics::solver_options& o) {
  const auto it = o.registered.find("ga");
  return it == o.registered.end() ? ga_solver_options{}
                                  : std::any_cast<const ga_solver_options&>(it->second);
}

}  // namespace kinevo::gauss
