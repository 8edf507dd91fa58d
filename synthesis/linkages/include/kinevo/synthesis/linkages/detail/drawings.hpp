// SVG pictures of synthesised linkages (io::svg_canvas): the four-bar in several positions and
// the RR dyad with its poses, circle point, centre point and circle.
#pragma once

#include <filesystem>
#include <vector>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/freudenstein.hpp"
#include "kinevo/synthesis/linkages/rr_dyad.hpp"

namespace kinevo::synthesis {

// Frame O2 = (0, 0), O4 = (a1, 0); input tip a2 e^{i psi}, output tip O4 + a4 e^{i phi}. Positions
// whose phi is NaN (no assembly) are skipped. The first position is drawn strongest.
// The four-bar through its input range as an animation (the sweep's input angle, in degrees, as
// the clock); the same frame and tips as save_fourbar_drawing, positions without assembly left
// out. Empty times when no sweep position assembles.
io::animation fourbar_animation(const fourbar_links& links, const fourbar_sweep& sweep);

void save_fourbar_drawing(const std::filesystem::path& path, const fourbar_links& links,
                          const std::vector<double>& psi, const std::vector<double>& phi);

// The reference points of the poses with a short body axis, and each solution's circle point
// in every pose, its centre point and its circle.
void save_dyad_drawing(const std::filesystem::path& path, const std::vector<pose>& poses,
                       const std::vector<dyad_solution>& solutions);

}  // namespace kinevo::synthesis

#include "kinevo/synthesis/linkages/path_problem.hpp"

namespace kinevo::synthesis {

// The coupler curve of a path design with the precision points and its errors.
void save_path_curve_drawing(const std::filesystem::path& path, const path_problem& p,
                             const path_curve& curve);
// The path generator at each precision point (the first strongest), its coupler curve and the
// points.
void save_path_linkage_drawing(const std::filesystem::path& path, const path_problem& p,
                               const path_design& d, const path_curve& curve);
// The path generator driven along `curve` (its input angle, degrees, as the clock): pivots,
// joints and the coupler point, positions without assembly left out.
io::animation path_animation(const path_problem& p, const path_design& d, const path_curve& curve);

}  // namespace kinevo::synthesis
