// The threaded GIGSP row process against the serial sweep: the same kept, redundant and
// inconsistent rows, the same messages, results equal to round-off, independent of thread
// timing (repeated runs are bit-identical) and of the thread and block counts.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/mechanics/solvers/gigsp_threaded.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {
namespace {

// Uniform in [-1, 1) from the raw 32-bit engine output (the same numbers on every platform).
double uniform(std::mt19937& gen) {
  return static_cast<double>(gen()) / 2147483648.0 - 1.0;
}

struct random_system {
  Eigen::MatrixXd mass, jacobian;
  Eigen::VectorXd force, rhs;
  bool diagonal = true;
  std::vector<std::string> names;
  std::vector<int> redundant, inconsistent;  // the rows made so

  constrained_system view() const {
    constrained_system s;
    s.mass = mass;
    s.mass_is_diagonal = diagonal;
    s.force = force;
    s.jacobian = jacobian;
    s.rhs = rhs;
    s.constraint_names = names;
    return s;
  }
};

// A dense m x n system, b = A a0 (consistent), with every `every`-th row (from row 5) replaced by
// a combination of two earlier rows: redundant, or inconsistent every `bad_every`-th time (its b
// entry then misses the combination by 0.5).
random_system make_system(int m, int n, unsigned seed, bool spd_mass, int every = 9,
                          int bad_every = 3) {
  std::mt19937 gen(seed);
  random_system r;
  r.jacobian.resize(m, n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) r.jacobian(i, j) = uniform(gen);
  }
  Eigen::VectorXd a0(n);
  for (int j = 0; j < n; ++j) a0[j] = uniform(gen);
  r.rhs = r.jacobian * a0;
  int made = 0;
  for (int i = 5; i < m; i += every) {
    // Two earlier rows that are still random (not themselves made dependent).
    const auto pick = [&] {
      for (;;) {
        const int k = static_cast<int>(gen() % static_cast<unsigned>(i));
        if (k < 5 || (k - 5) % every != 0) return k;
      }
    };
    const int p = pick(), q = pick();
    const double c1 = uniform(gen), c2 = uniform(gen);
    r.jacobian.row(i) = c1 * r.jacobian.row(p) + c2 * r.jacobian.row(q);
    r.rhs[i] = c1 * r.rhs[p] + c2 * r.rhs[q];
    if (++made % bad_every == 0) {
      r.rhs[i] += 0.5;
      r.inconsistent.push_back(i);
    } else {
      r.redundant.push_back(i);
    }
  }
  r.force.resize(n);
  for (int j = 0; j < n; ++j) r.force[j] = uniform(gen);
  r.diagonal = !spd_mass;
  if (spd_mass) {
    Eigen::MatrixXd g(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) g(i, j) = uniform(gen);
    }
    r.mass = g * g.transpose() / n + Eigen::MatrixXd::Identity(n, n);
  } else {
    r.mass = Eigen::MatrixXd::Identity(n, n);
    for (int j = 0; j < n; ++j) r.mass(j, j) = 1.0 + 0.5 * (uniform(gen) + 1.0);
  }
  // Appended, not "c" + ...: GCC 12's -Wrestrict misfires on operator+(const char*, string&&)
  // as inlined in a unity batch.
  for (int i = 0; i < m; ++i) r.names.push_back(std::string("c").append(std::to_string(i)));
  return r;
}

double relative(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  return (x - y).norm() / std::max(1.0, y.norm());
}

constexpr double rank_tol = 1e-9, consistency_tol = 1e-7, degenerate_tol = 1e-8;

void expect_same_rows(const gram_schmidt_rows& threaded, const gram_schmidt_rows& serial) {
  EXPECT_EQ(threaded.kept, serial.kept);
  EXPECT_EQ(threaded.redundant, serial.redundant);
  EXPECT_EQ(threaded.inconsistent, serial.inconsistent);
  ASSERT_EQ(threaded.q.rows(), serial.q.rows());
  EXPECT_LT(relative(threaded.q, serial.q), 1e-11);
  EXPECT_LT(relative(threaded.beta, serial.beta), 1e-11);
}

struct shape {
  int m, n;
};

class GigspThreadedRows : public ::testing::TestWithParam<shape> {};

TEST_P(GigspThreadedRows, SameRowsAsTheSerialSweepForEveryThreadAndBlockCount) {
  const auto [m, n] = GetParam();
  const random_system r = make_system(m, n, 1000u + static_cast<unsigned>(m), false);
  const gram_schmidt_rows serial =
      orthonormalize_rows(r.jacobian, r.rhs, rank_tol, consistency_tol, degenerate_tol);
  if (m <= n) {  // otherwise rows beyond the rank are dependent too
    EXPECT_EQ(serial.redundant, r.redundant);
    EXPECT_EQ(serial.inconsistent, r.inconsistent);
  }
  for (int threads : {1, 2, 3}) {
    core::thread_pool pool(threads);
    for (int block : {1, 7, 32}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, blocks of " << block);
      expect_same_rows(orthonormalize_rows_threaded(r.jacobian, r.rhs, rank_tol, consistency_tol,
                                                    degenerate_tol, pool, block),
                       serial);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, GigspThreadedRows,
                         ::testing::Values(shape{6, 9}, shape{40, 33}, shape{61, 80},
                                           shape{150, 240}, shape{300, 420}));

TEST(GigspThreaded, RepeatedRunsAreBitIdentical) {
  const random_system r = make_system(150, 240, 7u, false);
  core::thread_pool pool(2);
  const gram_schmidt_rows first = orthonormalize_rows_threaded(
      r.jacobian, r.rhs, rank_tol, consistency_tol, degenerate_tol, pool, 16);
  for (int run = 0; run < 20; ++run) {
    const gram_schmidt_rows again = orthonormalize_rows_threaded(
        r.jacobian, r.rhs, rank_tol, consistency_tol, degenerate_tol, pool, 16);
    EXPECT_EQ(again.kept, first.kept);
    EXPECT_TRUE((again.q.array() == first.q.array()).all()) << "run " << run;
    EXPECT_TRUE((again.beta.array() == first.beta.array()).all()) << "run " << run;
  }
}

TEST(GigspThreaded, DegenerateRowIsDecidedByTheSerialSweep) {
  // Row 3 is 1e-6 of the others: the serial sweep makes it wait behind the larger rows, so the
  // threaded sweep hands the set over and the outcome is the serial one exactly.
  random_system r = make_system(40, 60, 11u, false);
  r.jacobian.row(3) *= 1e-6;
  r.rhs[3] *= 1e-6;
  const gram_schmidt_rows serial =
      orthonormalize_rows(r.jacobian, r.rhs, rank_tol, consistency_tol, degenerate_tol);
  core::thread_pool pool(2);
  const gram_schmidt_rows threaded = orthonormalize_rows_threaded(
      r.jacobian, r.rhs, rank_tol, consistency_tol, degenerate_tol, pool, 8);
  EXPECT_EQ(threaded.kept, serial.kept);
  EXPECT_NE(serial.kept[3], 3);  // the serial sweep did defer it
  EXPECT_TRUE((threaded.q.array() == serial.q.array()).all());
}

TEST(GigspThreaded, CholeskyAndProductSplitOverThreads) {
  const random_system r = make_system(200, 150, 5u, true);  // 4.5e6 flops: split
  const constrained_system s = r.view();
  mass_factor mf;
  ASSERT_TRUE(mf.compute(s));
  for (int threads : {1, 2, 3}) {
    core::thread_pool pool(threads);
    for (int block : {7, 64}) {
      Eigen::MatrixXd l;
      ASSERT_TRUE(threaded_cholesky(s.mass, pool, l, block));
      EXPECT_LT(relative(l * l.transpose(), s.mass), 1e-14);
      EXPECT_TRUE(l.isLowerTriangular(0.0));
      EXPECT_LT(relative(right_solve_lower_transpose_threaded(l, s.jacobian, pool),
                         mf.right_solve_upper(s.jacobian)),
                1e-13);
    }
  }
  Eigen::MatrixXd indefinite = s.mass;
  indefinite(100, 100) = -1.0;
  core::thread_pool pool(2);
  Eigen::MatrixXd l;
  EXPECT_FALSE(threaded_cholesky(indefinite, pool, l, 16));
}

class GigspThreadedSolver : public ::testing::TestWithParam<bool> {};

TEST_P(GigspThreadedSolver, SameAccelerationAndDiagnosisAsSerial) {
  const bool spd = GetParam();
  for (const shape& sh : {shape{40, 60}, shape{150, 240}}) {
    SCOPED_TRACE(testing::Message() << sh.m << "x" << sh.n << (spd ? " SPD M" : " diagonal M"));
    // Consistent (only redundant rows) and inconsistent sets.
    for (int bad_every : {1000, 3}) {
      const random_system r =
          make_system(sh.m, sh.n, 21u + static_cast<unsigned>(sh.m), spd, 9, bad_every);
      const constrained_system s = r.view();
      solver_options serial_options;
      solver_options threaded_options;
      threaded_options.direct.threads = 2;
      auto serial = make_solver("gigsp", serial_options);
      auto threaded = make_solver("gigsp", threaded_options);
      const acceleration_result a = serial->solve(s);
      const acceleration_result b = threaded->solve(s);
      EXPECT_EQ(b.status, a.status);
      EXPECT_EQ(b.message, a.message);
      EXPECT_EQ(b.rank, a.rank);
      EXPECT_EQ(b.redundant, a.redundant);
      EXPECT_EQ(b.inconsistent, a.inconsistent);
      EXPECT_EQ(a.inconsistent, r.inconsistent);
      if (a.status == solve_status::ok) {
        EXPECT_LT(relative(b.acceleration, a.acceleration), 1e-12);
        EXPECT_LT(relative(b.constraint_force, a.constraint_force), 1e-12);
        EXPECT_LT((s.jacobian * a.acceleration - s.rhs).cwiseAbs().maxCoeff(), 1e-9);
      } else {
        EXPECT_NE(a.message.find("'c" + std::to_string(r.inconsistent.front()) + "'"),
                  std::string::npos);
      }
      // The solver keeps its threads: a second solve gives the same answer bit for bit.
      const acceleration_result c = threaded->solve(s);
      EXPECT_EQ(c.message, b.message);
      if (b.status == solve_status::ok) {
        EXPECT_TRUE((c.acceleration.array() == b.acceleration.array()).all());
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Mass, GigspThreadedSolver, ::testing::Bool());

TEST(GigspThreaded, NoConstraintsAndIndefiniteMassAsSerial) {
  for (bool spd : {false, true}) {
    random_system r = make_system(10, 140, 3u, spd);
    solver_options o;
    o.direct.threads = 2;
    auto serial = make_solver("gigsp", {});
    auto threaded = make_solver("gigsp", o);
    random_system free_body = r;
    free_body.jacobian.resize(0, 140);
    free_body.rhs.resize(0);
    free_body.names.clear();
    const acceleration_result a = serial->solve(free_body.view());
    const acceleration_result b = threaded->solve(free_body.view());
    EXPECT_EQ(b.status, solve_status::ok);
    EXPECT_LT(relative(b.acceleration, a.acceleration), 1e-12);
    r.mass(70, 70) = -1.0;
    const acceleration_result c = serial->solve(r.view());
    const acceleration_result d = threaded->solve(r.view());
    EXPECT_EQ(c.status, solve_status::singular);
    EXPECT_EQ(d.status, c.status);
    EXPECT_EQ(d.message, c.message);
  }
}

TEST(GigspThreaded, ThreadsOptionIsValidated) {
  solver_options o;
  o.direct.threads = 4097;
  EXPECT_THROW(o.validate(), io::option_error);
  o.direct.threads = -1;
  EXPECT_THROW(o.validate(), io::option_error);
  o.direct.threads = 4096;
  EXPECT_NO_THROW(o.validate());
}

}  // namespace
}  // namespace kinevo::mechanics
