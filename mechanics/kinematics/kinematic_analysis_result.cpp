#include "kinevo/mechanics/kinematics/kinematic_analysis_result.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kinevo/io/json_number.hpp"
#include "kinevo/io/svg_plot.hpp"
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"

namespace kinevo::mechanics {

const char* to_string(convergence_kind k) {
  switch (k) {
    case convergence_kind::quadratic:
      return "quadratic";
    case convergence_kind::linear:
      return "linear";
    case convergence_kind::none:
      return "none";
  }
  return "unknown";
}

std::string kinematic_analysis_result::status() const {
  if (completed) return "completed";
  return summary.end == core::termination::interrupted ? "interrupted" : "stopped";
}

std::string kinematic_analysis_result::brief_report() const {
  std::string s = fmt::format("{}: {} steps", status(), steps);
  if (std::isfinite(t_stop)) {
    s += fmt::format(" from t = {:.6g} to {:.6g}", t_start, t_stop);
  }
  if (!completed && !message.empty()) s += "; " + message;
  return s;
}

std::string kinematic_analysis_result::full_report() const {
  std::string s = brief_report() + "\n";
  s += fmt::format(
      "  grid t = {:.6g} .. {:.6g}, dt = {:.6g}; eps_e = {:g}, eps_s = {:g}, at most {} "
      "iterations\n",
      t_start, t_end, dt, newton.eps_e, newton.eps_s, newton.max_iterations);
  if (steps > 0) {
    s += fmt::format(
        "  Newton-Raphson: {} iterations in all, {:.3g} per step, at most {}; max |Phi| at the "
        "positions {:.3g}\n",
        total_iterations, static_cast<double>(total_iterations) / static_cast<double>(steps),
        max_step_iterations, max_phi_norm);
    s += fmt::format(
        "  closest to a singular configuration at t = {:.6g}: LU pivot ratio of Phi_q {:.3g}\n",
        t_min_pivot_ratio, min_pivot_ratio);
  }
  if (failure && !failure->iterates.empty()) {
    const auto& f = *failure;
    s += fmt::format("  at t = {:.10g}: convergence {}, {} iterations", f.t, to_string(f.kind),
                     f.iterations);
    if (std::isfinite(f.rate)) s += fmt::format(", rate {:.4g}", f.rate);
    s += "; max |Phi| per iteration:";
    const std::size_t shown = std::min<std::size_t>(f.iterates.size(), 12);
    for (std::size_t i = 0; i < shown; ++i) s += fmt::format(" {:.3g}", f.iterates[i].phi_norm);
    if (shown < f.iterates.size()) s += " ...";
    s += "\n";
  }
  s += fmt::format("  wall time {:.3g} s\n", wall_seconds);
  return s;
}

nlohmann::json kinematic_analysis_result::to_json() const {
  nlohmann::json j;
  j["model"] = model_name;
  j["status"] = status();
  j["completed"] = completed;
  j["stop_reason"] = completed ? nlohmann::json(nullptr) : nlohmann::json(summary.reason);
  j["message"] = message;
  j["t_stop"] = io::json_number(t_stop);
  j["t_failed"] = io::json_number(t_failed);
  j["steps"] = steps;
  j["coordinates"] = coordinate_names;
  j["t_start"] = t_start;
  j["t_end"] = t_end;
  j["dt"] = dt;
  j["eps_e"] = newton.eps_e;
  j["eps_s"] = newton.eps_s;
  j["max_iterations"] = newton.max_iterations;
  j["total_iterations"] = total_iterations;
  j["max_step_iterations"] = max_step_iterations;
  j["max_phi_norm"] = io::json_number(max_phi_norm);
  j["min_pivot_ratio"] = io::json_number(min_pivot_ratio);
  j["t_min_pivot_ratio"] = io::json_number(t_min_pivot_ratio);
  if (failure) {
    nlohmann::json phi = nlohmann::json::array();
    for (const auto& it : failure->iterates) phi.push_back(io::json_number(it.phi_norm));
    j["failure"] = {{"t", io::json_number(failure->t)},
                    {"convergence", to_string(failure->kind)},
                    {"iterations", failure->iterations},
                    {"rate", io::json_number(failure->rate)},
                    {"phi_norms", phi}};
  } else {
    j["failure"] = nullptr;
  }
  j["wall_seconds"] = wall_seconds;
  return j;
}

std::vector<std::string> kinematic_analysis_result::csv_columns() const {
  std::vector<std::string> c{"t"};
  for (const auto& n : coordinate_names) c.push_back(n);
  for (const auto& n : coordinate_names) c.push_back(n + "_dot");
  for (const auto& n : coordinate_names) c.push_back(n + "_ddot");
  c.push_back("iterations");
  c.push_back("phi_norm");
  c.push_back("pivot_ratio");
  c.push_back("convergence");
  return c;
}

io::csv_writer kinematic_analysis_result::csv() const {
  io::csv_writer w(csv_columns());
  std::vector<double> v;
  for (const auto& r : rows) {
    v.clear();
    v.push_back(r.t);
    auto add = [&v](const Eigen::VectorXd& x) { v.insert(v.end(), x.data(), x.data() + x.size()); };
    add(r.q);
    add(r.qd);
    add(r.qdd);
    v.push_back(r.iterations);
    v.push_back(r.phi_norm);
    v.push_back(r.pivot_ratio);
    v.push_back(r.kind == convergence_kind::quadratic ? 2.0 : 1.0);
    w.add_row(v);
  }
  return w;
}

void kinematic_analysis_result::save_plot(const std::filesystem::path& path,
                                          const std::string& title) const {
  std::vector<io::chart_series> series(coordinate_names.size());
  for (std::size_t i = 0; i < series.size(); ++i) {
    series[i].label = coordinate_names[i];
    for (const auto& r : rows) {
      series[i].x.push_back(r.t);
      series[i].y.push_back(r.q[static_cast<Eigen::Index>(i)]);
    }
  }
  // One panel per unit, so that no axis mixes units (trajectory_recorder::save_plot alike).
  std::vector<io::chart_panel> panels;
  for (const auto& group : columns_by_unit(coordinate_names)) {
    io::chart_panel p;
    std::vector<std::string> names;
    for (const std::size_t i : group) {
      p.series.push_back(series[i]);
      names.push_back(coordinate_names[i]);
    }
    p.options.title = panels.empty() ? title : std::string();
    p.options.x_label = "t [s]";
    p.options.y_label = column_axis_label(names);
    panels.push_back(std::move(p));
  }
  if (panels.size() == 1) {
    io::save_line_chart(path, panels.front().series, panels.front().options);
  } else {
    io::save_stacked_charts(path, panels);
  }
}

}  // namespace kinevo::mechanics
