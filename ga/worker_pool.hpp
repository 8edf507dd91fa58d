// Persistent worker threads for the islands of one process: created once with the island model,
// woken for every epoch (the generations between two synchronisation points), so a GA run costs
// no thread creation.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kinevo::ga {

class worker_pool {
 public:
  // `threads` >= 1 workers in all, the calling thread being worker 0. Throws
  // std::runtime_error naming the thread when the system cannot create one (the workers
  // started so far are joined first).
  explicit worker_pool(int threads);
  ~worker_pool();
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  int size() const { return static_cast<int>(threads_.size()) + 1; }

  // Runs task(t) for every worker t (t = 0 on the caller) and waits for all; rethrows the
  // exception of the lowest-numbered worker that threw.
  void run(const std::function<void(int)>& task);

 private:
  void loop(int t);
  void stop_workers();  // wakes, stops and joins every worker

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(int)>* task_ = nullptr;
  unsigned long long epoch_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  std::vector<std::exception_ptr> errors_;
};

}  // namespace kinevo::ga
