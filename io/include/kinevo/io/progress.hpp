// A one-line progress display on stderr, shown only when stderr is a terminal and not quiet,
// rate-limited so that it never costs measurable time in a hot loop.
#pragma once

#include <chrono>
#include <string>

namespace kinevo::io {

// A duration as m:ss, or h:mm:ss from an hour on ("0:04", "1:02:03"); negative counts as 0.
std::string format_duration(double seconds);

// The text of one progress line, without the terminal control codes:
// "simulate  14.5% t = 1.157  0:04 elapsed, ETA 0:23". A fraction < 0 (unknown) shows neither
// percentage nor ETA; the ETA assumes the remaining work runs at the average rate so far and is
// shown only once some work is done (fraction > 0).
std::string format_progress(const std::string& label, double fraction, const std::string& detail,
                            double elapsed_seconds);

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
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace kinevo::io
