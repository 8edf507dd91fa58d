// Four-bar path generation as one call (`kinevo synth path`): the island GA over the problem of
// path_problem.hpp (global search), then the Levenberg-Marquardt refinement of
// path_refinement.hpp from its best point (as `synth rssr` polishes its GA point), and a result
// that states the design, its error at each point, its transmission angle, link ratio, branch and
// order checks and buildability, and reports itself as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/core/run_context.hpp"
#include "kinevo/io/animation_html.hpp"
#include "kinevo/synthesis/linkages/ga_synthesis.hpp"
#include "kinevo/synthesis/linkages/path_problem.hpp"
#include "kinevo/synthesis/linkages/path_refinement.hpp"
#include "kinevo/synthesis/linkages/path_table.hpp"

namespace kinevo::synthesis {

class output_folder;

struct path_synthesis_options {
  path_problem_options problem;
  // islands, seed, the GA's operators (population 20 by default) and refine are used
  // (generations and the range runs are not: the budget below is).
  ga_synthesis_options ga = default_path_ga();
  // Objective evaluations in all, the refinement's included: [100, 1e9].
  long long evaluations = 20000;
  // Rounds of GA search and refinement the budget is split into (path_synthesis.cpp); 0: one
  // round per `evaluations_per_round` evaluations, at least 2.
  int rounds = 0;
  long long evaluations_per_round = 200;
  // Seed each round's GA with the best design so far (else the rounds are independent restarts).
  bool seed_rounds = false;
  // Throws io::option_error naming the field.
  void validate() const;
  // The GA settings path synthesis uses unless told otherwise (docs/synthesis.md), and the
  // named alternatives: "sbx" (kinevo's real-coded GA, the default), "de", "g3-pcx"
  // (Deb et al.'s rotation-invariant G3-PCX); io::option_error ("ga") for another name.
  static ga_synthesis_options default_path_ga();
  static ga::ga_options path_ga_preset(const std::string& name);
};

struct path_synthesis_result {
  // ok, or infeasible when no design meets the constraints (the least-violating one is
  // reported).
  core::summary summary;
  std::string table;
  std::vector<int> lines;                          // of the points in the table
  std::string reference;                           // the table's "# source"
  std::optional<double> best_published_objective;  // the table's header
  path_problem problem;
  path_design design;
  path_evaluation evaluation;
  std::vector<double> cx, cy;  // the coupler point at each point's input (NaN: no assembly)
  std::string grashof;         // Grashof type of the design
  double ratio = 0.0;          // longest / shortest link
  bool order_defect = false, branch_defect = false;
  std::vector<std::string> warnings;  // buildability and other things the user must see
  // How it was found.
  long long evaluations = 0;                                 // GA and refinement
  long long ga_evaluations = 0, refinement_evaluations = 0;  // over all rounds
  int rounds = 0;                                            // GA runs
  double ga_objective = 0.0;  // the GA point the best design was refined from
  bool ga_feasible = false;
  std::optional<path_refinement_result> refinement;  // the best design's last refinement
  double seconds = 0.0;

  bool feasible() const { return evaluation.feasible(); }
  std::string brief_report() const;
  std::string full_report() const;  // what `kinevo synth path` prints
  nlohmann::json to_json() const;
  // The linkage driven through the points' motion (a full turn for a crank), for
  // io::save_animation_html.
  io::animation animation() const;
  // path_points.csv, path_curve.csv, path_curve.svg (the coupler curve through the points),
  // path_linkage.svg (the linkage at the points), path_animation.html.
  void save_files(output_folder& folder) const;
};

path_synthesis_result synthesize_path(const path_table& table,
                                      const path_synthesis_options& options,
                                      const core::run_context& context = {});

}  // namespace kinevo::synthesis
