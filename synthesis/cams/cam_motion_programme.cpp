#include "kinevo/synthesis/cams/cam_motion_programme.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "kinevo/io/errors.hpp"

namespace kinevo::synthesis {

namespace {
constexpr double pi = std::numbers::pi;
constexpr int knots = 21;  // 2(m - 1) + 1 knots on [0, pi], m = 11
constexpr double knot_step = pi / (knots - 1);
}  // namespace

const cam_basic_function& cam_basic_function::instance() {
  static const cam_basic_function f;
  return f;
}

// R'' is linear between knots, so R' and R follow by exact integration; R(pi) = k * I with I the
// double integral of sin 2u's interpolant, hence k = 1 / I.
cam_basic_function::cam_basic_function()
    : knot_(knots), acc_(knots), vel_(knots, 0.0), pos_(knots, 0.0) {
  const double h = knot_step;
  for (int i = 0; i < knots; ++i) {
    knot_[i] = i * h;
    acc_[i] = std::sin(2.0 * knot_[i]);
  }
  for (int i = 0; i + 1 < knots; ++i) {
    vel_[i + 1] = vel_[i] + h * (acc_[i] + acc_[i + 1]) / 2.0;
    pos_[i + 1] = pos_[i] + vel_[i] * h + h * h * (acc_[i] / 3.0 + acc_[i + 1] / 6.0);
  }
  k_ = 1.0 / pos_.back();
  for (int i = 0; i < knots; ++i) {
    acc_[i] *= k_;
    vel_[i] *= k_;
    pos_[i] *= k_;
  }
}

double cam_basic_function::operator()(double u, int der) const {
  u = std::clamp(u, 0.0, pi);
  const int i = std::min(static_cast<int>(u / knot_step), knots - 2);
  const double x = u - knot_[i];
  const double a0 = acc_[i], a1 = acc_[i + 1], h = knot_step;
  if (der == 3) return (a1 - a0) / h;
  if (der == 2) return a0 + (a1 - a0) * x / h;
  if (der == 1) return vel_[i] + a0 * x + (a1 - a0) * x * x / (2.0 * h);
  return pos_[i] + vel_[i] * x + a0 * x * x / 2.0 + (a1 - a0) * x * x * x / (6.0 * h);
}

cam_motion_programme::cam_motion_programme(std::vector<cam_phase> phases)
    : phases_(std::move(phases)) {
  if (phases_.empty()) throw io::option_error("phase", "list must not be empty");
  double angle = 0.0, level = 0.0;
  for (std::size_t i = 0; i < phases_.size(); ++i) {
    const auto& p = phases_[i];
    const std::string field = fmt::format("phase {}", i + 1);
    if (!std::isfinite(p.interval) || p.interval <= 0.0) {
      throw io::option_error(field,
                             fmt::format("interval must be finite and > 0 (got {})", p.interval));
    }
    const bool moves = p.kind != cam_phase_kind::dwell;
    if (moves && (!std::isfinite(p.displacement) || p.displacement <= 0.0)) {
      throw io::option_error(
          field, fmt::format("displacement must be finite and > 0 (got {})", p.displacement));
    }
    if (!moves && p.displacement != 0.0) {
      throw io::option_error(field, "a dwell has no displacement");
    }
    start_.push_back(angle);
    level_.push_back(level);
    angle += p.interval;
    level += p.kind == cam_phase_kind::rise   ? p.displacement
             : p.kind == cam_phase_kind::fall ? -p.displacement
                                              : 0.0;
    const double tol = 1e-12 * std::max(1.0, max_level_);
    if (level < -tol) {
      throw io::option_error(field, "takes the follower below its lowest position (0)");
    }
    max_level_ = std::max(max_level_, level);
  }
  if (std::abs(angle - 2.0 * pi) > 1e-9) {
    throw io::option_error(
        "phase", fmt::format("intervals must add up to 360 deg (got {} deg)", angle * 180.0 / pi));
  }
  if (std::abs(level) > 1e-9 * std::max(1.0, max_level_)) {
    throw io::option_error("phase", fmt::format("rises and returns must cancel (net {})", level));
  }
}

// Eq. (2b,c): a rise of h over an interval L is h R(pi x / L), x the angle into the phase; eq.
// (3d): a return is the rise reflected, h (1 - R).
programme_value cam_motion_programme::at(double psi) const {
  psi = std::fmod(psi, 2.0 * pi);
  if (psi < 0.0) psi += 2.0 * pi;
  const auto it = std::upper_bound(start_.begin(), start_.end(), psi);
  const std::size_t i =
      it == start_.begin() ? 0 : static_cast<std::size_t>(it - start_.begin()) - 1;
  const auto& p = phases_[i];
  programme_value v{level_[i], 0.0, 0.0};
  if (p.kind == cam_phase_kind::dwell) return v;
  const auto& r = cam_basic_function::instance();
  const double scale = pi / p.interval;
  const double u = std::min(scale * (psi - start_[i]), pi);
  const double sign = p.kind == cam_phase_kind::rise ? 1.0 : -1.0;
  v.s += sign * p.displacement * r(u, 0);
  v.ds = sign * p.displacement * r(u, 1) * scale;
  v.dds = sign * p.displacement * r(u, 2) * scale * scale;
  v.ddds = sign * p.displacement * r(u, 3) * scale * scale * scale;
  return v;
}

}  // namespace kinevo::synthesis
