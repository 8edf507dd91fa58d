// What `kinevo animate` draws of a planar model file: its particles (dots), the joints' points on
// bodies (circles), the points fixed to ground (pivots), each body as a line through its joints
// (a polygon with three or more) and each distance joint as a rod, placed at every row of a run's
// CSV of coordinates, for the 2D page (spatial models projected onto the XY plane); and the 3D
// scene of the viewer page (io/motion_scene.hpp): bodies as solids of equal inertia
// (mechanics/model/detail/inertia_shape.hpp), particles, joints with their axes, rods, springs,
// ground points.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "kinevo/io/animation_html.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/motion_scene.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

class model_drawing {
 public:
  // Reads the geometry of a model file. Throws io::input_error naming the file, line and field
  // (a point that is not a constant vector, a model with nothing to draw).
  // `overrides` replace parameters as `--set` does for the model (unknown names are ignored
  // here: loading the model reports them).
  static model_drawing load(const std::filesystem::path& model_file,
                            const std::vector<parameter_override>& overrides = {});
  static model_drawing from_string(const std::string& text, const std::string& source,
                                   const std::vector<parameter_override>& overrides = {});

  // The coordinates a run's table must have (b_x, b_y, b_phi of bodies, p_x, p_y of particles).
  const std::vector<std::string>& coordinate_names() const { return coordinates_; }
  bool spatial() const { return spatial_; }
  // One panel with a frame for each row of `run` (which needs a "t" column and every
  // coordinate_names() column: io::input_error naming the CSV otherwise).
  io::animation_panel panel(const io::csv_table& run, const std::string& title) const;
  // The 3D scene with a pose of every solid for each row of `run` (the same columns as panel()).
  io::motion_scene scene(const io::csv_table& run, const std::string& title) const;

 private:
  // A drawn point: body origin + A(phi) s, or a fixed ground point when x < 0.
  struct point {
    std::string name;
    io::point_style style = io::point_style::joint;
    int x = -1, y = -1, phi = -1;  // indices into coordinates_ (phi -1: a particle; spatial: e0)
    double sx = 0.0, sy = 0.0;     // local offset (ground: the global position)
    int z = -1;                    // spatial models
    double sz = 0.0;
  };
  std::vector<std::string> coordinates_;
  bool spatial_ = false;  // drawn projected onto the XY plane
  std::vector<point> points_;
  std::vector<io::animation_link> links_;
  // The 3D scene without times and poses; solid k's pose from the coordinates pose_columns_[k]
  // (x, y, phi or x, y, z, e0; -1 for a particle's angle).
  io::motion_scene scene_;
  std::vector<std::array<int, 4>> pose_columns_;
  friend class model_drawing_reader;
};

// An animation of one run: its times and one panel (rows whose t does not increase left out).
io::animation animate_run(const model_drawing& drawing, const io::csv_table& run,
                          const std::string& title);

// The 3D scene of one run (rows whose t does not increase left out).
io::motion_scene animate_scene(const model_drawing& drawing, const io::csv_table& run,
                               const std::string& title);

}  // namespace kinevo::mechanics
