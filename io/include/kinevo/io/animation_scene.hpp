// A 2D animation (io/animation_html.hpp: panels of named points and the links through them, e.g.
// a synthesised four-bar or two solvers' double pendulums) as a scene of the 3D viewer, so that
// every motion page is the same 3D page. Each point is a particle at (x, y, 0); a point styled
// `ground` that does not move is a ground anchor; each link is a rod between consecutive points
// (closed polygons also back to the first). Several panels are laid side by side along +x, each
// shifted by its scene_panel::shift (the first by none) and captioned with its title; with more
// than one panel the names are "<point> (<panel title>)".
#pragma once

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/motion_scene.hpp"

namespace kinevo::io {

// The animation is validated first (io::input_error when inconsistent).
motion_scene animation_scene(const animation& a);

}  // namespace kinevo::io
