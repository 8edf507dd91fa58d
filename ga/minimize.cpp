#include "kinevo/ga/minimize.hpp"

#include <stdexcept>
#include <utility>

#include "kinevo/ga/problem.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {

namespace {

// A ga::problem around a function of one point: the population's columns one at a time.
class pointwise_objective final : public problem {
 public:
  pointwise_objective(const std::function<double(const Eigen::VectorXd&)>& f, Eigen::VectorXd lower,
                      Eigen::VectorXd upper)
      : f_(f), lower_(std::move(lower)), upper_(std::move(upper)) {}
  int dimension() const override { return static_cast<int>(lower_.size()); }
  Eigen::VectorXd lower_bounds() const override { return lower_; }
  Eigen::VectorXd upper_bounds() const override { return upper_; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    Eigen::VectorXd point(x.rows());
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
      point = x.col(k);
      values[k] = f_(point);
    }
  }
  std::string name() const override { return "function"; }

 private:
  const std::function<double(const Eigen::VectorXd&)>& f_;
  Eigen::VectorXd lower_, upper_;
};

}  // namespace

void minimize_options::validate() const {
  ga.validate();
  islands.validate(ga);
  limits.validate();
}

run_result minimize(const std::function<double(const Eigen::VectorXd&)>& f,
                    const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                    const minimize_options& options) {
  if (!f) throw io::option_error("objective", "must be a callable function (it is empty)");
  options.validate();
  if (lower.size() == 0) throw io::option_error("lower", "must have at least one variable");
  const search_box box{lower, upper};
  box.validate(static_cast<int>(lower.size()));
  const pointwise_objective objective(f, lower, upper);
  island_model model(options.ga, options.islands);
  return model.run(objective, box, options.limits);
}

}  // namespace kinevo::ga
