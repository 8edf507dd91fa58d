// RR dyad synthesis for rigid-body guidance as one call (Angeles et al., Diseño cinemático de
// maquinaria (1984), Householder paper, eqs. (13)-(15)): validated options and a result that
// reports itself as text and JSON.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/core/run_context.hpp"
#include "kinevo/synthesis/linkages/ga_synthesis.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "kinevo/synthesis/linkages/rr_dyad.hpp"

namespace kinevo::synthesis {

class output_folder;

enum class dyad_method { gauss_newton, ga };
std::string to_string(dyad_method m);                 // "gauss-newton", "ga"
dyad_method parse_dyad_method(const std::string& s);  // throws io::option_error ("method")

struct dyad_guidance_options {
  dyad_method method = dyad_method::gauss_newton;
  dyad_options starts;      // random starts (gauss-newton); its seed is shared with the GA
  ga_synthesis_options ga;  // --method ga only
  // Throws io::option_error naming the field (starts, keep, the GA's fields).
  void validate() const;
};

struct dyad_guidance_result {
  std::string table;
  std::vector<pose> poses;  // pose 0 is the reference
  dyad_method method = dyad_method::gauss_newton;
  int starts = 0;
  std::uint64_t seed = 1;
  std::vector<dyad_solution> solutions;  // best first; empty only when no start converged
  long long evaluations = 0;             // GA only
  double seconds = 0.0;
  // Solutions whose error measure exceeds dyad_large_error (they do not guide the body through
  // the poses to a designer's accuracy), in words; the command also prints them on stderr.
  std::vector<std::string> warnings;
  // ok: every solution found is reported, best first, large errors as warnings; failed, reason
  // "no_solution", when no start converged (no answer: the reports hold the summary).
  core::summary summary;

  // At least one solution (false: no start converged; save_files then writes nothing).
  bool has_answer() const { return !solutions.empty(); }

  std::string brief_report() const;
  std::string full_report() const;  // the summary `kinevo synth dyad` prints
  nlohmann::json to_json() const;
  // dyad_solutions.csv and dyad.svg.
  void save_files(output_folder& folder) const;
};

// The error measure (Householder paper: (1/n) sum sqrt|f_j| / |a0 - b|) above which a dyad is
// flagged: 5 % of the crank length (docs/synthesis.md, "Buildable designs").
inline constexpr double dyad_large_error = 0.05;

// A failed result (has_answer() false) when no start converged, not an exception.
dyad_guidance_result synthesize_dyad(const pose_table& table, const dyad_guidance_options& options,
                                     const core::run_context& context = {});

}  // namespace kinevo::synthesis
