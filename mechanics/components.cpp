// Components only generate expressions for the model pipeline: particles and planar bodies add
// coordinates and masses; joints add named constraints; forces add generalized forces (virtual
// work of a force at a point) and, when conservative, potential energy.
#include <fmt/format.h>

#include <map>

#include "io/csv_table.hpp"
#include "mechanics/model_file.hpp"

namespace kinevo::mechanics {

namespace {

using frame = component_frame;
using frames = std::map<std::string, frame>;

const frame& find_frame(const frames& all, const toml::table& t, const toml_fields& fields,
                        std::string_view section, std::string_view key) {
  const std::string name = fields.string(t, section, key);
  auto it = all.find(name);
  if (it == all.end()) {
    std::string names;
    for (const auto& [n, f] : all) names += (names.empty() ? "" : ", ") + n;
    fields.fail(fields.field_where(t, section, key),
                fmt::format("unknown body or particle '{}' (known: {})", name, names));
  }
  return it->second;
}

// Global point of a body-fixed point s' (Haug, Computer-Aided Kinematics and Dynamics of
// Mechanical Systems, eq. 4.2.4: r + A(phi) s').
std::pair<GiNaC::ex, GiNaC::ex> point_of(const frame& f, const std::vector<GiNaC::ex>& s) {
  if (f.ground) return {s[0], s[1]};
  const GiNaC::ex c = GiNaC::cos(f.phi), sn = GiNaC::sin(f.phi);
  return {f.x + c * s[0] - sn * s[1], f.y + sn * s[0] + c * s[1]};
}

// A body-fixed direction rotated to global.
std::pair<GiNaC::ex, GiNaC::ex> direction_of(const frame& f, const std::vector<GiNaC::ex>& v) {
  const GiNaC::ex c = GiNaC::cos(f.phi), sn = GiNaC::sin(f.phi);
  return {c * v[0] - sn * v[1], sn * v[0] + c * v[1]};
}

std::vector<GiNaC::ex> local_point(const toml::table& t, const toml_fields& fields,
                                   std::string_view section, std::string_view key, const frame& f,
                                   const model_description& d) {
  auto p = fields.vector_or(t, section, key, d.context, 2, {0, 0});
  if (f.particle && !(p[0].is_zero() && p[1].is_zero())) {
    fields.fail(fields.field_where(t, section, key),
                "a particle has no extent: the point must be [0, 0]");
  }
  return p;
}

std::string joint_name(const toml::table& t, const toml_fields& fields, std::string_view section,
                       std::size_t index) {
  return fields.string_or(t, section, "name", fmt::format("joint{}", index + 1));
}

}  // namespace

void component_reader::read_bodies(const toml::table& root, const toml_fields& fields,
                                   const std::vector<GiNaC::ex>& gravity, model_description& d) {
  frames& all = frames_;
  all.clear();
  all["ground"] = frame{true, false, 0, 0, 0, 0};
  for (const toml::table* p : fields.tables(root, "particle")) {
    const std::string s = "[[particle]]";
    fields.only_keys(*p, s, {"name", "mass", "position", "velocity"});
    const std::string name = fields.string(*p, s, "name");
    if (all.count(name) != 0)
      fields.fail(fields.field_where(*p, s, "name"), fmt::format("'{}' is already defined", name));
    if (!p->contains("position"))
      fields.fail(fields.field_where(*p, s, "position"),
                  "missing initial value (position = [x, y])");
    const auto pos = fields.vector(*p, s, "position", d.context, 2);
    const auto vel = fields.vector_or(*p, s, "velocity", d.context, 2, {0, 0});
    const GiNaC::ex m = fields.expression(*p, s, "mass", d.context);
    const std::string at = fields.where(*p);
    const int ix = d.add_coordinate(name + "_x", symbolic::to_double(pos[0], at),
                                    symbolic::to_double(vel[0], at), at);
    const int iy = d.add_coordinate(name + "_y", symbolic::to_double(pos[1], at),
                                    symbolic::to_double(vel[1], at), at);
    d.mass_at(ix, ix) = m;
    d.mass_at(iy, iy) = m;
    frame f;
    f.particle = true;
    f.x = d.coordinates[static_cast<std::size_t>(ix)].q;
    f.y = d.coordinates[static_cast<std::size_t>(iy)].q;
    f.mass = m;
    all[name] = f;
  }
  for (const toml::table* b : fields.tables(root, "body")) {
    const std::string s = "[[body]]";
    fields.only_keys(
        *b, s, {"name", "mass", "inertia", "position", "angle", "velocity", "angular_velocity"});
    const std::string name = fields.string(*b, s, "name");
    if (all.count(name) != 0)
      fields.fail(fields.field_where(*b, s, "name"), fmt::format("'{}' is already defined", name));
    if (!b->contains("position"))
      fields.fail(fields.field_where(*b, s, "position"),
                  "missing initial value (position = [x, y])");
    if (!b->contains("angle"))
      fields.fail(fields.field_where(*b, s, "angle"), "missing initial value (angle = <radians>)");
    const auto pos = fields.vector(*b, s, "position", d.context, 2);
    const auto vel = fields.vector_or(*b, s, "velocity", d.context, 2, {0, 0});
    const double angle = fields.constant(*b, s, "angle", d.context);
    const double omega = fields.constant_or(*b, s, "angular_velocity", d.context, 0.0);
    const GiNaC::ex m = fields.expression(*b, s, "mass", d.context);
    const GiNaC::ex j = fields.expression(*b, s, "inertia", d.context);
    const std::string at = fields.where(*b);
    const int ix = d.add_coordinate(name + "_x", symbolic::to_double(pos[0], at),
                                    symbolic::to_double(vel[0], at), at);
    const int iy = d.add_coordinate(name + "_y", symbolic::to_double(pos[1], at),
                                    symbolic::to_double(vel[1], at), at);
    const int ip = d.add_coordinate(name + "_phi", angle, omega, at);
    d.mass_at(ix, ix) = m;
    d.mass_at(iy, iy) = m;
    d.mass_at(ip, ip) = j;
    frame f;
    f.x = d.coordinates[static_cast<std::size_t>(ix)].q;
    f.y = d.coordinates[static_cast<std::size_t>(iy)].q;
    f.phi = d.coordinates[static_cast<std::size_t>(ip)].q;
    f.mass = m;
    all[name] = f;
  }
  // Uniform gravity on every particle and body: f = m g, V = -m g . r.
  for (const auto& [name, f] : all) {
    if (f.ground) continue;
    d.apply_point_force(f.x, f.y, f.mass * gravity[0], f.mass * gravity[1]);
    d.potential -= f.mass * (gravity[0] * f.x + gravity[1] * f.y);
  }
}

void component_reader::read_joints_and_forces(const toml::table& root, const toml_fields& fields,
                                              model_description& d) {
  frames& all = frames_;
  const auto joints = fields.tables(root, "joint");
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const toml::table& j = *joints[k];
    const std::string s = "[[joint]]";
    const std::string type = fields.string(j, s, "type");
    const std::string name = joint_name(j, fields, s, k);
    const std::string at = fields.where(j);
    if (type == "revolute") {
      // Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, eq. 4.2.4.
      fields.only_keys(j, s, {"type", "name", "body_i", "body_j", "point_i", "point_j"});
      const frame& fi = find_frame(all, j, fields, s, "body_i");
      const frame& fj = find_frame(all, j, fields, s, "body_j");
      const auto [xi, yi] = point_of(fi, local_point(j, fields, s, "point_i", fi, d));
      const auto [xj, yj] = point_of(fj, local_point(j, fields, s, "point_j", fj, d));
      d.add_constraint(name + ".x", at, true, xj - xi);
      d.add_constraint(name + ".y", at, true, yj - yi);
    } else if (type == "distance") {
      fields.only_keys(j, s, {"type", "name", "body_i", "body_j", "point_i", "point_j", "length"});
      const frame& fi = find_frame(all, j, fields, s, "body_i");
      const frame& fj = find_frame(all, j, fields, s, "body_j");
      const auto [xi, yi] = point_of(fi, local_point(j, fields, s, "point_i", fi, d));
      const auto [xj, yj] = point_of(fj, local_point(j, fields, s, "point_j", fj, d));
      const GiNaC::ex l = fields.expression(j, s, "length", d.context);
      d.add_constraint(name, at, true,
                       GiNaC::pow(xj - xi, 2) + GiNaC::pow(yj - yi, 2) - GiNaC::pow(l, 2));
    } else if (type == "point_on_line" || type == "translational") {
      // Point P_j stays on the line through P_i along the body-i axis: n_i . (P_j - P_i) = 0
      // with n_i the axis turned by 90 degrees; a translational joint also fixes the relative
      // angle (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, ch. 3).
      fields.only_keys(
          j, s, {"type", "name", "body_i", "body_j", "point_i", "point_j", "axis_i", "angle"});
      const frame& fi = find_frame(all, j, fields, s, "body_i");
      const frame& fj = find_frame(all, j, fields, s, "body_j");
      const auto [xi, yi] = point_of(fi, local_point(j, fields, s, "point_i", fi, d));
      const auto [xj, yj] = point_of(fj, local_point(j, fields, s, "point_j", fj, d));
      const auto axis = fields.vector(j, s, "axis_i", d.context, 2);
      const auto [ux, uy] = direction_of(fi, axis);
      d.add_constraint(type == "translational" ? name + ".line" : name, at, true,
                       -uy * (xj - xi) + ux * (yj - yi));
      if (type == "translational") {
        if (fi.particle || fj.particle)
          fields.fail(
              at,
              "[[joint]] '" + name +
                  "': a translational joint needs two bodies (use point_on_line for a particle)");
        const GiNaC::ex angle = fields.expression_or(j, s, "angle", d.context, 0);
        d.add_constraint(name + ".angle", at, true, fj.phi - fi.phi - angle);
      }
    } else if (type == "driver") {
      // A coordinate, or the relative angle of two bodies, as a function of t (the absolute
      // and relative driving constraints of Haug, ch. 3). These are the "input kinematic
      // variables as constraints" of the generalized-inverse dissertation (GIGSP), eq. 4.8.
      fields.only_keys(j, s, {"type", "name", "coordinate", "body_i", "body_j", "value"});
      const GiNaC::ex value = fields.expression(j, s, "value", d.context);
      if (j.contains("coordinate")) {
        const std::string c = fields.string(j, s, "coordinate");
        const int i = d.index_of(c);
        if (i < 0)
          fields.fail(fields.field_where(j, s, "coordinate"),
                      fmt::format("unknown coordinate '{}'", c));
        d.add_constraint(name, at, true, d.coordinates[static_cast<std::size_t>(i)].q - value);
      } else {
        const frame& fi = find_frame(all, j, fields, s, "body_i");
        const frame& fj = find_frame(all, j, fields, s, "body_j");
        d.add_constraint(name, at, true, fj.phi - fi.phi - value);
      }
    } else {
      fields.fail(
          fields.field_where(j, s, "type"),
          fmt::format(
              "unknown joint type '{}' (revolute, translational, distance, point_on_line, driver)",
              type));
    }
  }
  const auto forces = fields.tables(root, "force");
  for (std::size_t k = 0; k < forces.size(); ++k) {
    const toml::table& f = *forces[k];
    const std::string s = "[[force]]";
    const std::string type = fields.string(f, s, "type");
    if (type == "spring_damper") {
      fields.only_keys(f, s,
                       {"type", "name", "body_i", "body_j", "point_i", "point_j", "stiffness",
                        "damping", "rest_length"});
      const frame& fi = find_frame(all, f, fields, s, "body_i");
      const frame& fj = find_frame(all, f, fields, s, "body_j");
      const auto [xi, yi] = point_of(fi, local_point(f, fields, s, "point_i", fi, d));
      const auto [xj, yj] = point_of(fj, local_point(f, fields, s, "point_j", fj, d));
      const GiNaC::ex k_s = fields.expression_or(f, s, "stiffness", d.context, 0);
      const GiNaC::ex c_d = fields.expression_or(f, s, "damping", d.context, 0);
      const GiNaC::ex l0 = fields.expression_or(f, s, "rest_length", d.context, 0);
      const GiNaC::ex dx = xj - xi, dy = yj - yi;
      const GiNaC::ex len = GiNaC::sqrt(dx * dx + dy * dy);
      const GiNaC::ex len_dot = d.time_derivative(len);
      // Tension T pulls P_j towards P_i: F_j = -T u, F_i = +T u, u = (P_j - P_i)/|P_j - P_i|.
      const GiNaC::ex tension = k_s * (len - l0) + c_d * len_dot;
      d.apply_point_force(xj, yj, -tension * dx / len, -tension * dy / len);
      d.apply_point_force(xi, yi, tension * dx / len, tension * dy / len);
      d.potential += k_s * GiNaC::pow(len - l0, 2) / 2;
      if (!c_d.is_zero()) d.conservative = false;
    } else if (type == "rotational_spring_damper") {
      fields.only_keys(f, s,
                       {"type", "name", "body_i", "body_j", "stiffness", "damping", "rest_angle"});
      const frame& fi = find_frame(all, f, fields, s, "body_i");
      const frame& fj = find_frame(all, f, fields, s, "body_j");
      const GiNaC::ex k_s = fields.expression_or(f, s, "stiffness", d.context, 0);
      const GiNaC::ex c_d = fields.expression_or(f, s, "damping", d.context, 0);
      const GiNaC::ex a0 = fields.expression_or(f, s, "rest_angle", d.context, 0);
      const GiNaC::ex rel = fj.phi - fi.phi;
      const GiNaC::ex torque = -(k_s * (rel - a0) + c_d * d.time_derivative(rel));
      // Virtual work of +torque on j and -torque on i.
      for (std::size_t c = 0; c < d.coordinates.size(); ++c) {
        const GiNaC::ex w = rel.diff(d.coordinates[c].q) * torque;
        if (!w.is_zero()) d.force[c] += w;
      }
      d.potential += k_s * GiNaC::pow(rel - a0, 2) / 2;
      if (!c_d.is_zero()) d.conservative = false;
    } else if (type == "applied") {
      fields.only_keys(f, s, {"type", "name", "body", "point", "force", "torque"});
      const frame& fb = find_frame(all, f, fields, s, "body");
      const auto [px, py] = point_of(fb, local_point(f, fields, s, "point", fb, d));
      if (f.contains("force")) {
        const auto F = fields.vector(f, s, "force", d.context, 2);
        d.apply_point_force(px, py, F[0], F[1]);
      }
      if (f.contains("torque")) {
        if (fb.particle)
          fields.fail(fields.field_where(f, s, "torque"), "a particle cannot take a torque");
        const GiNaC::ex tq = fields.expression(f, s, "torque", d.context);
        for (std::size_t c = 0; c < d.coordinates.size(); ++c) {
          const GiNaC::ex w = fb.phi.diff(d.coordinates[c].q) * tq;
          if (!w.is_zero()) d.force[c] += w;
        }
      }
      d.conservative = false;
    } else if (type == "gravity") {
      fields.only_keys(f, s, {"type", "name", "g"});
      const auto g = fields.vector(f, s, "g", d.context, 2);
      for (const auto& [n, fr] : all) {
        if (fr.ground) continue;
        d.apply_point_force(fr.x, fr.y, fr.mass * g[0], fr.mass * g[1]);
        d.potential -= fr.mass * (g[0] * fr.x + g[1] * fr.y);
      }
    } else {
      fields.fail(
          fields.field_where(f, s, "type"),
          fmt::format(
              "unknown force type '{}' (gravity, spring_damper, rotational_spring_damper, applied)",
              type));
    }
  }
}

}  // namespace kinevo::mechanics
