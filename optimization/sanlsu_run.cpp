#include "kinevo/optimization/sanlsu_run.hpp"

#include <fmt/format.h>

#include "kinevo/core/to_vector.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::optimization {

namespace {

// Stage: every constraint an equality, every variable real, 1 <= m < n.
void require_equality_problem(const symbolic::expression_problem& p, const std::string& file) {
  for (const auto& c : p.constraints()) {
    if (!c.equality) {
      throw io::input_error(fmt::format(
          "{}: constraint '{}' is an inequality; SANLSU gradient projection handles equality "
          "constraints h(x) = 0 only (use --method ga, or write the constraint as an equality "
          "if it is active)",
          file, c.name));
    }
  }
  for (std::size_t j = 0; j < p.variable_kinds().size(); ++j) {
    if (p.variable_kinds()[j] != symbolic::variable_kind::real) {
      throw io::input_error(fmt::format(
          "{}: variable '{}' is integer or discrete; SANLSU needs real variables (derivatives)",
          file, p.variable_names()[j]));
    }
  }
  const auto m = p.constraints().size();
  const auto n = static_cast<std::size_t>(p.dimension());
  if (m == 0 || m >= n) {
    throw io::input_error(
        fmt::format("{}: SANLSU needs 1 <= m < n equality constraints (the "
                    "file has m = {} for n = {} variables)",
                    file, m, n));
  }
}

std::vector<std::string> constraint_names(const symbolic::expression_problem& p) {
  std::vector<std::string> names;
  for (const auto& c : p.constraints()) names.push_back(c.name);
  return names;
}

// Stage: the run's summary, SANLSU's with the run's failure message (which names the GA's answer).
core::summary summary_of(const sanlsu_run& run) {
  core::summary s = run.sanlsu.summary;
  if (!s.usable()) s.message = run.failure_message();
  return s;
}

// Stage: the self-reporting result around SANLSU's answer.
sanlsu_run assemble(const optimize_options& o, const expression_equality_problem& p,
                    gradient_projection_result r) {
  sanlsu_run run;
  const symbolic::expression_problem& e = p.expressions();
  run.function = e.name();
  run.file = o.problem_file;
  run.variables = e.variable_names();
  run.constraints = constraint_names(e);
  const Eigen::VectorXd c = e.constraint_values(r.x);
  run.constraint_values = to_vector(c);
  run.inside_bounds = (r.x.array() >= e.lower_bounds().array()).all() &&
                      (r.x.array() <= e.upper_bounds().array()).all();
  run.sanlsu = std::move(r);
  return run;
}

}  // namespace

expression_equality_problem::expression_equality_problem(
    std::shared_ptr<const symbolic::expression_problem> p, std::string file)
    : p_(std::move(p)) {
  require_equality_problem(*p_, file);
}

int expression_equality_problem::dimension() const {
  return p_->dimension();
}
int expression_equality_problem::constraint_count() const {
  return static_cast<int>(p_->constraints().size());
}
std::string expression_equality_problem::constraint_name(int i) const {
  return p_->constraints()[static_cast<std::size_t>(i)].name;
}
double expression_equality_problem::objective(const Eigen::VectorXd& x) const {
  return p_->objective(x);
}
Eigen::VectorXd expression_equality_problem::constraints(const Eigen::VectorXd& x) const {
  return p_->constraint_values(x);
}
void expression_equality_problem::derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& gradient,
                                              Eigen::MatrixXd& jacobian) const {
  p_->derivatives(x, gradient, jacobian);
}
std::optional<Eigen::MatrixXd> expression_equality_problem::constant_hessian() const {
  return p_->constant_objective_hessian();
}

Eigen::VectorXd expression_equality_problem::start_point(const std::vector<double>& start) const {
  const int n = p_->dimension();
  if (!start.empty()) {
    if (static_cast<int>(start.size()) != n) {
      throw io::option_error("start", fmt::format("has {} values for {} variables; give one per "
                                                  "variable",
                                                  start.size(), n));
    }
    return Eigen::Map<const Eigen::VectorXd>(start.data(), n);
  }
  Eigen::VectorXd x = 0.5 * (p_->lower_bounds() + p_->upper_bounds());
  for (int j = 0; j < n; ++j) {
    if (const auto& v = p_->initial_values()[static_cast<std::size_t>(j)]; v) x[j] = *v;
  }
  return x;
}

namespace {

expression_equality_problem load_equality_problem(const std::string& file) {
  return expression_equality_problem(symbolic::load_optimization_problem(file), file);
}

}  // namespace

sanlsu_run run_sanlsu(const optimize_options& o) {
  o.validate();
  const expression_equality_problem p = load_equality_problem(o.problem_file);
  sanlsu_run run =
      assemble(o, p, minimize_gradient_projection(p, p.start_point(o.start), o.sanlsu));
  run.summary = summary_of(run);
  return run;
}

sanlsu_run refine_with_sanlsu(const optimize_options& o, optimization_run ga) {
  o.sanlsu.validate();
  const expression_equality_problem p = load_equality_problem(o.problem_file);
  sanlsu_run run = assemble(o, p, minimize_gradient_projection(p, ga.result.best_x, o.sanlsu));
  run.ga = std::move(ga);
  run.summary = summary_of(run);
  return run;
}

std::string sanlsu_run::failure_message() const {
  if (!failed()) return "";
  return fmt::format("SANLSU {}: {}{}", sanlsu.summary.status(), sanlsu.message,
                     ga ? " (the GA's answer is reported as best_x)" : "");
}

std::optional<std::string> sanlsu_run::outcome_note() const {
  if (failed()) return failure_message();
  if (ga && ga->failed()) return "error: " + ga->infeasibility_warning();
  return std::nullopt;
}

std::string sanlsu_run::full_report() const {
  std::string s;
  if (ga) {
    s += "GA (global search):\n" + ga->full_report();
    s += "refinement from the GA's best:\n";
  }
  s += sanlsu.report(variables, constraints);
  if (!inside_bounds) s += "  note: the answer lies outside the file's bounds\n";
  return s;
}

nlohmann::json sanlsu_run::to_json() const {
  const nlohmann::json local = sanlsu.to_json();
  if (!ga) {
    nlohmann::json j = local;
    j["function"] = function;
    j["problem"] = file;
    j["variables"] = variables;
    j["constraint_names"] = constraints;
    j["dim"] = variables.size();
    j["constraint_values"] = constraint_values;
    j["inside_bounds"] = inside_bounds;
    return j;
  }
  nlohmann::json j = ga->to_json();
  j["ga_best_x"] = j["best_x"];
  j["ga_best_value"] = j["best_value"];
  if (ga->expression) j["ga_objective"] = ga->expression->objective;
  j["refinement"] = local;
  j["status"] = local["status"];
  j["lambda"] = local["lambda"];
  j["iterations"] = local["iterations"];
  if (sanlsu.ok()) {
    j["best_x"] = local["best_x"];
    j["best_value"] = local["best_value"];
    j["objective"] = local["best_value"];
    j["constraint_values"] = constraint_values;
    j["max_violation"] = sanlsu.constraint_residual;
  }
  return j;
}

}  // namespace kinevo::optimization
