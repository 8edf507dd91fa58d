// The text file an island_model checkpoint lives in: a header (fingerprint of the options and
// problem, run counters, the search box), one section per island, and a checksum over all of it.
// Reading refuses, with io::input_error naming the file and line, anything that is not exactly a
// file this version wrote: another format version, a truncated file, a hand-edited line (the
// checksum), an island section missing or twice. Whether the content fits the current run
// (fingerprint, box, counters) is the island model's to check.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "kinevo/ga/search_box.hpp"

namespace kinevo::ga {

struct checkpoint_island {
  int line = 0;      // line of its "island i" header, for messages
  std::string text;  // what island::save wrote
};

struct checkpoint_contents {
  std::string fingerprint;
  std::uint64_t run_index = 0;
  long long generation = 0;
  double stall_reference = 0.0;
  double stall_violation = 0.0;
  long long last_improvement = 0;
  search_box box;
  std::map<int, checkpoint_island> islands;  // by island index
  int fingerprint_line = 0;                  // for messages about a mismatch
};

// Formats `c` (island texts in index order) with its checksum and writes it atomically.
void write_checkpoint_file(const std::filesystem::path& path, const checkpoint_contents& c);

// Reads and verifies a file written by write_checkpoint_file for a problem of dimension n.
checkpoint_contents read_checkpoint_file(const std::filesystem::path& path, int n);

// Any text body followed by a line "checksum <FNV-1a 64 of the body>", written atomically; and
// read back verified: throws io::input_error naming the file when it cannot be opened, does not
// start with `magic`, or is truncated or edited. Returns the body.
void write_checksummed_text(const std::filesystem::path& path, const std::string& body);
std::string read_checksummed_text(const std::filesystem::path& path, const std::string& magic);

// v in C's hexadecimal floating-point form ("%a"): exact, so a resumed run reads back the very
// double it wrote.
std::string hex_float(double v);

// "file:line: " prefix used by every checkpoint message.
std::string checkpoint_where(const std::filesystem::path& path, int line);

// Line-by-line reader of a verified body (island checkpoints, range-run states); every failure
// throws io::input_error naming the file and line.
class checkpoint_reader {
 public:
  checkpoint_reader(const std::filesystem::path& path, const std::string& body);
  [[noreturn]] void fail(const std::string& msg) const;
  bool next(std::string& line);
  // The next line, which must start with `key`; returns the rest.
  std::istringstream keyed(const char* key);
  double real(std::istringstream& s);
  // A line "key rows cols v00 v10 ..." (column-major).
  Eigen::MatrixXd matrix(const char* key);
  template <typename T>
  T integer(std::istringstream& s, const char* what) {
    T v{};
    std::string rest;
    if (!(s >> v) || (s >> rest)) fail(std::string("unreadable ") + what);
    return v;
  }
  int line() const { return line_no_; }

 private:
  const std::filesystem::path& path_;
  std::istringstream in_;
  int line_no_ = 0;
};

}  // namespace kinevo::ga
