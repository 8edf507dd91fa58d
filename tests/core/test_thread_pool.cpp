// core::thread_pool: every thread runs its share once per run, the pool is reused across runs,
// and an exception reaches the caller from the lowest-numbered thread that threw, after every
// thread has returned (the GA reports the lowest island's failure whatever the thread count).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinevo/core/resource_error.hpp"
#include "kinevo/core/thread_pool.hpp"

namespace kinevo::core {
namespace {

TEST(ThreadPool, EveryThreadRunsItsShareOncePerRun) {
  for (int threads : {1, 2, 5}) {
    thread_pool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    std::vector<int> calls(static_cast<std::size_t>(threads), 0);
    for (int run = 0; run < 50; ++run) {
      pool.run([&](int t) { ++calls[static_cast<std::size_t>(t)]; });
    }
    for (int c : calls) EXPECT_EQ(c, 50);
  }
}

TEST(ThreadPool, RethrowsTheLowestThreadsExceptionAfterAllReturned) {
  thread_pool pool(4);
  std::atomic<int> returned{0};
  try {
    pool.run([&](int t) {
      ++returned;
      if (t >= 1) throw std::runtime_error("thread " + std::to_string(t));
    });
    FAIL() << "the workers' exceptions must reach the caller";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "thread 1");
  }
  EXPECT_EQ(returned.load(), 4);
  // The pool stays usable and forgets the last run's errors.
  returned = 0;
  pool.run([&](int) { ++returned; });
  EXPECT_EQ(returned.load(), 4);
}

TEST(ThreadPool, ResourceErrorIsARuntimeError) {
  // Callers that caught the former pools' std::runtime_error keep catching it.
  const resource_error e("cannot start worker thread 3 of 7");
  const std::runtime_error& base = e;
  EXPECT_EQ(std::string(base.what()), "cannot start worker thread 3 of 7");
}

}  // namespace
}  // namespace kinevo::core
