// The `--assemble` step shared by simulate and accel: load the model without the initial-state
// check, assemble it (mechanics/kinematics/assembly.hpp) at the run's start time, report on stderr.
#pragma once

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "kinevo/mechanics/kinematics/assembly.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::cli {

struct assembly_step {
  mechanics::assembly_result result;
  std::optional<mechanics::model> model;  // empty when the assembly failed
};

// The failure message goes to stderr whatever --json or --quiet say, the summary of a
// successful assembly unless `quiet` (the JSON carries both under "assembly"); nothing is
// printed off rank 0 (`root` false) under mpiexec.
inline assembly_step load_and_assemble(const std::string& file, mechanics::model_options options,
                                       double t, const char* command, bool quiet, bool root) {
  options.require_assembled = false;
  const mechanics::model loaded = mechanics::load_model(file, options);
  assembly_step step;
  step.result = mechanics::assemble(loaded, t);
  if (!step.result.converged) {
    if (root) fmt::print(stderr, "kinevo {}: {}: {}\n", command, file, step.result.message);
    return step;
  }
  if (!quiet && root)
    fmt::print(stderr, "kinevo {}: {}: {}\n", command, file, step.result.summary());
  step.model = mechanics::assembled_model(loaded, step.result);
  return step;
}

// The model a run works on: loaded as it is, or (with --assemble) loaded without the check and
// assembled. `assembly` receives the assembly's result; an empty return means the assembly
// failed, after printing its message (and, with `json`, the object {file, completed: false,
// message, assembly} on stdout): the caller returns exit_failure.
inline std::optional<mechanics::model> load_for_run(
    const std::string& file, const mechanics::model_options& options, bool assemble, double t,
    const char* command, bool quiet, bool json, bool root,
    std::optional<mechanics::assembly_result>& assembly) {
  if (!assemble) return mechanics::load_model(file, options);
  assembly_step step = load_and_assemble(file, options, t, command, quiet || json, root);
  assembly = std::move(step.result);
  if (!step.model && json && root) {
    fmt::print("{}\n", nlohmann::json{{"file", file},
                                      {"completed", false},
                                      {"message", assembly->message},
                                      {"assembly", assembly->to_json()}}
                           .dump());
  }
  return std::move(step.model);
}

}  // namespace kinevo::cli
