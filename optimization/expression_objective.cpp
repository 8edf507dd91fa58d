#include "kinevo/optimization/detail/expression_objective.hpp"

#include <utility>
#include <vector>

namespace kinevo::optimization {

expression_objective::expression_objective(std::shared_ptr<const symbolic::expression_problem> p)
    : p_(std::move(p)) {
  const auto& kinds = p_->variable_kinds();
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    if (kinds[j] != symbolic::variable_kind::real) integers_.push_back(static_cast<int>(j));
  }
}

int expression_objective::dimension() const {
  return p_->dimension();
}
Eigen::VectorXd expression_objective::lower_bounds() const {
  Eigen::VectorXd lo = p_->lower_bounds();
  for (const int j : integers_) lo[j] -= 0.5;
  return lo;
}
Eigen::VectorXd expression_objective::upper_bounds() const {
  Eigen::VectorXd hi = p_->upper_bounds();
  for (const int j : integers_) hi[j] += 0.5;
  return hi;
}
std::string expression_objective::name() const {
  return p_->name();
}
std::vector<int> expression_objective::integer_variables() const {
  return integers_;
}
int expression_objective::constraint_count() const {
  return static_cast<int>(p_->constraints().size());
}
bool expression_objective::is_equality(int i) const {
  return p_->constraints()[static_cast<std::size_t>(i)].equality;
}
std::string expression_objective::constraint_name(int i) const {
  return p_->constraints()[static_cast<std::size_t>(i)].name;
}

Eigen::VectorXd expression_objective::weights() const {
  const auto& c = p_->constraints();
  Eigen::VectorXd w(static_cast<Eigen::Index>(c.size()));
  for (std::size_t k = 0; k < c.size(); ++k) w[static_cast<Eigen::Index>(k)] = c[k].weight;
  return w;
}

void expression_objective::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                    Eigen::Ref<Eigen::VectorXd> values,
                                    Eigen::Ref<Eigen::MatrixXd> constraints) const {
  // Local buffers: evaluate is called concurrently by the islands.
  std::vector<double> scratch(static_cast<std::size_t>(p_->scratch_size()));
  std::vector<double> out(static_cast<std::size_t>(p_->outputs()));
  std::vector<double> in(static_cast<std::size_t>(x.rows()));
  const Eigen::Index m = constraints.rows();
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    for (Eigen::Index i = 0; i < x.rows(); ++i) in[static_cast<std::size_t>(i)] = x(i, c);
    if (!integers_.empty()) p_->decode(in.data(), in.data());
    p_->evaluate(in.data(), out.data(), scratch.data());
    values[c] = out[0];
    for (Eigen::Index k = 0; k < m; ++k) constraints(k, c) = out[static_cast<std::size_t>(k) + 1];
  }
}

}  // namespace kinevo::optimization
