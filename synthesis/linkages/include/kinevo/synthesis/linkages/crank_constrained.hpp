// Least-squares four-bar synthesis with an input crank, an output crank or both, by the interior
// penalty scheme of Angeles et al., Diseño cinemático de maquinaria (1984), Grashof paper,
// eqs. (40)-(47): minimise z = 1/2 ||A k - b||^2 subject to the crank conditions (18) and/or (19),
// optionally also bounding the link-length ratio and the transmission angle.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "kinevo/synthesis/linkages/freudenstein.hpp"
#include "kinevo/synthesis/common/interior_penalty.hpp"

namespace kinevo::synthesis {

enum class crank_requirement { none, input, output, both };
std::string to_string(crank_requirement c);
crank_requirement parse_crank_requirement(const std::string& s);  // throws io::option_error

// The coupler's motion relative to the frame (synthesis/linkages/mobility_conditions.hpp, (32)
// fixed): a full turn (crank) or an oscillation (rocker).
enum class coupler_requirement { none, crank, rocker };
std::string to_string(coupler_requirement c);
coupler_requirement parse_coupler_requirement(const std::string& s);  // io::option_error
// --output: "any" (false) or "rocker" (true); throws io::option_error ("output").
bool parse_output_rocker(const std::string& s);

// The largest max_link_ratio accepted: far beyond any buildable linkage, and its square stays
// far from overflow in the ratio constraints.
inline constexpr double max_link_ratio_limit = 1e6;

struct crank_constrained_options {
  crank_requirement crank = crank_requirement::input;
  // The output link must oscillate (not turn fully): a factor of (19b) negative.
  bool output_rocker = false;
  coupler_requirement coupler = coupler_requirement::none;
  // Largest allowed ratio of the longest to the shortest link (0: no bound), e.g. 10.
  double max_link_ratio = 0.0;
  // Smallest allowed transmission angle in radians (0: no bound), checked at the input angles
  // where it is extreme (0 and pi for an input crank, else the ends of the table's range).
  double min_transmission = 0.0;
  std::vector<double> weights;  // optional positive weights of the points
  // Besides the unconstrained optimum and textbook crank linkages, the penalty method starts
  // from this many random k in [-3, 3]^3 (fixed seed): the constrained problem has several
  // local minima. The best feasible result wins.
  int random_starts = 30;
  std::uint64_t seed = 1;
  interior_penalty_options penalty;

  // Throws io::option_error naming the field: max_link_ratio outside {0} u (1, 1e6] (NaN
  // included), min_transmission outside [0, pi/2), random_starts outside [0, 1e6], a weight that
  // is not finite and positive.
  void validate() const;
};

// The constraint functions of a synthesis problem (all must be > 0), for the penalty method and
// for the GA's penalty; names are for messages.
// With `strict_factors`, each crank condition f2 (18b)/(19b) is replaced by its two factors
// (both must be positive), which also excludes k that define no linkage: used to find a start.
// A rocker requirement (output or coupler) asks that one of two functions be negative, which is
// not smooth: `rocker_branch` 0 or 1 requires that one, -1 their minimum (for the GA). The
// penalty method solves each branch and keeps the best.
struct rocker_branches {
  int output = -1, coupler = -1;
};
// Throws io::option_error (a std::invalid_argument) when the options do not validate().
penalty_problem crank_constrained_problem(const std::vector<double>& psi,
                                          const std::vector<double>& phi,
                                          const crank_constrained_options& options,
                                          bool strict_factors = false,
                                          rocker_branches branches = {});

// Whether k meets every link-type requirement of the options (crank conditions with a full-turn
// check, output rocker, coupler), the bounds aside.
bool meets_link_types(const Eigen::Vector3d& k, const crank_constrained_options& options);

struct crank_constrained_result {
  freudenstein_fit fit;             // k, e = A k - b, ||e||
  interior_penalty_result penalty;  // stages, start, whether extrapolated
};

// Runs the penalty method from the unconstrained least-squares k, textbook crank linkages and
// `random_starts` random k (each made strictly feasible first, on the strict form of the
// conditions) and keeps the best result that is a real crank (conditions and a full turn).
// Throws std::runtime_error when no feasible linkage is found.
crank_constrained_result crank_constrained_least_squares(const std::vector<double>& psi,
                                                         const std::vector<double>& phi,
                                                         const crank_constrained_options& options);

// The same from the given starts only (the GA's best point, for its refinement).
crank_constrained_result crank_constrained_from_starts(const std::vector<double>& psi,
                                                       const std::vector<double>& phi,
                                                       const crank_constrained_options& options,
                                                       const std::vector<Eigen::Vector3d>& starts);

}  // namespace kinevo::synthesis
