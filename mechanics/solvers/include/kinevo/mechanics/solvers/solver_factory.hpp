// Acceleration solvers by name, for the CLI and the studies. The built-in direct solvers are
// "lm", "uk", "gigsp", "sl" and "kv"; solvers of higher modules (the Gauss'-principle GA solver
// "ga", gauss/register_ga_solver.hpp) are added explicitly through register_solver().
#pragma once

#include <any>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

// What make_solver hands a solver: the direct solvers' options, and the options of the solvers
// higher modules register, each under its solver's name as that module's own struct (the GA
// solver's gauss::ga_solver_options under "ga"). The factory never looks inside those: the
// registering module's validator and factory do. A registered solver without an entry takes its
// defaults.
struct solver_options {
  direct_solver_options direct;
  std::map<std::string, std::any> registered;

  // direct.validate(), then each registered entry by its solver's validator: throws
  // io::option_error naming the field. make_solver calls it.
  void validate() const;
};

using solver_factory_fn =
    std::function<std::unique_ptr<acceleration_solver>(const solver_options&)>;
// Checks a registered solver's own entry of solver_options::registered.
using solver_options_validator = std::function<void(const std::any&)>;

// Registration of solvers defined in higher modules, called explicitly by the program (not from
// a static initialiser: a static library drops object files nothing references).
// Returns true; a second registration of the same name replaces the first.
bool register_solver(const std::string& name, const std::string& description,
                     solver_factory_fn factory, solver_options_validator validate = {});

// A new solver. Throws io::input_error for an unknown name, listing the available ones; for
// "ga" before it is registered the message says it is not available in this build.
std::unique_ptr<acceleration_solver> make_solver(const std::string& name,
                                                 const solver_options& options = {});

bool solver_available(const std::string& name);

// The names make_solver accepts now, built-ins first.
std::vector<std::string> solver_names();
// The five direct solvers, in the order of the dissertation's Table 4.1 comparison.
std::vector<std::string> direct_solver_names();
std::string solver_description(const std::string& name);

}  // namespace kinevo::mechanics
