// A synthesis as a user asks for it (`kinevo synth fourbar|rssr|dyad|path`): the table file, the
// settings named by words ("--method ga", "--crank input", "--path closed", ...) and the
// library options. resolved() parses the words into the options and validates them, so that a
// bad name or value is refused (io::option_error naming the field) before any file is read;
// run() reads the table and synthesises. The results report themselves (full_report, to_json)
// and write their files and animation through save_result_files / save_result_animation.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/run_context.hpp"
#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/motion_page.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/linkages/dyad_guidance.hpp"
#include "kinevo/synthesis/linkages/fourbar_synthesis.hpp"
#include "kinevo/synthesis/linkages/path_synthesis.hpp"
#include "kinevo/synthesis/linkages/rssr_synthesis.hpp"

namespace kinevo::synthesis {

struct fourbar_request {
  std::string table;     // psi, phi [, weight]
  bool radians = false;  // the table's angles (default: degrees)
  std::string method = "penalty", crank = "none", output = "any", coupler = "none";
  fourbar_synthesis_options options;
  // io::option_error naming "method", "crank", "output", "coupler", then the options' fields.
  fourbar_synthesis_options resolved() const;
  void validate() const { (void)resolved(); }
  fourbar_synthesis_result run(const core::run_context& context = {}) const;
  // The same on a table already read (the Python module's arrays); `table` is unused.
  fourbar_synthesis_result run(const io::csv_table& t, const core::run_context& context = {}) const;
};

struct rssr_request {
  std::string table;  // psi, phi (at least 6 points)
  bool radians = false;
  std::string method = "householder";
  rssr_synthesis_options options;
  rssr_synthesis_options resolved() const;  // io::option_error ("method", the options' fields)
  void validate() const { (void)resolved(); }
  rssr_synthesis_result run(const core::run_context& context = {}) const;
  // The same on a table already read (the Python module's arrays); `table` is unused.
  rssr_synthesis_result run(const io::csv_table& t, const core::run_context& context = {}) const;
};

struct dyad_request {
  std::string poses;  // x, y, theta; the first row the reference pose
  bool radians = false;
  std::string method = "gauss-newton";
  dyad_guidance_options options;  // one seed for both methods: the GA's (options.ga.islands)
  dyad_guidance_options resolved() const;  // io::option_error ("method", the options' fields)
  void validate() const { (void)resolved(); }
  dyad_guidance_result run(const core::run_context& context = {}) const;
  // The same on a table already read (the Python module's arrays); `poses` is unused.
  dyad_guidance_result run(const io::csv_table& t, const core::run_context& context = {}) const;
};

struct path_request {
  std::string table;  // x, y [, input angle]; '# key = value' header lines set the problem
  bool radians = false;
  // Empty: the table's header, else the default (path_problem_options).
  std::string timing, path, link_type, frame;
  std::string ga_preset;  // empty: path synthesis' own GA (path_synthesis_options::default_path_ga)
  int population = 0;     // 0: the GA's
  double min_transmission_deg = 0.0;
  std::optional<path_interval> link_bounds, coupler_bounds, frame_bounds;
  path_synthesis_options options;  // evaluations, rounds, seed, islands, refine
  // The settings the user gave (apply_path_header's names, and "evaluations"): they beat the
  // table's header.
  std::vector<std::string> given;
  // io::option_error naming "timing", "link_type", "path", "ga", "frame", then the options'.
  path_synthesis_options resolved() const;
  void validate() const { (void)resolved(); }
  // Also io::input_error for the table's header ("# evaluations" named as such).
  path_synthesis_result run(const core::run_context& context = {}) const;
};

// Writes the result's files (its save_files) into `dir`, which is replaced as a whole
// (output_folder), and returns their names; nothing when `dir` is empty.
template <class Result>
std::vector<std::string> save_result_files(const Result& result, const std::string& dir) {
  if (dir.empty()) return {};
  output_folder folder(dir);
  result.save_files(folder);
  folder.commit();
  return folder.written();
}

// Writes the result's animation page to `path`; false (nothing written) when there is no
// linkage to animate.
template <class Result>
bool save_result_animation(const Result& result, const std::filesystem::path& path) {
  const io::animation motion = result.animation();
  if (motion.times.empty()) return false;
  io::save_motion_page(motion, path);
  return true;
}

}  // namespace kinevo::synthesis
