// The reports and files of a path synthesis result (path_synthesis.hpp).
#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <numbers>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/motion_page.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/common/report_format.hpp"
#include "kinevo/synthesis/linkages/detail/drawings.hpp"
#include "kinevo/synthesis/linkages/path_synthesis.hpp"

namespace kinevo::synthesis {

namespace {

constexpr double path_deg = 180.0 / std::numbers::pi;

double path_rms(const std::vector<double>& e) {
  double s = 0.0;
  for (const double x : e) s += x * x;
  return e.empty() ? 0.0 : std::sqrt(s / static_cast<double>(e.size()));
}

double path_max(const std::vector<double>& e) {
  double m = 0.0;
  for (const double x : e) m = std::isnan(x) || std::isnan(m) ? NAN : std::max(m, x);
  return m;
}

std::string path_yes_no(bool defect, const char* what) {
  return defect ? fmt::format("{} defect: yes", what) : fmt::format("no {} defect", what);
}

}  // namespace

std::string path_synthesis_result::brief_report() const {
  return fmt::format("path: {} points, objective {:.6e}, {}, {} evaluations\n", problem.size(),
                     evaluation.objective, feasible() ? "feasible" : "infeasible", evaluations);
}

std::string path_synthesis_result::full_report() const {
  std::string s;
  auto out = std::back_inserter(s);
  const path_linkage& l = design.linkage;
  fmt::format_to(out, "Four-bar path generator: {} ({} points, {} path, timing {}, link type {})\n",
                 table, problem.size(), problem.closed ? "closed" : "open",
                 to_string(problem.timing), to_string(problem.link_type));
  if (!reference.empty()) fmt::format_to(out, "source: {}\n", reference);
  fmt::format_to(out,
                 "links: frame r1 = {:.6f}, input r2 = {:.6f}, coupler r3 = {:.6f}, output r4 "
                 "= {:.6f}\n",
                 l.r1, l.r2, l.r3, l.r4);
  fmt::format_to(out,
                 "coupler point: rcx = {:.6f}, rcy = {:.6f}; frame: x0 = {:.6f}, y0 = {:.6f}, "
                 "theta0 = {:.4f} deg; branch {:+d}\n",
                 l.rcx, l.rcy, l.x0, l.y0, l.theta0 * path_deg, design.branch);
  fmt::format_to(out, "type: {}; link ratio {:.3f}; transmission angle {:.2f}-{:.2f} deg\n",
                 grashof, ratio, evaluation.min_transmission * path_deg,
                 evaluation.max_transmission * path_deg);
  fmt::format_to(out, "points reached in order on one branch: {} ({}, {})\n",
                 !order_defect && !branch_defect ? "yes" : "no", path_yes_no(order_defect, "order"),
                 path_yes_no(branch_defect, "branch"));
  fmt::format_to(out,
                 "objective (sum of squared distances) {:.10e}; rms error {:.6e}, largest {:.6e}\n",
                 evaluation.objective, path_rms(evaluation.errors), path_max(evaluation.errors));
  if (best_published_objective) {
    fmt::format_to(
        out, "best published objective {:.10e}: {}\n", *best_published_objective,
        evaluation.objective <= *best_published_objective ? "matched or beaten" : "not reached");
  }
  fmt::format_to(out,
                 "search: {} evaluations, {} GA round(s) ({} evaluations) and Levenberg-Marquardt "
                 "({} evaluations); the design's GA point {:.6e}{}",
                 evaluations, rounds, ga_evaluations, refinement_evaluations, ga_objective,
                 ga_feasible ? "" : " (infeasible)");
  if (refinement) {
    fmt::format_to(out, ", its last refinement {} steps ({})\n", refinement->iterations,
                   refinement->stop);
  } else {
    fmt::format_to(out, ", not refined\n");
  }
  fmt::format_to(out, "{:>6} {:>12} {:>12} {:>10} {:>12} {:>12} {:>12}\n", "line", "x", "y",
                 "input_deg", "coupler_x", "coupler_y", "error");
  for (std::size_t i = 0; i < problem.size(); ++i) {
    fmt::format_to(out, "{:>6} {:>12.6f} {:>12.6f} {:>10.4f} {:>12.6f} {:>12.6f} {:>12.4e}\n",
                   lines[i], problem.x[i], problem.y[i], design.input[i] * path_deg, cx[i], cy[i],
                   evaluation.errors[i]);
  }
  for (const auto& w : warnings) fmt::format_to(out, "warning: {}\n", w);
  if (warnings.empty()) {
    fmt::format_to(out,
                   "buildable: transmission angle and link ratio within the documented "
                   "rules\n");
  }
  return s;
}

nlohmann::json path_synthesis_result::to_json() const {
  nlohmann::json j;
  const path_linkage& l = design.linkage;
  j["table"] = table;
  j["source"] = reference;
  j["status"] = summary.status();
  j["message"] = summary.message;
  j["points"] = problem.size();
  j["timing"] = to_string(problem.timing);
  j["closed"] = problem.closed;
  j["link_type"] = to_string(problem.link_type);
  j["objective"] = evaluation.objective;
  j["feasible"] = feasible();
  j["best_published_objective"] =
      best_published_objective ? nlohmann::json(*best_published_objective) : nlohmann::json();
  j["linkage"] = {{"r1", l.r1},
                  {"r2", l.r2},
                  {"r3", l.r3},
                  {"r4", l.r4},
                  {"rcx", l.rcx},
                  {"rcy", l.rcy},
                  {"x0", l.x0},
                  {"y0", l.y0},
                  {"theta0_deg", l.theta0 * path_deg},
                  {"branch", design.branch}};
  j["inputs_deg"] = in_degrees(design.input);
  j["coupler_x"] = json_numbers(cx);
  j["coupler_y"] = json_numbers(cy);
  j["errors"] = json_numbers(evaluation.errors);
  j["rms_error"] = json_number(path_rms(evaluation.errors));
  j["max_error"] = json_number(path_max(evaluation.errors));
  j["grashof_type"] = grashof;
  j["link_ratio"] = json_number(ratio);
  j["transmission_deg"] = {{"min", json_number(evaluation.min_transmission * path_deg)},
                           {"max", json_number(evaluation.max_transmission * path_deg)}};
  j["order_defect"] = order_defect;
  j["branch_defect"] = branch_defect;
  j["violations"] = {{"link_type", evaluation.link_type_violation},
                     {"branch", evaluation.motion_violation},
                     {"order", evaluation.order_violation},
                     {"transmission", evaluation.transmission_violation}};
  j["warnings"] = warnings;
  j["evaluations"] = evaluations;
  j["rounds"] = rounds;
  j["ga_stage"] = {
      {"evaluations", ga_evaluations}, {"objective", ga_objective}, {"feasible", ga_feasible}};
  if (refinement) {
    j["refinement"] = {{"evaluations", refinement_evaluations},
                       {"steps", refinement->iterations},
                       {"stop", refinement->stop}};
  } else {
    j["refinement"] = nullptr;
  }
  j["seconds"] = seconds;
  return j;
}

io::animation path_synthesis_result::animation() const {
  return path_animation(problem, design, path_coupler_curve(problem, design, 181));
}

void path_synthesis_result::save_files(output_folder& folder) const {
  io::csv_writer pts({"line", "x", "y", "input_deg", "coupler_x", "coupler_y", "error"});
  for (std::size_t i = 0; i < problem.size(); ++i) {
    pts.add_row({static_cast<double>(lines[i]), problem.x[i], problem.y[i],
                 design.input[i] * path_deg, cx[i], cy[i], evaluation.errors[i]});
  }
  pts.save(folder.file("path_points.csv"));
  const path_curve curve = path_coupler_curve(problem, design);
  io::csv_writer cc({"input_deg", "coupler_x", "coupler_y"});
  for (std::size_t i = 0; i < curve.input.size(); ++i) {
    cc.add_row({curve.input[i] * path_deg, curve.x[i], curve.y[i]});
  }
  cc.save(folder.file("path_curve.csv"));
  save_path_curve_drawing(folder.file("path_curve.svg"), problem, curve);
  save_path_linkage_drawing(folder.file("path_linkage.svg"), problem, design, curve);
  const io::animation motion = animation();
  if (!motion.times.empty()) io::save_motion_page(motion, folder.file("path_animation.html"));
}

}  // namespace kinevo::synthesis
