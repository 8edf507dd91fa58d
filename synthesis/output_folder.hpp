// The output folder of a synthesis run, replaced as a whole: every file goes into a fresh staging
// folder beside DIR, and commit() swaps it into place in one rename (Linux renameat2 with
// RENAME_EXCHANGE), so that a run killed at any moment leaves DIR either all old or all new,
// never a mix. Entries of DIR the run does not write (the user's own files, another
// subcommand's results) are carried over into the new folder, so that nothing is lost.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::synthesis {

class output_folder {
 public:
  // Prepares the staging folder ".<name>.kinevo-<pid>.partial" beside `dir` (creating dir's
  // parents if needed) and removes stale staging folders of dead processes. Throws
  // io::input_error naming `dir` when it cannot be used (not a directory, no permission, ...).
  explicit output_folder(std::filesystem::path dir);
  ~output_folder();  // removes the staging folder unless committed
  output_folder(const output_folder&) = delete;
  output_folder& operator=(const output_folder&) = delete;

  // Where to write the file `name` now (inside the staging folder); records `dir/name` as
  // written. Test hook: with KINEVO_TEST_KILL_AFTER_FILES=N in the environment, the process
  // kills itself (SIGKILL) when asked for file N + 1, to test the all-or-nothing guarantee.
  std::filesystem::path file(const std::string& name);
  // The files as they are named once committed: dir / name, in the order asked for.
  const std::vector<std::string>& written() const { return written_; }
  // Carries the other entries of dir over, then swaps the staging folder into place and removes
  // the old content. Throws std::runtime_error naming dir if that fails (dir is then unchanged).
  void commit();

 private:
  std::filesystem::path dir_;     // as given, for the names reported
  std::filesystem::path target_;  // dir_, symlinks resolved: the folder actually replaced
  std::filesystem::path staging_;
  std::vector<std::string> names_;
  std::vector<std::string> written_;
  bool committed_ = false;
};

}  // namespace kinevo::synthesis
