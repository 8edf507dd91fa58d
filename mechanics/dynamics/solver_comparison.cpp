#include "kinevo/mechanics/dynamics/solver_comparison.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/intermittent_constraints.hpp"

namespace kinevo::mechanics {

namespace {

std::vector<std::string> names_of(const std::vector<std::string>& all,
                                  const std::vector<int>& rows) {
  std::vector<std::string> out;
  for (int r : rows) out.push_back(all[static_cast<std::size_t>(r)]);
  return out;
}

std::vector<double> to_vector(const Eigen::VectorXd& v) {
  return {v.data(), v.data() + v.size()};
}

}  // namespace

void solver_comparison_options::validate() const {
  io::require_real("t", t, io::any_finite());
  solver.validate();
}

namespace {

// The comparison in the one outcome model (solver_comparison::summary).
core::summary summary_of(const solver_comparison& c) {
  if (c.ok()) return {};
  const bool all_stopped_short =
      !c.inconsistent && std::all_of(c.answers.begin(), c.answers.end(), [](const auto& a) {
        return !a.failed() || (a.result.status == solve_status::not_converged && a.finite());
      });
  return core::summary::ended(
      all_stopped_short ? core::termination::not_converged : core::termination::failed,
      c.inconsistent ? "inconsistent" : "", c.brief_report());
}

}  // namespace

solver_comparison compare_solvers(const model& m, const solver_comparison_options& o) {
  o.validate();
  const std::vector<std::string> names = o.solvers.empty() ? direct_solver_names() : o.solvers;
  std::vector<std::unique_ptr<acceleration_solver>> solvers;
  for (const auto& n : names) solvers.push_back(make_solver(n, o.solver));
  solver_comparison c;
  c.t = o.t;
  c.model_name = m.name();
  c.coordinates = m.coordinate_names();
  c.constraints = m.constraint_names();
  const constrained_system full = m.evaluate(m.initial_positions(), m.initial_velocities(), o.t);
  // Intermittent rows that are off at the start (a slipping disc) are not part of the system,
  // and their friction acts: the same reduced system a simulation starts from.
  intermittent_set intermittent(m);
  constrained_system reduced;
  if (!intermittent.empty()) {
    const Eigen::VectorXd& q = m.initial_positions();
    const Eigen::VectorXd& qd = m.initial_velocities();
    intermittent.note_slip(q, qd, o.t);
    intermittent.reduce(q, qd, o.t, full, reduced);
    const acceleration_result probe = make_solver("gigsp")->solve(reduced);
    if (probe.acceleration.size() == full.coordinates())
      intermittent.start_sides(q, qd, o.t, probe.acceleration);
    intermittent.reduce(q, qd, o.t, full, reduced);
    c.constraints.assign(reduced.constraint_names.begin(), reduced.constraint_names.end());
  }
  const constrained_system& sys = intermittent.empty() ? full : reduced;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    acceleration_result r = solvers[i]->solve(sys);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    c.answers.push_back({names[i], std::move(r), took.count()});
  }
  for (std::size_t i = 0; i < c.answers.size() && c.reference < 0; ++i) {
    const auto& a = c.answers[i];
    if (a.result.status == solve_status::ok && a.result.acceleration.size() > 0 && a.finite()) {
      c.reference = static_cast<int>(i);
    }
  }
  for (auto& a : c.answers) {
    c.inconsistent = c.inconsistent || !a.result.inconsistent.empty();
    if (a.failed()) c.failed.push_back(a.name);
    if (c.reference >= 0 && a.result.acceleration.size() > 0) {
      const auto& ref = c.answers[static_cast<std::size_t>(c.reference)].result.acceleration;
      a.max_difference = (a.result.acceleration - ref).cwiseAbs().maxCoeff();
    }
  }
  c.non_finite_inputs = non_finite_entries(m, full);
  c.summary = summary_of(c);
  return c;
}

std::string solver_comparison::brief_report() const {
  std::string s = fmt::format("{} solvers at t = {:g}: ", answers.size(), t);
  if (ok()) {
    s += reference >= 0
             ? fmt::format("ok (reference {})", answers[static_cast<std::size_t>(reference)].name)
             : std::string("ok");
  } else {
    s += inconsistent ? "inconsistent constraints" : "";
    if (!failed.empty()) {
      s += fmt::format("{}failed: {}", inconsistent ? "; " : "", fmt::join(failed, ", "));
    }
  }
  return s;
}

std::string solver_comparison::full_report() const {
  std::string s = fmt::format("{:<16}", "acceleration");
  for (const auto& a : answers) s += fmt::format(" {:>18}", a.name);
  s += "\n";
  for (std::size_t i = 0; i < coordinates.size(); ++i) {
    s += fmt::format("{:<16}", coordinates[i]);
    for (const auto& a : answers) {
      s += a.result.acceleration.size() > 0
               ? fmt::format(" {:>18.10g}", a.result.acceleration[static_cast<Eigen::Index>(i)])
               : fmt::format(" {:>18}", "-");
    }
    s += "\n";
  }
  for (const auto& a : answers) {
    s += fmt::format("{:<6} {:<13} rank {}", a.name,
                     a.finite() ? status_name(a.result.status) : "non_finite",
                     // rank < 0: not diagnosed (the GA solver unless asked: the sweep factors A)
                     a.result.rank < 0 ? std::string("-") : std::to_string(a.result.rank));
    if (reference >= 0 && a.result.acceleration.size() > 0) {
      s += fmt::format("  max |a - a_{}| = {:.3g}",
                       answers[static_cast<std::size_t>(reference)].name, a.max_difference);
    }
    if (!a.result.redundant.empty()) {
      std::string r;
      for (const auto& n : names_of(constraints, a.result.redundant)) r += " " + n;
      s += fmt::format("  redundant:{}", r);
    }
    s += "\n";
    if (!a.result.message.empty()) s += fmt::format("       {}\n", a.result.message);
  }
  return s;
}

nlohmann::json solver_comparison::to_json() const {
  nlohmann::json j;
  j["model"] = model_name;
  j["t"] = t;
  j["coordinates"] = coordinates;
  j["constraints"] = constraints;
  j["reference"] = reference < 0
                       ? nlohmann::json(nullptr)
                       : nlohmann::json(answers[static_cast<std::size_t>(reference)].name);
  j["solvers"] = nlohmann::json::object();
  for (const auto& a : answers) {
    nlohmann::json s;
    s["status"] = status_name(a.result.status);
    s["a"] = to_vector(a.result.acceleration);
    s["constraint_force"] = to_vector(a.result.constraint_force);
    s["rank"] = a.result.rank < 0 ? nlohmann::json(nullptr) : nlohmann::json(a.result.rank);
    s["redundant"] = names_of(constraints, a.result.redundant);
    s["inconsistent"] = names_of(constraints, a.result.inconsistent);
    s["message"] = a.result.message;
    s["finite"] = a.finite();
    s["seconds"] = a.seconds;
    s["evaluations"] = a.result.evaluations;  // iterative solvers (ga); 0 for the direct ones
    s["runs"] = a.result.runs;
    s["max_difference"] =
        std::isnan(a.max_difference) ? nlohmann::json(nullptr) : nlohmann::json(a.max_difference);
    j["solvers"][a.name] = s;
  }
  j["inconsistent"] = inconsistent;
  j["failed"] = failed;
  j["non_finite_inputs"] = non_finite_inputs;
  return j;
}

}  // namespace kinevo::mechanics
