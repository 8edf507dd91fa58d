#include "mechanics/chain_model.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "io/option_error.hpp"

namespace kinevo::mechanics {

void chain_options::validate() const {
  io::require_integer("links", links, 1, 100000);
  io::require_real("length", length, io::positive());
  io::require_real("mass", mass, io::positive());
  io::require_real("gravity", gravity, io::any_finite());
  io::require_real("angle_deg", angle_deg, io::any_finite());
}

std::string chain_model_text(const chain_options& o) {
  o.validate();
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
