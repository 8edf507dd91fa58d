// Random dense constrained systems with chosen redundant and inconsistent rows, for comparing
// the distributed GIGSP with the serial one (unit tests and the mpiexec driver). Deterministic:
// std::mt19937_64 with a fixed seed.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::test {

class random_gigsp_system {
 public:
  // m x n (m < n) rows uniform in [-1, 1]; each row of `redundant` is a combination of three
  // earlier rows with b combined alike; each row of `inconsistent` the same but b off by 1.
  // A row of `nearly_dependent` is the row before it plus 1e-6 of noise (the serial sweep lets it
  // wait). M is diagonal or a dense SPD matrix.
  random_gigsp_system(int m, int n, unsigned seed, const std::vector<int>& redundant,
                      const std::vector<int>& inconsistent, bool dense_mass,
                      const std::vector<int>& nearly_dependent = {}) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const auto random_matrix = [&](int rows, int cols) {
      Eigen::MatrixXd x(rows, cols);
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) x(i, j) = u(rng);
      return x;
    };
    a_ = random_matrix(m, n);
    b_ = random_matrix(m, 1).col(0);
    f_ = random_matrix(n, 1).col(0);
    // Combinations are taken from the rows before the first special one (independent rows).
    int base = m;
    for (const auto* rows : {&redundant, &inconsistent, &nearly_dependent})
      for (const int r : *rows) base = std::min(base, r);
    const auto combine = [&](int row, double offset) {
      a_.row(row).setZero();
      b_[row] = offset;
      for (int t = 0; t < 3; ++t) {
        const int from = (row * 7 + 3 * t) % base;
        const double c = u(rng);
        a_.row(row) += c * a_.row(from);
        b_[row] += c * b_[from];
      }
    };
    for (const int r : redundant) combine(r, 0.0);
    for (const int r : inconsistent) combine(r, 1.0);
    for (const int r : nearly_dependent) {
      a_.row(r) = a_.row(r - 1) + 1e-6 * random_matrix(1, n);
      b_[r] = b_[r - 1];
    }
    if (dense_mass) {
      const Eigen::MatrixXd g = random_matrix(n, n);
      mass_ = g * g.transpose() / n + Eigen::MatrixXd::Identity(n, n);
    } else {
      mass_ = Eigen::MatrixXd::Zero(n, n);
      for (int i = 0; i < n; ++i) mass_(i, i) = 2.0 + u(rng);
    }
    diagonal_ = !dense_mass;
    for (int i = 0; i < m; ++i) names_.push_back("row" + std::to_string(i));
  }
  random_gigsp_system(const random_gigsp_system&) = delete;
  random_gigsp_system& operator=(const random_gigsp_system&) = delete;

  // The system; its names point into this object.
  mechanics::constrained_system system() const {
    mechanics::constrained_system s;
    s.mass = mass_;
    s.mass_is_diagonal = diagonal_;
    s.force = f_;
    s.jacobian = a_;
    s.rhs = b_;
    s.constraint_names = names_;
    return s;
  }

 private:
  Eigen::MatrixXd a_, mass_;
  Eigen::VectorXd b_, f_;
  bool diagonal_ = true;
  std::vector<std::string> names_;
};

}  // namespace kinevo::test
