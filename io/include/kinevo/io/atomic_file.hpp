// Output files are never left half-written: write to a temporary file beside the target,
// flush, then rename over it (rename is atomic on POSIX within one file system).
//
// What the user named is what is written: a symbolic link is followed and its target replaced
// (the link stays a link), a device node or pipe (e.g. /dev/null) is written through (it cannot be
// replaced atomically), and no folder is created: a missing folder is an error naming it.
// Temporary files of an earlier run that was killed before its rename are removed by the next
// write of the same file.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string_view>

#include "kinevo/io/csv_table.hpp"  // input_error

namespace kinevo::io {

// An output location that cannot be written (missing folder, no permission, a folder where a
// file is expected, a full disk). The message names the path. An input_error, so that every
// subcommand reports it as unusable input/output: exit status 2 (README).
class output_error : public input_error {
 public:
  using input_error::input_error;
};

// Calls `write` with a stream to a temporary file next to `path` (next to the target of a
// symbolic link), then renames it over that file. Throws output_error naming the path if the
// file cannot be written; the previous content of `path` is left untouched in that case.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(std::ostream&)>& write);

// The same for a file written progressively, as its content is computed (a simulation's rows),
// so that it need not be held in memory: the stream goes to a temporary file beside `path`
// (".<name>.tmp.<pid>.<n>", the name write_atomically uses, so a leftover of a killed run is
// removed alike), commit() renames it over `path`, and a stream destroyed without commit() (an
// exception, a failed run that keeps nothing) removes its temporary: `path` never holds a half
// file. A device node or pipe is written through, as by write_atomically.
class atomic_output_stream {
 public:
  // Opens the temporary file (or the device); throws output_error naming `path`.
  explicit atomic_output_stream(const std::filesystem::path& path);
  ~atomic_output_stream();
  atomic_output_stream(const atomic_output_stream&) = delete;
  atomic_output_stream& operator=(const atomic_output_stream&) = delete;

  std::ostream& stream() { return out_; }
  // Flushes and renames the temporary over the target. Throws output_error naming the path
  // (a write error such as a full disk, a failed rename); the temporary is then removed.
  void commit();
  // Whether the target is a device node or pipe written directly (nothing to read back).
  bool written_through() const { return through_; }

 private:
  std::filesystem::path named_, target_, temporary_;
  bool through_ = false;
  bool committed_ = false;
  std::ofstream out_;
};

// Convenience for text already in memory.
void write_text_atomically(const std::filesystem::path& path, std::string_view text);

// Checks, before a run starts, that write_atomically(path, ...) can succeed: the folder exists
// and accepts a new file, `path` is not a folder, a device node accepts writing. Throws
// output_error naming the path and the reason. Writes nothing that stays.
void check_writable(const std::filesystem::path& path);

// Checks, before a run starts, that the output folder `dir` can take new files: it exists as a
// folder, or its parent does (the run then creates `dir` itself, but never missing parents).
// Throws output_error naming the folder and the reason. Writes nothing that stays.
void check_output_folder(const std::filesystem::path& dir);

// Removes the temporary files that write_atomically(path, ...) of a process that no longer runs
// left beside `path` (".<name>.tmp.<pid>.<n>", killed before its rename), and nothing else:
// other files' temporaries and a live process's stay. `path` is taken as it is (call it with
// resolve_output_path(path) to follow a symbolic link). write_atomically does this itself; a
// long run calls it at its start too, so that a leftover does not wait for the first write.
void remove_stale_temporaries(const std::filesystem::path& path);

// The file `path` names after following symbolic links (the path itself when it is none);
// a dangling link gives the path it points to.
std::filesystem::path resolve_output_path(const std::filesystem::path& path);

}  // namespace kinevo::io
