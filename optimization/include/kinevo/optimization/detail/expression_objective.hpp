// A problem file (symbolic::expression_problem) as a ga::constrained_problem: the objective and
// the raw constraint values g(x) <= 0, h(x) = 0 at the DECODED genes (integer genes rounded,
// discrete indices mapped to their values: symbolic::expression_problem::decode). How the
// constraints enter the GA (penalty with the file's weights, multipliers, feasibility rules,
// epsilon level) is ga::constrained_objective's work. A population is evaluated column by
// column from the compiled tape.
#pragma once

#include <memory>

#include "kinevo/ga/constrained_problem.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"

namespace kinevo::optimization {

class expression_objective : public ga::constrained_problem {
 public:
  explicit expression_objective(std::shared_ptr<const symbolic::expression_problem> p);

  int dimension() const override;
  // The file's bounds; an integer or discrete variable's box is widened by 1/2 on both sides
  // so that, rounded, its end values are drawn as often as the others.
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  std::string name() const override;
  std::vector<int> integer_variables() const override;
  int constraint_count() const override;
  bool is_equality(int i) const override;
  std::string constraint_name(int i) const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> constraints) const override;

  const symbolic::expression_problem& expressions() const { return *p_; }
  // The file's weight of every constraint ([[constraint]] weight, else [problem] penalty).
  Eigen::VectorXd weights() const;

 private:
  std::shared_ptr<const symbolic::expression_problem> p_;
  std::vector<int> integers_;
};

}  // namespace kinevo::optimization
