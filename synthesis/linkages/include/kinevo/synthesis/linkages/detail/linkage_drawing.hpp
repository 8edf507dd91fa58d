// What the pictures and animations of synthesised linkages share (drawings.cpp: the four-bar
// and the RR dyad; path_drawings.cpp: the four-bar path generator): the extent of what is drawn
// and its canvas, links strong in the first position and pale in the others, the fixed pivots
// and their labels, the legend and scale bar, and the animation clock that must increase.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/svg_plot.hpp"

namespace kinevo::synthesis {

// The box around the drawn points (non-finite points left out) and a 760 x 620 canvas on it
// with 8 % margins, 40 px for the title and 80 px for the legend and scale bar.
struct drawing_extent {
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  void add(double x, double y);
  io::svg_canvas canvas() const;
};

// A link's colours: `strong` (width 3) in the first position, `pale` in the others.
struct link_colors {
  const char* strong;
  const char* pale;
};

// The colours both four-bar drawings give the input link and the coupler.
inline constexpr link_colors input_link_colors{"#1f77b4", "#9ecae1"};
inline constexpr link_colors coupler_link_colors{"#2ca02c", "#a1d99b"};

// The link from (x0, y0) to (x1, y1), strong when `first`, else pale with `pale_width`.
void draw_link(io::svg_canvas& c, double x0, double y0, double x1, double y1,
               const link_colors& colors, bool first, double pale_width);

// The fixed pivots O2 (input) and O4 (output) as grey circles that labels keep clear of.
void draw_ground_pivots(io::svg_canvas& c, double x2, double y2, double x4, double y4);
// Their labels; drawn after every point, so that the placement sees all of them.
void label_ground_pivots(io::svg_canvas& c, double x2, double y2, double x4, double y4);

// The legend, the scale bar in length units, and the file.
void finish_drawing(io::svg_canvas& c, const std::vector<io::svg_canvas::legend_entry>& legend,
                    const std::filesystem::path& path);

// Appends `frame` to `panel` at clock time t, unless t does not increase (an animation's clock
// must); returns whether it did.
bool add_animation_frame(io::animation& a, io::animation_panel& panel, double t,
                         std::vector<double> frame);

}  // namespace kinevo::synthesis
