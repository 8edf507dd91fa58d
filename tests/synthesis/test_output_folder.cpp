// The output folder: a run that stops before commit() leaves the old content untouched,
// commit() moves the new files in one rename each, and the user's other entries (a FIFO too)
// are never read, copied or removed. Missing parents are never created.
#include "kinevo/synthesis/common/output_folder.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"

namespace ks = kinevo::synthesis;
namespace fs = std::filesystem;

namespace {

fs::path fresh(const std::string& name) {
  const auto d = fs::temp_directory_path() /
                 ("kinevo_test_output_folder_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  kinevo::io::write_text_atomically(p, text);
}

// Entries of the parent folder that are staging leftovers (of `name` only, when given).
int staging_leftovers(const fs::path& parent, const std::string& name = "") {
  int n = 0;
  for (const auto& e : fs::directory_iterator(parent)) {
    const std::string f = e.path().filename().string();
    if (f.ends_with(".partial") && f.starts_with("." + name)) ++n;
  }
  return n;
}

}  // namespace

TEST(OutputFolder, UncommittedRunLeavesOldContent) {
  const auto root = fresh("uncommitted");
  const auto dir = root / "out";
  fs::create_directories(dir);
  write(dir / "a.csv", "old a");
  write(dir / "b.csv", "old b");
  {
    ks::output_folder f(dir);
    write(f.file("a.csv"), "new a");
    // No commit: as if the run failed after the first file.
  }
  EXPECT_EQ(read(dir / "a.csv"), "old a");
  EXPECT_EQ(read(dir / "b.csv"), "old b");
  EXPECT_EQ(staging_leftovers(root), 0);
  fs::remove_all(root);
}

TEST(OutputFolder, CommitReplacesTheSetAndKeepsOtherFiles) {
  const auto root = fresh("commit");
  const auto dir = root / "out";
  fs::create_directories(dir / "notes");
  write(dir / "a.csv", "old a");
  write(dir / "mine.txt", "the user's");
  write(dir / "notes" / "n.txt", "nested");
  ks::output_folder f(dir);
  write(f.file("a.csv"), "new a");
  write(f.file("b.csv"), "new b");
  f.commit();
  EXPECT_EQ(read(dir / "a.csv"), "new a");
  EXPECT_EQ(read(dir / "b.csv"), "new b");
  EXPECT_EQ(read(dir / "mine.txt"), "the user's");
  EXPECT_EQ(read(dir / "notes" / "n.txt"), "nested");
  ASSERT_EQ(f.written().size(), 2u);
  EXPECT_EQ(f.written()[0], (dir / "a.csv").string());
  EXPECT_EQ(staging_leftovers(root), 0);
  fs::remove_all(root);
}

TEST(OutputFolder, CreatesAMissingFolderAndRemovesStaleStaging) {
  const auto root = fresh("create");
  const auto dir = root / "deep" / "out";
  // A leftover of a killed run (pid 0 is never a live process we could own; use a huge one).
  fs::create_directories(root / "deep" / ".out.kinevo-2147483646.partial");
  fs::create_directories(root / "deep" / ".other.kinevo-2147483646.partial");  // not ours
  ks::output_folder f(dir);
  write(f.file("x.csv"), "x");
  f.commit();
  EXPECT_EQ(read(dir / "x.csv"), "x");
  EXPECT_EQ(staging_leftovers(root / "deep", "out"), 0);
  EXPECT_TRUE(fs::exists(root / "deep" / ".other.kinevo-2147483646.partial"));
  fs::remove_all(root);
}

TEST(OutputFolder, MissingParentsAreRefusedAndNotCreated) {
  const auto root = fresh("parents");
  EXPECT_THROW(ks::output_folder::check(root / "missing" / "sub"), kinevo::io::output_error);
  EXPECT_THROW(ks::output_folder{root / "missing" / "sub"}, kinevo::io::output_error);
  EXPECT_FALSE(fs::exists(root / "missing"));
  fs::remove_all(root);
}

// Entries the run does not write are never opened: a FIFO without a reader would block a copy
// for ever (and a copy failed with "filesystem error: cannot copy").
TEST(OutputFolder, FifoInsideIsLeftAlone) {
  const auto root = fresh("fifo");
  const auto dir = root / "out";
  fs::create_directories(dir);
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0644), 0);
  ks::output_folder f(dir);
  write(f.file("a.csv"), "new a");
  f.commit();
  EXPECT_TRUE(fs::is_fifo(dir / "pipe"));
  EXPECT_EQ(read(dir / "a.csv"), "new a");
  EXPECT_EQ(staging_leftovers(root), 0);
  fs::remove_all(root);
}

// A file that cannot be moved in (a folder of its name is in the way) is an output_error naming
// it; the staging folder goes with the object.
TEST(OutputFolder, FailedMoveNamesTheFileAndLeavesNoStaging) {
  const auto root = fresh("failmove");
  const auto dir = root / "out";
  fs::create_directories(dir / "a.csv" / "inner");
  {
    ks::output_folder f(dir);
    write(f.file("a.csv"), "new a");
    try {
      f.commit();
      ADD_FAILURE() << "commit over a folder succeeded";
    } catch (const kinevo::io::output_error& e) {
      EXPECT_NE(std::string(e.what()).find((dir / "a.csv").string()), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(fs::is_directory(dir / "a.csv" / "inner"));
  EXPECT_EQ(staging_leftovers(root), 0);
  fs::remove_all(root);
}

TEST(OutputFolder, UnusableFolderIsInputError) {
  const auto root = fresh("unusable");
  write(root / "file", "not a folder");
  EXPECT_THROW(ks::output_folder{root / "file"}, kinevo::io::input_error);
  EXPECT_THROW(ks::output_folder{"/proc/kinevo_no_such_folder"}, kinevo::io::input_error);
  fs::remove_all(root);
}

// A symbolic link DIR is followed: the folder it points to is replaced, the link stays a link.
TEST(OutputFolder, SymlinkIsFollowed) {
  const auto root = fresh("symlink");
  fs::create_directories(root / "real");
  write(root / "real" / "a.csv", "old a");
  fs::create_directory_symlink(root / "real", root / "link");
  ks::output_folder f(root / "link");
  write(f.file("a.csv"), "new a");
  f.commit();
  EXPECT_TRUE(fs::is_symlink(root / "link"));
  EXPECT_EQ(read(root / "real" / "a.csv"), "new a");
  EXPECT_EQ(f.written()[0], (root / "link" / "a.csv").string());
  fs::remove_all(root);
}

// DIR = the working directory: its files are replaced, the folder itself stays.
TEST(OutputFolder, WorkingDirectoryIsWrittenInPlace) {
  const auto root = fresh("cwd");
  write(root / "a.csv", "old a");
  write(root / "mine.txt", "kept");
  const auto before = fs::current_path();
  fs::current_path(root);
  {
    ks::output_folder f(".");
    write(f.file("a.csv"), "new a");
    f.commit();
  }
  EXPECT_EQ(fs::current_path(), root);
  fs::current_path(before);
  EXPECT_EQ(read(root / "a.csv"), "new a");
  EXPECT_EQ(read(root / "mine.txt"), "kept");
  EXPECT_EQ(staging_leftovers(root.parent_path(), root.filename().string()), 0);
  fs::remove_all(root);
}
