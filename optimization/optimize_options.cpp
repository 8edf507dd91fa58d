#include "kinevo/optimization/optimize_options.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::optimization {

std::string to_string(preset p) {
  switch (p) {
    case preset::plain:
      return "plain";
    case preset::tuned:
      return "tuned";
    case preset::constrained:
      return "constrained";
    case preset::g3_pcx:
      return "g3-pcx";
    case preset::g3_pcx_metric:
      return "g3-pcx-metric";
  }
  return "?";
}

preset parse_preset(const std::string& name) {
  for (const auto p :
       {preset::plain, preset::tuned, preset::constrained, preset::g3_pcx, preset::g3_pcx_metric}) {
    if (name == to_string(p)) return p;
  }
  throw io::option_error(
      "preset",
      "'" + name + "' is unknown; use plain, tuned, constrained, g3-pcx or g3-pcx-metric");
}

std::string to_string(method m) {
  return m == method::sanlsu ? "sanlsu" : "ga";
}

method parse_method(const std::string& name) {
  if (name == "ga") return method::ga;
  if (name == "sanlsu") return method::sanlsu;
  throw io::option_error("method", "'" + name + "' is unknown; use ga or sanlsu");
}

bool parse_refine(const std::string& name) {
  if (name == "sanlsu") return true;
  if (name == "none") return false;
  throw io::option_error("refine", "'" + name + "' is unknown; use sanlsu or none");
}

namespace {

// SANLSU works on a problem file's equalities from one start; the GA's refinement likewise.
void validate_method(const optimize_options& o) {
  const bool local = o.solver == method::sanlsu || o.refine_sanlsu;
  if (local && o.problem_file.empty()) {
    throw io::option_error(o.refine_sanlsu ? "refine" : "method",
                           "sanlsu needs --problem FILE with equality constraints");
  }
  if (o.refine_sanlsu && o.solver == method::sanlsu) {
    throw io::option_error("refine", "refines the GA's answer: use it with --method ga");
  }
  if (!o.start.empty() && o.solver != method::sanlsu) {
    throw io::option_error("start", "is SANLSU's start point: use it with --method sanlsu");
  }
  for (const double v : o.start) io::require_real("start", v, io::any_finite());
  if (local) o.sanlsu.validate();
}

void validate_problem(const optimize_options& o) {
  io::require_integer("dim", o.dim, 1, max_dimension);
  for (const double v : o.lower) io::require_real("lower", v, io::any_finite());
  for (const double v : o.upper) io::require_real("upper", v, io::any_finite());
  if (!o.problem_file.empty() && o.is_given("function")) {
    throw io::option_error("function",
                           "contradicts --problem: the problem file has its own variables");
  }
  if (!o.problem_file.empty() && o.is_given("dim")) {
    throw io::option_error("dim", "contradicts --problem: the problem file has its own variables");
  }
  io::require_real("cost_us", o.cost_us, {0.0, 1e6});
}

// The sizes the memory estimate and the islands depend on; the GA's other settings are checked
// by ga::ga_options::validate once the policies have filled them in.
void validate_sizes(const optimize_options& o) {
  io::require_integer("population", o.ga.population, 2);
  io::require_integer("islands", o.islands.islands, 1);
  io::require_integer("migration_interval", o.islands.migration_interval, 1);
  io::require_integer("migrants", o.islands.migrants, 0);
  // More threads than this machine could ever schedule usefully is a typo.
  io::require_integer("threads", o.islands.threads, 0, 4096);
  io::require_integer("bits", o.ga.bits_per_variable, 1, 32);
  io::require_integer("elites", o.ga.elites, 0);
}

void validate_limits(const optimize_options& o) {
  const ga::termination& t = o.limits;
  io::require_integer("generations", t.max_generations, 0);
  io::require_integer("max_evals", t.max_evaluations, 0);
  io::require_integer("stall_generations", t.stall_generations, 0);
  io::require_real("stall_tolerance", t.stall_tolerance, io::non_negative());
  io::require_real("max_seconds", t.max_seconds, io::non_negative());
  // -inf is "no target"; NaN or +inf would stop never or at once.
  if (t.target_value != -std::numeric_limits<double>::infinity()) {
    io::require_real("target", t.target_value, io::any_finite());
  }
}

void validate_constraints(const optimize_options& o) {
  io::require_real("equality_tolerance", o.equality_tolerance, io::non_negative());
  io::require_real("inequality_tolerance", o.inequality_tolerance, io::non_negative());
  o.ga.epsilon.validate();  // names its key (epsilon_quantile, ...)
}

void validate_state(const optimize_options& o) {
  io::require_integer("checkpoint_every", o.checkpoint_every, 0);
  if (o.checkpoint_every > 0 && o.checkpoint.empty()) {
    throw io::option_error("checkpoint_every", "needs --checkpoint FILE");
  }
}

}  // namespace

void range_settings::validate() const {
  io::require_integer("range_runs", runs, 1, max_range_runs);
  io::require_real("shrink", shrink, {0.0, 1.0, true, false});
  io::require_real("move_factor", move_factor, io::non_negative());
  io::require_real("move_floor", move_floor, {0.0, 1.0});
  io::require_real("first_run_budget", first_run_budget, io::positive());
}

void optimize_options::validate() const {
  validate_problem(*this);
  validate_method(*this);
  validate_sizes(*this);
  validate_limits(*this);
  validate_constraints(*this);
  range.validate();
  validate_state(*this);
}

}  // namespace kinevo::optimization
