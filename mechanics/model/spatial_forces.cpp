// [[force]] of a spatial model: gravity, applied forces and torques (global or body frame,
// optionally with an equal and opposite reaction on a second body: a motor), and point-to-point
// spring-dampers. Each enters as a wrench on the bodies (apply_wrench) and, when it has one,
// as a potential.
#include <fmt/format.h>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/detail/spatial_components.hpp"

namespace kinevo::mechanics {

namespace {

void read_gravity(const spatial_table& c) {
  c.only({"type", "name", "g"});
  const vec3 g = c.vector("g");
  for (const auto& [n, f] : c.all) {
    if (f.ground) continue;
    apply_wrench(c.d, f, f.r, f.mass * g, {0, 0, 0});
    c.d.add_potential(-(f.mass * dot(g, f.r)));
  }
}

// F and n act on `body` at `point`; with `reaction`, -F acts at the same global point on the
// reaction body and -n on it, so the pair exerts no net force or moment on the system.
void read_applied(const spatial_table& c) {
  c.only({"type", "name", "body", "point", "force", "torque", "frame", "reaction"});
  const spatial_frame& b = c.body("body");
  if (b.ground)
    c.fields.fail(c.fields.field_where(c.t, c.section, "body"),
                  "a force on the ground does nothing");
  const std::string frame = c.fields.string_or(c.t, c.section, "frame", "global");
  if (frame != "global" && frame != "body")
    c.fields.fail(c.fields.field_where(c.t, c.section, "frame"),
                  fmt::format("must be \"global\" or \"body\" (not '{}')", io::excerpt(frame, 20)));
  if (!c.t.contains("force") && !c.t.contains("torque"))
    c.fields.fail(c.at,
                  "[[force]] applied: give force = [fx, fy, fz], torque = [nx, ny, nz] or both");
  const bool body_frame = frame == "body";
  if (body_frame || c.t.contains("torque")) c.require_body(b, "body");
  const auto in_global = [&](const vec3& v) { return body_frame ? rotate(b.p, v) : v; };
  const vec3 point = c.point("point", b);
  const vec3 force = c.t.contains("force") ? in_global(c.vector("force")) : vec3{0, 0, 0};
  const vec3 torque = c.t.contains("torque") ? in_global(c.vector("torque")) : vec3{0, 0, 0};
  apply_wrench(c.d, b, point, force, torque);
  if (c.t.contains("reaction")) {
    const spatial_frame& r = c.body("reaction");
    if (&r == &b)
      c.fields.fail(c.fields.field_where(c.t, c.section, "reaction"), "is the body itself");
    if (c.t.contains("torque")) c.require_body(r, "reaction");
    apply_wrench(c.d, r, point, GiNaC::ex(-1) * force, GiNaC::ex(-1) * torque);
  }
  c.d.conservative = false;
}

void read_spring_damper(const spatial_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "stiffness", "damping",
          "rest_length"});
  model_description& d = c.d;
  const spatial_frame& fi = c.body("body_i");
  const spatial_frame& fj = c.body("body_j");
  const vec3 pi = c.point("point_i", fi), pj = c.point("point_j", fj);
  const GiNaC::ex k_s = c.expression_or("stiffness", 0);
  const GiNaC::ex c_d = c.expression_or("damping", 0);
  const GiNaC::ex l0 = c.expression_or("rest_length", 0);
  const vec3 delta = pj - pi;
  const GiNaC::ex len = GiNaC::sqrt(dot(delta, delta));
  // Tension T pulls P_j towards P_i: F_j = -T u, F_i = +T u, u = (P_j - P_i)/|P_j - P_i|.
  const GiNaC::ex tension = k_s * (len - l0) + c_d * d.time_derivative(len);
  const vec3 pull = (tension / len) * delta;
  apply_wrench(d, fj, pj, GiNaC::ex(-1) * pull, {0, 0, 0});
  apply_wrench(d, fi, pi, pull, {0, 0, 0});
  d.add_potential(k_s * GiNaC::pow(len - l0, 2) / 2);
  if (!c_d.is_zero()) d.conservative = false;
}

// A torsion spring-damper in a revolute or cylindrical joint: the torque
// -(k (theta - theta0) + c theta') about the joint axis acts on body j, its opposite on body i
// (virtual work n . h dtheta). theta = atan2(s, c) from the joint's reference vectors.
void read_rotational_spring_damper(const spatial_table& c, const joint_references& joints) {
  c.only({"type", "name", "joint", "stiffness", "damping", "rest_angle"});
  const std::string joint = c.fields.string(c.t, c.section, "joint");
  const auto it = joints.find(joint);
  if (it == joints.end() || !it->second.rotates)
    c.fields.fail(
        c.fields.field_where(c.t, c.section, "joint"),
        fmt::format("no revolute or cylindrical joint named '{}'{}", io::excerpt(joint, 40),
                    it == joints.end() ? "" : " (a translational joint cannot turn)"));
  const joint_reference& r = it->second;
  model_description& d = c.d;
  const GiNaC::ex k_s = c.expression_or("stiffness", 0);
  const GiNaC::ex c_d = c.expression_or("damping", 0);
  const GiNaC::ex a0 = c.expression_or("rest_angle", 0);
  const GiNaC::ex angle = GiNaC::atan2(dot(r.g_i, r.f_j), dot(r.f_i, r.f_j));
  const GiNaC::ex torque = -(k_s * (angle - a0) + c_d * d.time_derivative(angle));
  const vec3 axis = cross(r.f_i, r.g_i);
  apply_wrench(d, *r.body_j, r.body_j->r, {0, 0, 0}, torque * axis);
  apply_wrench(d, *r.body_i, r.body_i->r, {0, 0, 0}, GiNaC::ex(-1) * (torque * axis));
  d.add_potential(k_s * GiNaC::pow(angle - a0, 2) / 2);
  if (!c_d.is_zero()) d.conservative = false;
}

}  // namespace

void read_spatial_forces(const toml::table& root, const toml_fields& fields,
                         const std::map<std::string, spatial_frame>& frames,
                         const joint_references& joints, model_description& d) {
  const std::string s = "[[force]]";
  for (const toml::table* table : fields.tables(root, "force")) {
    const toml::table& f = *table;
    const std::string type = fields.string(f, s, "type");
    const spatial_table c{f, fields, s, frames, d, type, fields.where(f)};
    if (type == "gravity") {
      read_gravity(c);
    } else if (type == "applied") {
      read_applied(c);
    } else if (type == "spring_damper") {
      read_spring_damper(c);
    } else if (type == "rotational_spring_damper") {
      read_rotational_spring_damper(c, joints);
    } else {
      fields.fail(fields.field_where(f, s, "type"),
                  fmt::format("unknown force type '{}' in a spatial model (gravity, applied, "
                              "spring_damper, rotational_spring_damper)",
                              io::excerpt(type, 40)));
    }
  }
}

}  // namespace kinevo::mechanics
