#include "kinevo/synthesis/linkages/dyad_guidance.hpp"

#include <fmt/format.h>

#include <chrono>
#include <complex>
#include <iterator>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/linkages/detail/drawings.hpp"

namespace kinevo::synthesis {

std::string to_string(dyad_method m) {
  return m == dyad_method::ga ? "ga" : "gauss-newton";
}

dyad_method parse_dyad_method(const std::string& s) {
  if (s == "gauss-newton") return dyad_method::gauss_newton;
  if (s == "ga") return dyad_method::ga;
  throw io::option_error("method", fmt::format("'{}': use gauss-newton or ga", s));
}

void dyad_guidance_options::validate() const {
  starts.validate();
  ga.validate();
}

dyad_guidance_result synthesize_dyad(const pose_table& t, const dyad_guidance_options& o,
                                     const core::run_context& context) {
  o.validate();
  dyad_guidance_result r;
  r.table = t.source;
  r.poses = t.poses;
  r.method = o.method;
  r.starts = o.method == dyad_method::ga ? 0 : o.starts.starts;
  r.seed = o.starts.seed;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.method == dyad_method::ga) {
    const auto g = ga_dyad(t.poses, o.ga, context);
    r.solutions.push_back(g.solution);
    r.evaluations = g.evaluations;
  } else {
    r.solutions = dyad_synthesis(t.poses, o.starts, context);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (r.solutions.empty()) {
    r.summary = core::summary::ended(core::termination::failed, "no_solution",
                                     "no start converged; try more --starts or another --seed");
    return r;
  }
  for (std::size_t i = 0; i < r.solutions.size(); ++i) {
    if (!(r.solutions[i].error <= dyad_large_error)) {
      r.warnings.push_back(fmt::format(
          "solution {}: error {:.1f} % of the crank length (above {:g} %): it does not guide "
          "the body through the poses closely; more poses than a dyad can reach exactly (5), or "
          "poses no dyad fits",
          i + 1, 100.0 * r.solutions[i].error, 100.0 * dyad_large_error));
    }
  }
  return r;
}

std::string dyad_guidance_result::brief_report() const {
  if (!has_answer()) return fmt::format("RR dyad: {}\n", summary.brief_report());
  const auto& s = solutions.front();
  return fmt::format(
      "RR dyad: {} solution(s); best a0 = {:.6f}{:+.6f}i, b = {:.6f}{:+.6f}i, error {:.3f} %\n",
      solutions.size(), s.a0.real(), s.a0.imag(), s.b.real(), s.b.imag(), 100.0 * s.error);
}

std::string dyad_guidance_result::full_report() const {
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(
      out, "RR dyad for rigid-body guidance: {} ({} poses), {}\n", table, poses.size(),
      method == dyad_method::ga
          ? "island GA + Gauss-Newton"
          : fmt::format("{} from {} random starts (seed {})",
                        poses.size() == 5 ? "damped Newton" : "Gauss-Newton", starts, seed));
  if (!has_answer()) {
    fmt::format_to(out, "status: {}\n", summary.brief_report());
    return s;
  }
  fmt::format_to(out, "{:>3} {:>24} {:>24} {:>10} {:>9} {:>6}\n", "#", "circle point a0",
                 "centre point b", "length", "error %", "found");
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    const auto& d = solutions[i];
    fmt::format_to(out,
                   "{:>3} {:>11.6f} {:+11.6f}i {:>11.6f} {:+11.6f}i {:>10.6f} {:>9.3f} {:>6}\n",
                   i + 1, d.a0.real(), d.a0.imag(), d.b.real(), d.b.imag(), std::abs(d.a0 - d.b),
                   100.0 * d.error, d.found);
  }
  for (const auto& w : warnings) fmt::format_to(out, "warning: {}\n", w);
  return s;
}

nlohmann::json dyad_guidance_result::to_json() const {
  nlohmann::json j;
  if (!summary.usable()) {
    j["status"] = summary.status();
    j["status_message"] = summary.message;
  }
  j["poses"] = poses.size();
  j["method"] = to_string(method);
  j["starts"] = starts;
  j["seed"] = seed;
  nlohmann::json js = nlohmann::json::array();
  for (const auto& d : solutions) {
    js.push_back({{"a0", {d.a0.real(), d.a0.imag()}},
                  {"b", {d.b.real(), d.b.imag()}},
                  {"length", std::abs(d.a0 - d.b)},
                  {"error_pct", 100.0 * d.error},
                  {"residual_norm", d.residual_norm},
                  {"found", d.found}});
  }
  j["solutions"] = js;
  j["warnings"] = warnings;
  if (method == dyad_method::ga) j["evaluations"] = evaluations;
  j["seconds"] = seconds;
  return j;
}

void dyad_guidance_result::save_files(output_folder& folder) const {
  if (!has_answer()) return;  // no solution: no table or picture
  io::csv_writer csv(
      {"solution", "a0_re", "a0_im", "b_re", "b_im", "length", "error_pct", "found"});
  for (std::size_t i = 0; i < solutions.size(); ++i) {
    const auto& d = solutions[i];
    csv.add_row({static_cast<double>(i + 1), d.a0.real(), d.a0.imag(), d.b.real(), d.b.imag(),
                 std::abs(d.a0 - d.b), 100.0 * d.error, static_cast<double>(d.found)});
  }
  csv.save(folder.file("dyad_solutions.csv"));
  save_dyad_drawing(folder.file("dyad.svg"), poses, solutions);
}

}  // namespace kinevo::synthesis
