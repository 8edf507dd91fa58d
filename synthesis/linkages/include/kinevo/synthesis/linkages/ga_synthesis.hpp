// The island GA (ga/) as the global alternative for the syntheses: the four-bar function
// generator with its crank and bound constraints as penalties, and the RR dyad. The problems
// are plain ga::problem objects; the searches are range runs (generalized-inverse dissertation
// (GIGSP), sec. 5.4) on a shrinking box around the best point.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "kinevo/core/run_context.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/penalty.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/synthesis/linkages/crank_constrained.hpp"
#include "kinevo/synthesis/linkages/rr_dyad.hpp"
#include "kinevo/synthesis/linkages/rssr.hpp"

namespace kinevo::synthesis {

struct ga_synthesis_options {
  ga::ga_options ga;            // defaults: kinevo's real-coded GA
  ga::island_options islands;   // defaults: one island, seed 1
  long long generations = 150;  // per range run
  int range_runs = 6;           // box radii shrink by `shrink` after each run
  double shrink = 0.4;
  // Four-bar: the constraint penalty weight of the first run, multiplied by `weight_growth`
  // after each run (the penalised Gauss function of the generalized-inverse dissertation (GIGSP),
  // eq. 5.6, lets W change during the optimisation). A weight <= 0 ranks every infeasible point
  // behind every feasible one instead.
  double penalty_weight = 1.0;
  double weight_growth = 100.0;
  // The four-bar runs' penalty in ga's one penalty concept (ga/penalty.hpp): one aggregate
  // constraint (the sum over the crank constraints), kind increasing from penalty_weight by
  // weight_growth per run (fixed when weight_growth is 1). Only for penalty_weight > 0.
  ga::penalty_options penalty() const;
  // Polish the GA's best point with the local method of the source document: Householder
  // Gauss-Newton (RSSR; the dyad always is), the interior penalty method (four-bar).
  bool refine = true;

  // Throws io::option_error naming the field (islands in [1, max_islands], generations in
  // [1, max_generations], range_runs >= 1, shrink in (0, 1), finite weights, weight_growth >= 1),
  // then runs the GA's own checks (std::invalid_argument).
  void validate() const;
};

// Size limits of the synthesis GA: far beyond what the small synthesis problems need, and small
// enough that the islands' populations and the run history fit in memory.
inline constexpr int max_islands = 1024;
inline constexpr long long max_generations = 10'000'000;

// z = 1/2 ||A k - b||^2 over k in a box, with the constraints of the crank-constrained problem
// (strict form: both factors of (18b)/(19b)) as penalties: with a weight w > 0,
// value = z + w sum max(0, margin - c_i)^2 (margin 1e-6, so that a minimiser for large w is
// strictly feasible); with w <= 0, value = offset + sum of violations for an infeasible k, where
// offset bounds z on the box, so that every feasible k is better.
class fourbar_penalty_problem : public ga::problem {
 public:
  fourbar_penalty_problem(const std::vector<double>& psi, const std::vector<double>& phi,
                          const crank_constrained_options& options, double box = 3.0);
  int dimension() const override { return 3; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::Vector3d::Constant(-box_); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::Vector3d::Constant(box_); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "four-bar synthesis"; }
  double value(const Eigen::Vector3d& k) const;
  bool feasible(const Eigen::Vector3d& k) const;
  double objective(const Eigen::Vector3d& k) const { return 0.5 * (a_ * k - b_).squaredNorm(); }
  // Between GA runs only (evaluate() reads it concurrently during a run).
  void set_weight(double w) { weight_ = w; }
  double weight() const { return weight_; }

 private:
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;
  penalty_problem constraints_;
  double box_;
  double offset_;
  double weight_ = 0.0;
};

// The GA's best point and its refinement by the interior penalty method started there (which
// closes the GA's gap to the constrained optimum; the fit is the GA's when refinement is off).
struct ga_fourbar_result {
  freudenstein_fit ga_fit;  // the GA stage
  freudenstein_fit fit;     // after refinement
  bool feasible = false;    // all constraints hold at the GA's best point
  bool refined = false;
  long long evaluations = 0;
  double ga_seconds = 0.0;
  double seconds = 0.0;  // both stages
};

ga_fourbar_result ga_crank_constrained(const std::vector<double>& psi,
                                       const std::vector<double>& phi,
                                       const crank_constrained_options& options,
                                       const ga_synthesis_options& ga_options,
                                       const core::run_context& context = {});

// 1/2 ||A k - b||^2 of the RSSR equations (Householder paper, eq. (11)) over k in [-box, box]^6.
// Linear least squares solves this exactly; the GA version is the global alternative asked for
// every synthesis and a check of the GA on a problem with a known optimum.
class rssr_problem : public ga::problem {
 public:
  rssr_problem(const std::vector<double>& psi, const std::vector<double>& phi, double alpha4,
               double box = 6.0);
  int dimension() const override { return 6; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::VectorXd::Constant(6, -box_); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::VectorXd::Constant(6, box_); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "RSSR synthesis"; }

 private:
  Eigen::MatrixXd a_;
  Eigen::VectorXd b_;
  double box_;
};

// The GA's best point (global search) and its Householder Gauss-Newton refinement
// (numerics/gauss_newton.hpp): eq. (11) is linear in k, so one correction reaches the least-squares
// optimum, which the GA alone misses on ill-conditioned tables (errors of degrees on rssr_19).
struct ga_rssr_result {
  rssr_fit ga_fit;  // the GA stage
  rssr_fit fit;     // after refinement (the GA stage when refinement is off)
  bool refined = false;
  int refinement_iterations = 0;
  long long evaluations = 0;
  double ga_seconds = 0.0;
  double seconds = 0.0;  // both stages
};
ga_rssr_result ga_rssr(const std::vector<double>& psi, const std::vector<double>& phi,
                       double alpha4, const ga_synthesis_options& ga_options,
                       const core::run_context& context = {});

// 1/2 sum f_j^2 of the dyad equations over (Re a0, Im a0, Re b, Im b) in a box around the poses.
class dyad_problem : public ga::problem {
 public:
  explicit dyad_problem(std::vector<pose> poses);
  int dimension() const override { return 4; }
  Eigen::VectorXd lower_bounds() const override { return lower_; }
  Eigen::VectorXd upper_bounds() const override { return upper_; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "RR dyad"; }

 private:
  std::vector<pose> poses_;
  Eigen::VectorXd lower_, upper_;
};

// The GA's best point, polished by Gauss-Newton (Householder) as the source document's method
// would.
struct ga_dyad_result {
  dyad_solution solution;
  long long evaluations = 0;
  double seconds = 0.0;
};
ga_dyad_result ga_dyad(const std::vector<pose>& poses, const ga_synthesis_options& ga_options,
                       const core::run_context& context = {});

}  // namespace kinevo::synthesis
