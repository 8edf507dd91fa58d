#include "kinevo/io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

namespace kinevo::io {

namespace fs = std::filesystem;

namespace {

// Temporary names are ".<name>.tmp.<pid>.<counter>": unique per process and call, so concurrent
// writers of different files never collide, and the pid tells a leftover of a dead process.
std::string temporary_prefix(const fs::path& path) {
  // Appended, not "." + name: GCC 12's -Wrestrict misfires on operator+(const char*, string&&).
  std::string prefix(".");
  prefix += path.filename().string();
  prefix += ".tmp.";
  return prefix;
}

fs::path temporary_name(const fs::path& path) {
  static std::atomic<unsigned> counter{0};
  return path.parent_path() /
         (temporary_prefix(path) + std::to_string(::getpid()) + "." + std::to_string(counter++));
}

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

bool process_is_gone(const std::string& pid_text) {
  long pid = 0;
  const char* end = pid_text.data() + pid_text.size();
  const auto [ptr, ec] = std::from_chars(pid_text.data(), end, pid);
  if (ec != std::errc{} || ptr != end || pid <= 0) return false;  // not ours: leave it
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

// Removes "<name>.tmp.<pid>.<n>" files of processes that no longer run (killed before their
// rename); a live process's temporary file is its own business.
void remove_stale_temporaries(const fs::path& path) {
  const std::string prefix = temporary_prefix(path);
  std::error_code ec;
  for (fs::directory_iterator it(folder_of(path), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const auto dot = rest.find('.');
    if (dot == std::string::npos || !process_is_gone(rest.substr(0, dot))) continue;
    std::error_code ignored;
    fs::remove(it->path(), ignored);
  }
}

namespace {

[[noreturn]] void fail(const fs::path& path, const std::string& why) {
  throw output_error("cannot write '" + path.string() + "': " + why);
}

// A device node, pipe or socket: written through, as there is nothing to rename over.
bool is_special(const fs::file_status& s) {
  return fs::exists(s) && !fs::is_regular_file(s) && !fs::is_directory(s);
}

// Opens the special file without blocking and closes it again: a pipe without a reader is
// refused by name instead of blocking the write for ever (`model chain --out FIFO` hung, deaf
// to Ctrl-C). Fails naming `named`.
void probe_special(const fs::path& target, const fs::path& named) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    fail(named, errno == ENXIO ? std::string("it is a pipe (FIFO) that no process reads: start "
                                             "the reader first, or write to a regular file")
                               : std::string(std::strerror(errno)));
  }
  ::close(fd);
}

void write_through(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  probe_special(path, path);
  std::ofstream out(path, std::ios::binary);
  if (!out) fail(path, "cannot open it for writing");
  write(out);
  out.flush();
  if (!out) fail(path, "error while writing");
}

void check_folder(const fs::path& target, const fs::path& named) {
  const fs::path folder = folder_of(target);
  std::error_code ec;
  const auto s = fs::status(folder, ec);
  if (!fs::exists(s)) fail(named, "the folder '" + folder.string() + "' does not exist");
  if (!fs::is_directory(s)) fail(named, "'" + folder.string() + "' is not a folder");
}

}  // namespace

fs::path resolve_output_path(const fs::path& path) {
  fs::path p = path;
  // A bounded number of hops, like the kernel's ELOOP limit.
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
    const fs::path next = fs::read_symlink(p, ec);
    if (ec) return p;
    p = next.is_absolute() ? next : folder_of(p) / next;
  }
  fail(path, "too many levels of symbolic links");
}

void write_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  const fs::path target = resolve_output_path(path);
  std::error_code ec;
  const auto status = fs::status(target, ec);
  if (fs::is_directory(status)) fail(path, "it is a folder");
  if (is_special(status)) return write_through(target, write);
  check_folder(target, path);
  remove_stale_temporaries(target);  // target: symbolic links already followed
  const auto tmp = temporary_name(target);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, "cannot create a file in '" + folder_of(target).string() + "'");
    try {
      write(out);
    } catch (...) {
      out.close();
      fs::remove(tmp, ec);
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      fail(path, "error while writing (disk full?)");
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    fail(path, "cannot replace it: " + ec.message());
  }
}

atomic_output_stream::atomic_output_stream(const fs::path& path)
    : named_(path), target_(resolve_output_path(path)) {
  std::error_code ec;
  const auto status = fs::status(target_, ec);
  if (fs::is_directory(status)) fail(path, "it is a folder");
  through_ = is_special(status);
  if (through_) {
    probe_special(target_, path);
    out_.open(target_, std::ios::binary);
    if (!out_) fail(path, "cannot open it for writing");
    return;
  }
  check_folder(target_, path);
  remove_stale_temporaries(target_);
  temporary_ = temporary_name(target_);
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_) fail(path, "cannot create a file in '" + folder_of(target_).string() + "'");
}

atomic_output_stream::~atomic_output_stream() {
  if (committed_ || through_) return;
  out_.close();
  std::error_code ignored;
  fs::remove(temporary_, ignored);
}

void atomic_output_stream::commit() {
  if (committed_) return;
  out_.flush();
  const bool written = static_cast<bool>(out_);
  out_.close();
  if (through_) {
    committed_ = true;
    if (!written) fail(named_, "error while writing");
    return;
  }
  std::error_code ec;
  if (!written || out_.fail()) {
    fs::remove(temporary_, ec);
    fail(named_, "error while writing (disk full?)");
  }
  fs::rename(temporary_, target_, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary_, ignored);
    fail(named_, "cannot replace it: " + ec.message());
  }
  committed_ = true;
}

void write_text_atomically(const fs::path& path, std::string_view text) {
  write_atomically(path, [&](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
}

namespace {
// Creates and removes a probe file in `folder`: the only check that holds for root too.
void probe_folder(const fs::path& folder, const fs::path& named) {
  const fs::path probe = temporary_name(folder / ".kinevo-probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    fail(named, "cannot create a file in '" + folder.string() + "': " + std::strerror(errno));
  }
  ::close(fd);
  std::error_code ec;
  fs::remove(probe, ec);
}
}  // namespace

void check_output_folder(const fs::path& dir) {
  if (dir.empty()) fail(dir, "empty folder name");
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) fail(dir, "it exists and is not a folder");
    return probe_folder(dir, dir);
  }
  // dir/. names dir itself: its folder is the parent.
  const fs::path plain = dir.filename().empty() ? dir.parent_path() : dir;
  check_folder(plain, dir);
  probe_folder(folder_of(plain), dir);
}

void check_writable(const fs::path& path) {
  if (path.empty()) fail(path, "empty file name");
  const fs::path target = resolve_output_path(path);
  std::error_code ec;
  const auto status = fs::status(target, ec);
  if (fs::is_directory(status)) fail(path, "it is a folder");
  if (is_special(status)) {
    // Non-blocking, so that a pipe without a reader is refused instead of hanging here.
    return probe_special(target, path);
  }
  check_folder(target, path);
  // The rename needs a new file in the folder: try one (root passes access(2) even on /proc).
  probe_folder(folder_of(target), path);
}

}  // namespace kinevo::io
