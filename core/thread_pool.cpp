#include "kinevo/core/thread_pool.hpp"

#include <string>
#include <system_error>

#include "kinevo/core/resource_error.hpp"

namespace kinevo::core {

thread_pool::thread_pool(int threads, std::string_view role, std::string_view remedy)
    : errors_(static_cast<std::size_t>(threads < 1 ? 1 : threads)) {
  try {
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
  } catch (const std::system_error& e) {
    // The destructor does not run for a constructor that throws: stop and join the workers
    // already started here, or the joinable threads end the process (a hang under a memory
    // limit with --islands 600 --threads 600).
    const std::size_t started = workers_.size();
    stop_workers();
    throw resource_error("cannot start " + std::string(role) + " " + std::to_string(started + 1) +
                         " of " + std::to_string(threads - 1) + " (" + e.code().message() +
                         "): the system allows no more threads or thread stacks; " +
                         std::string(remedy));
  }
}

thread_pool::~thread_pool() {
  stop_workers();
}

void thread_pool::stop_workers() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
  workers_.clear();
}

void thread_pool::work(int t) {
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
    std::lock_guard lock(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

void thread_pool::run(const std::function<void(int)>& task) {
  for (auto& e : errors_) e = nullptr;
  if (!workers_.empty()) {
    {
      std::lock_guard lock(mutex_);
      task_ = &task;
      pending_ = static_cast<int>(workers_.size());
      ++epoch_;
    }
    wake_.notify_all();
  }
  // The workers hold a pointer to `task`: wait for them even when the caller's share throws.
  try {
    task(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  if (!workers_.empty()) {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    task_ = nullptr;
  }
  for (auto& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace kinevo::core
