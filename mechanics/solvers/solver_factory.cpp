#include "kinevo/mechanics/solvers/solver_factory.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/solvers/detail/kim_vanderploeg_solver.hpp"
#include "kinevo/mechanics/solvers/detail/lagrange_multiplier_solver.hpp"
#include "kinevo/mechanics/solvers/detail/singh_likins_solver.hpp"
#include "kinevo/mechanics/solvers/detail/udwadia_kalaba_solver.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/mechanics/solvers/null_space_projection.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"

namespace kinevo::mechanics {

namespace {

struct entry {
  std::string description;
  solver_factory_fn factory;
  solver_options_validator validate = {};  // none for the built-in solvers
};

template <typename T>
solver_factory_fn make_factory() {
  return [](const solver_options& o) { return std::make_unique<T>(o.direct); };
}

struct registry {
  std::mutex mutex;
  std::map<std::string, entry> entries;
  registry() {
    entries["lm"] = {
        "Lagrange multipliers (augmented system)", make_factory<lagrange_multiplier_solver>(), {}};
    entries["uk"] = {
        "Udwadia-Kalaba (Moore-Penrose inverse)", make_factory<udwadia_kalaba_solver>(), {}};
    entries["gigsp"] = {
        "generalized inverse by Gram-Schmidt (GIGSP)", make_factory<gigsp_solver>(), {}};
    entries["sl"] = {"Singh-Likins (SVD)", make_factory<singh_likins_solver>(), {}};
    entries["kv"] = {"Kim-Vanderploeg (QR)", make_factory<kim_vanderploeg_solver>(), {}};
    entries["qtz"] = {"QTZ decomposition, minimal coordinates (Del Citto, Pennestri, Vita)",
                      make_factory<qtz_solver>(),
                      {}};
    entries["projection"] = {"Yoo-Kim-Kim projection onto the null space of A (COD)",
                             make_factory<null_space_projection_solver>(),
                             {}};
  }
};

registry& the_registry() {
  static registry r;
  return r;
}

}  // namespace

std::vector<std::string> direct_solver_names() {
  return {"lm", "uk", "gigsp", "sl", "kv"};
}

bool register_solver(const std::string& name, const std::string& description,
                     solver_factory_fn factory, solver_options_validator validate) {
  auto& r = the_registry();
  std::lock_guard lock(r.mutex);
  r.entries[name] = {description, std::move(factory), std::move(validate)};
  return true;
}

bool solver_available(const std::string& name) {
  auto& r = the_registry();
  std::lock_guard lock(r.mutex);
  return r.entries.count(name) != 0;
}

std::vector<std::string> solver_names() {
  std::vector<std::string> names = direct_solver_names();
  auto& r = the_registry();
  std::lock_guard lock(r.mutex);
  for (const auto& [n, e] : r.entries) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  }
  return names;
}

std::string solver_description(const std::string& name) {
  auto& r = the_registry();
  std::lock_guard lock(r.mutex);
  auto it = r.entries.find(name);
  return it == r.entries.end() ? std::string() : it->second.description;
}

void solver_options::validate() const {
  direct.validate();
  for (const auto& [name, own] : registered) {
    solver_options_validator validate;
    {
      auto& r = the_registry();
      std::lock_guard lock(r.mutex);
      auto it = r.entries.find(name);
      if (it != r.entries.end()) validate = it->second.validate;
    }
    if (validate) validate(own);
  }
}

std::unique_ptr<acceleration_solver> make_solver(const std::string& name,
                                                 const solver_options& options) {
  options.validate();
  solver_factory_fn factory;
  {
    auto& r = the_registry();
    std::lock_guard lock(r.mutex);
    auto it = r.entries.find(name);
    if (it != r.entries.end()) factory = it->second.factory;
  }
  if (!factory) {
    std::string list;
    for (const auto& n : solver_names()) list += (list.empty() ? "" : ", ") + n;
    if (name == "ga") {
      throw io::input_error(fmt::format(
          "solver 'ga' (Gauss' principle by genetic algorithm) is not registered: link "
          "kinevo_gauss and call kinevo::gauss::register_ga_solver() first (available: {})",
          list));
    }
    throw io::input_error(fmt::format("unknown solver '{}' (available: {})", name, list));
  }
  return factory(options);
}

}  // namespace kinevo::mechanics
