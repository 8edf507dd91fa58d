// Components only generate expressions for the model pipeline: particles and planar bodies add
// coordinates and masses; joints add named constraints; forces add generalized forces (virtual
// work of a force at a point) and, when conservative, potential energy.
#include <fmt/format.h>

#include <map>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/detail/model_file.hpp"

namespace kinevo::mechanics {

namespace {

using frame_table = std::map<std::string, component_frame>;

const component_frame& find_frame(const frame_table& all, const toml::table& t,
                                  const toml_fields& fields, std::string_view section,
                                  std::string_view key) {
  const std::string name = fields.string(t, section, key);
  auto it = all.find(name);
  if (it == all.end()) {
    fields.fail(fields.field_where(t, section, key),
                fmt::format("unknown body or particle '{}' (known: {})", io::excerpt(name, 40),
                            listed_names(all)));
  }
  return it->second;
}

// Global point of a body-fixed point s' (Haug, Computer-Aided Kinematics and Dynamics of
// Mechanical Systems, eq. 4.2.4: r + A(phi) s').
std::pair<GiNaC::ex, GiNaC::ex> point_of(const component_frame& f,
                                         const std::vector<GiNaC::ex>& s) {
  if (f.ground) return {s[0], s[1]};
  const GiNaC::ex c = GiNaC::cos(f.phi), sn = GiNaC::sin(f.phi);
  return {f.x + c * s[0] - sn * s[1], f.y + sn * s[0] + c * s[1]};
}

// A body-fixed direction rotated to global.
std::pair<GiNaC::ex, GiNaC::ex> direction_of(const component_frame& f,
                                             const std::vector<GiNaC::ex>& v) {
  const GiNaC::ex c = GiNaC::cos(f.phi), sn = GiNaC::sin(f.phi);
  return {c * v[0] - sn * v[1], sn * v[0] + c * v[1]};
}

std::vector<GiNaC::ex> local_point(const toml::table& t, const toml_fields& fields,
                                   std::string_view section, std::string_view key,
                                   const component_frame& f, const model_description& d) {
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
  frame_table& all = frames_;
  all.clear();
  all["ground"] = component_frame{true, false, 0, 0, 0, 0};
  for (const toml::table* p : fields.tables(root, "particle")) {
    const std::string s = "[[particle]]";
    fields.only_keys(*p, s, {"name", "mass", "position", "velocity"});
    const std::string name = fields.string(*p, s, "name");
    if (all.count(name) != 0)
      fields.fail(fields.field_where(*p, s, "name"),
                  fmt::format("'{}' is already defined", io::excerpt(name, 40)));
    if (!p->contains("position"))
      fields.fail(fields.field_where(*p, s, "position"),
                  "missing initial value (position = [x, y])");
    const auto pos = fields.vector(*p, s, "position", d.context, 2);
    const auto vel = fields.vector_or(*p, s, "velocity", d.context, 2, {0, 0});
    const GiNaC::ex m = fields.expression(*p, s, "mass", d.context);
    const std::string at = fields.where(*p);
    const std::string pos_at = fields.field_where(*p, s, "position");
    const std::string vel_at = fields.field_where(*p, s, "velocity");
    const int ix = d.add_coordinate(name + "_x", fields.constant_value(pos[0], pos_at),
                                    fields.constant_value(vel[0], vel_at), at);
    const int iy = d.add_coordinate(name + "_y", fields.constant_value(pos[1], pos_at),
                                    fields.constant_value(vel[1], vel_at), at);
    d.mass_at(ix, ix) = m;
    d.mass_at(iy, iy) = m;
    component_frame f;
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
      fields.fail(fields.field_where(*b, s, "name"),
                  fmt::format("'{}' is already defined", io::excerpt(name, 40)));
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
    const std::string pos_at = fields.field_where(*b, s, "position");
    const std::string vel_at = fields.field_where(*b, s, "velocity");
    const int ix = d.add_coordinate(name + "_x", fields.constant_value(pos[0], pos_at),
                                    fields.constant_value(vel[0], vel_at), at);
    const int iy = d.add_coordinate(name + "_y", fields.constant_value(pos[1], pos_at),
                                    fields.constant_value(vel[1], vel_at), at);
    const int ip = d.add_coordinate(name + "_phi", angle, omega, at);
    d.mass_at(ix, ix) = m;
    d.mass_at(iy, iy) = m;
    d.mass_at(ip, ip) = j;
    component_frame f;
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
    d.add_potential(-(f.mass * (gravity[0] * f.x + gravity[1] * f.y)));
  }
}

namespace {

// One [[joint]] or [[force]] table being read: the stages below each read one type.
struct component_table {
  const toml::table& t;
  const toml_fields& fields;
  std::string section;  // "[[joint]]" or "[[force]]"
  const frame_table& all;
  model_description& d;
  std::string name;  // joints: the name of their constraint rows
  std::string at;    // "file:line" of the table

  const component_frame& body(std::string_view key) const {
    return find_frame(all, t, fields, section, key);
  }
  // The global point of the body-fixed point `key` on frame f.
  std::pair<GiNaC::ex, GiNaC::ex> point(std::string_view key, const component_frame& f) const {
    return point_of(f, local_point(t, fields, section, key, f, d));
  }
  GiNaC::ex expression(std::string_view key) const {
    return fields.expression(t, section, key, d.context);
  }
  GiNaC::ex expression_or(std::string_view key, const GiNaC::ex& fallback) const {
    return fields.expression_or(t, section, key, d.context, fallback);
  }
  void only(const std::vector<std::string_view>& keys) const { fields.only_keys(t, section, keys); }
};

// Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, eq. 4.2.4.
void read_revolute(const component_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j"});
  const component_frame& fi = c.body("body_i");
  const component_frame& fj = c.body("body_j");
  const auto [xi, yi] = c.point("point_i", fi);
  const auto [xj, yj] = c.point("point_j", fj);
  c.d.add_constraint(c.name + ".x", c.at, true, xj - xi);
  c.d.add_constraint(c.name + ".y", c.at, true, yj - yi);
}

void read_distance(const component_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "length"});
  const component_frame& fi = c.body("body_i");
  const component_frame& fj = c.body("body_j");
  const auto [xi, yi] = c.point("point_i", fi);
  const auto [xj, yj] = c.point("point_j", fj);
  const GiNaC::ex l = c.expression("length");
  c.d.add_constraint(c.name, c.at, true,
                     GiNaC::pow(xj - xi, 2) + GiNaC::pow(yj - yi, 2) - GiNaC::pow(l, 2));
}

// Point P_j stays on the line through P_i along the body-i axis: n_i . (P_j - P_i) = 0 with n_i
// the axis turned by 90 degrees; a translational joint also fixes the relative angle (Haug,
// Computer-Aided Kinematics and Dynamics of Mechanical Systems, ch. 3).
void read_point_on_line(const component_table& c, bool translational) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "axis_i", "angle"});
  const component_frame& fi = c.body("body_i");
  const component_frame& fj = c.body("body_j");
  const auto [xi, yi] = c.point("point_i", fi);
  const auto [xj, yj] = c.point("point_j", fj);
  const auto axis = c.fields.vector(c.t, c.section, "axis_i", c.d.context, 2);
  const auto [ux, uy] = direction_of(fi, axis);
  c.d.add_constraint(translational ? c.name + ".line" : c.name, c.at, true,
                     -uy * (xj - xi) + ux * (yj - yi));
  if (!translational) return;
  if (fi.particle || fj.particle) {
    c.fields.fail(c.at, "[[joint]] '" + c.name +
                            "': a translational joint needs two bodies (use point_on_line for a "
                            "particle)");
  }
  const GiNaC::ex angle = c.expression_or("angle", 0);
  c.d.add_constraint(c.name + ".angle", c.at, true, fj.phi - fi.phi - angle);
}

// A coordinate, or the relative angle of two bodies, as a function of t (the absolute and
// relative driving constraints of Haug, ch. 3). These are the "input kinematic variables as
// constraints" of the generalized-inverse dissertation (GIGSP), eq. 4.8.
void read_driver(const component_table& c) {
  c.only({"type", "name", "coordinate", "body_i", "body_j", "value"});
  const GiNaC::ex value = c.expression("value");
  if (c.t.contains("coordinate")) {
    const std::string name = c.fields.string(c.t, c.section, "coordinate");
    const int i = c.d.index_of(name);
    if (i < 0) {
      c.fields.fail(c.fields.field_where(c.t, c.section, "coordinate"),
                    fmt::format("unknown coordinate '{}'", io::excerpt(name, 40)));
    }
    c.d.add_constraint(c.name, c.at, true, c.d.coordinates[static_cast<std::size_t>(i)].q - value);
  } else {
    const component_frame& fi = c.body("body_i");
    const component_frame& fj = c.body("body_j");
    c.d.add_constraint(c.name, c.at, true, fj.phi - fi.phi - value);
  }
  // Only a value that moves with t drives; a constant one is an absolute constraint.
  c.d.constraints.back().driver = value.has(c.d.t);
}

void read_spring_damper(const component_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "stiffness", "damping",
          "rest_length"});
  model_description& d = c.d;
  const component_frame& fi = c.body("body_i");
  const component_frame& fj = c.body("body_j");
  const auto [xi, yi] = c.point("point_i", fi);
  const auto [xj, yj] = c.point("point_j", fj);
  const GiNaC::ex k_s = c.expression_or("stiffness", 0);
  const GiNaC::ex c_d = c.expression_or("damping", 0);
  const GiNaC::ex l0 = c.expression_or("rest_length", 0);
  const GiNaC::ex dx = xj - xi, dy = yj - yi;
  const GiNaC::ex len = GiNaC::sqrt(dx * dx + dy * dy);
  const GiNaC::ex len_dot = d.time_derivative(len);
  // Tension T pulls P_j towards P_i: F_j = -T u, F_i = +T u, u = (P_j - P_i)/|P_j - P_i|.
  const GiNaC::ex tension = k_s * (len - l0) + c_d * len_dot;
  d.apply_point_force(xj, yj, -tension * dx / len, -tension * dy / len);
  d.apply_point_force(xi, yi, tension * dx / len, tension * dy / len);
  d.add_potential(k_s * GiNaC::pow(len - l0, 2) / 2);
  if (!c_d.is_zero()) d.conservative = false;
}

void read_rotational_spring_damper(const component_table& c) {
  c.only({"type", "name", "body_i", "body_j", "stiffness", "damping", "rest_angle"});
  model_description& d = c.d;
  const component_frame& fi = c.body("body_i");
  const component_frame& fj = c.body("body_j");
  const GiNaC::ex k_s = c.expression_or("stiffness", 0);
  const GiNaC::ex c_d = c.expression_or("damping", 0);
  const GiNaC::ex a0 = c.expression_or("rest_angle", 0);
  const GiNaC::ex rel = fj.phi - fi.phi;
  const GiNaC::ex torque = -(k_s * (rel - a0) + c_d * d.time_derivative(rel));
  // Virtual work of +torque on j and -torque on i.
  d.apply_torque(rel, torque);
  d.add_potential(k_s * GiNaC::pow(rel - a0, 2) / 2);
  if (!c_d.is_zero()) d.conservative = false;
}

void read_applied(const component_table& c) {
  c.only({"type", "name", "body", "point", "force", "torque"});
  model_description& d = c.d;
  const component_frame& fb = c.body("body");
  const auto [px, py] = c.point("point", fb);
  if (c.t.contains("force")) {
    const auto f = c.fields.vector(c.t, c.section, "force", d.context, 2);
    d.apply_point_force(px, py, f[0], f[1]);
  }
  if (c.t.contains("torque")) {
    if (fb.particle) {
      c.fields.fail(c.fields.field_where(c.t, c.section, "torque"),
                    "a particle cannot take a torque");
    }
    d.apply_torque(fb.phi, c.expression("torque"));
  }
  d.conservative = false;
}

void read_gravity(const component_table& c) {
  c.only({"type", "name", "g"});
  const auto g = c.fields.vector(c.t, c.section, "g", c.d.context, 2);
  for (const auto& [n, fr] : c.all) {
    if (fr.ground) continue;
    c.d.apply_point_force(fr.x, fr.y, fr.mass * g[0], fr.mass * g[1]);
    c.d.add_potential(-(fr.mass * (g[0] * fr.x + g[1] * fr.y)));
  }
}

}  // namespace

void component_reader::substitute_definitions(const symbolic::expression_context& context,
                                              const std::string& where) {
  for (auto& [name, f] : frames_) f.mass = context.substitute(f.mass, where);
}

void component_reader::read_joints_and_forces(const toml::table& root, const toml_fields& fields,
                                              model_description& d) {
  read_joints(root, fields, d);
  read_forces(root, fields, d);
}

void component_reader::read_joints(const toml::table& root, const toml_fields& fields,
                                   model_description& d) {
  const std::string s = "[[joint]]";
  const auto joints = fields.tables(root, "joint");
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const toml::table& j = *joints[k];
    const std::string type = fields.string(j, s, "type");
    const component_table c{j, fields, s, frames_, d, joint_name(j, fields, s, k), fields.where(j)};
    if (type == "revolute") {
      read_revolute(c);
    } else if (type == "distance") {
      read_distance(c);
    } else if (type == "point_on_line" || type == "translational") {
      read_point_on_line(c, type == "translational");
    } else if (type == "driver") {
      read_driver(c);
    } else {
      fields.fail(
          fields.field_where(j, s, "type"),
          fmt::format(
              "unknown joint type '{}' (revolute, translational, distance, point_on_line, driver)",
              io::excerpt(type, 40)));
    }
  }
}

void component_reader::read_forces(const toml::table& root, const toml_fields& fields,
                                   model_description& d) {
  const std::string s = "[[force]]";
  for (const toml::table* table : fields.tables(root, "force")) {
    const toml::table& f = *table;
    const std::string type = fields.string(f, s, "type");
    const component_table c{f, fields, s, frames_, d, "", fields.where(f)};
    if (type == "spring_damper") {
      read_spring_damper(c);
    } else if (type == "rotational_spring_damper") {
      read_rotational_spring_damper(c);
    } else if (type == "applied") {
      read_applied(c);
    } else if (type == "gravity") {
      read_gravity(c);
    } else {
      fields.fail(
          fields.field_where(f, s, "type"),
          fmt::format(
              "unknown force type '{}' (gravity, spring_damper, rotational_spring_damper, applied)",
              io::excerpt(type, 40)));
    }
  }
}

}  // namespace kinevo::mechanics
