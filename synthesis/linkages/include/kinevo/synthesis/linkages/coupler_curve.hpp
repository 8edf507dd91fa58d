// Position analysis of a planar four-bar path generator in closed form: where its coupler point
// is for a given input angle on a given assembly branch, its transmission angle and Grashof type.
// The conventions are those of the path-synthesis literature (Cabrera, Simon and Prado, "Optimal
// synthesis of mechanisms with genetic algorithms", 2002, Fig. 1): the linkage is drawn in its own
// frame with the input pivot O2 at the origin and the output pivot O4 at (r1, 0), then rotated by
// theta0 and moved to (x0, y0).
#pragma once

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

namespace kinevo::synthesis {

struct path_linkage {
  double r1 = 0.0;   // frame O2 O4
  double r2 = 0.0;   // input link O2 A
  double r3 = 0.0;   // coupler A B
  double r4 = 0.0;   // output link O4 B
  double rcx = 0.0;  // coupler point C in the coupler's frame: origin A, x axis along A -> B
  double rcy = 0.0;
  double x0 = 0.0, y0 = 0.0;  // O2 in the plane
  double theta0 = 0.0;        // angle of the frame line O2 -> O4 (radians)
};

// One assembled position: the joints and the coupler point in the plane.
struct path_position {
  Eigen::Vector2d o2, o4, a, b, c;
  double theta3 = 0.0;  // coupler angle in the linkage's frame (radians)
};

// The linkage's position at input angle theta2 (radians, from the frame line) on branch +1 or
// -1: theta3 = gamma + branch acos((r3^2 + d^2 - r4^2) / (2 r3 d)), gamma the direction A -> O4
// and d = |A O4| (law of cosines in triangle A B O4). No value where the loop does not close.
std::optional<path_position> path_position_at(const path_linkage& l, double theta2, int branch);

// Derivatives of the coupler point C (in the plane) with respect to the design, in closed form
// (the chain rule through path_position_at: theta3 = gamma + branch beta, gamma the direction of
// A -> O4, cos beta = (r3^2 + d^2 - r4^2) / (2 r3 d), d beta = -d cos beta / sin beta). Columns:
// r1, r2, r3, r4, rcx, rcy, x0, y0, theta0, theta2. No value where the loop does not close or
// is folded (sin beta = 0: the coupler and the output link in line, where the derivatives are
// infinite). Near a fold they grow as 1 / sqrt(distance to it), which forward differences
// cannot follow (the published case 4's optimum is 4e-5 from one).
using path_coupler_jacobian = Eigen::Matrix<double, 2, 10>;
std::optional<path_coupler_jacobian> path_coupler_derivatives(const path_linkage& l, double theta2,
                                                              int branch);

// Transmission angle mu in [0, pi] between coupler and output link at theta2:
// cos mu = (r3^2 + r4^2 - d^2) / (2 r3 r4); NaN where the loop does not close.
double path_transmission_angle(const path_linkage& l, double theta2);

// Grashof's sum s + l <= p + q of the four link lengths (>= 0 when it holds, as a margin).
double grashof_margin(const path_linkage& l);
// Input is a crank and output a rocker: Grashof and the input the shortest link; the margin is
// the smaller of the Grashof margin and min(r1, r3, r4) - r2.
double crank_rocker_margin(const path_linkage& l);
// "crank-rocker", "double crank", "rocker-crank", "double rocker" (Grashof, by the shortest
// link), "non-Grashof triple rocker" or "change point" (s + l = p + q to 1e-12 relative).
std::string grashof_type(const path_linkage& l);

// Longest over shortest link length (frame included).
double link_ratio(const path_linkage& l);

}  // namespace kinevo::synthesis
