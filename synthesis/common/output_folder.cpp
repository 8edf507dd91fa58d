#include "kinevo/synthesis/common/output_folder.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "kinevo/io/atomic_file.hpp"

namespace kinevo::synthesis {

namespace fs = std::filesystem;

namespace {

const std::string staging_tag = ".kinevo-";
const std::string staging_suffix = ".partial";

[[noreturn]] void refuse_folder(const fs::path& dir, const std::string& why) {
  throw io::output_error("cannot write '" + dir.string() + "': " + why);
}

// The folder actually written: symlinks resolved (files go where the link points), trailing
// separators and "." dropped, so that its parent is the folder that holds it.
fs::path resolve_target(const fs::path& dir) {
  std::error_code ec;
  fs::path p = fs::is_symlink(fs::symlink_status(dir, ec)) ? fs::weakly_canonical(dir, ec)
                                                           : fs::absolute(dir, ec);
  if (ec) refuse_folder(dir, std::strerror(ec.value()));
  p = p.lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  return p;
}

// Staging folders of processes that no longer run are leftovers of a killed run.
void remove_stale_staging(const fs::path& folder, const std::string& prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (!entry.starts_with(prefix) || !entry.ends_with(staging_suffix)) continue;
    const long pid = std::strtol(entry.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

// A new folder `path`; false (nothing created) when its parent refuses it.
bool make_staging_folder(const fs::path& path) {
  return ::mkdir(path.c_str(), 0777) == 0;
}

bool on_one_file_system(const fs::path& a, const fs::path& b) {
  struct stat sa {};
  struct stat sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev;
}

}  // namespace

void output_folder::check(const fs::path& dir) {
  if (dir.empty()) refuse_folder(dir, "empty folder name");
  // io::check_output_folder names the path as given and probes the folder that takes the files
  // (DIR, or its parent when DIR is missing), which is the only check that holds for root too.
  io::check_output_folder(dir);
}

output_folder::output_folder(fs::path dir) : dir_(std::move(dir)) {
  check(dir_);
  target_ = resolve_target(dir_);
  const fs::path parent = target_.parent_path();
  const std::string tag = staging_tag + std::to_string(::getpid()) + staging_suffix;
  std::error_code ec;
  const bool exists = fs::is_directory(target_, ec);
  const std::string beside_prefix = "." + target_.filename().string() + staging_tag;
  remove_stale_staging(parent, beside_prefix);
  // Beside DIR, so that DIR holds nothing but finished files; inside DIR when the parent does
  // not take a folder or lies on another file system (the renames must stay within one).
  staging_ = parent / ("." + target_.filename().string() + tag);
  fs::remove_all(staging_, ec);
  if ((!exists || on_one_file_system(parent, target_)) && make_staging_folder(staging_)) return;
  if (!exists) refuse_folder(dir_, "cannot create a folder in '" + parent.string() + "'");
  remove_stale_staging(target_, staging_tag);
  staging_ = target_ / tag;
  fs::remove_all(staging_, ec);
  if (!make_staging_folder(staging_)) refuse_folder(dir_, std::strerror(errno));
}

output_folder::~output_folder() {
  if (staging_.empty()) return;
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
  // A missing DIR: the staging folder becomes DIR in one rename (it was made as mkdir makes one).
  if (!fs::exists(fs::symlink_status(target_, ec)) &&
      ::rename(staging_.c_str(), target_.c_str()) == 0) {
    staging_.clear();
    return;
  }
  if (!fs::is_directory(target_, ec)) refuse_folder(dir_, "it is no longer a folder");
  for (const auto& n : names_) {
    const fs::path from = staging_ / n;
    if (!fs::exists(fs::symlink_status(from, ec))) continue;  // asked for, not written
    if (::rename(from.c_str(), (target_ / n).c_str()) != 0) {
      const int err = errno;
      refuse_folder(dir_ / n, err == EISDIR ? std::string("a folder of that name is in the way")
                                            : std::string(std::strerror(err)));
    }
  }
  fs::remove_all(staging_, ec);  // empty now
  staging_.clear();
}

}  // namespace kinevo::synthesis
