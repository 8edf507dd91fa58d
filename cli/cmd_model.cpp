// kinevo model: write generated model files (chain), describe a model file (info), assemble a
// model file's initial state and write it back (assemble).
#include <fmt/format.h>
#include <algorithm>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "kinevo/cli/command.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/display_number.hpp"
#include "kinevo/io/input_file.hpp"
#include "kinevo/mechanics/kinematics/assembly.hpp"
#include "kinevo/mechanics/kinematics/rank_analysis.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/model/model_writer.hpp"

namespace kinevo::cli {

namespace {

struct model_args {
  mechanics::chain_options chain;
  mechanics::assembly_options assembly;
  std::string out;
  std::string file;
  std::vector<std::string> sets;
  bool json = false;
  bool rank = false;  // info: the rank analysis whatever the size
  bool quiet = false;
};

int run_chain(const model_args& a) {
  validate_options(a.chain, {{"angle_deg", "--angle"}});
  const int coordinates = (a.chain.spatial ? 7 : 2) * a.chain.links;
  const int constraints = (a.chain.spatial ? 4 : 1) * a.chain.links;
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
                                      {"coordinates", coordinates},
                                      {"constraints", constraints},
                                      {"out", a.out}}
                           .dump());
  } else if (!a.quiet) {
    fmt::print("wrote {} ({} links, {} coordinates, {} constraints)\n", a.out, a.chain.links,
               coordinates, constraints);
  }
  return exit_ok;
}

// Above this many coordinates `model info` skips the rank analysis unless --rank.
constexpr int rank_auto_limit = 1000;

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
  // Rank and mobility at the initial state (Haug 4.4, 4.6): rank, dof, redundant, independent,
  // missing_drivers, singular, ... at the top level of the JSON (the model's own keys win). The
  // analysis (sparse above 400 coordinates) still grows faster than linearly: large models
  // skip it unless --rank asks for it.
  std::optional<mechanics::rank_report> rank;
  std::string skipped;
  if (a.rank || m.coordinates() <= rank_auto_limit) {
    rank = mechanics::analyse_rank(m, m.initial_positions(), 0.0);
    const nlohmann::json analysis = rank->to_json();
    for (auto it = analysis.begin(); it != analysis.end(); ++it) {
      if (!j.contains(it.key())) j[it.key()] = it.value();
    }
  } else {
    skipped = fmt::format(
        "rank analysis skipped: {} coordinates > {} (its time grows faster than the size: "
        "docs/kinematics.md); --rank forces it",
        m.coordinates(), rank_auto_limit);
    j["rank_analysis"] = skipped;
  }
  // A description: ok (rank analysis or not); an unusable model is an error thrown before.
  const core::summary outcome = rank ? rank->summary() : core::summary{};
  if (a.json) {
    fmt::print("{}\n", j.dump());
    return core::exit_status(outcome);
  }
  if (a.quiet) return core::exit_status(outcome);
  fmt::print("{}: {}\n", a.file, m.name());
  fmt::print("  {} coordinates, {} constraints ({} holonomic), {} non-zeros in A{}{}\n",
             m.coordinates(), m.constraints(), m.holonomic_constraints(),
             m.jacobian_pattern().size(), m.mass_is_diagonal() ? ", diagonal M" : "",
             m.kinematic() ? ", kinematic (M = I)" : "");
  for (int i = 0; i < m.coordinates(); ++i) {
    fmt::print("  {:<16} q0 = {:<14.8g} qd0 = {:.8g}\n",
               m.coordinate_names()[static_cast<std::size_t>(i)],
               io::no_negative_zero(m.initial_positions()[i]),
               io::no_negative_zero(m.initial_velocities()[i]));
  }
  for (const auto& c : m.constraint_names()) fmt::print("  constraint {}\n", c);
  if (rank) {
    for (const auto& line : rank->lines()) fmt::print("  {}\n", line);
  } else {
    fmt::print("  {}\n", skipped);
  }
  return core::exit_status(outcome);
}

// The assembled state's file: the input text with only the changed initial values rewritten,
// checked by loading it back (the initial-state check must pass and give the assembled state).
std::string assembled_text(const std::string& text, const model_args& a, const mechanics::model& m,
                           const mechanics::assembly_result& res,
                           mechanics::rewritten_model_file& rewritten) {
  rewritten = mechanics::rewrite_initial_values(text, a.file, m, res.q, res.qd);
  const mechanics::model back = mechanics::load_model_from_string(rewritten.text, a.out);
  // Planar values read back bit for bit; a spatial body's angular velocity is written as w,
  // from which loading recomputes the Euler-parameter rates, to round-off.
  const double dq = (back.initial_positions() - res.q).cwiseAbs().maxCoeff();
  const double dv = (back.initial_velocities() - res.qd).cwiseAbs().maxCoeff();
  const double scale = std::max({1.0, res.q.cwiseAbs().maxCoeff(), res.qd.cwiseAbs().maxCoeff()});
  if (!(std::max(dq, dv) <= 1e-14 * scale)) {
    throw std::logic_error(fmt::format(
        "{}: the rewritten file does not load back to the assembled state (max difference {:g})",
        a.file, std::max(dq, dv)));
  }
  return rewritten.text;
}

int run_assemble(const model_args& a) {
  validate_options(a.assembly);
  if (!a.out.empty()) {
    try {
      io::check_writable(a.out);
    } catch (const io::output_error& e) {
      throw io::input_error(fmt::format("--out: {}", e.what()));
    }
  }
  const std::string text = io::read_input_file(a.file, "model file");
  mechanics::model_options mo;
  mo.require_assembled = false;
  const mechanics::model m = mechanics::load_model_from_string(text, a.file, mo);
  // At t = 0: the time at which a model file's initial values are checked when it is loaded.
  const mechanics::assembly_result res = mechanics::assemble(m, 0.0, a.assembly);
  nlohmann::json j = res.to_json();
  j["file"] = a.file;
  j["model"] = m.name();
  j["out"] = a.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.out);
  if (!res.summary().usable()) {
    fmt::print(stderr, "kinevo model assemble: {}: {}\n", a.file, res.summary().message);
    if (a.json) fmt::print("{}\n", j.dump());
    return core::exit_status(res.summary());
  }
  mechanics::rewritten_model_file rewritten;
  if (!a.out.empty()) io::write_text_atomically(a.out, assembled_text(text, a, m, res, rewritten));
  j["replaced"] = rewritten.replaced;
  j["added"] = rewritten.added;
  if (a.json) {
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}: {}", a.file, res.full_report());
    if (!a.out.empty()) {
      fmt::print("  wrote {} ({} initial values replaced, {} added)\n", a.out, rewritten.replaced,
                 rewritten.added);
    }
  }
  return core::exit_status(res.summary());
}

const command_registration model_registration(
    40, "model", "Generate model files (chain), describe one (info), assemble one (assemble)",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto a = std::make_shared<model_args>();
      CLI::App* chain = sub.add_subcommand("chain", "Write an N-link pendulum chain model file");
      chain->add_option("--links", a->chain.links, "Number of links N")->required();
      chain->add_option("--length", a->chain.length, "Link length in m")->capture_default_str();
      chain->add_option("--mass", a->chain.mass, "Particle (or link) mass in kg")
          ->capture_default_str();
      chain->add_option("--gravity", a->chain.gravity, "Gravity in m/s^2 (along -y; -z if spatial)")
          ->capture_default_str();
      chain->add_option("--angle", a->chain.angle_deg, "Initial angle from the vertical in degrees")
          ->capture_default_str();
      chain->add_flag("--spatial", a->chain.spatial,
                      "Spatial chain: rigid links on spherical joints (Euler parameters)");
      chain
          ->add_option("--spin", a->chain.spin,
                       "Spatial chain: initial turning rate about the vertical in rad/s")
          ->capture_default_str();
      chain->add_option("--out", a->out, "Model file to write (default: print it)");
      chain->add_flag("--json", a->json, "Print one JSON object on stdout");
      chain->add_flag("-q,--quiet", a->quiet, "No text output");
      CLI::App* info = sub.add_subcommand("info", "Load a model file and describe it");
      info->add_option("model", a->file, "Model file (TOML)")->required();
      info->add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      info->add_flag("--rank", a->rank,
                     "Rank and mobility analysis also above 1000 coordinates (dense, O(n^3))");
      info->add_flag("--json", a->json, "Print one JSON object on stdout");
      info->add_flag("-q,--quiet", a->quiet, "No text output");
      CLI::App* assemble = sub.add_subcommand(
          "assemble",
          "Assemble a model file's initial state (Haug 4.3) and write the corrected file");
      assemble
          ->add_option("model", a->file, "Model file (TOML): its initial values are the estimate")
          ->required();
      assemble->add_option("-o,--out", a->out,
                           "Model file to write: the input with only the initial values changed "
                           "(default: report only)");
      assemble
          ->add_option("--position-tolerance", a->assembly.position_tolerance,
                       "Largest |Phi_i| accepted as assembled")
          ->capture_default_str();
      assemble
          ->add_option("--velocity-tolerance", a->assembly.velocity_tolerance,
                       "Largest velocity violation accepted (times max(1, |q'|))")
          ->capture_default_str();
      assemble
          ->add_option("--penalty-tolerance", a->assembly.penalty_tolerance,
                       "|Phi| and |dq| that end the penalty stage")
          ->capture_default_str();
      assemble->add_option("--penalty-max", a->assembly.penalty_max, "Largest penalty r")
          ->capture_default_str();
      assemble
          ->add_option("--max-quasi-newton-iterations", a->assembly.max_quasi_newton_iterations,
                       "DFP iterations per penalty value")
          ->capture_default_str();
      assemble
          ->add_option("--max-newton-iterations", a->assembly.max_newton_iterations,
                       "Gauss-Newton corrections")
          ->capture_default_str();
      assemble->add_flag("--json", a->json, "Print one JSON object on stdout");
      assemble->add_flag("-q,--quiet", a->quiet, "No text output");
      assemble->footer(
          "Exit status:\n"
          "  0  assembled (and written with -o)\n"
          "  1  the assembly failed: stderr names the most violated constraints; nothing written\n"
          "  2  bad input or options, or an unusable output path");
      return [a, chain, info, assemble]() -> int {
        if (chain->parsed()) return run_chain(*a);
        if (info->parsed()) return run_info(*a);
        if (assemble->parsed()) return run_assemble(*a);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
