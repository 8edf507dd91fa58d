// Resume refuses, with a message naming the file and line, every checkpoint that would not
// continue the run it claims to: other options, another box, a hand edit (checksum), a
// generation count that disagrees with the islands, a truncated file (issue 16, item 13).
#include "kinevo/ga/detail/checkpoint_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "ga_test_support.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::ga {
namespace {

namespace fs = std::filesystem;
using testing::generations;

island_options two_islands() {
  island_options o;
  o.islands = 2;
  o.migration_interval = 5;
  o.seed = 3;
  o.threads = 1;
  return o;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh folder with a checkpoint of rosenbrock(3) at generation 10.
struct fixture {
  fs::path dir;
  fs::path file;
  rosenbrock_function p{3};
  fixture() {
    dir = fs::temp_directory_path() /
          ("kinevo_ga_checkpoint_file_" +
           std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    file = dir / "state.txt";
    island_model m(ga_options{}, two_islands());
    run_settings s;
    s.checkpoint_file = file;
    s.checkpoint_every = 10;
    m.run(p, search_box::of(p), generations(10), s);
  }
  ~fixture() { fs::remove_all(dir); }

  // The message of resuming `path` (empty when it was accepted).
  std::string resume_error(const fs::path& path, const search_box* box = nullptr) {
    island_model m(ga_options{}, two_islands());
    try {
      if (box != nullptr) {
        m.resume(p, *box, path, generations(20));
      } else {
        m.resume(p, path, generations(20));
      }
    } catch (const io::input_error& e) {
      return e.what();
    }
    return "";
  }
};

// Replaces the first `from` in the text with `to` and, when asked, fixes the checksum as a
// careful hand edit would.
std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(CheckpointFile, AnIntactCheckpointResumesAndEndsWithAChecksum) {
  fixture f;
  const std::string text = read(f.file);
  EXPECT_EQ(text.rfind("kinevo-ga-checkpoint 5\n", 0), 0u);
  EXPECT_NE(text.find("\nchecksum "), std::string::npos);
  EXPECT_EQ(f.resume_error(f.file), "");
  const search_box box = search_box::of(f.p);
  EXPECT_EQ(f.resume_error(f.file, &box), "");
}

// A SIGKILL between writing a checkpoint's temporary and its rename leaves the temporary; the
// next checkpoint write removes it (that checkpoint's own, of a dead process, nothing else).
TEST(CheckpointFile, TheNextWriteRemovesAStaleTemporary) {
  fixture f;
  // No process has pid 2147483646 (above Linux's largest pid_max): a killed writer's leftover.
  const fs::path stale = f.dir / ".state.txt.tmp.2147483646.0";
  const fs::path live = f.dir / (".state.txt.tmp." + std::to_string(::getpid()) + ".999999");
  const fs::path other = f.dir / ".other.txt.tmp.2147483646.0";
  for (const auto& p : {stale, live, other}) write(p, "kinevo-ga-checkpoint 5\nhalf");
  island_model m(ga_options{}, two_islands());
  run_settings s;
  s.checkpoint_file = f.file;
  s.checkpoint_every = 10;
  m.run(f.p, search_box::of(f.p), generations(10), s);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(f.resume_error(f.file), "");
}

TEST(CheckpointFile, AHandEditedFingerprintIsRefusedByTheChecksum) {
  fixture f;
  write(f.dir / "edited.txt", edited(read(f.file), "seed=3", "seed=4"));
  const std::string e = f.resume_error(f.dir / "edited.txt");
  EXPECT_NE(e.find("checksum mismatch"), std::string::npos) << e;
  EXPECT_NE(e.find("edited.txt:"), std::string::npos) << e;
}

TEST(CheckpointFile, ACorruptedGenerationCountIsRefused) {
  fixture f;
  // Edited and re-checksummed (as a tool could): the islands' evaluation counts give it away.
  checkpoint_contents c = read_checkpoint_file(f.file, 3);
  c.generation = 7;
  c.last_improvement = 0;
  write_checkpoint_file(f.dir / "gen.txt", c);
  const std::string e = f.resume_error(f.dir / "gen.txt");
  EXPECT_NE(e.find("does not fit generation 7"), std::string::npos) << e;
  EXPECT_NE(e.find("gen.txt:"), std::string::npos) << e;
  // Not re-checksummed: the checksum catches it first.
  write(f.dir / "gen2.txt", edited(read(f.file), "generation 10", "generation 11"));
  EXPECT_NE(f.resume_error(f.dir / "gen2.txt").find("checksum mismatch"), std::string::npos);
  write(f.dir / "gen3.txt", edited(read(f.file), "generation 10", "generation x"));
  EXPECT_NE(f.resume_error(f.dir / "gen3.txt").find("checksum"), std::string::npos);
}

TEST(CheckpointFile, ATruncatedFileIsRefusedWhereverItIsCut) {
  fixture f;
  const std::string text = read(f.file);
  for (const std::size_t keep : {std::size_t{0}, std::size_t{10}, text.size() / 3, text.size() / 2,
                                 text.size() - 20, text.size() - 2}) {
    write(f.dir / "cut.txt", text.substr(0, keep));
    const std::string e = f.resume_error(f.dir / "cut.txt");
    EXPECT_NE(e, "") << "cut at " << keep;
    EXPECT_NE(e.find("cut.txt:"), std::string::npos) << e;
  }
}

TEST(CheckpointFile, OtherOptionsOrAnotherBoxAreRefusedByName) {
  fixture f;
  // Another seed: the fingerprint, on its line (2).
  island_options other = two_islands();
  other.seed = 9;
  island_model m(ga_options{}, other);
  try {
    m.resume(f.p, f.file, generations(20));
    FAIL() << "another seed accepted";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("state.txt:2:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("other settings"), std::string::npos) << e.what();
  }
  // Another lower bound (optimize --lower): refused naming the bound and the variable.
  search_box box = search_box::of(f.p);
  box.lower[1] = -4.0;
  const std::string e = f.resume_error(f.file, &box);
  EXPECT_NE(e.find("lower bound of variable 1"), std::string::npos) << e;
  EXPECT_NE(e.find("state.txt:6:"), std::string::npos) << e;
  // Another problem dimension: the fingerprint names it.
  rosenbrock_function p4(4);
  island_model m4(ga_options{}, two_islands());
  EXPECT_THROW(m4.resume(p4, f.file, generations(20)), io::input_error);
}

TEST(CheckpointFile, OlderFormatsAndOtherFilesAreRefused) {
  fixture f;
  write(f.dir / "v2.txt", "kinevo-ga-checkpoint 2\nfingerprint x\nend\n");
  EXPECT_NE(f.resume_error(f.dir / "v2.txt").find("older kinevo"), std::string::npos);
  write(f.dir / "other.txt", "hello\n");
  EXPECT_NE(f.resume_error(f.dir / "other.txt").find("not a kinevo GA checkpoint"),
            std::string::npos);
  EXPECT_NE(f.resume_error(f.dir / "missing.txt").find("cannot open"), std::string::npos);
}

// The rotation frame is part of a g3 island's state only when the population (more members than
// variables) can span R^n; otherwise the noise is drawn in the axes and no frame is written.
// Either way the resumed run continues the uninterrupted one bit for bit.
TEST(CheckpointFile, AFrameIsWrittenOnlyWhenThePopulationSpansTheSpace) {
  for (const int population : {12, 8}) {
    ga_options g = g3_pcx_options();
    g.population = population;
    island_options o = two_islands();
    const rosenbrock_function p{8};
    const fs::path dir =
        fs::temp_directory_path() / ("kinevo_ga_checkpoint_frame_" + std::to_string(population));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path file = dir / "state.txt";
    run_settings s;
    s.checkpoint_file = file;
    s.checkpoint_every = 3;
    island_model(g, o).run(p, search_box::of(p), generations(3), s);
    const bool has_frame = read(file).find("\nframe ") != std::string::npos;
    EXPECT_EQ(has_frame, population > 8) << "population " << population;
    const auto whole = island_model(g, o).run(p, search_box::of(p), generations(6));
    const auto resumed = island_model(g, o).resume(p, file, generations(6));
    EXPECT_EQ(resumed.best_value, whole.best_value) << "population " << population;
    EXPECT_EQ(resumed.best_x, whole.best_x) << "population " << population;
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace kinevo::ga
