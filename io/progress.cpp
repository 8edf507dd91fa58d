#include "kinevo/io/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace kinevo::io {

progress_line::progress_line(std::string label, bool quiet)
    : label_(std::move(label)), visible_(!quiet && ::isatty(STDERR_FILENO) != 0) {}

progress_line::~progress_line() { finish(); }

void progress_line::update(double fraction, const std::string& detail) {
  if (!visible_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && fraction < 1.0) return;
  last_ = now;
  if (fraction >= 0.0) {
    std::fprintf(stderr, "\r\033[K%s %5.1f%% %s", label_.c_str(), 100.0 * fraction, detail.c_str());
  } else {
    std::fprintf(stderr, "\r\033[K%s %s", label_.c_str(), detail.c_str());
  }
  std::fflush(stderr);
  drawn_ = true;
}

void progress_line::finish() {
  if (visible_ && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace kinevo::io
