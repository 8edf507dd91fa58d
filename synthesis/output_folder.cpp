#include "kinevo/synthesis/output_folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::synthesis {

namespace fs = std::filesystem;

namespace {

const std::string staging_tag = ".kinevo-";
const std::string staging_suffix = ".partial";

// The folder actually replaced: symlinks resolved (replacing a symlink with a folder would cut
// the user's link), trailing separators dropped.
fs::path resolve_target(const fs::path& dir) {
  std::error_code ec;
  fs::path p = fs::is_symlink(fs::symlink_status(dir, ec)) ? fs::weakly_canonical(dir, ec)
                                                           : fs::absolute(dir, ec);
  if (ec)
    throw io::input_error(
        fmt::format("{}: cannot use as output folder: {}", dir.string(), ec.message()));
  p = p.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  return p;
}

// Staging folders of processes that no longer run are leftovers of a killed run.
void remove_stale_staging(const fs::path& parent, const std::string& name) {
  std::error_code ec;
  const std::string prefix = "." + name + staging_tag;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (!entry.starts_with(prefix) || !entry.ends_with(staging_suffix)) continue;
    const long pid = std::strtol(entry.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

// True when the working directory is `dir` or inside it: swapping such a folder would leave the
// process (and the user's shell) in a deleted folder.
bool holds_working_directory(const fs::path& dir) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return false;
  const auto [d, c] = std::mismatch(dir.begin(), dir.end(), cwd.begin(), cwd.end());
  return d == dir.end();
}

// Copies an entry the run does not write into the new folder: hard links where possible (no
// data is copied, and the old folder's removal keeps the content alive), else a real copy.
void carry_over(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::copy(from, to,
           fs::copy_options::recursive | fs::copy_options::copy_symlinks |
               fs::copy_options::create_hard_links,
           ec);
  if (!ec) return;
  fs::remove_all(to, ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

// Exchanges two paths atomically; false if the file system cannot (then nothing changed).
bool exchange(const fs::path& a, const fs::path& b) {
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
    throw std::system_error(errno, std::generic_category(), "cannot replace " + b.string());
  }
#else
  (void)a, (void)b;
#endif
  return false;
}

}  // namespace

output_folder::output_folder(fs::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw io::input_error("the output folder name is empty");
  target_ = resolve_target(dir_);
  std::error_code ec;
  if (fs::exists(target_, ec) && !fs::is_directory(target_, ec)) {
    throw io::input_error(fmt::format("{}: exists and is not a folder", dir_.string()));
  }
  const fs::path parent = target_.parent_path();
  const std::string name = target_.filename().string();
  fs::create_directories(parent, ec);
  if (ec) {
    throw io::input_error(fmt::format("{}: cannot create the folder {}: {}", dir_.string(),
                                      parent.string(), ec.message()));
  }
  remove_stale_staging(parent, name);
  staging_ = parent / ("." + name + staging_tag + std::to_string(::getpid()) + staging_suffix);
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec) {
    throw io::input_error(fmt::format("{}: cannot write beside it in {}: {}", dir_.string(),
                                      parent.string(),
                                      ec ? ec.message() : std::string("already exists")));
  }
}

output_folder::~output_folder() {
  if (committed_ || staging_.empty()) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

fs::path output_folder::file(const std::string& name) {
  if (const char* hook = std::getenv("KINEVO_TEST_KILL_AFTER_FILES")) {
    if (static_cast<long>(names_.size()) >= std::strtol(hook, nullptr, 10)) ::raise(SIGKILL);
  }
  names_.push_back(name);
  written_.push_back((dir_ / name).string());
  return staging_ / name;
}

void output_folder::commit() {
  std::error_code ec;
  if (!fs::exists(target_, ec)) {
    fs::rename(staging_, target_);
    committed_ = true;
    return;
  }
  if (holds_working_directory(target_)) {
    // Documented exception: the files are replaced one by one (each still atomically).
    for (const auto& n : names_) fs::rename(staging_ / n, target_ / n);
    fs::remove_all(staging_, ec);
    committed_ = true;
    return;
  }
  for (const auto& entry : fs::directory_iterator(target_)) {
    const std::string n = entry.path().filename().string();
    if (std::find(names_.begin(), names_.end(), n) == names_.end()) {
      carry_over(entry.path(), staging_ / n);
    }
  }
  fs::permissions(staging_, fs::status(target_).permissions(), ec);
  if (!exchange(staging_, target_)) {
    // No atomic exchange on this file system: two renames, the old folder kept until the end.
    const fs::path old = staging_.string() + ".old" + staging_suffix;
    fs::rename(target_, old);
    fs::rename(staging_, target_);
    fs::remove_all(old, ec);
    committed_ = true;
    return;
  }
  committed_ = true;
  fs::remove_all(staging_, ec);  // now the old content
}

}  // namespace kinevo::synthesis
