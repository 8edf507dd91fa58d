// [[particle]] and [[body]] of a spatial model: 3 coordinates per particle; per body the centre
// of mass (x, y, z) and the Euler parameters (e0..e3) with their normalisation row NAME.norm,
// e.e - 1 = 0 (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, section
// 6.3). The mass matrix block and inertia forces are in euler_parameters.hpp.
#include <fmt/format.h>

#include <Eigen/Eigenvalues>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/model/detail/spatial_components.hpp"

namespace kinevo::mechanics {

namespace {

struct body_reader {
  const toml::table& t;
  const toml_fields& fields;
  std::string section;
  model_description& d;

  std::string where(std::string_view key) const { return fields.field_where(t, section, key); }
  Eigen::Vector3d constant3(std::string_view key, const Eigen::Vector3d& fallback) const {
    if (!t.contains(key)) return fallback;
    const auto v = fields.vector(t, section, key, d.context, 3);
    return {fields.constant_value(v[0], where(key)), fields.constant_value(v[1], where(key)),
            fields.constant_value(v[2], where(key))};
  }
  std::string unique_name(const std::map<std::string, spatial_frame>& all) const {
    const std::string name = fields.string(t, section, "name");
    if (all.count(name) != 0)
      fields.fail(where("name"), fmt::format("'{}' is already defined", io::excerpt(name, 40)));
    return name;
  }
  // x, y, z of the centre of mass, with diagonal mass m.
  std::vector<int> add_position(const std::string& name, const GiNaC::ex& m) const {
    if (!t.contains("position"))
      fields.fail(where("position"), "missing initial value (position = [x, y, z])");
    const Eigen::Vector3d r0 = constant3("position", Eigen::Vector3d::Zero());
    const Eigen::Vector3d v0 = constant3("velocity", Eigen::Vector3d::Zero());
    std::vector<int> index;
    for (int k = 0; k < 3; ++k) {
      const int i =
          d.add_coordinate(fmt::format("{}_{}", name, "xyz"[k]), r0[k], v0[k], fields.where(t));
      d.mass_at(i, i) = m;
      index.push_back(i);
    }
    return index;
  }
  // Euler parameters from `orientation` or `rotation_axis` + `rotation_angle` (default: none).
  Eigen::Vector4d orientation() const {
    if (t.contains("orientation")) {
      if (t.contains("rotation_axis") || t.contains("rotation_angle"))
        fields.fail(where("orientation"),
                    "give either orientation = [e0, e1, e2, e3] or rotation_axis and "
                    "rotation_angle, not both");
      const auto v = fields.vector(t, section, "orientation", d.context, 4);
      Eigen::Vector4d p;
      for (int k = 0; k < 4; ++k)
        p[k] = fields.constant_value(v[static_cast<std::size_t>(k)], where("orientation"));
      if (!p.allFinite() || std::abs(p.norm() - 1) > 1e-6)
        fields.fail(
            where("orientation"),
            fmt::format("Euler parameters must have unit length (|p| = {:.9g}; within 1e-6)",
                        p.norm()));
      return p.normalized();
    }
    if (t.contains("rotation_axis") != t.contains("rotation_angle"))
      fields.fail(where(t.contains("rotation_axis") ? "rotation_angle" : "rotation_axis"),
                  "missing: rotation_axis and rotation_angle go together");
    if (!t.contains("rotation_axis")) return {1, 0, 0, 0};
    const Eigen::Vector3d axis = constant3("rotation_axis", Eigen::Vector3d::Zero());
    if (!(axis.norm() > 1e-12) || !axis.allFinite())
      fields.fail(where("rotation_axis"), "must be a non-zero vector");
    return euler::from_axis_angle(axis, fields.constant(t, section, "rotation_angle", d.context));
  }
  // The centroidal inertia tensor: [Ixx, Iyy, Izz] (principal, body axes) or a 3x3 matrix.
  mat3 inertia() const {
    const toml::node* n = t.get("inertia");
    if (n == nullptr)
      fields.fail(where("inertia"), "missing (inertia = [Ixx, Iyy, Izz] or a 3x3 matrix)");
    const toml::array* a = n->as_array();
    const toml::node* first = a != nullptr ? a->get(0) : nullptr;
    const bool nested = first != nullptr && first->is_array();
    mat3 j{vec3{0, 0, 0}, vec3{0, 0, 0}, vec3{0, 0, 0}};
    Eigen::Matrix3d numeric = Eigen::Matrix3d::Zero();
    if (!nested) {
      const auto v = fields.vector(t, section, "inertia", d.context, 3);
      for (std::size_t k = 0; k < 3; ++k) j[k][k] = v[k];
    } else {
      if (a->size() != 3)
        fields.fail(where("inertia"), "must be [Ixx, Iyy, Izz] or 3 rows of 3 values");
      for (std::size_t r = 0; r < 3; ++r) {
        const toml::node* row_node = a->get(r);
        const toml::array* row = row_node != nullptr ? row_node->as_array() : nullptr;
        if (row == nullptr || row->size() != 3)
          fields.fail(where("inertia"), fmt::format("row {} must have 3 values", r + 1));
        for (std::size_t c = 0; c < 3; ++c) {
          const toml::node* entry = row->get(c);
          if (entry == nullptr) fields.fail(where("inertia"), "missing entry");
          j[r][c] = fields.expression_of(*entry, where("inertia"), d.context);
        }
      }
      for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < r; ++c)
          if (!(j[r][c] - j[c][r]).expand().is_zero())
            fields.fail(where("inertia"),
                        fmt::format("is not symmetric: ({},{}) differs from ({},{})", r + 1, c + 1,
                                    c + 1, r + 1));
    }
    for (std::size_t r = 0; r < 3; ++r)
      for (std::size_t c = 0; c < 3; ++c)
        numeric(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) =
            GiNaC::is_a<GiNaC::numeric>(j[r][c].evalf())
                ? GiNaC::ex_to<GiNaC::numeric>(j[r][c].evalf()).to_double()
                : 1.0;  // an expression of [definitions]: checked with M at load
    const double smallest =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(numeric).eigenvalues()[0];
    if (!(smallest > 0))
      fields.fail(where("inertia"), fmt::format("must be positive definite (smallest principal "
                                                "moment {:.6g})",
                                                smallest));
    return j;
  }
};

void read_particle(const body_reader& b, std::map<std::string, spatial_frame>& all) {
  b.fields.only_keys(b.t, b.section, {"name", "mass", "position", "velocity"});
  const std::string name = b.unique_name(all);
  spatial_frame f;
  f.particle = true;
  f.mass = b.fields.expression(b.t, b.section, "mass", b.d.context);
  f.coordinates = b.add_position(name, f.mass);
  for (std::size_t k = 0; k < 3; ++k)
    f.r[k] = b.d.coordinates[static_cast<std::size_t>(f.coordinates[k])].q;
  all[name] = f;
}

void read_rigid_body(const body_reader& b, std::map<std::string, spatial_frame>& all) {
  b.fields.only_keys(b.t, b.section,
                     {"name", "mass", "inertia", "position", "orientation", "rotation_axis",
                      "rotation_angle", "velocity", "angular_velocity", "angular_velocity_frame"});
  const std::string name = b.unique_name(all);
  model_description& d = b.d;
  spatial_frame f;
  f.mass = b.fields.expression(b.t, b.section, "mass", d.context);
  const mat3 inertia = b.inertia();
  f.coordinates = b.add_position(name, f.mass);
  f.p0 = b.orientation();
  const std::string frame_kind =
      b.fields.string_or(b.t, b.section, "angular_velocity_frame", "global");
  if (frame_kind != "global" && frame_kind != "body")
    b.fields.fail(
        b.where("angular_velocity_frame"),
        fmt::format("must be \"global\" or \"body\" (not '{}')", io::excerpt(frame_kind, 20)));
  const Eigen::Vector4d p_dot0 = euler::rates(
      f.p0, b.constant3("angular_velocity", Eigen::Vector3d::Zero()), frame_kind == "body");
  vec4 p_dot;
  for (int k = 0; k < 4; ++k) {
    const int i =
        d.add_coordinate(fmt::format("{}_e{}", name, k), f.p0[k], p_dot0[k], b.fields.where(b.t));
    f.coordinates.push_back(i);
    f.p[static_cast<std::size_t>(k)] = d.coordinates[static_cast<std::size_t>(i)].q;
    p_dot[static_cast<std::size_t>(k)] = d.coordinates[static_cast<std::size_t>(i)].qd;
  }
  for (std::size_t k = 0; k < 3; ++k)
    f.r[k] = d.coordinates[static_cast<std::size_t>(f.coordinates[k])].q;
  const rotational_inertia_terms terms = rotational_terms(f.p, p_dot, inertia);
  for (std::size_t i = 0; i < 4; ++i) {
    const int row = f.coordinates[3 + i];
    for (std::size_t k = 0; k < 4; ++k) d.mass_at(row, f.coordinates[3 + k]) = terms.mass[i][k];
    d.force[static_cast<std::size_t>(row)] += terms.force[i];
  }
  GiNaC::ex norm = -1;
  for (const auto& e : f.p) norm += e * e;
  d.add_constraint(name + ".norm", b.fields.where(b.t), true, norm);
  all[name] = f;
}

}  // namespace

void spatial_component_reader::read_bodies(const toml::table& root, const toml_fields& fields,
                                           const vec3& gravity, model_description& d) {
  frames_.clear();
  frames_["ground"].ground = true;
  for (const toml::table* p : fields.tables(root, "particle"))
    read_particle(body_reader{*p, fields, "[[particle]]", d}, frames_);
  for (const toml::table* b : fields.tables(root, "body"))
    read_rigid_body(body_reader{*b, fields, "[[body]]", d}, frames_);
  // Uniform gravity: f = m g on the centre of mass, V = -m g . r.
  for (const auto& [name, f] : frames_) {
    if (f.ground) continue;
    apply_wrench(d, f, f.r, f.mass * gravity, {0, 0, 0});
    d.add_potential(-(f.mass * dot(gravity, f.r)));
  }
}

}  // namespace kinevo::mechanics
