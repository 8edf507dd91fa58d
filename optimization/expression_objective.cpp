#include "optimization/expression_objective.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace kinevo::optimization {

namespace {

// The file's weights as ga's penalty: weight 1 scaled per constraint, so that w_i is the file's
// value exactly (names need not be unique, so they are not used as keys).
ga::penalty penalty_of(const symbolic::expression_problem& p) {
  const auto& constraints = p.constraints();
  const int n = static_cast<int>(constraints.size());
  ga::penalty pen(ga::penalty_options{}, {}, n);
  Eigen::VectorXd w(n);
  for (int k = 0; k < n; ++k) w(k) = constraints[static_cast<std::size_t>(k)].weight;
  if (n > 0) pen.set_weight_scales(w);
  return pen;
}

}  // namespace

expression_objective::expression_objective(std::shared_ptr<const symbolic::expression_problem> p)
    : p_(std::move(p)), penalty_(penalty_of(*p_)) {}

int expression_objective::dimension() const {
  return p_->dimension();
}
Eigen::VectorXd expression_objective::lower_bounds() const {
  return p_->lower_bounds();
}
Eigen::VectorXd expression_objective::upper_bounds() const {
  return p_->upper_bounds();
}
std::string expression_objective::name() const {
  return p_->name();
}

void expression_objective::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                    Eigen::Ref<Eigen::VectorXd> values) const {
  // Local buffers: evaluate is called concurrently by the islands.
  std::vector<double> scratch(static_cast<std::size_t>(p_->scratch_size()));
  std::vector<double> out(static_cast<std::size_t>(p_->outputs()));
  std::vector<double> in(static_cast<std::size_t>(x.rows()));
  const auto& constraints = p_->constraints();
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    for (Eigen::Index i = 0; i < x.rows(); ++i) in[static_cast<std::size_t>(i)] = x(i, c);
    p_->evaluate(in.data(), out.data(), scratch.data());
    double v = out[0];
    for (std::size_t k = 0; k < constraints.size(); ++k) {
      const double g = out[k + 1];
      const double w = penalty_.weights()(static_cast<Eigen::Index>(k));
      const double open = std::max(0.0, g);  // an inequality counts only when violated
      v += constraints[k].equality ? w * g * g : w * (open * open);
    }
    values[c] = v;
  }
}

}  // namespace kinevo::optimization
