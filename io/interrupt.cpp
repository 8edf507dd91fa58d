#include "kinevo/io/interrupt.hpp"

#include <csignal>

namespace kinevo::io {

namespace {

// Read from signal handlers: both must be lock-free to be async-signal-safe.
std::atomic<bool> g_flag{false};
std::atomic<int> g_signal{0};
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void on_interrupt_signal(int signal_number) {
  g_signal.store(signal_number);
  g_flag.store(true);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt_signal;
  sigemptyset(&action.sa_mask);
  // Restart interrupted system calls: a write in progress (a checkpoint, a CSV) must not fail
  // with EINTR because the user asked to stop and save.
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool interrupt_requested() {
  return g_flag.load();
}

int interrupt_signal() {
  return g_signal.load();
}

void request_interrupt() {
  g_flag.store(true);
}

void clear_interrupt() {
  g_signal.store(0);
  g_flag.store(false);
}

const std::atomic<bool>& interrupt_flag() {
  return g_flag;
}

}  // namespace kinevo::io
