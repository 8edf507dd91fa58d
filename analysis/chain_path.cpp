#include "kinevo/analysis/chain_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/core/numbers.hpp"
#include "kinevo/io/display_number.hpp"
#include "kinevo/io/json_number.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/io/svg_plot.hpp"

namespace kinevo::analysis {

namespace {

// A joint value in the chart: degrees for an angle (continuous along the path), the length
// for a prismatic pair.
double shown(double v, bool angle) {
  return angle ? v / degree : v;
}

// A joint value as reported (text, CSV, JSON): an angle in (-180, 180] degrees.
double reported(double v, bool angle) {
  return angle ? io::degrees_in_half_turn(v / degree) : io::no_negative_zero(v);
}

nlohmann::json json_vector(const Eigen::VectorXd& v, const std::vector<bool>& angle, bool convert) {
  nlohmann::json j = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    j.push_back(
        io::json_number(convert ? reported(v[i], angle[static_cast<std::size_t>(i)]) : v[i]));
  }
  return j;
}

std::string cell(double x) {
  return std::isfinite(x) ? fmt::format("{:.10g}", io::no_negative_zero(x)) : "";
}

std::string input_text(const chain_path_result& r, const chain_point& p) {
  if (r.input_joint < 0) return fmt::format("t = {:g} s", p.t);
  const auto k = static_cast<std::size_t>(r.input_joint);
  return fmt::format("{} = {:g}{}", r.joint_names[k], shown(p.input, r.joint_is_angle[k]),
                     r.joint_is_angle[k] ? " deg" : "");
}

}  // namespace

void chain_newton_options::validate() const {
  io::require_real("tolerance", tolerance, {0.0, 1.0, true, false});
  io::require_real("damping", damping, {0.0, 1.0, true, true});
  io::require_integer("max_iterations", max_iterations, 1, 10000);
  io::require_integer("max_damping_steps", max_damping_steps, 0, 200);
  io::require_real("singular_ratio", singular_ratio, {0.0, 1.0, true, true});
  io::require_real("switch_determinant", switch_determinant, {0.0, 8.0});
}

numerics::newton_options chain_newton_options::newton() const {
  numerics::newton_options o;
  o.tol_x = o.tol_f = tolerance;
  o.damping = damping;
  o.max_iterations = max_iterations;
  o.max_halvings = max_damping_steps;
  return o;
}

rotation_residual parse_rotation_residual(const std::string& name) {
  if (name == "automatic") return rotation_residual::automatic;
  if (name == "invariant") return rotation_residual::invariant;
  if (name == "relative") return rotation_residual::relative;
  throw io::option_error(
      "residual",
      fmt::format("must be automatic, invariant or relative (got '{}')", io::excerpt(name, 40)));
}

std::string to_string(rotation_residual r) {
  switch (r) {
    case rotation_residual::invariant:
      return "invariant";
    case rotation_residual::relative:
      return "relative";
    default:
      return "automatic";
  }
}

std::string to_string(point_status s) {
  switch (s) {
    case point_status::converged:
      return "converged";
    case point_status::singular:
      return "singular";
    default:
      return "not_converged";
  }
}

rank_report rank_of(const Eigen::MatrixXd& jacobian) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(jacobian);
  const auto& s = svd.singularValues();
  rank_report r;
  if (s.size() > 0) {
    r.sigma_max = s[0];
    r.sigma_min = s[s.size() - 1];
  }
  return r;
}

Eigen::VectorXd predict_from(const chain_point& last, double t) {
  const double dt = t - last.t;
  if (!last.qdot.allFinite() || !last.qddot.allFinite()) return last.q;  // positions only
  return last.q + dt * last.qdot + 0.5 * dt * dt * last.qddot;
}

chain_path_result new_path(std::string name, std::string kind, const std::vector<dh_link>& links,
                           int input_joint, const chain_newton_options& options,
                           std::size_t points) {
  chain_path_result r;
  r.name = std::move(name);
  r.kind = std::move(kind);
  r.joint_names = joint_names(links);
  r.joint_is_angle = joint_is_angle(links);
  r.input_joint = input_joint;
  r.skip_singular = options.skip_singular;
  // Reserved so that pointers to earlier points stay valid while the path grows.
  r.points.reserve(points);
  return r;
}

chain_point classify_point(const numerics::newton_result& out, double sigma_ratio, double t,
                           double input, Eigen::Index joints, const chain_newton_options& options) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  chain_point p;
  p.t = t;
  p.input = input;
  p.iterations = out.iterations;
  p.q = Eigen::VectorXd::Constant(joints, nan);
  p.qdot = Eigen::VectorXd::Constant(joints, nan);
  p.qddot = Eigen::VectorXd::Constant(joints, nan);
  p.sigma_ratio = sigma_ratio;
  // Singular is a property of the configuration (the twist Jacobian), not of the residual.
  const bool singular = sigma_ratio < options.singular_ratio;
  p.formulation_singular = out.status == numerics::newton_status::singular_jacobian && !singular;
  p.status = singular   ? point_status::singular
             : out.ok() ? point_status::converged
                        : point_status::not_converged;
  return p;
}

std::size_t chain_path_result::count(point_status s) const {
  return static_cast<std::size_t>(std::count_if(
      points.begin(), points.end(), [s](const chain_point& p) { return p.status == s; }));
}

core::summary chain_path_result::summary() const {
  if (ok()) return {};
  return core::summary::ended(core::termination::failed, "",
                              fmt::format("{}", fmt::join(problems(), "\n")));
}

bool chain_path_result::ok() const {
  if (count(point_status::not_converged) > 0) return false;
  return skip_singular || (count(point_status::singular) == 0 && crossings.empty());
}

std::vector<std::string> chain_path_result::problems() const {
  std::vector<std::string> out;
  for (const auto& p : points) {
    if (p.status == point_status::singular) {
      out.push_back(fmt::format("singular configuration at {} (sigma_min/sigma_max = {:.2e})",
                                input_text(*this, p), p.sigma_ratio));
    } else if (p.status == point_status::not_converged) {
      out.push_back(fmt::format(
          "no convergence at {} after {} iterations{}", input_text(*this, p), p.iterations,
          p.formulation_singular ? " (the rotation residual's Jacobian lost rank at a regular "
                                   "configuration: use the relative residual)"
                                 : ""));
    }
  }
  for (const auto& c : crossings) out.push_back("singular configuration crossed " + c);
  return out;
}

std::string chain_path_result::full_report() const {
  std::string s = fmt::format("{} ({}): {} points, {} converged, {} singular, {} not converged\n",
                              name, kind, points.size(), count(point_status::converged),
                              count(point_status::singular), count(point_status::not_converged));
  std::string header = fmt::format("{:>16}", input_joint < 0 ? "t" : "input");
  for (const auto& n : joint_names) header += fmt::format(" {:>12}", n);
  s += header + "   it  status\n";
  for (const auto& p : points) {
    std::string line =
        fmt::format("{:>16}", input_joint < 0 ? fmt::format("{:g}", p.t) : input_text(*this, p));
    for (Eigen::Index i = 0; i < p.q.size(); ++i) {
      line += fmt::format(
          " {:>12.6f}",
          io::no_negative_zero(reported(p.q[i], joint_is_angle[static_cast<std::size_t>(i)]), 6));
    }
    s += line + fmt::format(" {:>4}  {}\n", p.iterations, to_string(p.status));
  }
  for (const auto& pr : problems()) s += pr + "\n";
  s += ok() ? "status: ok\n" : "status: failed\n";
  return s;
}

nlohmann::json chain_path_result::to_json() const {
  nlohmann::json j;
  j["name"] = name;
  j["kind"] = kind;
  j["status"] = ok() ? "ok" : "failed";
  j["joints"] = joint_names;
  j["angle_unit"] = "deg";
  if (input_joint >= 0) j["input_joint"] = input_joint + 1;
  j["converged"] = count(point_status::converged);
  j["singular"] = count(point_status::singular);
  j["not_converged"] = count(point_status::not_converged);
  j["crossings"] = crossings;
  j["problems"] = problems();
  nlohmann::json pts = nlohmann::json::array();
  for (const auto& p : points) {
    nlohmann::json q;
    q["t"] = p.t;
    q["input"] = input_joint < 0
                     ? p.t
                     : shown(p.input, joint_is_angle[static_cast<std::size_t>(input_joint)]);
    q["q"] = json_vector(p.q, joint_is_angle, true);
    q["qdot"] = json_vector(p.qdot, joint_is_angle, false);
    q["qddot"] = json_vector(p.qddot, joint_is_angle, false);
    q["iterations"] = p.iterations;
    q["status"] = to_string(p.status);
    q["sigma_ratio"] = io::json_number(p.sigma_ratio);
    if (!p.residual.empty()) q["residual"] = p.residual;
    pts.push_back(std::move(q));
  }
  j["points"] = std::move(pts);
  return j;
}

std::string chain_path_result::csv() const {
  std::string s = "t,input";
  for (std::size_t i = 0; i < joint_names.size(); ++i) {
    s += fmt::format(",{}{}", joint_names[i], joint_is_angle[i] ? "_deg" : "");
  }
  for (const auto& n : joint_names) s += fmt::format(",{}_dot", n);
  for (const auto& n : joint_names) s += fmt::format(",{}_ddot", n);
  s += ",iterations,status,sigma_ratio\n";
  for (const auto& p : points) {
    const double in = input_joint < 0
                          ? p.t
                          : shown(p.input, joint_is_angle[static_cast<std::size_t>(input_joint)]);
    s += fmt::format("{},{}", cell(p.t), cell(in));
    for (Eigen::Index i = 0; i < p.q.size(); ++i) {
      s += fmt::format(",{}", cell(reported(p.q[i], joint_is_angle[static_cast<std::size_t>(i)])));
    }
    for (Eigen::Index i = 0; i < p.qdot.size(); ++i) s += fmt::format(",{}", cell(p.qdot[i]));
    for (Eigen::Index i = 0; i < p.qddot.size(); ++i) s += fmt::format(",{}", cell(p.qddot[i]));
    s += fmt::format(",{},{},{}\n", p.iterations, to_string(p.status), cell(p.sigma_ratio));
  }
  return s;
}

std::string chain_path_result::svg() const {
  std::vector<io::chart_series> series;
  for (std::size_t i = 0; i < joint_names.size(); ++i) {
    if (static_cast<int>(i) == input_joint) continue;
    io::chart_series c;
    c.label = joint_names[i];
    for (const auto& p : points) {
      c.x.push_back(input_joint < 0
                        ? p.t
                        : shown(p.input, joint_is_angle[static_cast<std::size_t>(input_joint)]));
      c.y.push_back(shown(p.q[static_cast<Eigen::Index>(i)], joint_is_angle[i]));
    }
    series.push_back(std::move(c));
  }
  io::chart_options o;
  o.title = name + ": joint values (singular and unconverged points left out)";
  const auto input = static_cast<std::size_t>(input_joint);
  o.x_label = input_joint < 0
                  ? "t [s]"
                  : joint_names[input] + (joint_is_angle[input] ? " [deg]" : " [length]");
  o.y_label = "joint value [deg; length for prismatic joints]";
  return io::line_chart_svg(series, o);
}

}  // namespace kinevo::analysis
