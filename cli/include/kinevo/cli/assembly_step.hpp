// The `--assemble` step shared by simulate and accel: load the model without the initial-state
// check, assemble it (mechanics/kinematics/assembly.hpp) at the run's start time, report on stderr.
#pragma once

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

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
    fmt::print(stderr, "kinevo {}: {}: {}\n", command, file, step.result.brief_report());
  step.model = mechanics::assembled_model(loaded, step.result);
  return step;
}

// What simulate, accel and kinematics load their model from and how they report it.
struct model_request {
  std::string file;
  std::vector<std::string> sets;  // --set name=value
  bool kinematic = false;         // --kinematic
  bool assemble = false;          // --assemble, at time t
  double t = 0.0;
  const char* command = "";  // "simulate", ... in messages
  bool quiet = false, json = false;
  bool root = true;  // this rank prints (mpiexec)
};

// The model a run works on and what made it.
struct run_model {
  mechanics::model_options options;  // the --set overrides and --kinematic, as loaded
  // Empty when the assembly failed, after printing its message (and, with json, the object
  // {file, completed: false, message, assembly} on stdout): the caller returns
  // core::exit_status(assembly->summary()) (1).
  std::optional<mechanics::model> model;
  std::optional<mechanics::assembly_result> assembly;  // with --assemble
};

// Loaded as it is, or (with --assemble) loaded without the check and assembled.
inline run_model load_for_run(const model_request& r) {
  run_model out;
  out.options.kinematic = r.kinematic;
  for (const auto& s : r.sets)
    out.options.overrides.push_back(mechanics::parse_parameter_override(s));
  if (!r.assemble) {
    out.model = mechanics::load_model(r.file, out.options);
    return out;
  }
  assembly_step step =
      load_and_assemble(r.file, out.options, r.t, r.command, r.quiet || r.json, r.root);
  out.assembly = std::move(step.result);
  if (!step.model && r.json && r.root) {
    fmt::print("{}\n", nlohmann::json{{"file", r.file},
                                      {"completed", false},
                                      {"message", out.assembly->message},
                                      {"assembly", out.assembly->to_json()}}
                           .dump());
  }
  out.model = std::move(step.model);
  return out;
}

}  // namespace kinevo::cli
