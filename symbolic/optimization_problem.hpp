// `kinevo optimize --problem FILE`: a box-bounded problem written as expressions in a TOML
// file, turned into a ga::problem. Constraints g(x) <= 0 and h(x) = 0 are handled by penalty
// weights: value = f(x) + sum_g w_g max(0, g(x))^2 + sum_h w_h h(x)^2. The expressions are
// compiled once into an evaluation tape; a population is evaluated column by column from it.
// File format: docs/model-files.md, section "Optimization problems".
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ga/problem.hpp"

namespace kinevo::symbolic {

// What a loaded problem file says, for reports (the GA sees only ga::problem).
class expression_problem : public ga::problem {
 public:
  struct constraint_info {
    std::string name;
    bool equality = false;  // h(x) = 0; otherwise g(x) <= 0
    double weight = 0.0;
  };

  int dimension() const override;
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override;

  const std::vector<std::string>& variable_names() const;
  const std::vector<constraint_info>& constraints() const;
  // The objective f(x) alone, and each constraint's value g_i(x) or h_i(x), at one point.
  double objective(const Eigen::VectorXd& x) const;
  Eigen::VectorXd constraint_values(const Eigen::VectorXd& x) const;
  // Largest violation: max(0, g_i) and |h_i| over all constraints (0 when feasible).
  double max_violation(const Eigen::VectorXd& x) const;

  ~expression_problem() override;
  struct impl;
  explicit expression_problem(std::unique_ptr<impl> p);

 private:
  std::unique_ptr<impl> impl_;
};

// Loads a problem file. Throws io::input_error naming the file, line and field (unknown
// variable name, parse error, bad bounds, unknown constraint type, ...).
std::unique_ptr<expression_problem> load_optimization_problem(const std::filesystem::path& path);
std::unique_ptr<expression_problem> load_optimization_problem_from_string(
    const std::string& text, const std::string& source);

}  // namespace kinevo::symbolic
