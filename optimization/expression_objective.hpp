// A problem file (symbolic::expression_problem) as a ga::problem. Constraints g(x) <= 0 and
// h(x) = 0 enter by ga's penalty (ga/penalty.hpp, kind fixed) with the file's weights:
//   value = f(x) + sum_g w_g max(0, g(x))^2 + sum_h w_h h(x)^2.
// A population is evaluated column by column from the compiled tape.
#pragma once

#include <memory>

#include "ga/penalty.hpp"
#include "ga/problem.hpp"
#include "symbolic/optimization_problem.hpp"

namespace kinevo::optimization {

class expression_objective : public ga::problem {
 public:
  explicit expression_objective(std::shared_ptr<const symbolic::expression_problem> p);

  int dimension() const override;
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  std::string name() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;

  const symbolic::expression_problem& expressions() const { return *p_; }
  // The penalty: weights w_i from the file ([[constraint]] weight, else [problem] weight).
  const ga::penalty& constraint_penalty() const { return penalty_; }

 private:
  std::shared_ptr<const symbolic::expression_problem> p_;
  ga::penalty penalty_;
};

}  // namespace kinevo::optimization
