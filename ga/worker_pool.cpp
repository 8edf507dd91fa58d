#include "kinevo/ga/worker_pool.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <system_error>

namespace kinevo::ga {

worker_pool::worker_pool(int threads)
    : errors_(static_cast<std::size_t>(threads < 1 ? 1 : threads)) {
  try {
    for (int t = 1; t < threads; ++t) threads_.emplace_back([this, t] { loop(t); });
  } catch (const std::system_error& e) {
    // The destructor does not run for a constructor that throws: stop and join the workers
    // already started here, or the joinable threads end the process (a hang under a memory
    // limit with --islands 600 --threads 600).
    const std::size_t started = threads_.size();
    stop_workers();
    throw std::runtime_error(fmt::format(
        "cannot start worker thread {} of {} ({}): the system allows no more threads or "
        "thread stacks; use fewer --threads or --islands",
        started + 1, threads - 1, e.code().message()));
  }
}

worker_pool::~worker_pool() {
  stop_workers();
}

void worker_pool::stop_workers() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& th : threads_) th.join();
  threads_.clear();
}

void worker_pool::loop(int t) {
  unsigned long long seen = 0;
  for (;;) {
    const std::function<void(int)>* task = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || epoch_ != seen; });
      if (stop_) return;
      seen = epoch_;
      task = task_;
    }
    try {
      (*task)(t);
    } catch (...) {
      errors_[static_cast<std::size_t>(t)] = std::current_exception();
    }
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void worker_pool::run(const std::function<void(int)>& task) {
  for (auto& e : errors_) e = nullptr;
  if (!threads_.empty()) {
    {
      std::lock_guard lock(mutex_);
      task_ = &task;
      pending_ = static_cast<int>(threads_.size());
      ++epoch_;
    }
    wake_.notify_all();
  }
  try {
    task(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  if (!threads_.empty()) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }
  for (auto& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace kinevo::ga
