// Four-bar function generator synthesis as one call: the options (method, constraints, frame,
// GA budget, each validated), and a result that carries its derived figures (links, Grashof
// type, crank checks, dead points, rocker limits, transmission-angle range, structural error) and
// reports itself as a brief text, a full text and JSON (Ceres Solver's Solver::Summary is the
// model). Methods: Angeles et al., Diseño cinemático de maquinaria (1984), Grashof paper.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/core/run_context.hpp"
#include "kinevo/io/animation_html.hpp"
#include "kinevo/synthesis/linkages/crank_constrained.hpp"
#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/freudenstein.hpp"
#include "kinevo/synthesis/linkages/ga_synthesis.hpp"
#include "kinevo/synthesis/linkages/grashof.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "kinevo/synthesis/linkages/mobility_conditions.hpp"

namespace kinevo::synthesis {

class output_folder;

enum class fourbar_method { penalty, ga };
std::string to_string(fourbar_method m);
fourbar_method parse_fourbar_method(const std::string& s);  // throws io::option_error ("method")

// The largest link length scale accepted (--frame): its square stays far from overflow.
inline constexpr double max_length_scale = 1e100;

struct fourbar_synthesis_options {
  bool exact = false;  // through exactly 3 points (no constraints, no GA)
  fourbar_method method = fourbar_method::penalty;
  crank_requirement crank = crank_requirement::none;
  bool output_rocker = false;                               // --output rocker
  coupler_requirement coupler = coupler_requirement::none;  // --coupler crank|rocker
  double min_transmission_deg = 0.0;                        // 0: no bound; else in (0, 90)
  double max_ratio = 0.0;                                   // 0: no bound; else in (1, 1e6]
  double frame = 1.0;       // the links are scaled to this frame length
  ga_synthesis_options ga;  // --method ga only

  bool constrained() const;
  // The link types and bounds as the constrained fit's options (the table's weights aside).
  crank_constrained_options crank_requirements() const;
  // Throws io::option_error naming the field (min_transmission_deg, max_ratio, frame, exact
  // together with constraints or the GA, and the GA's fields when method is ga).
  void validate() const;
};

struct fourbar_synthesis_result {
  // ok; infeasible when no linkage of the required types fits the table (the fit is then the
  // unconstrained least-squares one, whose conditions show what fails); failed, reason
  // "not_assembled", when the linkage found misses a table point; failed, reason "singular" or
  // "rank_deficient" (the fit's summary), when the points do not determine k: then no answer.
  core::summary summary;
  // The table.
  std::string table;
  std::vector<double> psi, phi;  // radians
  std::vector<int> lines;
  // The fit and how it was found.
  freudenstein_fit fit;
  std::string method;
  nlohmann::json details = nlohmann::json::object();  // method-specific: stages, evaluations...
  double seconds = 0.0;
  // Derived figures.
  std::optional<fourbar_links> links;              // none when k defines no real linkage
  std::string link_problem;                        // why not
  crank_test input, output;                        // (18) and (19)
  bool input_turns = false, output_turns = false;  // crank claim and full-turn check both hold
  structural_error error;
  std::vector<double> input_dead_points_deg, output_dead_points_deg;
  std::vector<double> input_rocker_limits_deg, output_rocker_limits_deg;
  double transmission_min_deg = 0.0, transmission_max_deg = 0.0;  // NaN: no linkage
  link_type_conditions conditions;  // output rocker, coupler (32)/(37) fixed, what was required
  double link_ratio = 0.0;          // longest / shortest |link| (NaN: no linkage)
  // Buildability (synthesis/linkages/detail/buildability.hpp: transmission angle, link ratio) and
  // other things the user must see; the command also prints them on stderr.
  std::vector<std::string> warnings;

  // A fit was found (false: the points do not determine k; the reports then hold the table
  // and the summary only, and save_files writes nothing).
  bool has_answer() const { return fit.summary.usable(); }
  std::string brief_report() const;  // one line: k, residual, links, largest error
  std::string full_report() const;   // the summary `kinevo synth fourbar` prints
  nlohmann::json to_json() const;    // every figure; NaN as null
  // The linkage through the table's input range (181 inputs on the assembly branch) for
  // io::save_animation_html; no frames when there is no linkage or no position assembles.
  io::animation animation() const;
  // Writes fourbar_errors.csv, fourbar_sweep.csv, fourbar_error.svg and (when there are links)
  // fourbar_linkage.svg into the folder.
  void save_files(output_folder& folder) const;
};

// Validates the options, fits k as they ask, and analyses the result. When no linkage meets the
// constraints the status is "infeasible"; when the points do not determine k the result is
// failed without an answer (has_answer() false); neither is thrown.
fourbar_synthesis_result synthesize_fourbar(const function_table& table,
                                            const fourbar_synthesis_options& options,
                                            const core::run_context& context = {});

}  // namespace kinevo::synthesis
