// The shortest way to run the island GA from C++: minimise a function of one point (a lambda)
// over a box, ga::minimize(f, lower, upper, options). The objective is evaluated a point at a
// time; the island model, its operators and limits are those of island_model (docs/package.md).
#pragma once

#include <Eigen/Core>
#include <functional>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/termination.hpp"

namespace kinevo::ga {

struct minimize_options {
  ga_options ga;           // population, encoding, operators (defaults: kinevo's real-coded GA)
  island_options islands;  // islands, transport, threads, seed
  termination limits;      // default: 1000 generations
  // Throws io::option_error (a std::invalid_argument) naming the first bad field.
  void validate() const;
};

// f(x) for one point x (size lower.size()). With several islands or threads f is called from
// several threads at once: it must then be safe to call concurrently (or set
// options.islands.threads = 1). A non-finite value stops the run with ga::evaluation_error
// naming the point. Throws io::option_error for a bad box (sizes differ, a bound not finite,
// lower >= upper) or bad options.
run_result minimize(const std::function<double(const Eigen::VectorXd&)>& f,
                    const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                    const minimize_options& options = {});

}  // namespace kinevo::ga
