// The output folder (-o DIR) of a synthesis or analysis run. DIR is checked before the run
// (check()); the run writes its files into a fresh staging folder beside DIR, and commit() moves
// each finished file into DIR by rename (atomic within one file system). Nothing that was in DIR
// is copied, read or touched except the files the run writes, which are replaced; a run that
// stops before commit() leaves DIR as it was. Missing parents of DIR are never created.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kinevo::synthesis {

class output_folder {
 public:
  // Before a run: DIR exists as a folder that accepts new files, or its parent does (DIR is then
  // created by commit()). Throws io::output_error naming `dir` and the reason. Writes nothing
  // that stays.
  static void check(const std::filesystem::path& dir);

  // check(), then prepares the staging folder ".<name>.kinevo-<pid>.partial" beside DIR (inside
  // DIR when its parent cannot take it: a read-only parent, a mount point) and removes stale
  // staging folders of dead processes.
  explicit output_folder(std::filesystem::path dir);
  ~output_folder();  // removes the staging folder and whatever commit() did not move
  output_folder(const output_folder&) = delete;
  output_folder& operator=(const output_folder&) = delete;

  // Where to write the file `name` now (inside the staging folder); records `dir/name` as
  // written. Test hook: with KINEVO_TEST_KILL_AFTER_FILES=N in the environment, the process
  // kills itself (SIGKILL) when asked for file N + 1, to test that a killed run leaves DIR as
  // it was.
  std::filesystem::path file(const std::string& name);
  // The files as they are named once committed: dir / name, in the order asked for.
  const std::vector<std::string>& written() const { return written_; }
  // Moves each file into DIR (one rename each, replacing a file of the same name) and removes
  // the staging folder. Throws io::output_error naming the file that could not be moved.
  void commit();

 private:
  std::filesystem::path dir_;     // as given, for the names reported
  std::filesystem::path target_;  // dir_, symlinks resolved: the folder actually written
  std::filesystem::path staging_;
  std::vector<std::string> names_;
  std::vector<std::string> written_;
};

}  // namespace kinevo::synthesis
