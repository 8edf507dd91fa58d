#include "kinevo/mechanics/model/chain_model.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::mechanics {

void chain_options::validate() const {
  io::require_integer("links", links, 1, 100000);
  io::require_real("length", length, io::positive());
  io::require_real("mass", mass, io::positive());
  io::require_real("gravity", gravity, io::any_finite());
  // An angle from the vertical: beyond a turn either way it only loses digits (1e308 deg is
  // infinite in radians, and the model written had theta0 = inf).
  io::require_real("angle_deg", angle_deg, {-360.0, 360.0});
  io::require_real("spin", spin, io::any_finite());
}

namespace {

// Link k (1-based) of the straight chain tilted by theta0 from the downward vertical in the
// x-z plane: its centre at (k - 1/2) l along the chain; body z along the link, downwards from
// its joint (the rotation by pi - theta0 about y). It turns with the whole chain about the
// vertical at w: v = w e_z x r, angular velocity w e_z (global).
std::string spatial_chain_text(const chain_options& o) {
  std::string s = fmt::format(
      "# {}-link spatial pendulum chain, written by `kinevo model chain --links {} --spatial`.\n"
      "# Slender rigid links (Euler parameters) on spherical joints, link 1 on the origin, the\n"
      "# straight chain at {} degrees from the downward vertical turning about the vertical at\n"
      "# {} rad/s. n = {} coordinates, m = {} constraints ({} normalisation rows).\n\n"
      "[model]\nname = \"spatial pendulum chain, N = {}\"\nspace = \"spatial\"\n"
      "gravity = [0.0, 0.0, \"-g\"]\n\n"
      "[parameters]\nl = {}   # m, each link\nm = {}   # kg, each link\n"
      "g = {}   # m/s^2\ntheta0 = {}   # rad\nw = {}   # rad/s\n",
      o.links, o.links, o.angle_deg, o.spin, 7 * o.links, 4 * o.links, o.links, o.links, o.length,
      o.mass, o.gravity, o.angle_deg * 3.14159265358979323846 / 180.0, o.spin);
  for (int k = 1; k <= o.links; ++k) {
    const double c = k - 0.5;
    s += fmt::format(
        "\n[[body]]\nname = \"b{}\"\nmass = \"m\"\n"
        "inertia = [\"m*l^2/12\", \"m*l^2/12\", \"m*l^2/1200\"]\n"
        "position = [\"{}*l*sin(theta0)\", 0.0, \"-{}*l*cos(theta0)\"]\n"
        "rotation_axis = [0.0, 1.0, 0.0]\nrotation_angle = \"pi - theta0\"\n"
        "velocity = [0.0, \"w*{}*l*sin(theta0)\", 0.0]\nangular_velocity = [0.0, 0.0, \"w\"]\n",
        k, c, c, c);
  }
  for (int k = 1; k <= o.links; ++k) {
    s += fmt::format(
        "\n[[joint]]\ntype = \"spherical\"\nname = \"s{}\"\nbody_i = \"{}\"\nbody_j = \"b{}\"\n"
        "point_i = {}\npoint_j = [0.0, 0.0, \"-l/2\"]\n",
        k, k == 1 ? std::string("ground") : fmt::format("b{}", k - 1), k,
        k == 1 ? std::string("[0.0, 0.0, 0.0]") : std::string("[0.0, 0.0, \"l/2\"]"));
  }
  return s;
}

}  // namespace

std::string chain_model_text(const chain_options& o) {
  o.validate();
  if (o.spatial) return spatial_chain_text(o);
  std::string s = fmt::format(
      "# {}-link planar pendulum chain, written by `kinevo model chain --links {}`.\n"
      "# Particles p1..p{} joined by massless rods (distance joints), p1 hinged at the origin,\n"
      "# released at rest as a straight chain at {} degrees from the downward vertical.\n"
      "# n = {} coordinates, m = {} constraints.\n\n"
      "[model]\nname = \"pendulum chain, N = {}\"\ngravity = [0.0, \"-g\"]\n\n"
      "[parameters]\nl = {}   # m, each link\nm = {}   # kg, each particle\n"
      "g = {}   # m/s^2\ntheta0 = {}   # rad\n",
      o.links, o.links, o.links, o.angle_deg, 2 * o.links, o.links, o.links, o.length, o.mass,
      o.gravity, o.angle_deg * 3.14159265358979323846 / 180.0);
  for (int k = 1; k <= o.links; ++k) {
    s += fmt::format(
        "\n[[particle]]\nname = \"p{}\"\nmass = \"m\"\n"
        "position = [\"{}*l*sin(theta0)\", \"-{}*l*cos(theta0)\"]\n",
        k, k, k);
  }
  for (int k = 1; k <= o.links; ++k) {
    s += fmt::format(
        "\n[[joint]]\ntype = \"distance\"\nname = \"rod{}\"\nbody_i = \"{}\"\nbody_j = \"p{}\"\n"
        "length = \"l\"\n",
        k, k == 1 ? std::string("ground") : fmt::format("p{}", k - 1), k);
  }
  return s;
}

}  // namespace kinevo::mechanics
