// Persistent worker threads: started once, woken for every task run, so that a caller running
// many short parallel steps pays no thread creation per step. The GA's islands run their epochs
// (the generations between two synchronisation points) on one, GIGSP's threaded row process its
// blocks (mechanics/solvers/gigsp_threaded.hpp): creating threads per solve would cost more than a
// small system's whole solve.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace kinevo::core {

class thread_pool {
 public:
  // `threads` >= 1 in all, the calling thread being thread 0: threads - 1 workers are started.
  // Throws core::resource_error when the system cannot start one (the workers started so far
  // are joined first), naming the thread as "<role> <i> of <n>" and ending with `remedy`.
  explicit thread_pool(int threads, std::string_view role = "worker thread",
                       std::string_view remedy = "use fewer threads");
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs task(t) for every thread t = 0 .. size() - 1 (t = 0 on the caller) and returns when
  // every call has returned; then rethrows the exception of the lowest-numbered thread that
  // threw. Not reentrant.
  void run(const std::function<void(int)>& task);

 private:
  void work(int t);
  void stop_workers();  // wakes, stops and joins every worker

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  unsigned long long epoch_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  std::vector<std::exception_ptr> errors_;  // errors_[t]: what thread t threw in this run
};

}  // namespace kinevo::core
