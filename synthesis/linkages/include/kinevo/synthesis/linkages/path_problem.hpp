// The four-bar path generation problem (Cabrera, Simon and Prado, "Optimal synthesis of
// mechanisms with genetic algorithms", 2002, eqs. (1)-(9)): find the linkage whose coupler point
// passes through the precision points C_d^i, minimising the structural error
// f = sum_i |C^i - C_d^i|^2 subject to the link-type conditions of Angeles et al., Diseño
// cinemático de maquinaria (1984) (Grashof paper: the input a crank, Grashof's inequality), a
// minimum transmission angle, and no branch or order defect. This file holds the problem's
// settings, a candidate design and its evaluation; the searches are path_ga_problem.hpp and
// path_refinement.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kinevo/synthesis/linkages/coupler_curve.hpp"
#include "kinevo/synthesis/linkages/path_table.hpp"

namespace kinevo::synthesis {

// How the input angle at each point is known: free (design variables, visited in the table's
// order within one turn), prescribed (the table's input column, absolute), relative (the table's
// input column plus one free offset: the timing steps are prescribed, the start is not).
enum class path_timing { free, prescribed, relative };
std::string to_string(path_timing t);
path_timing parse_path_timing(const std::string& s);  // io::option_error ("timing")

// Link-type condition on the four link lengths: none, Grashof's inequality, or Grashof with the
// input the shortest link (a crank driving a rocker: the course notes' crank condition, eq. (18)).
enum class path_link_type { any, grashof, crank_rocker };
std::string to_string(path_link_type t);
path_link_type parse_path_link_type(const std::string& s);  // io::option_error ("link_type")

// The path's shape, "open" or "closed" (closed: the points close a loop), and the frame,
// "free" or "fixed"; io::option_error ("path", "frame") for another name.
bool parse_path_closed(const std::string& s);
bool parse_path_fixed_frame(const std::string& s);

struct path_interval {
  double lo = 0.0, hi = 0.0;
};

struct path_problem_options {
  std::optional<path_timing> timing;  // default: prescribed when the table has input angles
  bool closed = false;                // the points close a loop (the input turns fully)
  path_link_type link_type = path_link_type::crank_rocker;
  double min_transmission_deg = 0.0;  // constraint over the motion, [0, 90); 0: none
  // Search bounds; empty: from the points' extent D (links [D/100, 5 D], coupler point [-5 D,
  // 5 D], frame position the points' centre +- 5 D).
  std::optional<path_interval> link_bounds, coupler_bounds, frame_bounds;
  bool fixed_frame = false;  // O2 at the origin, frame line along x (x0 = y0 = theta0 = 0)
  // Throws io::option_error naming the field.
  void validate() const;
};

// Settings from the table's header ("# timing = free", ...) for those the caller left unset;
// io::input_error naming file and line for an unusable value. Header values never override a
// field the caller marked as given (`given` lists option names: "timing", "path", "link_type",
// "min_transmission", "link_bounds", "coupler_bounds", "frame_bounds", "frame").
void apply_path_header(const path_table& t, path_problem_options& o,
                       const std::vector<std::string>& given = {});

// The points and the resolved settings (timing decided, bounds filled in).
struct path_problem {
  std::vector<double> x, y, input;
  path_timing timing = path_timing::free;
  bool closed = false;
  path_link_type link_type = path_link_type::crank_rocker;
  double min_transmission = 0.0;  // radians
  path_interval link_bounds, coupler_bounds, frame_x_bounds, frame_y_bounds;
  bool fixed_frame = false;
  std::size_t size() const { return x.size(); }
};
// Throws io::input_error when the timing asks for input angles the table lacks.
path_problem make_path_problem(const path_table& t, const path_problem_options& o);

// A candidate: the linkage, the input angle at each point (radians) and the assembly branch.
struct path_design {
  path_linkage linkage;
  std::vector<double> input;
  int branch = 1;
};

// What a design does on the problem: the objective, each constraint's violation (>= 0, 0 when
// it holds) and the per-point errors.
struct path_evaluation {
  double objective = 0.0;      // sum of squared distances over the points that assemble
  std::vector<double> errors;  // |C^i - C_d^i| (NaN: no assembly at the point)
  double link_type_violation = 0.0;
  double motion_violation = 0.0;  // the loop opens between consecutive points (branch defect)
  double order_violation = 0.0;   // the inputs do not advance one way within one turn
  double transmission_violation = 0.0;
  double frame_violation = 0.0;   // the input pivot outside the frame bounds
  double min_transmission = 0.0;  // radians, over the motion (NaN when it does not assemble)
  double max_transmission = 0.0;
  double violation() const {
    return link_type_violation + motion_violation + order_violation + transmission_violation +
           frame_violation;
  }
  bool feasible() const { return violation() == 0.0; }
};

// Evaluates `d` on its own branch.
path_evaluation evaluate_path_design(const path_problem& p, const path_design& d);
// Evaluates both branches and keeps the better one in d.branch (feasibility first).
path_evaluation evaluate_path_design_best_branch(const path_problem& p, path_design& d);
// For a problem whose frame is free: places the linkage (x0, y0, theta0) where its coupler
// points best fit the precision points, in closed form (the orthogonal Procrustes problem:
// rotation from the cross- and dot-sums of the centred point sets, then the translation between
// the centroids), on each branch, keeps the better branch, and evaluates; a placement outside the
// frame bounds counts as a violation. With a fixed frame, evaluate_path_design_best_branch.
path_evaluation place_and_evaluate_path_design(const path_problem& p, path_design& d);

// The inputs' direction of motion (+1 counterclockwise, -1 clockwise) and the arc from each
// point to the next (radians, signed), taken from the design's inputs: each step the way of the
// first, the closing arc back to the first point included when the path is closed.
struct path_motion {
  int direction = 1;
  std::vector<double> arcs;  // from input[i] to input[i + 1] (and back to 0 when closed)
  double total = 0.0;        // sum of |arcs|
};
path_motion path_motion_of(const path_problem& p, const std::vector<double>& input);

// The coupler curve of a design over its motion: the input angles swept (radians) and the
// coupler point (NaN where the loop does not close).
struct path_curve {
  std::vector<double> input, x, y;
};
path_curve path_coupler_curve(const path_problem& p, const path_design& d, int samples = 361);

}  // namespace kinevo::synthesis
