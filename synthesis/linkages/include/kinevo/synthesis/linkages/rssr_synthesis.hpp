// RSSR function generator synthesis as one call (Angeles et al., Diseño cinemático de maquinaria
// (1984), Householder paper, eqs. (11)-(12)): validated options, and a result carrying its
// structural errors, RMS error and dimensions that reports itself as text and JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/core/run_context.hpp"
#include "kinevo/synthesis/linkages/ga_synthesis.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "kinevo/synthesis/linkages/rssr.hpp"

namespace kinevo::synthesis {

class output_folder;

enum class rssr_method { householder, ga };
std::string to_string(rssr_method m);
rssr_method parse_rssr_method(const std::string& s);  // throws io::option_error ("method")

struct rssr_synthesis_options {
  double alpha4_deg = 90.0;  // angle between the axes, in [-360, 360] degrees
  double a4 = 1.0;           // distance between the axes: scales every length; (0, 1e100]
  rssr_method method = rssr_method::householder;
  ga_synthesis_options ga;  // --method ga only
  // Throws io::option_error naming the field.
  void validate() const;
};

struct rssr_synthesis_result {
  // ok; failed, reason "no_linkage", when k defines no real RSSR (dimension_problem says why),
  // or reason "not_assembled" when the linkage found does not reach every table point: such a
  // design does not generate the table, a failure, not a warning (as synth fourbar's); failed,
  // reason "rank_deficient" (the fit's summary), when the points do not determine k: no answer.
  core::summary summary;
  std::string table;
  std::vector<double> psi, phi;  // radians
  std::vector<int> lines;
  double alpha4_deg = 90.0;
  rssr_method method = rssr_method::householder;
  rssr_fit fit;
  long long evaluations = 0;  // GA only
  // --method ga: the GA stage before the Householder Gauss-Newton refinement (fit is after it).
  struct ga_stage_report {
    rssr_fit fit;
    double rms_error_deg = 0.0;
    double seconds = 0.0;
    bool refined = false;  // the refinement was run and kept
    int refinement_iterations = 0;
  };
  std::optional<ga_stage_report> ga_stage;
  double seconds = 0.0;
  std::vector<double> errors;  // prescribed - generated, radians (NaN: no assembly)
  double rms_error_deg = 0.0;
  std::optional<rssr_dimensions> dimensions;
  std::string dimension_problem;  // why there are none
  // Buildability (buildability.hpp): the transmission angle over the table's input range on
  // the generated circuit (degrees, in [0, 90]; NaN where it does not assemble), the longest
  // over the shortest of the output link, coupler, input link and axis distance, and the
  // warnings when a documented rule fails.
  double transmission_min_deg = 0.0, transmission_max_deg = 0.0;
  double link_ratio = 0.0;
  std::vector<std::string> warnings;

  // A fit was found (false: the points do not determine k; the reports then hold the table
  // and the summary only, and save_files writes nothing).
  bool has_answer() const { return fit.summary.usable(); }
  std::string brief_report() const;
  std::string full_report() const;  // the summary `kinevo synth rssr` prints
  nlohmann::json to_json() const;
  // rssr_errors.csv, rssr_sweep.csv (181 inputs over the table's range), rssr_output.svg,
  // rssr_error.svg.
  void save_files(output_folder& folder) const;
};

rssr_synthesis_result synthesize_rssr(const function_table& table,
                                      const rssr_synthesis_options& options,
                                      const core::run_context& context = {});

}  // namespace kinevo::synthesis
