#include "kinevo/synthesis/linkages/path_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/io/enum_names.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::synthesis {

namespace {

constexpr std::array<io::enum_name<path_timing>, 3> path_timing_names{{
    {path_timing::free, "free"},
    {path_timing::prescribed, "prescribed"},
    {path_timing::relative, "relative"},
}};

constexpr std::array<io::enum_name<path_link_type>, 3> path_link_type_names{{
    {path_link_type::any, "any"},
    {path_link_type::grashof, "grashof"},
    {path_link_type::crank_rocker, "crank-rocker"},
}};

constexpr std::array<io::enum_name<bool>, 2> path_shape_names{{{false, "open"}, {true, "closed"}}};
constexpr std::array<io::enum_name<bool>, 2> path_frame_names{{{true, "fixed"}, {false, "free"}}};

}  // namespace

bool parse_path_closed(const std::string& s) {
  return io::value_named(path_shape_names, s, "path");
}

bool parse_path_fixed_frame(const std::string& s) {
  return io::value_named(path_frame_names, s, "frame");
}

std::string to_string(path_timing t) {
  return io::name_of(path_timing_names, t);
}

path_timing parse_path_timing(const std::string& s) {
  return io::value_named(path_timing_names, s, "timing");
}

std::string to_string(path_link_type t) {
  return io::name_of(path_link_type_names, t);
}

path_link_type parse_path_link_type(const std::string& s) {
  return io::value_named(path_link_type_names, s, "link_type");
}

namespace {

constexpr double path_two_pi = 2.0 * std::numbers::pi;
constexpr double path_length_limit = 1e100;

void require_path_interval(const std::string& field, const std::optional<path_interval>& b,
                           bool positive) {
  if (!b) return;
  io::require_real(field + ".lo", b->lo,
                   positive ? io::real_range{0.0, path_length_limit}
                            : io::real_range{-path_length_limit, path_length_limit});
  io::require_real(field + ".hi", b->hi, {b->lo, path_length_limit, true});
}

bool path_given(const std::vector<std::string>& given, const std::string& name) {
  return std::find(given.begin(), given.end(), name) != given.end();
}

// The header's value, or a message naming file and line.
template <class Parse>
void from_path_header(const path_table& t, const std::string& key, Parse parse) {
  const auto it = t.header.find(key);
  if (it == t.header.end()) return;
  try {
    parse(it->second.value);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(
        fmt::format("{}:{}: header '{}': {}", t.source, it->second.line, key, e.what()));
  }
}

}  // namespace

void path_problem_options::validate() const {
  io::require_real("min_transmission_deg", min_transmission_deg, {0.0, 90.0, false, true});
  require_path_interval("link_bounds", link_bounds, true);
  require_path_interval("coupler_bounds", coupler_bounds, false);
  require_path_interval("frame_bounds", frame_bounds, false);
}

void apply_path_header(const path_table& t, path_problem_options& o,
                       const std::vector<std::string>& given) {
  if (!path_given(given, "timing")) {
    from_path_header(t, "timing", [&](const std::string& v) { o.timing = parse_path_timing(v); });
  }
  if (!path_given(given, "path")) {
    from_path_header(t, "path", [&](const std::string& v) { o.closed = parse_path_closed(v); });
  }
  if (!path_given(given, "link_type")) {
    from_path_header(t, "link type",
                     [&](const std::string& v) { o.link_type = parse_path_link_type(v); });
  }
  if (!path_given(given, "min_transmission")) {
    if (const auto v = t.header_number("min transmission")) o.min_transmission_deg = *v;
  }
  const auto interval = [&](const char* key, const char* name, auto& field) {
    if (path_given(given, name)) return;
    if (const auto v = t.header_interval(key)) field = path_interval{v->first, v->second};
  };
  interval("link bounds", "link_bounds", o.link_bounds);
  interval("coupler bounds", "coupler_bounds", o.coupler_bounds);
  interval("frame bounds", "frame_bounds", o.frame_bounds);
  if (!path_given(given, "frame")) {
    from_path_header(t, "frame",
                     [&](const std::string& v) { o.fixed_frame = parse_path_fixed_frame(v); });
  }
  try {
    o.validate();
  } catch (const io::option_error& e) {
    throw io::input_error(fmt::format("{}: header: {}", t.source, e.what()));
  }
}

path_problem make_path_problem(const path_table& t, const path_problem_options& o) {
  o.validate();
  path_problem p;
  p.x = t.x;
  p.y = t.y;
  p.input = t.input;
  p.timing = o.timing.value_or(t.input.empty() ? path_timing::free : path_timing::prescribed);
  if (p.timing != path_timing::free && t.input.empty()) {
    throw io::input_error(
        fmt::format("{}: timing {} needs an input angle column (input_deg or theta_deg)", t.source,
                    to_string(p.timing)));
  }
  if (p.timing == path_timing::free) p.input.clear();
  p.closed = o.closed;
  p.link_type = o.link_type;
  p.min_transmission = o.min_transmission_deg * std::numbers::pi / 180.0;
  p.fixed_frame = o.fixed_frame;
  const auto [xmin, xmax] = std::minmax_element(t.x.begin(), t.x.end());
  const auto [ymin, ymax] = std::minmax_element(t.y.begin(), t.y.end());
  const double extent = std::max(std::hypot(*xmax - *xmin, *ymax - *ymin), 1e-9);
  const double cx = 0.5 * (*xmin + *xmax), cy = 0.5 * (*ymin + *ymax);
  p.link_bounds = o.link_bounds.value_or(path_interval{extent / 100.0, 5.0 * extent});
  p.coupler_bounds = o.coupler_bounds.value_or(path_interval{-5.0 * extent, 5.0 * extent});
  p.frame_x_bounds = o.frame_bounds.value_or(path_interval{cx - 5.0 * extent, cx + 5.0 * extent});
  p.frame_y_bounds = o.frame_bounds.value_or(path_interval{cy - 5.0 * extent, cy + 5.0 * extent});
  return p;
}

path_motion path_motion_of(const path_problem& p, const std::vector<double>& input) {
  path_motion m;
  const std::size_t n = input.size();
  if (n < 2) return m;
  const double first = std::remainder(input[1] - input[0], path_two_pi);
  m.direction = first < 0.0 ? -1 : 1;
  const std::size_t steps = p.closed ? n : n - 1;
  for (std::size_t i = 0; i < steps; ++i) {
    const double step = m.direction * (input[(i + 1) % n] - input[i]);
    double a = std::fmod(step, path_two_pi);
    if (a < 0.0) a += path_two_pi;
    // A closed path's last arc returning to the first input is a full turn when they coincide.
    if (p.closed && i + 1 == n && a == 0.0) a = path_two_pi;
    m.arcs.push_back(m.direction * a);
    m.total += a;
  }
  return m;
}

namespace {

// Range of the diagonal d = |A O4| while the input sweeps the arc from `start` by `arc`
// (d^2 = r1^2 + r2^2 - 2 r1 r2 cos theta2: its extremes are at the ends or at 0 and pi).
std::pair<double, double> path_diagonal_range(const path_linkage& l, double start, double arc) {
  const auto d_at = [&](double c) {
    return std::sqrt(std::max(0.0, l.r1 * l.r1 + l.r2 * l.r2 - 2.0 * l.r1 * l.r2 * c));
  };
  double cmin = std::min(std::cos(start), std::cos(start + arc));
  double cmax = std::max(std::cos(start), std::cos(start + arc));
  const double lo = std::min(start, start + arc), hi = std::max(start, start + arc);
  // Multiples of pi inside the arc: even ones give cos = 1, odd ones cos = -1.
  for (double k = std::ceil(lo / std::numbers::pi); k * std::numbers::pi <= hi; k += 1.0) {
    if (std::fmod(std::abs(k), 2.0) == 0.0) {
      cmax = 1.0;
    } else {
      cmin = -1.0;
    }
  }
  return {d_at(cmax), d_at(cmin)};
}

double path_mu(const path_linkage& l, double d) {
  const double c = (l.r3 * l.r3 + l.r4 * l.r4 - d * d) / (2.0 * l.r3 * l.r4);
  return std::acos(std::clamp(c, -1.0, 1.0));
}

}  // namespace

path_evaluation evaluate_path_design(const path_problem& p, const path_design& d) {
  path_evaluation e;
  const path_linkage& l = d.linkage;
  if (p.link_type == path_link_type::grashof) {
    e.link_type_violation = std::max(0.0, -grashof_margin(l));
  } else if (p.link_type == path_link_type::crank_rocker) {
    e.link_type_violation = std::max(0.0, -crank_rocker_margin(l));
  }
  const path_motion m = path_motion_of(p, d.input);
  e.order_violation = std::max(0.0, m.total - path_two_pi * (1.0 + 1e-12));
  // The loop must stay closed over every arc between consecutive points (no dead point is
  // crossed, so the coupler stays on one branch); over the whole turn for a crank-rocker.
  double dmin = std::numeric_limits<double>::infinity(), dmax = 0.0;
  const bool full_turn = p.closed || p.link_type == path_link_type::crank_rocker;
  if (full_turn) {
    std::tie(dmin, dmax) = path_diagonal_range(l, 0.0, path_two_pi);
  }
  for (std::size_t i = 0; i < m.arcs.size(); ++i) {
    const auto [lo, hi] = path_diagonal_range(l, d.input[i], m.arcs[i]);
    dmin = std::min(dmin, lo);
    dmax = std::max(dmax, hi);
    e.motion_violation +=
        std::max(0.0, std::abs(l.r3 - l.r4) - lo) + std::max(0.0, hi - (l.r3 + l.r4));
  }
  if (full_turn) {
    e.motion_violation +=
        std::max(0.0, std::abs(l.r3 - l.r4) - dmin) + std::max(0.0, dmax - (l.r3 + l.r4));
  }
  e.min_transmission = path_mu(l, dmin);
  e.max_transmission = path_mu(l, dmax);
  if (p.min_transmission > 0.0) {
    const double worst = std::min({e.min_transmission, std::numbers::pi - e.max_transmission});
    e.transmission_violation = std::max(0.0, p.min_transmission - worst);
  }
  if (!p.fixed_frame) {
    e.frame_violation =
        std::max(0.0, p.frame_x_bounds.lo - l.x0) + std::max(0.0, l.x0 - p.frame_x_bounds.hi) +
        std::max(0.0, p.frame_y_bounds.lo - l.y0) + std::max(0.0, l.y0 - p.frame_y_bounds.hi);
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto pos = path_position_at(l, d.input[i], d.branch);
    if (!pos) {
      e.errors.push_back(std::numeric_limits<double>::quiet_NaN());
      e.motion_violation += 1e-12;  // never feasible, even if the arcs above missed it
      continue;
    }
    const double ex = pos->c.x() - p.x[i], ey = pos->c.y() - p.y[i];
    e.errors.push_back(std::hypot(ex, ey));
    e.objective += ex * ex + ey * ey;
  }
  return e;
}

namespace {

// Rotation and translation moving the linkage's own coupler points onto the precision points
// with the least sum of squared distances (points that do not assemble left out).
void place_path_frame(const path_problem& p, path_design& d) {
  d.linkage.x0 = d.linkage.y0 = d.linkage.theta0 = 0.0;
  std::vector<Eigen::Vector2d> local, target;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (const auto pos = path_position_at(d.linkage, d.input[i], d.branch)) {
      local.push_back(pos->c);
      target.emplace_back(p.x[i], p.y[i]);
    }
  }
  if (local.empty()) return;
  Eigen::Vector2d lc = Eigen::Vector2d::Zero(), tc = Eigen::Vector2d::Zero();
  for (std::size_t i = 0; i < local.size(); ++i) lc += local[i], tc += target[i];
  lc /= static_cast<double>(local.size());
  tc /= static_cast<double>(local.size());
  double dot = 0.0, cross = 0.0;
  for (std::size_t i = 0; i < local.size(); ++i) {
    const Eigen::Vector2d a = local[i] - lc, b = target[i] - tc;
    dot += a.dot(b);
    cross += a.x() * b.y() - a.y() * b.x();
  }
  const double th = std::atan2(cross, dot);
  const double c = std::cos(th), s = std::sin(th);
  d.linkage.theta0 = th;
  d.linkage.x0 = tc.x() - (c * lc.x() - s * lc.y());
  d.linkage.y0 = tc.y() - (s * lc.x() + c * lc.y());
}

}  // namespace

path_evaluation place_and_evaluate_path_design(const path_problem& p, path_design& d) {
  if (p.fixed_frame) return evaluate_path_design_best_branch(p, d);
  path_design best;
  path_evaluation best_e;
  for (const int branch : {1, -1}) {
    path_design t = d;
    t.branch = branch;
    place_path_frame(p, t);
    path_evaluation e = evaluate_path_design(p, t);
    const bool better =
        branch == 1 || (e.feasible() && !best_e.feasible()) ||
        (e.feasible() == best_e.feasible() &&
         (e.feasible() ? e.objective < best_e.objective : e.violation() < best_e.violation()));
    if (better) best = t, best_e = e;
  }
  d = best;
  return best_e;
}

path_evaluation evaluate_path_design_best_branch(const path_problem& p, path_design& d) {
  d.branch = 1;
  const path_evaluation plus = evaluate_path_design(p, d);
  d.branch = -1;
  const path_evaluation minus = evaluate_path_design(p, d);
  if (plus.objective <= minus.objective) {
    d.branch = 1;
    return plus;
  }
  return minus;
}

path_curve path_coupler_curve(const path_problem& p, const path_design& d, int samples) {
  path_curve c;
  const path_motion m = path_motion_of(p, d.input);
  const bool full =
      p.closed || p.link_type == path_link_type::crank_rocker ||
      (path_position_at(d.linkage, 0.0, d.branch) && crank_rocker_margin(d.linkage) > 0.0);
  double total = 0.0;
  for (const double a : m.arcs) total += a;
  const double span = full ? m.direction * 2.0 * std::numbers::pi : total;
  const double start = d.input.empty() ? 0.0 : d.input[0];
  for (int i = 0; i < samples; ++i) {
    const double th = start + span * i / (samples - 1);
    const auto pos = path_position_at(d.linkage, th, d.branch);
    c.input.push_back(th);
    c.x.push_back(pos ? pos->c.x() : std::numeric_limits<double>::quiet_NaN());
    c.y.push_back(pos ? pos->c.y() : std::numeric_limits<double>::quiet_NaN());
  }
  return c;
}

}  // namespace kinevo::synthesis
