#include "kinevo/optimization/run_driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/optimization/detail/costly_problem.hpp"
#include "kinevo/optimization/detail/expression_objective.hpp"
#include "kinevo/optimization/detail/memory_estimate.hpp"
#include "kinevo/optimization/detail/run_plan.hpp"

namespace kinevo::optimization {

namespace {

// The problem to minimise and, for a problem file, its expressions (for the report) and the
// constraint handling around them.
struct loaded_problem {
  std::unique_ptr<ga::problem> base;
  std::shared_ptr<const symbolic::expression_problem> expressions;
  std::unique_ptr<expression_objective> file;
  ga::constrained_objective* constrained = nullptr;  // == base with a problem file
  std::optional<costly_problem> costly;
  const ga::problem* caller = nullptr;  // the caller's objective, in place of base
  const ga::problem& get() const {
    if (costly) return *costly;
    return caller != nullptr ? *caller : *base;
  }
};

// Stage 1: the problem file, if any (its constraints choose the default preset).
void load_file(const optimize_options& o, loaded_problem& lp) {
  if (o.problem_file.empty()) return;
  lp.expressions = symbolic::load_optimization_problem(o.problem_file);
  lp.file = std::make_unique<expression_objective>(lp.expressions);
}

constraint_counts constraints_of(const loaded_problem& lp) {
  constraint_counts c;
  for (int i = 0; lp.file && i < lp.file->constraint_count(); ++i) {
    ++(lp.file->is_equality(i) ? c.equalities : c.inequalities);
  }
  return c;
}

// Stage 2: the ga::problem under the plan's constraint handling.
void load_problem(const optimize_options& o, const run_plan& plan, loaded_problem& lp) {
  if (lp.file) {
    ga::constraint_options co;
    co.method = plan.ga.constraints;
    co.equality_tolerance = o.equality_tolerance;
    co.inequality_tolerance = o.inequality_tolerance;
    auto constrained = std::make_unique<ga::constrained_objective>(*lp.file, co);
    if (lp.file->constraint_count() > 0) constrained->set_weight_scales(lp.file->weights());
    lp.constrained = constrained.get();
    lp.base = std::move(constrained);
  } else if (lp.caller == nullptr) {
    try {
      lp.base = ga::make_test_function(o.function, o.dim);
    } catch (const io::option_error& e) {
      // The library names its argument `dimension`; the option is `dim`.
      if (e.field() == "dimension") throw io::option_error("dim", e.requirement());
      throw;
    }
  }
  if (o.cost_us > 0.0) lp.costly.emplace(lp.caller != nullptr ? *lp.caller : *lp.base, o.cost_us);
}

Eigen::VectorXd bound(const std::vector<double>& v, const Eigen::VectorXd& fallback,
                      const char* key) {
  if (v.empty()) return fallback;
  const auto n = fallback.size();
  if (v.size() == 1) return Eigen::VectorXd::Constant(n, v[0]);
  if (static_cast<Eigen::Index>(v.size()) != n) {
    throw io::option_error(
        key, fmt::format("has {} values for dimension {}; give one value or {}", v.size(), n, n));
  }
  return Eigen::Map<const Eigen::VectorXd>(v.data(), n);
}

// The box, with a width that is finite: the GA draws points as lower + width * u, and a width
// that overflows (-1e308 to 1e308) would make every point infinite.
ga::search_box make_box(const optimize_options& o, const ga::problem& p) {
  ga::search_box box{bound(o.lower, p.lower_bounds(), "lower"),
                     bound(o.upper, p.upper_bounds(), "upper")};
  box.validate(p.dimension());
  for (Eigen::Index j = 0; j < box.lower.size(); ++j) {
    if (!std::isfinite(box.upper[j] - box.lower[j])) {
      throw io::option_error(
          "upper", fmt::format("minus lower must be a finite width (variable {}: [{:g}, {:g}] is "
                               "wider than the largest double); narrow the box",
                               j, box.lower[j], box.upper[j]));
    }
  }
  return box;
}

// Fraction of the whole work done, from the limits of one run and the range-run count.
double fraction_done(const run_plan& plan, const ga::sync_report& s, int run) {
  double f = -1.0;
  const ga::termination& t = plan.per_run;
  if (t.max_generations > 0) f = static_cast<double>(s.generation) / t.max_generations;
  if (t.max_evaluations > 0) {
    f = std::max(f, static_cast<double>(s.evaluations) / t.max_evaluations);
  }
  if (plan.range.runs > 1) f = (run + std::min(1.0, f)) / plan.range.runs;
  return std::min(1.0, f);
}

ga::range_run_options range_options_of(const run_plan& plan, const ga::search_box& box) {
  ga::range_run_options ro;
  ro.runs = plan.range.runs;
  ro.shrink = plan.range.shrink;
  ro.move_factor = plan.range.move_factor;
  ro.move_floor = plan.range.move_floor;
  ro.first_run_budget = plan.range.first_run_budget;
  ro.rotate = plan.range.rotate;
  ro.clip_lower = box.lower;
  ro.clip_upper = box.upper;
  return ro;
}

// A single or resumed run as a range-run result of one run. The record's axes stay empty: an
// identity of dim x dim here made the memory grow with dim^2 (issue 16.17).
ga::range_run_result as_range_result(const ga::search_box& box, ga::run_result single) {
  ga::range_run_result rr;
  rr.best_x = single.best_x;
  rr.best_value = single.best_value;
  rr.best_violation = single.best_violation;
  rr.evaluations = single.evaluations;
  rr.runs.push_back({0, box.centre(), box.radii(), Eigen::MatrixXd(), std::move(single)});
  return rr;
}

// The progress line: "run 2 gen 140 evals 14100 best -6961.81 (infeasible by 0.03)".
std::string progress_text(int run, const ga::sync_report& s) {
  return fmt::format(
      "run {} gen {} evals {} best {:.6g}{}", run + 1, s.generation, s.evaluations, s.best_value,
      s.best_violation > 0.0 ? fmt::format(" (infeasible by {:.3g})", s.best_violation)
                             : std::string());
}

ga::range_run_result execute(const optimize_options& o, const run_plan& plan,
                             ga::island_model& model, const ga::problem& p,
                             const ga::search_box& box, const ga::termination& limits,
                             const core::run_context& context,
                             ga::constrained_objective* constrained) {
  if (!o.checkpoint.empty() && ga::mpi_environment::rank() == 0) {
    // A run killed while checkpointing left a temporary beside the checkpoint: removed now, not
    // only at this run's first checkpoint (which a short run may never reach).
    io::remove_stale_temporaries(io::resolve_output_path(o.checkpoint));
    io::remove_stale_temporaries(io::resolve_output_path(ga::range_state_path(o.checkpoint)));
  }
  ga::run_settings settings;
  settings.record_history = o.record_history;
  settings.checkpoint_file = o.checkpoint;
  settings.checkpoint_every = o.checkpoint_every;
  int run_number = 0;
  if (context.on_progress) {
    settings.on_sync = [&](const ga::sync_report& s) {
      context.report({fraction_done(plan, s, run_number), run_number, s.generation, s.evaluations,
                      progress_text(run_number, s)});
    };
  }
  if (plan.range.runs <= 1) {
    // resume(p, box, ...) refuses a checkpoint written for another box (e.g. another --lower).
    return as_range_result(box, o.resume.empty()
                                    ? model.run(p, box, limits, settings)
                                    : model.resume(p, box, o.resume, limits, settings));
  }
  const auto follow_runs = [&](ga::range_run_step& step) {
    run_number = step.next_run;
    // Multipliers: lambda += 2 W r at the last run's best (other handlings ignore it).
    if (constrained != nullptr) constrained->after_run(step.last->best_x);
    return true;
  };
  if (!o.resume.empty()) {
    return ga::resume_range_runs(model, p, box, limits, range_options_of(plan, box), o.resume,
                                 follow_runs, settings);
  }
  return ga::run_range_runs(model, p, box, limits, range_options_of(plan, box), follow_runs,
                            settings);
}

// Penalty and multipliers compare penalised values, which change between range runs (the
// multipliers grow): the answer is the runs' best by Deb's rules on the problem itself.
void choose_best_run(ga::range_run_result& rr, const symbolic::expression_problem& e,
                     const ga::constrained_objective& c) {
  if (c.reports_violation() || rr.runs.size() < 2) return;
  double best_f = 0.0;
  double best_v = std::numeric_limits<double>::infinity();
  for (const auto& r : rr.runs) {
    const double v = c.violations(r.result.best_x).sum();
    const double f = e.objective(e.decode(r.result.best_x));
    if (ga::precedes(f, v, best_f, best_v, 0.0)) {
      best_f = f;
      best_v = v;
      rr.best_x = r.result.best_x;
      rr.best_value = r.result.best_value;
    }
  }
}

// The figures of a problem file at the best genes (decoded: integers rounded, discrete values).
expression_report report_of(const optimize_options& o, const symbolic::expression_problem& e,
                            const ga::constrained_objective& handling,
                            const Eigen::VectorXd& genes) {
  expression_report r;
  r.file = o.problem_file;
  r.variables = e.variable_names();
  r.constraints = ga::to_string(handling.options().method);
  r.equality_tolerance = handling.options().equality_tolerance;
  r.inequality_tolerance = handling.options().inequality_tolerance;
  r.feasible = handling.feasible(genes);
  r.allow_infeasible = o.allow_infeasible;
  const Eigen::VectorXd x = e.decode(genes);
  r.objective = e.objective(x);
  r.max_violation = e.max_violation(x);
  const Eigen::VectorXd c = e.constraint_values(x);
  r.constraint_values.assign(c.data(), c.data() + c.size());
  return r;
}

// Every stage after the problem is known: plan, box, memory, islands, run, report.
optimization_run run_loaded(const optimize_options& o, loaded_problem& lp,
                            const core::run_context& context) {
  const run_plan plan = make_run_plan(o, constraints_of(lp));
  load_problem(o, plan, lp);
  const ga::problem& p = lp.get();
  const int dim = p.dimension();
  const ga::search_box box = make_box(o, p);
  check_memory(estimate_memory(plan, dim, o.record_history), plan, dim, memory_limit_bytes());
  ga::termination limits = plan.per_run;
  limits.interrupt = context.interrupt;
  limits.validate();
  ga::island_model model(plan.ga, plan.islands);

  optimization_run run;
  run.function = lp.expressions         ? lp.expressions->name()
                 : lp.caller != nullptr ? lp.caller->name()
                                        : o.function;
  run.dim = dim;
  run.seed = o.seed;
  run.islands = plan.islands.islands;
  run.range_runs = plan.range.runs;
  run.root = model.is_root();
  const auto t0 = std::chrono::steady_clock::now();
  run.result = execute(o, plan, model, p, box, limits, context, lp.constrained);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.reason = run.result.runs.back().result.reason;
  for (const auto& r : run.result.runs) run.generations += r.result.generations;
  if (run.interrupted() && plan.range.runs > 1 && !o.checkpoint.empty()) {
    // The island model saved the interrupted run, and the range state is beside it.
    run.checkpoint = o.checkpoint;
  } else if (run.interrupted() && plan.range.runs <= 1) {
    // The generation was finished: save the state so that --resume continues exactly.
    run.checkpoint = o.checkpoint.empty() ? "kinevo_optimize.checkpoint" : o.checkpoint;
    if (o.checkpoint.empty() || o.checkpoint_every <= 0) model.save_checkpoint(run.checkpoint);
  }
  if (lp.expressions) {
    choose_best_run(run.result, *lp.expressions, *lp.constrained);
    run.expression = report_of(o, *lp.expressions, *lp.constrained, run.result.best_x);
    // The user's variables: discrete indices become their values.
    run.result.best_x = lp.expressions->decode(run.result.best_x);
  }
  run.summary = run.assess();
  return run;
}

}  // namespace

optimization_run run_optimization(const optimize_options& o, const core::run_context& context) {
  o.validate();
  loaded_problem lp;
  load_file(o, lp);
  return run_loaded(o, lp, context);
}

optimization_run run_optimization(const optimize_options& o, const ga::problem& objective,
                                  const core::run_context& context) {
  o.validate();
  if (!o.problem_file.empty()) {
    throw io::option_error("problem", "must be empty when the objective is given by the caller");
  }
  loaded_problem lp;
  lp.caller = &objective;
  return run_loaded(o, lp, context);
}

}  // namespace kinevo::optimization
