// Option groups of `kinevo simulate` kept apart from cmd_simulate.cpp (which parses, runs and
// prints): the divergence checks and the animation of the run.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"

namespace kinevo::cli {

// --divergence-growth, --divergence-violation, --divergence-energy, --no-divergence-check.
void add_divergence_options(CLI::App& sub, mechanics::simulation_options& sim,
                            bool& no_divergence_check);

// --animate FILE: the run as a self-contained HTML page (docs/animation.md).
void add_animation_option(CLI::App& sub, std::string& animate);

// Before the run: the output path and the model's drawing (a bad geometry is bad input, exit
// 2, without costing the run). nullopt when --animate was not given.
std::optional<mechanics::model_drawing> prepare_animation(
    const std::string& animate, const std::string& model_file,
    const std::vector<mechanics::parameter_override>& overrides);

// After the run: the recorded rows (those computed, also when the run stopped early) as a page.
void save_animation(const std::string& animate, const mechanics::model_drawing& drawing,
                    const mechanics::trajectory_recorder& recorder, const std::string& title);

}  // namespace kinevo::cli
