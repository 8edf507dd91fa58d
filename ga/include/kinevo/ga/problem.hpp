// The GA's problem interface (after pagmo2's problem/algorithm separation): a box-bounded
// minimisation problem evaluated a whole population at a time, so that objectives can use
// matrix products. ga/ knows nothing else about what it optimises.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace kinevo::ga {

class problem {
 public:
  virtual ~problem() = default;

  // Number of decision variables n.
  virtual int dimension() const = 0;

  // Default search box [lower, upper] (each of size n, lower < upper). Range runs and callers
  // may search a different box; the problem must still evaluate any finite point.
  virtual Eigen::VectorXd lower_bounds() const = 0;
  virtual Eigen::VectorXd upper_bounds() const = 0;

  // Objective values of the candidates in the columns of x (n x count) into values (count).
  // Must be thread-safe (const, no shared mutable state): islands evaluate concurrently.
  // A non-finite value is an error in the problem; the engine stops with a message.
  virtual void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                        Eigen::Ref<Eigen::VectorXd> values) const = 0;

  virtual std::string name() const { return "problem"; }

  // Constrained problems whose islands compare by feasibility (ga/constraint_handling.hpp):
  // true when evaluate_with_violation reports a total violation per candidate (>= 0, 0 when
  // feasible). A problem that folds its constraints into the value (a penalty) returns false.
  virtual bool reports_violation() const { return false; }
  // Values and total violations of the candidates in the columns of x. The default evaluates
  // and reports no violation. Same thread-safety and finiteness rules as evaluate().
  virtual void evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                       Eigen::Ref<Eigen::VectorXd> values,
                                       Eigen::Ref<Eigen::VectorXd> violations) const {
    evaluate(x, values);
    violations.setZero();
  }

  // Variables (indices, ascending) that take integer values only: the islands round these genes
  // to the nearest integer (ties to even) before every evaluation, so that the population, the
  // best point and the checkpoint hold integers. Discrete variables are integer indices here;
  // mapping an index to its value is the problem's (the decoder of integer and discrete
  // variables). The box bounds of such a variable should be integers.
  virtual std::vector<int> integer_variables() const { return {}; }
};

}  // namespace kinevo::ga
