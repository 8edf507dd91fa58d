#include "kinevo/io/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace kinevo::io {

std::string format_duration(double seconds) {
  const long long total = std::isfinite(seconds) && seconds > 0.0 ? std::llround(seconds) : 0;
  const long long h = total / 3600;
  const long long m = total / 60 % 60;
  const long long s = total % 60;
  if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m, s);
  return fmt::format("{}:{:02}", m, s);
}

std::string format_progress(const std::string& label, double fraction, const std::string& detail,
                            double elapsed_seconds) {
  std::string line = label;
  if (fraction >= 0.0) line += fmt::format(" {:5.1f}%", 100.0 * fraction);
  if (!detail.empty()) line += " " + detail;
  line += fmt::format("  {} elapsed", format_duration(elapsed_seconds));
  if (fraction > 0.0 && fraction < 1.0) {
    line += ", ETA " + format_duration(elapsed_seconds * (1.0 - fraction) / fraction);
  }
  return line;
}

progress_line::progress_line(std::string label, bool quiet)
    : label_(std::move(label)), visible_(!quiet && ::isatty(STDERR_FILENO) != 0) {}

progress_line::~progress_line() {
  finish();
}

void progress_line::update(double fraction, const std::string& detail) {
  if (!visible_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100) && fraction < 1.0) return;
  last_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r\033[K%s", format_progress(label_, fraction, detail, elapsed).c_str());
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
