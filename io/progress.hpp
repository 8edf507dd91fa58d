// A one-line progress display on stderr, shown only when stderr is a terminal and not quiet,
// rate-limited so that it never costs measurable time in a hot loop.
#pragma once

#include <chrono>
#include <string>

namespace kinevo::io {

class progress_line {
 public:
  // `label` prefixes every line, e.g. "simulate". Hidden when `quiet` or stderr is no tty.
  explicit progress_line(std::string label, bool quiet = false);
  ~progress_line();
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  // fraction in [0, 1] (negative: unknown); `detail` is free text. Redraws at most ~10 Hz.
  void update(double fraction, const std::string& detail);
  // Clears the line (called by the destructor too).
  void finish();
  bool visible() const { return visible_; }

 private:
  std::string label_;
  bool visible_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace kinevo::io
