// What the spatial joint and force stages share: finding frames, body-fixed points and
// directions, and the virtual work of a force and torque on a body.
#include "kinevo/mechanics/model/detail/spatial_components.hpp"

#include <fmt/format.h>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::mechanics {

const spatial_frame& spatial_table::body(std::string_view key) const {
  const std::string frame_name = fields.string(t, section, key);
  if (const auto it = all.find(frame_name); it != all.end()) return it->second;
  fields.fail(fields.field_where(t, section, key),
              fmt::format("unknown body or particle '{}' (known: {})", io::excerpt(frame_name, 40),
                          listed_names(all)));
}

vec3 spatial_table::point(std::string_view key, const spatial_frame& f) const {
  const auto s = fields.vector_or(t, section, key, d.context, 3, {0, 0, 0});
  const vec3 local{s[0], s[1], s[2]};
  if (f.ground) return local;
  if (f.particle) {
    if (!(s[0].is_zero() && s[1].is_zero() && s[2].is_zero())) {
      fields.fail(fields.field_where(t, section, key),
                  "a particle has no extent: the point must be [0, 0, 0]");
    }
    return f.r;
  }
  return f.r + rotate(f.p, local);
}

Eigen::Vector3d spatial_table::direction(std::string_view key,
                                         const Eigen::Vector3d& fallback) const {
  if (!t.contains(key)) return fallback;
  const std::string where = fields.field_where(t, section, key);
  const auto v = fields.vector(t, section, key, d.context, 3);
  Eigen::Vector3d u(fields.constant_value(v[0], where), fields.constant_value(v[1], where),
                    fields.constant_value(v[2], where));
  if (!(u.norm() > 1e-12) || !u.allFinite()) fields.fail(where, "must be a non-zero vector");
  return u.normalized();
}

vec3 spatial_table::vector(std::string_view key) const {
  const auto v = fields.vector(t, section, key, d.context, 3);
  return {v[0], v[1], v[2]};
}

GiNaC::ex spatial_table::expression(std::string_view key) const {
  return fields.expression(t, section, key, d.context);
}

GiNaC::ex spatial_table::expression_or(std::string_view key, const GiNaC::ex& fallback) const {
  return fields.expression_or(t, section, key, d.context, fallback);
}

void spatial_table::only(const std::vector<std::string_view>& keys) const {
  fields.only_keys(t, section, keys);
}

void spatial_table::require_body(const spatial_frame& f, std::string_view key) const {
  if (f.particle) {
    fields.fail(fields.field_where(t, section, key),
                fmt::format("{} '{}': a particle has no orientation (this needs a [[body]])",
                            section, name));
  }
}

void apply_wrench(model_description& d, const spatial_frame& f, const vec3& point,
                  const vec3& force, const vec3& torque) {
  if (f.ground) return;
  for (std::size_t k = 0; k < 3; ++k)
    d.force[static_cast<std::size_t>(f.coordinates[k])] += force[k];
  if (f.particle) return;
  const vec4 q = e_transpose_times(f.p, torque + cross(point - f.r, force));
  for (std::size_t k = 0; k < 4; ++k) {
    const GiNaC::ex w = 2 * q[k];
    if (!w.is_zero()) d.force[static_cast<std::size_t>(f.coordinates[3 + k])] += w;
  }
}

void spatial_component_reader::read_joints_and_forces(const toml::table& root,
                                                      const toml_fields& fields,
                                                      model_description& out) {
  const joint_references joints = read_spatial_joints(root, fields, frames_, out);
  read_spatial_forces(root, fields, frames_, joints, out);
}

void spatial_component_reader::substitute_definitions(const symbolic::expression_context& context,
                                                      const std::string& where) {
  for (auto& [name, f] : frames_) f.mass = context.substitute(f.mass, where);
}

}  // namespace kinevo::mechanics
