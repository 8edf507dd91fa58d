#include "kinevo/mechanics/dynamics/simulation_report.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kinevo::mechanics {

namespace {

nlohmann::json path_or_null(const std::string& path) {
  return path.empty() ? nlohmann::json(nullptr) : nlohmann::json(path);
}

// "full" runs name their stabilization, the other formulations themselves.
std::string method_of(const simulation_result& r) {
  const std::string formulation = r.formulation.name.empty() ? "full" : r.formulation.name;
  return formulation == "full" ? std::string(to_string(r.stabilization))
                               : "formulation " + formulation;
}

}  // namespace

std::string simulation_text_report(const simulation_result& r, const simulation_run_files& f) {
  std::string s = fmt::format("{}: {} steps with {} ({}, {}){}\n", f.file, r.steps, r.solver,
                              r.integrator_name(), method_of(r),
                              r.completed ? "" : " -- stopped early (" + r.status() + ")");
  if (!r.message.empty()) s += fmt::format("  {}\n", r.message);
  // The full report after its first line (which the header above says for the file).
  const std::string full = r.full_report();
  const auto first_end = full.find('\n');
  if (first_end != std::string::npos) s += full.substr(first_end + 1);
  if (!f.out.empty()) {
    s += fmt::format("  wrote {}{}\n", f.out, r.completed ? "" : " " + f.written_span);
  }
  if (!f.plot.empty()) s += fmt::format("  wrote {}\n", f.plot);
  if (!f.animate.empty()) s += fmt::format("  wrote {}\n", f.animate);
  return s;
}

nlohmann::json simulation_json_report(const simulation_result& r, const simulation_run_files& f) {
  nlohmann::json j = r.to_json();
  j["model"] = f.model_name;
  j["file"] = f.file;
  j["stabilization"] = to_string(r.stabilization);
  if (!f.check.empty()) j["check"]["solver"] = f.check;
  j["last_t"] = std::isfinite(f.last_t) ? nlohmann::json(f.last_t) : nlohmann::json(nullptr);
  j["rows"] = f.rows;
  j["out"] = path_or_null(f.out);
  j["plot"] = path_or_null(f.plot);
  j["animate"] = path_or_null(f.animate);
  return j;
}

std::vector<std::string> simulation_error_lines(const simulation_result& r,
                                                const simulation_run_files& f) {
  std::vector<std::string> lines;
  if (!r.completed) {
    lines.push_back(r.message);
    if (!f.out.empty()) lines.push_back(fmt::format("wrote {} {}", f.out, f.written_span));
  }
  for (const auto& note : r.notes()) lines.push_back(note);
  return lines;
}

}  // namespace kinevo::mechanics
