// Starting a run from the islands' own final populations of the previous run instead of a
// uniform draw in the box (range runs, range_run_options::carry): the previous run has learned
// the shape of the valley (its population lies along it), and a uniform redraw throws that away.
// Each island moves its own population, so islands on threads and on MPI ranks stay
// bit-identical (nothing is exchanged); the island's checkpoint holds the population already.
#pragma once

#include <Eigen/Core>

namespace kinevo::ga {

// How the previous run's population becomes the next run's initial one.
//   off:  a uniform draw in the box (the default).
//   fill: x -> to + s (x - from), one s per island such that the population's mean squared
//         deviation in units of the new radii is a uniform draw's (1/3): the shape is kept,
//         the size is the box's.
// Points are clipped to the new box; the start point (keep_best) still takes column 0.
// Moving the population without resizing it (its spread kept, or scaled with the box) was
// measured and removed: a converged population keeps its tiny spread, the next run cannot move,
// and a stop rule on the best's change then holds without convergence (a Gauss solve ended `ok`
// 2.1e-9 from GIGSP against a 1e-9 tolerance; docs/gauss.md).
enum class carry_mode { off, fill };

struct population_carry {
  carry_mode mode = carry_mode::off;
  Eigen::VectorXd from;  // the previous run's best, in that run's coordinates
  Eigen::VectorXd to;    // the new run's centre, in its coordinates
};

}  // namespace kinevo::ga
