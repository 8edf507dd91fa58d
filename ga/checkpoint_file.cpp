#include "kinevo/ga/detail/checkpoint_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/input_file.hpp"

namespace kinevo::ga {

namespace {

constexpr const char* magic = "kinevo-ga-checkpoint";
// 2: xoshiro256++ generator states (4 words) instead of Mersenne twister states (312 words).
// 3: a checksum line ends the file (hand edits and truncation are refused).
// 4: constraint handling (violations, epsilon level) and integer genes in the island state.
// 5: no rotation frame when the population cannot span R^n (island.hpp, uses_frame).
// (A learned metric's state follows the frame; no new version: a version-5 file cannot hold a
// learned run, whose fingerprint names the metric.)
constexpr int version = 5;
constexpr const char* checksum_key = "checksum ";
constexpr std::uintmax_t max_checkpoint_bytes = 1ULL << 30;

// FNV-1a, 64 bits: detects edits and truncation (not an adversary; it is no signature).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hex_of(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string format_body(const checkpoint_contents& c) {
  std::ostringstream os;
  os << magic << ' ' << version << '\n';
  os << "fingerprint " << c.fingerprint << '\n';
  os << "run_index " << c.run_index << '\n';
  os << "generation " << c.generation << '\n';
  os << "stall " << hex_float(c.stall_reference) << ' ' << hex_float(c.stall_violation) << ' '
     << c.last_improvement << '\n';
  os << "lower";
  for (Eigen::Index j = 0; j < c.box.lower.size(); ++j) os << ' ' << hex_float(c.box.lower[j]);
  os << "\nupper";
  for (Eigen::Index j = 0; j < c.box.upper.size(); ++j) os << ' ' << hex_float(c.box.upper[j]);
  os << '\n';
  for (const auto& [index, isl] : c.islands) os << "island " << index << '\n' << isl.text;
  os << "end\n";
  return os.str();
}

}  // namespace

std::string hex_float(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string checkpoint_where(const std::filesystem::path& path, int line) {
  return path.string() + ":" + std::to_string(line) + ": ";
}

checkpoint_reader::checkpoint_reader(const std::filesystem::path& path, const std::string& body)
    : path_(path), in_(body) {}

void checkpoint_reader::fail(const std::string& msg) const {
  throw io::input_error(checkpoint_where(path_, line_no_) + msg);
}

bool checkpoint_reader::next(std::string& line) {
  if (!std::getline(in_, line)) return false;
  ++line_no_;
  return true;
}

std::istringstream checkpoint_reader::keyed(const char* key) {
  std::string line;
  if (!next(line)) fail(std::string("missing '") + key + "'");
  std::istringstream s(line);
  std::string k;
  s >> k;
  if (k != key) fail(std::string("expected '") + key + "', found '" + k + "'");
  return s;
}

double checkpoint_reader::real(std::istringstream& s) {
  std::string tok;
  if (!(s >> tok)) fail("missing number");
  char* end = nullptr;
  const double v = std::strtod(tok.c_str(), &end);
  if (end == tok.c_str() || *end != '\0') fail("'" + tok + "' is not a number");
  return v;
}

Eigen::MatrixXd checkpoint_reader::matrix(const char* key) {
  auto s = keyed(key);
  Eigen::Index rows = -1, cols = -1;
  if (!(s >> rows >> cols) || rows < 0 || cols < 0 || rows > (1 << 24) || cols > (1 << 24)) {
    fail(std::string("unreadable size of '") + key + "'");
  }
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = real(s);
  }
  return m;
}

void write_checksummed_text(const std::filesystem::path& path, const std::string& body) {
  io::write_atomically(
      path, [&](std::ostream& os) { os << body << checksum_key << hex_of(fnv1a(body)) << '\n'; });
}

std::string read_checksummed_text(const std::filesystem::path& path,
                                  const std::string& magic_word) {
  // Refuses devices and FIFOs before reading (--resume /dev/zero was read until memory ran out,
  // a FIFO blocked for ever); 1 GiB is far above the checkpoint of any run that fits in memory.
  const std::string text = io::read_input_file(path, "checkpoint file", max_checkpoint_bytes);
  if (text.rfind(magic_word, 0) != 0) {
    throw io::input_error(checkpoint_where(path, 1) + "not a kinevo " +
                          (magic_word == magic ? std::string("GA checkpoint") : magic_word) +
                          " file");
  }
  // The checksum line is the last line: split it off and check the body it covers.
  const std::size_t at = text.rfind(checksum_key);
  if (at == std::string::npos || (at > 0 && text[at - 1] != '\n')) {
    throw io::input_error(checkpoint_where(path, 1) +
                          "the file is truncated or was written by an older kinevo (no checksum "
                          "line)");
  }
  std::string body = text.substr(0, at);
  std::string stored = text.substr(at + std::char_traits<char>::length(checksum_key));
  while (!stored.empty() && (stored.back() == '\n' || stored.back() == '\r')) stored.pop_back();
  if (stored != hex_of(fnv1a(body))) {
    int line = 1;
    for (const char ch : body) line += ch == '\n';
    throw io::input_error(checkpoint_where(path, line) +
                          "checksum mismatch: the file was edited or damaged after it was "
                          "written; resume from an intact checkpoint");
  }
  return body;
}

void write_checkpoint_file(const std::filesystem::path& path, const checkpoint_contents& c) {
  write_checksummed_text(path, format_body(c));
}

checkpoint_contents read_checkpoint_file(const std::filesystem::path& path, int n) {
  checkpoint_reader r(path, read_checksummed_text(path, magic));

  checkpoint_contents c;
  {
    auto s = r.keyed(magic);
    if (r.integer<int>(s, "format version") != version) {
      r.fail("checkpoint format version is not " + std::to_string(version));
    }
  }
  {
    auto s = r.keyed("fingerprint");
    std::getline(s, c.fingerprint);
    if (!c.fingerprint.empty() && c.fingerprint[0] == ' ') c.fingerprint.erase(0, 1);
    c.fingerprint_line = r.line();
  }
  {
    auto s = r.keyed("run_index");
    c.run_index = r.integer<std::uint64_t>(s, "run index");
  }
  {
    auto s = r.keyed("generation");
    c.generation = r.integer<long long>(s, "generation");
    if (c.generation < 0) r.fail("generation must be >= 0");
  }
  {
    auto s = r.keyed("stall");
    c.stall_reference = r.real(s);
    c.stall_violation = r.real(s);
    c.last_improvement = r.integer<long long>(s, "stall generation");
    if (c.last_improvement < 0 || c.last_improvement > c.generation) {
      r.fail("stall generation must be in [0, generation]");
    }
  }
  c.box.lower.resize(n);
  c.box.upper.resize(n);
  for (auto* bound : {&c.box.lower, &c.box.upper}) {
    auto s = r.keyed(bound == &c.box.lower ? "lower" : "upper");
    for (int j = 0; j < n; ++j) (*bound)[j] = r.real(s);
    std::string rest;
    if (s >> rest) r.fail("more bounds than the problem's " + std::to_string(n) + " variables");
  }
  // Island sections: "island i" then that island's lines, up to the next section or "end".
  std::string line;
  checkpoint_island* current = nullptr;
  bool ended = false;
  while (r.next(line)) {
    if (line.rfind("island ", 0) == 0) {
      std::istringstream s(line.substr(7));
      const int index = r.integer<int>(s, "island index");
      if (index < 0 || c.islands.count(index) != 0) r.fail("island index repeated or negative");
      current = &c.islands[index];
      current->line = r.line();
    } else if (line == "end") {
      ended = true;
      break;
    } else {
      if (current == nullptr) r.fail("expected 'island'");
      current->text += line;
      current->text += '\n';
    }
  }
  if (!ended || r.next(line)) r.fail("the file is truncated or has lines after 'end'");
  return c;
}

}  // namespace kinevo::ga
