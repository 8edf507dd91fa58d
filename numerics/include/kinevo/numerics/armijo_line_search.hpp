// The inexact line search of a quasi-Newton minimiser (the DFP iterations of assembly): along a
// descent direction d from q, backtracking with safeguarded quadratic interpolation until the
// sufficient-decrease (Armijo) condition F(q + alpha d) <= F(q) + 1e-4 alpha g^T d holds
// (Nocedal and Wright, Numerical Optimization, eq. (3.4)), then one quadratic-fit step towards
// the line minimum (DFP's quadratic termination assumes exact line searches) and doublings
// while F keeps decreasing.
#pragma once

#include <Eigen/Core>
#include <functional>

namespace kinevo::numerics {

struct line_search_point {
  double alpha = 0.0;  // the step length; 0 when no length decreases F
  double value = 0.0;  // F(q + alpha d) (F(q) when alpha is 0)
};

// f0 = F(q), slope = g^T d < 0.
line_search_point armijo_line_search(const std::function<double(const Eigen::VectorXd&)>& f,
                                     const Eigen::VectorXd& q, const Eigen::VectorXd& d, double f0,
                                     double slope);

}  // namespace kinevo::numerics
