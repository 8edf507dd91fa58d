#include "io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>

namespace kinevo::io {

namespace {
std::filesystem::path temporary_name(const std::filesystem::path& path) {
  // Unique per process and call, so concurrent writers of different files never collide.
  static std::atomic<unsigned> counter{0};
  auto name = path.filename().string();
  name = "." + name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  return path.parent_path() / name;
}
}  // namespace

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::ostream&)>& write) {
  if (path.has_parent_path() && !std::filesystem::exists(path.parent_path())) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      throw std::runtime_error("cannot create folder '" + path.parent_path().string() +
                               "': " + ec.message());
    }
  }
  const auto tmp = temporary_name(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write '" + path.string() + "' (temporary file)");
    try {
      write(out);
    } catch (...) {
      out.close();
      std::filesystem::remove(tmp);
      throw;
    }
    out.flush();
    if (!out) {
      out.close();
      std::filesystem::remove(tmp);
      throw std::runtime_error("error while writing '" + path.string() + "' (disk full?)");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("cannot replace '" + path.string() + "': " + ec.message());
  }
}

void write_text_atomically(const std::filesystem::path& path, std::string_view text) {
  write_atomically(path, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

}  // namespace kinevo::io
