// The component sections of a spatial model file (`space = "spatial"` in [model]): particles
// and rigid bodies in 3D (Euler parameters), spatial joints and forces. Like the planar
// components (components.cpp), they only add expressions to the model_description; the format
// is documented in docs/model-files.md ("Spatial models").
#pragma once

#include <toml++/toml.h>

#include <Eigen/Core>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "kinevo/mechanics/model/detail/euler_parameters.hpp"
#include "kinevo/mechanics/model/detail/model_description.hpp"
#include "kinevo/mechanics/model/detail/toml_fields.hpp"

namespace kinevo::mechanics {

// A particle, rigid body or the ground: position of the centre of mass and, for a body, its
// Euler parameters, as expressions in q (ground: r = 0, p = (1, 0, 0, 0)).
struct spatial_frame {
  bool ground = false;
  bool particle = false;
  vec3 r{0, 0, 0};
  vec4 p{1, 0, 0, 0};
  GiNaC::ex mass = 0;
  Eigen::Vector4d p0{1, 0, 0, 0};  // initial Euler parameters, for default joint references
  std::vector<int> coordinates;    // indices of r then p in the model's coordinates
};

// The reference directions of a revolute, cylindrical or translational joint, in the global
// frame (and its two bodies): f_i and
// g_i = h_i x f_i on body i, f_j on body j. The relative angle theta of j about the axis has
// cos theta = f_i.f_j and sin theta = g_i.f_j (zero where the references coincide).
struct joint_reference {
  const spatial_frame* body_i = nullptr;
  const spatial_frame* body_j = nullptr;
  vec3 f_i, g_i, f_j;
  bool rotates = true;  // false for a translational joint: its .twist row fixes the angle
};

// One [[joint]] or [[force]] table being read (spatial_joints.cpp, spatial_forces.cpp).
struct spatial_table {
  const toml::table& t;
  const toml_fields& fields;
  std::string section;
  const std::map<std::string, spatial_frame>& all;
  model_description& d;
  std::string name;
  std::string at;

  const spatial_frame& body(std::string_view key) const;
  // A body-fixed point (3 values, default 0) in the global frame; a particle's must be 0.
  vec3 point(std::string_view key, const spatial_frame& f) const;
  // A constant body-fixed unit direction (normalised; zero is refused).
  Eigen::Vector3d direction(std::string_view key, const Eigen::Vector3d& fallback) const;
  vec3 vector(std::string_view key) const;
  GiNaC::ex expression(std::string_view key) const;
  GiNaC::ex expression_or(std::string_view key, const GiNaC::ex& fallback) const;
  void only(const std::vector<std::string_view>& keys) const;
  // Refuses a particle where an orientation is needed.
  void require_body(const spatial_frame& f, std::string_view key) const;
};

class spatial_component_reader {
 public:
  // [[particle]] and [[body]]: coordinates, mass matrix, inertia forces, normalisation rows,
  // and the uniform gravity of [model].
  void read_bodies(const toml::table& root, const toml_fields& fields, const vec3& gravity,
                   model_description& out);
  void read_joints_and_forces(const toml::table& root, const toml_fields& fields,
                              model_description& out);
  void substitute_definitions(const symbolic::expression_context& context,
                              const std::string& where);

 private:
  std::map<std::string, spatial_frame> frames_;
};

// Stages of the reader, one file each. The joints return the references of their revolute,
// cylindrical and translational joints by name, for drivers and rotational spring-dampers.
using joint_references = std::map<std::string, joint_reference>;
joint_references read_spatial_joints(const toml::table& root, const toml_fields& fields,
                                     const std::map<std::string, spatial_frame>& frames,
                                     model_description& d);
void read_spatial_forces(const toml::table& root, const toml_fields& fields,
                         const std::map<std::string, spatial_frame>& frames,
                         const joint_references& joints, model_description& d);

// Adds the generalized force of a force F (global) at the global point P and a torque n
// (global) to the frame's coordinates: Q_r += F, Q_p += 2 E^T (n + (P - r) x F) (virtual work
// with the virtual rotation 2 E dp; Haug, Computer-Aided Kinematics and Dynamics of Mechanical
// Systems, section 11.1).
void apply_wrench(model_description& d, const spatial_frame& f, const vec3& point,
                  const vec3& force, const vec3& torque);

}  // namespace kinevo::mechanics
