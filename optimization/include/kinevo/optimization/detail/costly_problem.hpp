// A problem with a busy wait per evaluated candidate, to measure parallel scaling on an
// objective of known cost (`kinevo optimize --cost-us`, bench/).
#pragma once

#include <chrono>

#include "kinevo/ga/problem.hpp"

namespace kinevo::optimization {

class costly_problem : public ga::problem {
 public:
  costly_problem(const ga::problem& inner, double micros) : inner_(inner), micros_(micros) {}
  int dimension() const override { return inner_.dimension(); }
  Eigen::VectorXd lower_bounds() const override { return inner_.lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return inner_.upper_bounds(); }
  std::string name() const override { return inner_.name(); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration<double, std::micro>(micros_ * x.cols());
    inner_.evaluate(x, values);
    while (std::chrono::steady_clock::now() < until) {
    }
  }

 private:
  const ga::problem& inner_;
  double micros_;
};

}  // namespace kinevo::optimization
