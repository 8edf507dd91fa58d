// Output files are never left half-written: write to a temporary file beside the target,
// flush, then rename over it (rename is atomic on POSIX within one file system).
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string_view>

namespace kinevo::io {

// Calls `write` with a stream to a temporary file next to `path`, then renames it to `path`.
// Throws std::runtime_error naming the path if the file cannot be written; the previous
// content of `path` is left untouched in that case.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::ostream&)>& write);

// Convenience for text already in memory.
void write_text_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace kinevo::io
