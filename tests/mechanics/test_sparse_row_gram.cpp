// sparse_row_gram (A A^T through a structure made once per pattern of A) against Eigen's sparse
// product A * A^T, which it replaces in the projection method and the qtz-reduced screen: the
// same numbers to the bit, through both ways of giving A and across changes of its pattern.
#include <gtest/gtest.h>

#include <Eigen/SparseCore>
#include <cstring>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "kinevo/mechanics/solvers/sparse_row_gram.hpp"

namespace kinevo::mechanics {
namespace {

// A random m x n pattern, row by row (each row at least one entry), and a dense A with random
// values there (zeros elsewhere; some pattern entries exactly zero, which stay in the structure).
struct random_case {
  std::vector<std::pair<int, int>> pattern;
  Eigen::MatrixXd dense;
};

random_case make_case(int m, int n, double density, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0), value(-2.0, 2.0);
  random_case c;
  c.dense = Eigen::MatrixXd::Zero(m, n);
  for (int i = 0; i < m; ++i) {
    const int forced = static_cast<int>(unit(rng) * n) % n;
    for (int j = 0; j < n; ++j) {
      if (j != forced && unit(rng) > density) continue;
      c.pattern.emplace_back(i, j);
      c.dense(i, j) = unit(rng) < 0.1 ? 0.0 : value(rng);
    }
  }
  return c;
}

Eigen::SparseMatrix<double> sparse_of(const random_case& c) {
  std::vector<Eigen::Triplet<double>> entries;
  for (const auto& [i, j] : c.pattern) entries.emplace_back(i, j, c.dense(i, j));
  Eigen::SparseMatrix<double> a(c.dense.rows(), c.dense.cols());
  a.setFromTriplets(entries.begin(), entries.end());
  return a;
}

// Every stored entry of `lower` equals Eigen's A * A^T there, bit for bit, and every nonzero of
// the product's lower triangle is stored.
void expect_equals_eigens_product(const sparse_row_gram& gram, const Eigen::SparseMatrix<double>& a,
                                  const char* what) {
  const Eigen::SparseMatrix<double> product = a * a.transpose();
  const Eigen::MatrixXd expected = Eigen::MatrixXd(product).triangularView<Eigen::Lower>();
  const Eigen::MatrixXd formed = gram.lower();
  ASSERT_EQ(formed.rows(), expected.rows()) << what;
  EXPECT_EQ(std::memcmp(formed.data(), expected.data(),
                        static_cast<std::size_t>(formed.size()) * sizeof(double)),
            0)
      << what;
  EXPECT_EQ(Eigen::MatrixXd(gram.matrix()), Eigen::MatrixXd(a)) << what;
  EXPECT_EQ(Eigen::MatrixXd(gram.matrix_by_rows()), Eigen::MatrixXd(a)) << what;
  for (std::size_t i = 0; i < gram.diagonal().size(); ++i) {
    ASSERT_GE(gram.diagonal()[i], 0) << what;
    EXPECT_EQ(gram.lower().valuePtr()[gram.diagonal()[i]],
              expected(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i)))
        << what;
  }
}

TEST(SparseRowGram, EqualsEigensProductToTheBit) {
  std::mt19937 rng(30);
  // One object for every case: the structure follows the pattern, the values every call.
  sparse_row_gram by_pattern, by_matrix;
  for (const auto& [m, n, density] : std::vector<std::tuple<int, int, double>>{
           {8, 12, 0.3}, {8, 12, 0.3}, {20, 45, 0.1}, {20, 45, 0.1}, {5, 5, 1.0}, {31, 40, 0.05}}) {
    const random_case c = make_case(m, n, density, rng);
    by_pattern.form(c.dense, c.pattern);
    expect_equals_eigens_product(by_pattern, sparse_of(c), "dense values at a pattern");
    by_matrix.form(sparse_of(c));
    expect_equals_eigens_product(by_matrix, sparse_of(c), "a sparse matrix");
    // New values on the same pattern: the kept structure gives the new product.
    random_case moved = c;
    for (const auto& [i, j] : c.pattern) moved.dense(i, j) = 3.0 * c.dense(i, j) - 0.5;
    by_pattern.form(moved.dense, moved.pattern);
    expect_equals_eigens_product(by_pattern, sparse_of(moved), "new values, same pattern");
    by_matrix.form(sparse_of(moved));
    expect_equals_eigens_product(by_matrix, sparse_of(moved), "new values, same sparse pattern");
  }
}

}  // namespace
}  // namespace kinevo::mechanics
