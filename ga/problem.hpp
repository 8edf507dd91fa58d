// The GA's problem interface (after pagmo2's problem/algorithm separation): a box-bounded
// minimisation problem evaluated a whole population at a time, so that objectives can use
// matrix products. ga/ knows nothing else about what it optimises.
#pragma once

#include <Eigen/Core>
#include <string>

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
};

}  // namespace kinevo::ga
