// Spatial joints as constraint rows, built from the basic constraints of Haug, Computer-Aided
// Kinematics and Dynamics of Mechanical Systems, section 9.2 (the joint library):
//   dot-1:      a_i . a_j = 0           (two body-fixed vectors stay perpendicular)
//   dot-2:      a_i . d_ij = 0          (d_ij = P_j - P_i stays perpendicular to a_i)
//   spherical:  P_j - P_i = 0
//   distance:   d_ij . d_ij - L^2 = 0
// A revolute joint is a spherical joint and two dot-1 rows (h_j perpendicular to f_i and g_i),
// a cylindrical joint two dot-1 and two dot-2 rows, a translational joint a cylindrical one and
// a dot-1 row against relative rotation, a universal joint a spherical one and one dot-1 row.
// The rows are named NAME.x, .y, .z, .axis1, .axis2, .line1, .line2, .twist, .cross.
#include <fmt/format.h>

#include <Eigen/Geometry>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/detail/spatial_components.hpp"

namespace kinevo::mechanics {

namespace {

// A unit vector perpendicular to h: h x e_k with e_k the coordinate axis least aligned with h.
Eigen::Vector3d perpendicular(const Eigen::Vector3d& h) {
  Eigen::Index k = 0;
  h.cwiseAbs().minCoeff(&k);
  return h.cross(Eigen::Vector3d::Unit(k)).normalized();
}

// The global image of a body-fixed vector.
vec3 global(const spatial_frame& f, const Eigen::Vector3d& v) {
  return f.ground || f.particle ? as_vec3(v) : rotate(f.p, as_vec3(v));
}

// The axes of a joint: h_i (with its perpendiculars f_i, g_i = h_i x f_i) on body i, h_j and the
// reference f_j on body j. Without reference_j, f_j is f_i carried into body j's frame at the
// initial configuration, so that the joint angle starts at zero.
struct joint_axes {
  Eigen::Vector3d h_i, f_i, g_i, h_j, f_j;
};

joint_axes read_axes(const spatial_table& c, const spatial_frame& fi, const spatial_frame& fj,
                     bool references) {
  joint_axes a;
  a.h_i = c.direction("axis_i", Eigen::Vector3d::UnitZ());
  a.h_j = c.direction("axis_j", a.h_i);
  a.f_i = references ? c.direction("reference_i", perpendicular(a.h_i)) : perpendicular(a.h_i);
  if (std::abs(a.f_i.dot(a.h_i)) > 1e-9)
    c.fields.fail(c.fields.field_where(c.t, c.section, "reference_i"),
                  "must be perpendicular to axis_i");
  a.g_i = a.h_i.cross(a.f_i);
  const Eigen::Matrix3d a_i = euler::rotation_matrix(fi.p0), a_j = euler::rotation_matrix(fj.p0);
  a.f_j = references ? c.direction("reference_j", a_j.transpose() * a_i * a.f_i)
                     : a_j.transpose() * a_i * a.f_i;
  if (std::abs(a.f_j.dot(a.h_j)) > 1e-9)
    c.fields.fail(c.fields.field_where(c.t, c.section, "reference_j"),
                  "must be perpendicular to axis_j");
  return a;
}

struct joint_context {
  const spatial_table& c;
  const spatial_frame& fi;
  const spatial_frame& fj;
  vec3 pi, pj;  // the joint points, global

  void row(const std::string& suffix, const GiNaC::ex& e) const {
    c.d.add_constraint(suffix.empty() ? c.name : c.name + "." + suffix, c.at, true, e);
  }
  void spherical_rows() const {
    const vec3 d = pj - pi;
    row("x", d[0]);
    row("y", d[1]);
    row("z", d[2]);
  }
};

joint_context open_joint(const spatial_table& c) {
  const spatial_frame& fi = c.body("body_i");
  const spatial_frame& fj = c.body("body_j");
  if (&fi == &fj)
    c.fields.fail(c.fields.field_where(c.t, c.section, "body_j"), "body_i and body_j are the same");
  return {c, fi, fj, c.point("point_i", fi), c.point("point_j", fj)};
}

void read_spherical(const spatial_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j"});
  open_joint(c).spherical_rows();
}

// Revolute, cylindrical and translational joints: body j's axis h_j stays parallel to body i's
// (two dot-1 rows against f_i and g_i); then a revolute joint keeps the points together
// (spherical rows), a cylindrical one keeps P_j on the axis line (two dot-2 rows), and a
// translational one also stops the rotation about the axis (a dot-1 row g_i . f_j).
enum class axial_joint { revolute, cylindrical, translational };

void read_axial(const spatial_table& c, joint_references& references, axial_joint kind) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "axis_i", "axis_j",
          "reference_i", "reference_j"});
  const joint_context j = open_joint(c);
  c.require_body(j.fi, "body_i");
  c.require_body(j.fj, "body_j");
  const joint_axes a = read_axes(c, j.fi, j.fj, true);
  const vec3 hj = global(j.fj, a.h_j), fi = global(j.fi, a.f_i), gi = global(j.fi, a.g_i);
  const vec3 fj = global(j.fj, a.f_j);
  if (kind == axial_joint::revolute) j.spherical_rows();
  j.row("axis1", dot(fi, hj));
  j.row("axis2", dot(gi, hj));
  if (kind != axial_joint::revolute) {
    const vec3 d = j.pj - j.pi;
    j.row("line1", dot(fi, d));
    j.row("line2", dot(gi, d));
  }
  if (kind == axial_joint::translational) j.row("twist", dot(gi, fj));
  references[c.name] = {&j.fi, &j.fj, fi, gi, fj, kind != axial_joint::translational};
}

void read_universal(const spatial_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "axis_i", "axis_j"});
  const joint_context j = open_joint(c);
  c.require_body(j.fi, "body_i");
  c.require_body(j.fj, "body_j");
  const Eigen::Vector3d h_i = c.direction("axis_i", Eigen::Vector3d::UnitX());
  const Eigen::Vector3d h_j = c.direction("axis_j", Eigen::Vector3d::UnitY());
  const Eigen::Vector3d carried =
      euler::rotation_matrix(j.fi.p0) * h_i;  // h_i and h_j must start perpendicular
  if (std::abs(carried.dot(euler::rotation_matrix(j.fj.p0) * h_j)) > 1e-6)
    c.fields.fail(c.fields.field_where(c.t, c.section, "axis_j"),
                  "must be perpendicular to axis_i in the initial configuration (the cross of a "
                  "universal joint)");
  j.spherical_rows();
  j.row("cross", dot(global(j.fi, h_i), global(j.fj, h_j)));
}

void read_distance(const spatial_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "length"});
  const joint_context j = open_joint(c);
  const vec3 d = j.pj - j.pi;
  j.row("", dot(d, d) - GiNaC::pow(c.expression("length"), 2));
}

void read_point_on_plane(const spatial_table& c) {
  c.only({"type", "name", "body_i", "body_j", "point_i", "point_j", "normal_i", "offset"});
  const joint_context j = open_joint(c);
  if (!c.t.contains("normal_i"))
    c.fields.fail(c.fields.field_where(c.t, c.section, "normal_i"),
                  "missing (the plane's normal on body_i)");
  c.require_body(j.fi, "body_i");
  const vec3 n = global(j.fi, c.direction("normal_i", Eigen::Vector3d::UnitZ()));
  j.row("", dot(n, j.pj - j.pi) - c.expression_or("offset", 0));
}

// A coordinate as a function of t, or the angle of a revolute or cylindrical joint:
// sin(theta - value) = s cos(value) - c sin(value) with c = f_i.f_j, s = g_i.f_j, which is
// theta - value to first order and smooth (no atan2 branch cut).
void read_driver(const spatial_table& c, const joint_references& references) {
  c.only({"type", "name", "coordinate", "joint", "value"});
  const GiNaC::ex value = c.expression("value");
  if (c.t.contains("coordinate") == c.t.contains("joint"))
    c.fields.fail(c.at, fmt::format("[[joint]] '{}': a driver needs exactly one of coordinate = "
                                    "\"NAME\" or joint = \"REVOLUTE_OR_CYLINDRICAL\"",
                                    c.name));
  if (c.t.contains("coordinate")) {
    const std::string name = c.fields.string(c.t, c.section, "coordinate");
    const int i = c.d.index_of(name);
    if (i < 0)
      c.fields.fail(c.fields.field_where(c.t, c.section, "coordinate"),
                    fmt::format("unknown coordinate '{}'", io::excerpt(name, 40)));
    c.d.add_constraint(c.name, c.at, true, c.d.coordinates[static_cast<std::size_t>(i)].q - value);
  } else {
    const std::string joint = c.fields.string(c.t, c.section, "joint");
    const auto it = references.find(joint);
    if (it == references.end() || !it->second.rotates)
      c.fields.fail(
          c.fields.field_where(c.t, c.section, "joint"),
          fmt::format("no revolute or cylindrical joint named '{}'{}", io::excerpt(joint, 40),
                      it == references.end() ? "" : " (a translational joint cannot turn)"));
    const joint_reference& r = it->second;
    c.d.add_constraint(
        c.name, c.at, true,
        dot(r.g_i, r.f_j) * GiNaC::cos(value) - dot(r.f_i, r.f_j) * GiNaC::sin(value));
  }
  c.d.constraints.back().driver = value.has(c.d.t);
}

std::string joint_name(const toml::table& t, const toml_fields& fields, std::size_t index) {
  return fields.string_or(t, "[[joint]]", "name", fmt::format("joint{}", index + 1));
}

}  // namespace

joint_references read_spatial_joints(const toml::table& root, const toml_fields& fields,
                                     const std::map<std::string, spatial_frame>& frames,
                                     model_description& d) {
  const std::string s = "[[joint]]";
  const auto joints = fields.tables(root, "joint");
  joint_references references;
  // Drivers last, so that a driver may name a joint defined below it.
  for (const bool drivers : {false, true}) {
    for (std::size_t k = 0; k < joints.size(); ++k) {
      const toml::table& j = *joints[k];
      const std::string type = fields.string(j, s, "type");
      if ((type == "driver") != drivers) continue;
      const spatial_table c{j, fields, s, frames, d, joint_name(j, fields, k), fields.where(j)};
      if (type == "spherical") {
        read_spherical(c);
      } else if (type == "revolute") {
        read_axial(c, references, axial_joint::revolute);
      } else if (type == "cylindrical") {
        read_axial(c, references, axial_joint::cylindrical);
      } else if (type == "translational") {
        read_axial(c, references, axial_joint::translational);
      } else if (type == "universal") {
        read_universal(c);
      } else if (type == "distance") {
        read_distance(c);
      } else if (type == "point_on_plane") {
        read_point_on_plane(c);
      } else if (type == "driver") {
        read_driver(c, references);
      } else {
        fields.fail(fields.field_where(j, s, "type"),
                    fmt::format("unknown joint type '{}' in a spatial model (spherical, revolute, "
                                "cylindrical, translational, universal, distance, point_on_plane, "
                                "driver)",
                                io::excerpt(type, 40)));
      }
    }
  }
  return references;
}

}  // namespace kinevo::mechanics
