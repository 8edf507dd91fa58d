// The solid a body is drawn as in the 3D viewer: a shape of the body's mass and centroidal
// inertia, as MuJoCo's inertia view draws the box of equal inertia. An axisymmetric inertia
// (two principal moments equal) is drawn as the cylinder of equal inertia, so that a wheel
// or a rod looks like one; three equal moments as the sphere; any other as the box.
// Uniform solids (Gere and Timoshenko's tables of mass moments of inertia):
//   box of edges a, b, c:        I_x = m (b^2 + c^2) / 12, so a^2 = 6 (I_y + I_z - I_x) / m
//   cylinder, radius R, length h along z: I_z = m R^2 / 2, I_x = I_y = m (3 R^2 + h^2) / 12
//   sphere of radius R:          I = 2 m R^2 / 5
#pragma once

#include <Eigen/Core>

#include "kinevo/io/motion_scene.hpp"

namespace kinevo::mechanics {

// A spatial body: `inertia` its centroidal inertia matrix in body axes (symmetric). A body
// with no mass or no inertia gets size zero (the page then sizes it from the scene).
io::scene_solid inertia_solid(double mass, const Eigen::Matrix3d& inertia);

// A planar body: only the moment about z is known. Drawn as a bar along the body's x' axis,
// its width and depth an eighth of its length, of that moment: I_z = m (l^2 + w^2) / 12.
io::scene_solid planar_inertia_solid(double mass, double inertia_z);

}  // namespace kinevo::mechanics
