// io/atomic_file: whole files or none, written to what the user named (the target of a symbolic
// link, a device node), no folders created, leftovers of killed runs removed.
#include "kinevo/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace kinevo::io {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const auto d =
      fs::temp_directory_path() / ("kinevo_atomic_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int temporaries(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp.") != std::string::npos) ++n;
  }
  return n;
}

TEST(AtomicFile, WritesANewFileAndReplacesAnOldOne) {
  const auto d = fresh_dir("new");
  write_text_atomically(d / "a.txt", "one");
  EXPECT_EQ(read(d / "a.txt"), "one");
  write_text_atomically(d / "a.txt", "two");
  EXPECT_EQ(read(d / "a.txt"), "two");
  EXPECT_EQ(temporaries(d), 0);
  fs::remove_all(d);
}

TEST(AtomicFile, WritesThroughASymlinkToItsTarget) {
  const auto d = fresh_dir("symlink");
  fs::create_directories(d / "real");
  write_text_atomically(d / "real" / "out.csv", "old");
  fs::create_symlink(d / "real" / "out.csv", d / "link.csv");
  write_text_atomically(d / "link.csv", "new");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(d / "link.csv")));
  EXPECT_EQ(read(d / "real" / "out.csv"), "new");
  // A relative link, and a dangling one (its target is created).
  fs::create_symlink("real/rel.csv", d / "rel_link.csv");
  write_text_atomically(d / "rel_link.csv", "rel");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(d / "rel_link.csv")));
  EXPECT_EQ(read(d / "real" / "rel.csv"), "rel");
  EXPECT_EQ(temporaries(d), 0);
  EXPECT_EQ(temporaries(d / "real"), 0);
  fs::remove_all(d);
}

TEST(AtomicFile, WritesThroughADeviceNode) {
  write_text_atomically("/dev/null", "nothing");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_NO_THROW(check_writable("/dev/null"));
}

TEST(AtomicFile, RefusesAMissingFolderWithoutCreatingIt) {
  const auto d = fresh_dir("missing");
  try {
    write_text_atomically(d / "no" / "such" / "a.txt", "x");
    FAIL() << "expected output_error";
  } catch (const output_error& e) {
    EXPECT_NE(std::string(e.what()).find((d / "no" / "such").string()), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(d / "no"));
  EXPECT_THROW(check_writable(d / "no" / "a.txt"), output_error);
  EXPECT_FALSE(fs::exists(d / "no"));
  fs::remove_all(d);
}

TEST(AtomicFile, CheckWritableRefusesFoldersAndUnwritableLocations) {
  const auto d = fresh_dir("check");
  EXPECT_NO_THROW(check_writable(d / "a.csv"));
  EXPECT_EQ(temporaries(d), 0);  // the probe is removed
  EXPECT_FALSE(fs::exists(d / "a.csv"));
  EXPECT_THROW(check_writable(d), output_error);
  EXPECT_THROW(check_writable(""), output_error);
  // /proc accepts no new files, not even from root.
  try {
    check_writable("/proc/run.csv");
    FAIL() << "expected output_error";
  } catch (const output_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/run.csv"), std::string::npos) << e.what();
  }
  fs::remove_all(d);
}

TEST(AtomicFile, RemovesTemporariesOfAKilledRun) {
  const auto d = fresh_dir("stale");
  // A process id that cannot run: above the kernel's pid_max (at most 2^22).
  const auto stale = d / ".out.csv.tmp.99999999.0";
  std::ofstream(stale) << "half";
  // Another file's temporary and a live process's are left alone.
  const auto other = d / ".other.csv.tmp.99999999.0";
  std::ofstream(other) << "half";
  const auto live = d / (".out.csv.tmp." + std::to_string(::getpid()) + ".999999");
  std::ofstream(live) << "half";
  write_text_atomically(d / "out.csv", "whole");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_EQ(read(d / "out.csv"), "whole");
  fs::remove_all(d);
}

TEST(AtomicFile, FailedWriteLeavesTheOldContentAndNoTemporary) {
  const auto d = fresh_dir("failed");
  write_text_atomically(d / "a.txt", "old");
  EXPECT_THROW(write_atomically(d / "a.txt",
                                [](std::ostream& o) {
                                  o << "partial";
                                  throw std::runtime_error("boom");
                                }),
               std::runtime_error);
  EXPECT_EQ(read(d / "a.txt"), "old");
  EXPECT_EQ(temporaries(d), 0);
  fs::remove_all(d);
}

// The streamed form (simulate's rows): the target keeps its old content while the stream is
// written, gets the whole new content at commit(), and a stream dropped without commit() (an
// exception during the run) leaves neither a half file nor a temporary.
TEST(AtomicFile, StreamedFileAppearsWholeAtCommitAndNotAtAllWithout) {
  const auto d = fresh_dir("stream");
  write_text_atomically(d / "rows.csv", "old\n");
  {
    atomic_output_stream out(d / "rows.csv");
    EXPECT_FALSE(out.written_through());
    for (int i = 0; i < 1000; ++i) out.stream() << i << "\n";
    out.stream().flush();
    EXPECT_EQ(read(d / "rows.csv"), "old\n");
    EXPECT_EQ(temporaries(d), 1);
    out.commit();
  }
  std::string expected;
  for (int i = 0; i < 1000; ++i) expected += std::to_string(i) + "\n";
  EXPECT_EQ(read(d / "rows.csv"), expected);
  EXPECT_EQ(temporaries(d), 0);
  {
    atomic_output_stream dropped(d / "rows.csv");
    dropped.stream() << "half";
  }
  EXPECT_EQ(read(d / "rows.csv"), expected);
  {
    atomic_output_stream fresh(d / "new.csv");
    fresh.stream() << "half";
  }
  EXPECT_FALSE(fs::exists(d / "new.csv"));
  EXPECT_EQ(temporaries(d), 0);
  EXPECT_THROW(atomic_output_stream(d / "missing" / "x.csv"), output_error);
  EXPECT_THROW(atomic_output_stream{d}, output_error);
  atomic_output_stream null("/dev/null");
  EXPECT_TRUE(null.written_through());
  null.stream() << "x";
  EXPECT_NO_THROW(null.commit());
  fs::remove_all(d);
}

}  // namespace
}  // namespace kinevo::io
