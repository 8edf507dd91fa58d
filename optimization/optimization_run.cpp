#include "kinevo/optimization/optimization_run.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinevo/core/to_vector.hpp"

namespace kinevo::optimization {

std::string optimization_run::brief_report() const {
  return fmt::format("evaluations {}  generations {}  stop: {}  ({:.3f} s)\n", result.evaluations,
                     generations, ga::to_string(reason), seconds);
}

std::string optimization_run::full_report() const {
  std::string s;
  if (range_runs > 1) {
    for (const auto& r : result.runs) {
      s += fmt::format("run {:>2}  radius {:<10.4g} best {:.10g}\n", r.run + 1, r.radii.maxCoeff(),
                       r.result.best_value);
    }
  }
  if (expression) {
    for (std::size_t k = 0; k < expression->variables.size(); ++k) {
      s += fmt::format("{:<12}{:.17g}\n", expression->variables[k],
                       result.best_x[static_cast<Eigen::Index>(k)]);
    }
    s += fmt::format("objective   {:.17g}  (largest constraint violation {:.3g}: {})\n",
                     expression->objective, expression->max_violation,
                     expression->feasible ? "feasible" : "INFEASIBLE");
  }
  s += fmt::format("best value  {:.17g}\n", result.best_value);
  s += fmt::format("best x      [{:.17g}]\n", fmt::join(to_vector(result.best_x), ", "));
  return s + brief_report();
}

std::string optimization_run::exact_report() const {
  std::string s = fmt::format("{:a} {} {}\n", result.best_value, result.evaluations, generations);
  // Problem files: the violation too, so that runs compare on feasibility as well.
  if (expression) s += fmt::format("violation {:a}\n", result.best_violation);
  for (Eigen::Index k = 0; k < result.best_x.size(); ++k)
    s += fmt::format("{:a}\n", result.best_x[k]);
  return s;
}

nlohmann::json optimization_run::to_json() const {
  nlohmann::json j;
  j["function"] = function;
  j["dim"] = dim;
  if (expression) {
    j["problem"] = expression->file;
    j["variables"] = expression->variables;
    j["objective"] = expression->objective;
    j["max_violation"] = expression->max_violation;
    j["constraint_values"] = expression->constraint_values;
    j["feasible"] = expression->feasible;
    j["constraints"] = expression->constraints;
    j["equality_tolerance"] = expression->equality_tolerance;
    j["inequality_tolerance"] = expression->inequality_tolerance;
  }
  j["seed"] = seed;
  j["islands"] = islands;
  j["best_value"] = result.best_value;
  j["best_x"] = to_vector(result.best_x);
  j["evaluations"] = result.evaluations;
  j["generations"] = generations;
  j["stop_reason"] = ga::to_string(reason);
  j["seconds"] = seconds;
  if (range_runs > 1) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : result.runs) {
      runs.push_back({{"run", r.run + 1},
                      {"best_value", r.result.best_value},
                      {"best_x", to_vector(r.result.best_x)},
                      {"radii", to_vector(r.radii)},
                      {"evaluations", r.result.evaluations}});
    }
    j["runs"] = runs;
  }
  if (!checkpoint.empty()) j["checkpoint"] = checkpoint;
  return j;
}

std::string optimization_run::infeasibility_warning() const {
  if (!infeasible()) return {};
  return fmt::format(
      "the answer violates a constraint (largest violation {:.3g}; met within {:g} for "
      "equalities, {:g} for inequalities) with constraints = {}. Try --constraints epsilon "
      "(compares feasibility first and returns a feasible point whenever it found one), a "
      "larger --max-evals, a better box or --equality-tolerance/--inequality-tolerance; "
      "--allow-infeasible accepts the answer",
      expression->max_violation, expression->equality_tolerance, expression->inequality_tolerance,
      expression->constraints);
}

core::summary optimization_run::assess() const {
  core::summary s;
  if (interrupted()) {
    s = core::summary::ended(core::termination::interrupted, "", interruption_note());
  } else if (infeasible()) {
    s = core::summary::ended(core::termination::infeasible, "", infeasibility_warning());
    s.accepted = expression->allow_infeasible;
  }
  s.evaluations = result.evaluations;
  s.seconds = seconds;
  return s;
}

std::string optimization_run::interruption_note() const {
  if (!interrupted()) return {};
  if (!checkpoint.empty()) {
    return fmt::format("interrupted; state saved to {} (continue with --resume {})", checkpoint,
                       checkpoint);
  }
  // Range runs save their state only into a --checkpoint file named at the start (the range
  // state is written before every run): say what was kept instead of pointing at no file.
  return fmt::format(
      "interrupted in range run {} of {}; the best so far ({:.17g}, after {} evaluations) is in "
      "the results and output files; to be able to continue an interrupted tuned run, start it "
      "with --checkpoint FILE",
      result.runs.size(), range_runs, result.best_value, result.evaluations);
}

io::csv_writer optimization_run::history_log() const {
  io::csv_writer log(
      {"run", "island", "generation", "evaluations", "best", "mean", "spread", "diversity"});
  for (const auto& r : result.runs) {
    for (const auto& h : r.result.history) {
      log.add_row({static_cast<double>(r.run), static_cast<double>(h.island),
                   static_cast<double>(h.generation), static_cast<double>(h.evaluations), h.best,
                   h.mean, h.spread, h.diversity});
    }
  }
  return log;
}

std::vector<io::chart_series> optimization_run::best_per_generation() const {
  std::vector<io::chart_series> series;
  long long offset = 0;  // runs follow each other on one generation axis
  for (const auto& r : result.runs) {
    std::vector<double> gx, gy;
    for (const auto& h : r.result.history) {
      const auto g = static_cast<std::size_t>(h.generation - r.result.history.front().generation);
      if (g >= gy.size()) {
        gx.resize(g + 1, static_cast<double>(offset + h.generation));
        gy.resize(g + 1, h.best);
      }
      gy[g] = std::min(gy[g], h.best);
    }
    series.push_back({fmt::format("run {}", r.run + 1), gx, gy, "", false, ""});
    offset += r.result.generations + 1;
  }
  return series;
}

io::chart_options optimization_run::chart_options() const {
  io::chart_options co;
  co.title = fmt::format("kinevo optimize: {} (n = {})", function, dim);
  co.x_label = "generation";
  co.y_label = "best value (all islands)";
  co.log_y = true;
  return co;
}

io::csv_writer optimization_run::runs_table() const {
  std::vector<std::string> cols{"run", "evaluations", "generations", "best_value"};
  for (int j = 0; j < dim; ++j) cols.push_back(fmt::format("centre_{}", j));
  for (int j = 0; j < dim; ++j) cols.push_back(fmt::format("radius_{}", j));
  for (int j = 0; j < dim; ++j) cols.push_back(fmt::format("x_{}", j));
  io::csv_writer t(cols);
  for (const auto& r : result.runs) {
    std::vector<double> row{static_cast<double>(r.run + 1),
                            static_cast<double>(r.result.evaluations),
                            static_cast<double>(r.result.generations), r.result.best_value};
    for (const auto* v : {&r.centre, &r.radii, &r.result.best_x}) {
      row.insert(row.end(), v->data(), v->data() + v->size());
    }
    t.add_row(row);
  }
  return t;
}

std::optional<std::string> optimization_run::outcome_note() const {
  if (interrupted()) return interruption_note();
  if (infeasible()) return (failed() ? "error: " : "warning: ") + infeasibility_warning();
  return std::nullopt;
}

void optimization_run::save_files(const run_files& files) const {
  if (!files.log.empty()) history_log().save(files.log);
  if (!files.plot.empty()) io::save_line_chart(files.plot, best_per_generation(), chart_options());
  if (!files.table.empty()) runs_table().save(files.table);
}

}  // namespace kinevo::optimization
