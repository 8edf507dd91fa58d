// kinevo model: write generated model files (chain) and describe a model file (info).
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/command.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_table.hpp"
#include "mechanics/chain_model.hpp"
#include "mechanics/model.hpp"

namespace kinevo::cli {

namespace {

struct model_args {
  mechanics::chain_options chain;
  std::string out;
  std::string file;
  std::vector<std::string> sets;
  bool json = false;
  bool quiet = false;
};

int run_chain(const model_args& a) {
  validate_options(a.chain, {{"angle_deg", "--angle"}});
  const std::string text = mechanics::chain_model_text(a.chain);
  if (a.out.empty()) {
    if (a.json) {
      fmt::print("{}\n", nlohmann::json{{"links", a.chain.links}, {"model", text}}.dump());
    } else {
      fmt::print("{}", text);
    }
    return exit_ok;
  }
  io::write_text_atomically(a.out, text);
  if (a.json) {
    fmt::print("{}\n", nlohmann::json{{"links", a.chain.links},
                                      {"coordinates", 2 * a.chain.links},
                                      {"constraints", a.chain.links},
                                      {"out", a.out}}
                           .dump());
  } else if (!a.quiet) {
    fmt::print("wrote {} ({} links, {} coordinates, {} constraints)\n", a.out, a.chain.links,
               2 * a.chain.links, a.chain.links);
  }
  return exit_ok;
}

int run_info(const model_args& a) {
  mechanics::model_options mo;
  for (const auto& s : a.sets) mo.overrides.push_back(mechanics::parse_parameter_override(s));
  const mechanics::model m = mechanics::load_model(a.file, mo);
  nlohmann::json j;
  j["model"] = m.name();
  j["file"] = a.file;
  j["coordinates"] = m.coordinate_names();
  j["constraints"] = m.constraint_names();
  j["holonomic_constraints"] = m.holonomic_constraints();
  j["kinematic"] = m.kinematic();
  j["mass_is_diagonal"] = m.mass_is_diagonal();
  j["has_energy"] = m.has_energy();
  j["jacobian_nonzeros"] = m.jacobian_pattern().size();
  j["parameters"] = m.parameters();
  j["initial_positions"] =
      std::vector<double>(m.initial_positions().begin(), m.initial_positions().end());
  j["initial_velocities"] =
      std::vector<double>(m.initial_velocities().begin(), m.initial_velocities().end());
  if (a.json) {
    fmt::print("{}\n", j.dump());
    return exit_ok;
  }
  if (a.quiet) return exit_ok;
  fmt::print("{}: {}\n", a.file, m.name());
  fmt::print("  {} coordinates, {} constraints ({} holonomic), {} non-zeros in A{}{}\n",
             m.coordinates(), m.constraints(), m.holonomic_constraints(),
             m.jacobian_pattern().size(), m.mass_is_diagonal() ? ", diagonal M" : "",
             m.kinematic() ? ", kinematic (M = I)" : "");
  for (int i = 0; i < m.coordinates(); ++i) {
    fmt::print("  {:<16} q0 = {:<14.8g} qd0 = {:.8g}\n",
               m.coordinate_names()[static_cast<std::size_t>(i)], m.initial_positions()[i],
               m.initial_velocities()[i]);
  }
  for (const auto& c : m.constraint_names()) fmt::print("  constraint {}\n", c);
  return exit_ok;
}

const command_registration model_registration(
    40, "model", "Generate model files (chain) or describe one (info)",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto a = std::make_shared<model_args>();
      CLI::App* chain = sub.add_subcommand("chain", "Write an N-link pendulum chain model file");
      chain->add_option("--links", a->chain.links, "Number of links N")->required();
      chain->add_option("--length", a->chain.length, "Link length in m")->capture_default_str();
      chain->add_option("--mass", a->chain.mass, "Particle mass in kg")->capture_default_str();
      chain->add_option("--gravity", a->chain.gravity, "Gravity in m/s^2 (along -y)")
          ->capture_default_str();
      chain->add_option("--angle", a->chain.angle_deg, "Initial angle from the vertical in degrees")
          ->capture_default_str();
      chain->add_option("--out", a->out, "Model file to write (default: print it)");
      chain->add_flag("--json", a->json, "Print one JSON object on stdout");
      chain->add_flag("--quiet", a->quiet, "No text output");
      CLI::App* info = sub.add_subcommand("info", "Load a model file and describe it");
      info->add_option("model", a->file, "Model file (TOML)")->required();
      info->add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      info->add_flag("--json", a->json, "Print one JSON object on stdout");
      info->add_flag("--quiet", a->quiet, "No text output");
      return [a, chain, info]() -> int {
        if (chain->parsed()) return run_chain(*a);
        if (info->parsed()) return run_info(*a);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
