// What `kinevo animate` draws of a planar model file: its particles (dots), the joints' points on
// bodies (circles), the points fixed to ground (pivots), each body as a line through its joints
// (a polygon with three or more) and each distance joint as a rod, placed at every time of a run
// (a CSV of coordinates, or a trajectory recorded in memory: drawing_motion), for the 2D page
// (spatial models projected onto the XY plane); and the 3D scene of the viewer page
// (io/motion_scene.hpp): bodies as solids of equal inertia
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

// A run as a drawing needs it: its times, increasing, and at each time the values of the
// drawing's coordinate_names() in that order.
struct drawing_motion {
  std::vector<double> times;
  std::vector<std::vector<double>> coordinates;
  // Appends a time and its coordinates; a time at or before the previous one is left out (a run
  // that restarted at a time, an intermittent row switching, repeats it: the page's clock must
  // increase).
  void add(double t, std::vector<double> q);
};

class model_drawing {
 public:
  // The geometry of a model file, as the one model file reader (read_model_file) describes it:
  // the same parameters (in file order, `overrides` applied as `--set` does, an unknown name
  // refused) and definitions as the model. Throws io::input_error naming the file, line and
  // field (a file the model reader refuses, a point that is not a constant vector, a model with
  // nothing to draw).
  static model_drawing load(const std::filesystem::path& model_file,
                            const std::vector<parameter_override>& overrides = {});
  static model_drawing from_string(const std::string& text, const std::string& source,
                                   const std::vector<parameter_override>& overrides = {});

  // The coordinates a run's table must have (b_x, b_y, b_phi of bodies, p_x, p_y of particles).
  const std::vector<std::string>& coordinate_names() const { return coordinates_; }
  bool spatial() const { return spatial_; }
  // The run of a CSV table, which needs a "t" column and every coordinate_names() column
  // (io::input_error naming the CSV otherwise); rows whose t does not increase left out.
  drawing_motion motion(const io::csv_table& run) const;
  // One panel with a frame for each time of `run`.
  io::animation_panel panel(const drawing_motion& run, const std::string& title) const;
  // The 3D scene with a pose of every solid for each time of `run`.
  io::motion_scene scene(const drawing_motion& run, const std::string& title) const;

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

// An animation of one run: its times and one panel.
io::animation animate_run(const model_drawing& drawing, const drawing_motion& run,
                          const std::string& title);

// The 3D scene of one run.
io::motion_scene animate_scene(const model_drawing& drawing, const drawing_motion& run,
                               const std::string& title);

}  // namespace kinevo::mechanics
