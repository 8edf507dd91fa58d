#include "kinevo/cli/simulate_options.hpp"

#include <fmt/format.h>

#include <exception>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/motion_page.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::cli {

void add_divergence_options(CLI::App& sub, mechanics::simulation_options& sim,
                            bool& no_divergence_check) {
  sub.add_option("--divergence-growth", sim.divergence_growth,
                 "Diverged when max |q| or |q'| exceeds this factor of the run's scale "
                 "(docs/mechanics.md)")
      ->capture_default_str();
  sub.add_option("--divergence-violation", sim.divergence_violation,
                 "Diverged when max |Phi| exceeds this times (1 + max |q0|)^2")
      ->capture_default_str();
  sub.add_option("--divergence-energy", sim.divergence_energy,
                 "Diverged when |E - E0| exceeds this times max(1, |E0|)")
      ->capture_default_str();
  sub.add_flag("--no-divergence-check", no_divergence_check,
               "Let a diverging motion run on (the exit status is then 0 if it stays finite)");
}

void add_animation_option(CLI::App& sub, std::string& animate) {
  sub.add_option("--animate", animate,
                 "Self-contained HTML page playing the run on the model in 3D "
                 "(docs/animation.md)");
}

std::optional<mechanics::model_drawing> prepare_animation(
    const std::string& animate, const std::string& model_file,
    const std::vector<mechanics::parameter_override>& overrides) {
  if (animate.empty()) return std::nullopt;
  check_output_path(animate, "--animate");
  return mechanics::model_drawing::load(model_file, overrides);
}

void save_animation(const std::string& animate, const mechanics::model_drawing& drawing,
                    const mechanics::trajectory_recorder& recorder, const std::string& title) {
  try {
    const io::csv_table rows = io::parse_csv_table(recorder.table().str(), animate);
    if (rows.rows.empty()) return;  // nothing was recorded: no page
    write_motion_page(drawing, rows, animate, title, {}, motion_view::three_d, animate);
  } catch (const std::exception& e) {
    // A diverged run's non-finite rows: the CSV and the report still stand.
    fmt::print(stderr, "kinevo simulate: --animate {}: not written: {}\n", animate, e.what());
  }
}

}  // namespace kinevo::cli
