// The distributed GIGSP against the serial one: with the one-rank collective and with two
// "ranks" run as threads of this process (an in-process collective), on random dense systems
// with redundant and inconsistent rows. The same answer to round-off, the same rows by name,
// and every rank the same result bit for bit.
#include <gtest/gtest.h>

#include <barrier>
#include <memory>
#include <thread>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/solvers/gigsp_distributed.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "random_gigsp_systems.hpp"

namespace kinevo::mechanics {
namespace {

// Ranks as threads: a broadcast or an allgather goes through per-rank slots between barriers.
class thread_hub {
 public:
  explicit thread_hub(int size) : slots(static_cast<std::size_t>(size)), barrier(size) {}
  std::vector<std::vector<double>> slots;
  std::barrier<> barrier;
};

class thread_collective final : public row_collective {
 public:
  thread_collective(thread_hub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(hub_.slots.size()); }
  void broadcast(std::span<double> data, int root) override {
    if (rank_ == root) hub_.slots[static_cast<std::size_t>(root)].assign(data.begin(), data.end());
    hub_.barrier.arrive_and_wait();
    if (rank_ != root) {
      const auto& from = hub_.slots[static_cast<std::size_t>(root)];
      std::copy(from.begin(), from.end(), data.begin());
    }
    hub_.barrier.arrive_and_wait();
  }
  void allgather(std::span<const double> local, std::span<double> all) override {
    hub_.slots[static_cast<std::size_t>(rank_)].assign(local.begin(), local.end());
    hub_.barrier.arrive_and_wait();
    auto out = all.begin();
    for (const auto& slot : hub_.slots) out = std::copy(slot.begin(), slot.end(), out);
    hub_.barrier.arrive_and_wait();
  }

 private:
  thread_hub& hub_;
  int rank_;
};

struct distributed_run {
  std::vector<acceleration_result> results;  // per rank
  std::vector<gigsp_distribution_statistics> statistics;
};

distributed_run solve_on_threads(const constrained_system& s, int ranks, int block_rows,
                                 int min_rows = 1) {
  thread_hub hub(ranks);
  distributed_run run;
  run.results.resize(static_cast<std::size_t>(ranks));
  run.statistics.resize(static_cast<std::size_t>(ranks));
  std::vector<std::jthread> threads;
  for (int p = 0; p < ranks; ++p) {
    threads.emplace_back([&, p] {
      gigsp_distributed_solver solver({}, std::make_shared<thread_collective>(hub, p),
                                      {.block_rows = block_rows, .min_rows = min_rows});
      run.results[static_cast<std::size_t>(p)] = solver.solve(s);
      run.statistics[static_cast<std::size_t>(p)] = solver.last_statistics();
    });
  }
  threads.clear();  // joins
  return run;
}

void expect_same_as_serial(const acceleration_result& d, const acceleration_result& serial) {
  EXPECT_EQ(d.status, serial.status);
  EXPECT_EQ(d.rank, serial.rank);
  EXPECT_EQ(d.redundant, serial.redundant);
  EXPECT_EQ(d.inconsistent, serial.inconsistent);
  EXPECT_EQ(d.message, serial.message);
  ASSERT_EQ(d.acceleration.size(), serial.acceleration.size());
  if (serial.acceleration.size() == 0) return;
  const double scale = 1.0 + serial.acceleration.cwiseAbs().maxCoeff();
  EXPECT_LT((d.acceleration - serial.acceleration).cwiseAbs().maxCoeff(), 1e-10 * scale);
  EXPECT_LT((d.constraint_force - serial.constraint_force).cwiseAbs().maxCoeff(), 1e-9 * scale);
}

void expect_bitwise_equal(const acceleration_result& a, const acceleration_result& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.redundant, b.redundant);
  EXPECT_EQ(a.inconsistent, b.inconsistent);
  EXPECT_EQ(a.message, b.message);
  ASSERT_EQ(a.acceleration.size(), b.acceleration.size());
  for (Eigen::Index i = 0; i < a.acceleration.size(); ++i) {
    EXPECT_EQ(a.acceleration[i], b.acceleration[i]);
    EXPECT_EQ(a.constraint_force[i], b.constraint_force[i]);
  }
}

struct system_case {
  int m, n;
  unsigned seed;
  std::vector<int> redundant, inconsistent;
  bool dense_mass;
};

const std::vector<system_case>& cases() {
  static const std::vector<system_case> c = {
      {40, 60, 1, {}, {}, false},
      {40, 60, 2, {17, 33}, {}, false},
      {50, 70, 3, {20, 21, 45}, {}, true},
      {45, 60, 4, {12}, {30}, false},
      {60, 80, 5, {25, 26}, {40, 59}, true},
  };
  return c;
}

TEST(GigspDistributed, OneRankCollectiveMatchesSerialGigsp) {
  for (const auto& c : cases()) {
    const test::random_gigsp_system sys(c.m, c.n, c.seed, c.redundant, c.inconsistent,
                                        c.dense_mass);
    const constrained_system s = sys.system();
    const acceleration_result serial = gigsp_solver().solve(s);
    EXPECT_EQ(serial.redundant, c.redundant) << c.seed;
    EXPECT_EQ(serial.inconsistent, c.inconsistent) << c.seed;
    for (const int block : {1, 7, 16, 100}) {
      SCOPED_TRACE(testing::Message() << "seed " << c.seed << " block " << block);
      gigsp_distributed_solver d({}, std::make_shared<serial_collective>(),
                                 {.block_rows = block, .min_rows = 1});
      expect_same_as_serial(d.solve(s), serial);
      EXPECT_FALSE(d.last_statistics().serial_route);
      EXPECT_FALSE(d.last_statistics().fell_back);
    }
  }
}

TEST(GigspDistributed, TwoThreadRanksMatchSerialAndEachOtherBitForBit) {
  for (const auto& c : cases()) {
    const test::random_gigsp_system sys(c.m, c.n, c.seed, c.redundant, c.inconsistent,
                                        c.dense_mass);
    const constrained_system s = sys.system();
    const acceleration_result serial = gigsp_solver().solve(s);
    for (const int ranks : {2, 3}) {
      for (const int block : {1, 5, 16}) {
        SCOPED_TRACE(testing::Message()
                     << "seed " << c.seed << " ranks " << ranks << " block " << block);
        const distributed_run run = solve_on_threads(s, ranks, block);
        expect_same_as_serial(run.results[0], serial);
        for (int p = 1; p < ranks; ++p) {
          expect_bitwise_equal(run.results[static_cast<std::size_t>(p)], run.results[0]);
        }
        EXPECT_FALSE(run.statistics[0].fell_back);
        EXPECT_GT(run.statistics[0].broadcasts, 0);
      }
    }
  }
}

TEST(GigspDistributed, NamesInconsistentRowsLikeTheSerialSolver) {
  const test::random_gigsp_system sys(30, 40, 11, {}, {12, 25}, false);
  const constrained_system s = sys.system();
  const distributed_run run = solve_on_threads(s, 2, 4);
  EXPECT_EQ(run.results[1].status, solve_status::inconsistent);
  EXPECT_EQ(run.results[1].inconsistent, (std::vector<int>{12, 25}));
  EXPECT_NE(run.results[1].message.find("'row12', 'row25'"), std::string::npos)
      << run.results[1].message;
  EXPECT_EQ(run.results[1].message, gigsp_solver().solve(s).message);
}

TEST(GigspDistributed, RowThatWouldWaitFallsBackToTheSerialSweep) {
  // Row 20 is row 19 plus 1e-6 of noise: the serial sweep lets it wait behind larger rows, an
  // order the blocked sweep does not reproduce, so rank 0 runs the serial sweep for everyone.
  const test::random_gigsp_system sys(30, 40, 12, {}, {}, false, {20});
  const constrained_system s = sys.system();
  const acceleration_result serial = gigsp_solver().solve(s);
  const distributed_run run = solve_on_threads(s, 2, 8);
  EXPECT_TRUE(run.statistics[0].fell_back);
  EXPECT_TRUE(run.statistics[1].fell_back);
  expect_bitwise_equal(run.results[0], serial);
  expect_bitwise_equal(run.results[1], serial);
}

TEST(GigspDistributed, NoConstraintsAndBadMassTakeTheSerialRoute) {
  test::random_gigsp_system sys(0, 5, 13, {}, {}, false);
  constrained_system s = sys.system();
  const distributed_run free = solve_on_threads(s, 2, 4);
  EXPECT_TRUE(free.statistics[1].serial_route);
  expect_bitwise_equal(free.results[1], gigsp_solver().solve(s));

  const test::random_gigsp_system sys2(4, 6, 14, {}, {}, false);
  s = sys2.system();
  s.mass(2, 2) = -1.0;
  const distributed_run bad = solve_on_threads(s, 2, 4);
  EXPECT_EQ(bad.results[1].status, solve_status::singular);
  EXPECT_EQ(bad.results[1].message, gigsp_solver().solve(s).message);
}

TEST(GigspDistributed, SmallSystemsAreSolvedByTheSerialSweepOnRankZero) {
  // Below min_rows (default 32) the answer is the serial GIGSP's, bit for bit, on every rank.
  const test::random_gigsp_system sys(20, 30, 15, {7}, {}, false);
  const constrained_system s = sys.system();
  const distributed_run run = solve_on_threads(s, 2, 4, gigsp_distribution_options{}.min_rows);
  EXPECT_TRUE(run.statistics[0].serial_route);
  EXPECT_TRUE(run.statistics[1].serial_route);
  expect_bitwise_equal(run.results[0], gigsp_solver().solve(s));
  expect_bitwise_equal(run.results[1], run.results[0]);
}

TEST(GigspDistributed, OptionsValidateThemselves) {
  EXPECT_THROW(
      gigsp_distributed_solver({}, std::make_shared<serial_collective>(), {.block_rows = 0}),
      io::option_error);
  EXPECT_THROW(
      gigsp_distributed_solver({}, std::make_shared<serial_collective>(), {.min_rows = -1}),
      io::option_error);
  EXPECT_THROW(gigsp_distributed_solver({}, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::mechanics
