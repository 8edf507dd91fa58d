#include "kinevo/mechanics/dynamics/formulation.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/coordinate_partitioning.hpp"
#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"
#include "kinevo/mechanics/dynamics/detail/hybrid_formulation.hpp"
#include "kinevo/mechanics/dynamics/detail/projection_formulation.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_orthogonal.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_state.hpp"
#include "kinevo/mechanics/dynamics/detail/reuse_formulation.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

namespace {

constexpr std::array<std::pair<const char*, formulation_kind>, 8> formulation_table{{
    {"full", formulation_kind::full},
    {"partitioning", formulation_kind::partitioning},
    {"projection", formulation_kind::projection},
    {"hybrid", formulation_kind::hybrid},
    {"qtz-reduced", formulation_kind::qtz_reduced},
    {"qtz-orthogonal", formulation_kind::qtz_orthogonal},
    {"qtz-state", formulation_kind::qtz_state},
    {"reuse", formulation_kind::reuse},
}};

}  // namespace

const char* to_string(formulation_kind k) {
  for (const auto& [text, value] : formulation_table) {
    if (value == k) return text;
  }
  return "unknown";
}

std::vector<std::string> formulation_names() {
  std::vector<std::string> names;
  for (const auto& entry : formulation_table) names.emplace_back(entry.first);
  return names;
}

formulation_kind parse_formulation(std::string_view name, const std::string& field) {
  for (const auto& [text, value] : formulation_table) {
    if (name == text) return value;
  }
  throw io::option_error(field,
                         fmt::format("'{}': use {}", name, fmt::join(formulation_names(), ", ")));
}

void formulation_options::validate() const {
  const io::real_range unit{0.0, 1.0, true, true};
  io::require_real("rank_tolerance", rank_tolerance, unit);
  io::require_real("newton_tolerance", newton_tolerance, unit);
  io::require_integer("newton_iterations", newton_iterations, 1);
  io::require_real("repartition_ratio", repartition_ratio, unit);
  io::require_integer("partition_check_every", partition_check_every, 1);
  io::require_integer("hybrid_repartitions", hybrid_repartitions, 1);
  io::require_integer("hybrid_window", hybrid_window, 1);
  io::require_real("hybrid_energy_tolerance", hybrid_energy_tolerance, unit);
  io::require_real("hybrid_step_drop", hybrid_step_drop, unit);
  io::require_real("hybrid_singular_rcond", hybrid_singular_rcond, unit);
  io::require_integer("hybrid_stable_steps", hybrid_stable_steps, 1);
  io::require_integer("reuse_exact_every", reuse_exact_every, 1);
}

bool uses_user_solver(formulation_kind k) {
  return k == formulation_kind::full || k == formulation_kind::partitioning ||
         k == formulation_kind::hybrid;
}

bool uses_stabilization(formulation_kind k) {
  return k == formulation_kind::full || k == formulation_kind::reuse;
}

stabilization_kind default_stabilization(formulation_kind k) {
  return k == formulation_kind::reuse ? stabilization_kind::baumgarte : stabilization_kind::none;
}

std::string formulation_conflict(formulation_kind k, bool solver_given, bool stabilization_given,
                                 bool integrator_given) {
  const char* name = to_string(k);
  if (solver_given && !uses_user_solver(k)) {
    return fmt::format(
        "--solver does not apply to --formulation {}: it computes the accelerations itself "
        "(--solver applies to full, partitioning and hybrid)",
        name);
  }
  if (stabilization_given && !uses_stabilization(k)) {
    return fmt::format(
        "--stabilization does not apply to --formulation {}: it keeps the constraints itself "
        "(--stabilization applies to full and reuse)",
        name);
  }
  if (integrator_given && k == formulation_kind::qtz_reduced) {
    return "--integrator does not apply to --formulation qtz-reduced: the reduced DAE is "
           "integrated by SUNDIALS IDA (variable-order BDF with its own error control; --rtol, "
           "--atol and --dt apply)";
  }
  return {};
}

void require_holonomic(const model& m, formulation_kind kind, std::string_view why) {
  if (m.constraints() == m.holonomic_constraints()) return;
  std::vector<std::string> rows;
  for (int i = m.holonomic_constraints(); i < m.constraints(); ++i) {
    rows.push_back("'" + m.constraint_names()[static_cast<std::size_t>(i)] + "'");
  }
  throw io::input_error(fmt::format(
      "--formulation {} takes holonomic constraints only ({}), but {} {} nonholonomic: use "
      "--formulation full, projection or qtz-orthogonal",
      to_string(kind), why, fmt::join(rows, ", "), rows.size() == 1 ? "is" : "are"));
}

std::unique_ptr<formulation> make_formulation(const model& m, const formulation_options& options,
                                              const simulation_options& simulation) {
  options.validate();
  switch (options.kind) {
    case formulation_kind::full:
      return std::make_unique<full_formulation>(m, simulation.stabilization,
                                                simulation.projection_tolerance,
                                                simulation.projection_iterations);
    case formulation_kind::qtz_orthogonal:
      return std::make_unique<qtz_orthogonal_formulation>(m, options);
    case formulation_kind::qtz_state:  // refuses nonholonomic rows by name
      return std::make_unique<qtz_state_formulation>(m, options);
    case formulation_kind::qtz_reduced:
      // Integrated by SUNDIALS IDA (dae_stepper.cpp); refuses nonholonomic rows.
      return std::make_unique<qtz_reduced_formulation>(m, options);
    case formulation_kind::projection:
      return std::make_unique<projection_formulation>(m, options);
    case formulation_kind::partitioning:
      require_holonomic(m, options.kind, "the positions are recovered from Phi = 0");
      return std::make_unique<partitioning_formulation>(m, options);
    case formulation_kind::hybrid:
      require_holonomic(m, options.kind, "the positions are recovered from Phi = 0");
      return std::make_unique<hybrid_formulation>(m, options);
    case formulation_kind::reuse:
      return std::make_unique<reuse_formulation>(m, options.reuse_exact_every, simulation);
    default:
      break;
  }
  throw io::input_error(
      fmt::format("--formulation {} is not available in this build", to_string(options.kind)));
}

}  // namespace kinevo::mechanics
