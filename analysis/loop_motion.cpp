#include "kinevo/analysis/loop_motion.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/symbolic/detail/evaluation_tape.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::analysis {

namespace {

// A short span is one interval (grid_steps()); +inf beyond the range of long long.
double intervals(double from, double to, double step) {
  return grid_steps(to - from, step);
}

}  // namespace

void time_grid::validate() const {
  io::require_real("t_start", t_start, io::any_finite());
  io::require_real("t_end", t_end, {t_start, std::numeric_limits<double>::infinity()});
  io::require_real("dt", dt, io::positive());
  if (intervals(t_start, t_end, dt) + 1 > max_motion_points) {
    throw io::option_error("dt", fmt::format("gives more than {} points", max_motion_points));
  }
}

std::vector<double> time_grid::times() const {
  const auto n = static_cast<long long>(intervals(t_start, t_end, dt));
  std::vector<double> t;
  t.reserve(static_cast<std::size_t>(n + 1));
  for (long long k = 0; k < n; ++k) t.push_back(t_start + static_cast<double>(k) * dt);
  t.push_back(t_end);
  return t;
}

void expression_motion::validate() const {
  if (expression.empty()) throw io::option_error("expression", "must not be empty");
  grid.validate();
}

void sweep_motion::validate() const {
  io::require_real("from", from, io::any_finite());
  io::require_real("to", to, io::any_finite());
  io::require_real("step", step, io::positive());
  io::require_real("rate", rate, io::any_finite());
  if (rate == 0.0) throw io::option_error("rate", "must not be 0");
  if (intervals(std::min(from, to), std::max(from, to), step) + 1 > max_motion_points) {
    throw io::option_error("step", fmt::format("gives more than {} points", max_motion_points));
  }
}

std::vector<motion_sample> sample_motion(const expression_motion& m, const std::string& where) {
  m.validate();
  symbolic::expression_context ctx;
  const GiNaC::symbol t = ctx.add_symbol("t", where);
  const GiNaC::ex value = ctx.parse(m.expression, where);
  const GiNaC::ex rate = value.diff(t);
  symbolic::tape_builder builder({t});
  try {
    builder.set_output(0, value);
    builder.set_output(1, rate);
    builder.set_output(2, rate.diff(t));
  } catch (const std::invalid_argument& e) {
    throw io::input_error(fmt::format("{}: '{}': {}", where, m.expression, e.what()));
  }
  const symbolic::evaluation_tape tape = builder.build();
  std::vector<double> scratch(static_cast<std::size_t>(tape.registers()));
  std::vector<motion_sample> samples;
  for (const double time : m.grid.times()) {
    double out[3];
    tape.evaluate(&time, out, scratch.data());
    if (!std::isfinite(out[0]) || !std::isfinite(out[1]) || !std::isfinite(out[2])) {
      throw io::input_error(fmt::format("{}: '{}' or its derivatives are not finite at t = {}",
                                        where, m.expression, time));
    }
    samples.push_back({time, out[0], out[1], out[2]});
  }
  return samples;
}

std::vector<motion_sample> sample_motion(const sweep_motion& m) {
  m.validate();
  const double dir = m.to >= m.from ? 1.0 : -1.0;
  const auto n =
      static_cast<long long>(intervals(std::min(m.from, m.to), std::max(m.from, m.to), m.step));
  std::vector<motion_sample> samples;
  for (long long k = 0; k <= n; ++k) {
    const double v = k == n ? m.to : m.from + dir * static_cast<double>(k) * m.step;
    samples.push_back({(v - m.from) / m.rate, v, m.rate, 0.0});
  }
  return samples;
}

}  // namespace kinevo::analysis
