// The report of one simulation run as `kinevo simulate` prints it: the result's own report
// (simulation_result::full_report, to_json) with what the run read and wrote around it (the
// model file, the CSV, plot and animation, the rows the recorder wrote). The CLI prints these
// and nothing of its own.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/mechanics/dynamics/simulation_result.hpp"

namespace kinevo::mechanics {

// What a run read and wrote besides its result; an empty path: not asked for.
struct simulation_run_files {
  std::string file;        // the model file
  std::string model_name;  // the model's name (may be empty)
  std::string check;       // the reference solver asked for (--check)
  std::string out, plot, animate;
  // The recorder's figures: the rows written, the last one's time (NaN before any) and the
  // span in words ("up to t = 0.05 (6 rows)", trajectory_recorder::written_span).
  long long rows = 0;
  double last_t = std::numeric_limits<double>::quiet_NaN();
  std::string written_span;
};

// The text of a run: "FILE: N steps with SOLVER (INTEGRATOR, STABILIZATION or formulation F)",
// " -- stopped early (STATUS)" when it did, the message, the full report's figures and the
// files written (a partial CSV with its span).
std::string simulation_text_report(const simulation_result& r, const simulation_run_files& f);

// The JSON of --json: the result's to_json() with the model, file, stabilization, the
// reference solver, last_t, rows and the files (null when not written).
nlohmann::json simulation_json_report(const simulation_result& r, const simulation_run_files& f);

// What the user must see whatever --json or --quiet say, one line each: why the run stopped
// and the partial CSV written, then the result's notes().
std::vector<std::string> simulation_error_lines(const simulation_result& r,
                                                const simulation_run_files& f);

}  // namespace kinevo::mechanics
