// A problem with constraints g_i(x) <= 0 and h_i(x) = 0, as a caller writes it: the objective and
// the raw constraint values. ga::constrained_objective turns it into the ga::problem the islands
// minimise, by the constraint handling of the run (ga/constraint_handling.hpp).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace kinevo::ga {

class constrained_problem {
 public:
  virtual ~constrained_problem() = default;

  virtual int dimension() const = 0;
  virtual Eigen::VectorXd lower_bounds() const = 0;
  virtual Eigen::VectorXd upper_bounds() const = 0;
  virtual std::string name() const { return "problem"; }
  // As problem::integer_variables.
  virtual std::vector<int> integer_variables() const { return {}; }

  virtual int constraint_count() const = 0;
  virtual bool is_equality(int i) const = 0;
  virtual std::string constraint_name(int i) const = 0;

  // Objective values (count) and constraint values (constraint_count() x count) of the
  // candidates in the columns of x. Thread-safe; non-finite values are errors of the problem.
  virtual void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                        Eigen::Ref<Eigen::VectorXd> values,
                        Eigen::Ref<Eigen::MatrixXd> constraints) const = 0;
};

}  // namespace kinevo::ga
