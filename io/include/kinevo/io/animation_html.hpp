// One self-contained HTML page that plays a planar motion: inline SVG and JavaScript, the frames
// as JSON inside the page, nothing fetched from the network. Play/pause, a time slider and a
// speed control; several panels (e.g. two solvers side by side) share one clock.
// The page reads a time from its URL fragment (motion.html#t=0.5), shows the frame nearest to
// it paused, and writes what it drew into the DOM (each shape's SVG attributes in model units,
// and data-t on the <svg>), so a headless browser's --dump-dom can be checked against the CSV.
#pragma once

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kinevo::io {

// How a point is drawn: a joint is an open circle, a particle a large filled dot, a ground point
// a grey pivot, a body's centre (of a body with a single joint) a small dot; a hidden point is
// only a corner of a link (a slider's box).
enum class point_style { joint, particle, ground, centre, hidden };

// A shape of one panel: a polyline through point indices (a body, a rod).
struct animation_link {
  std::string name;
  std::vector<int> points;
  bool closed = false;  // a polygon (a body with three or more joints)
};

struct animation_panel {
  std::string title;
  std::vector<std::string> point_names;
  std::vector<point_style> point_styles;
  std::vector<animation_link> links;
  // frames[k] = x0, y0, x1, y1, ... of the points at times[k] of the animation.
  std::vector<std::vector<double>> frames;
  // Throws std::invalid_argument naming what is inconsistent (sizes, link indices, non-finite
  // coordinates).
  void validate(std::size_t frame_count) const;
};

struct animation {
  std::string title;
  std::vector<double> times;  // strictly increasing, shared by every panel
  // What `times` are: the clock of a simulation, or e.g. a swept input angle ("psi", "deg").
  std::string time_label = "t", time_unit = "s";
  // The unit of the panels' coordinates, shown on the 3D page's axes and grid: metres for a
  // model's run; a synthesised linkage's own unit where its lengths have none (a function
  // generator's are relative to its frame).
  std::string length_unit = "m";
  // The direction against gravity in the panels' plane: the 3D page's camera keeps it up on the
  // screen (a model with +y down, like the dissertation's double pendulum, gives {0, -1}).
  std::array<double, 2> up{0.0, 1.0};
  std::vector<animation_panel> panels;
  void validate() const;  // times, units and every panel; throws io::input_error
  // What the page shows: frames, time span, panels and their points (for a command's report).
  nlohmann::json to_json() const;
  std::string report() const;  // the same as text, one line
};

// The page's text (validated first).
std::string animation_html(const animation& a);
// Writes the page atomically (io/atomic_file.hpp).
void save_animation_html(const animation& a, const std::filesystem::path& path);

}  // namespace kinevo::io
