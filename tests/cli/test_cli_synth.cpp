// End-to-end tests of `kinevo synth` on the source document's tables (examples/).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::example;
using kinevo::test::json_of;
using kinevo::test::run_kinevo;

std::string data(const std::string& name) {
  return std::string(KINEVO_TEST_DATA) + "/synthesis/" + name;
}

}  // namespace

TEST(CliSynth, FourbarLeastSquares) {
  const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv"));
  EXPECT_NEAR(j["k"][0].get<double>(), 0.745488, 1e-6);
  EXPECT_NEAR(j["k"][1].get<double>(), 0.072166, 1e-6);
  EXPECT_NEAR(j["k"][2].get<double>(), -0.318569, 1e-6);
  EXPECT_NEAR(j["residual_norm"].get<double>(), 0.042233, 1e-6);
  EXPECT_FALSE(j["input_crank"].get<bool>());
  EXPECT_EQ(j["errors_deg"].size(), 5u);
  EXPECT_EQ(j["links"].size(), 4u);
}

TEST(CliSynth, FourbarInputCrankPenaltyAndGa) {
  for (const std::string method : {"penalty", "ga"}) {
    const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv") +
                           " --crank input --method " + method);
    EXPECT_TRUE(j["input_crank"].get<bool>()) << method;
    EXPECT_GT(j["f1"].get<double>(), 0.0);
    EXPECT_GT(j["f2"].get<double>(), 0.0);
    EXPECT_LE(j["residual_norm"].get<double>(), 0.050684) << method;
  }
}

TEST(CliSynth, FourbarBoundsAndFiles) {
  const auto dir = kinevo::test::fresh_dir("synth_fourbar");
  const auto j = json_of("synth fourbar --table " + example("grashof_table1.csv") +
                         " --crank input --max-ratio 6 --min-transmission 30 -o " + dir.string());
  const auto& l = j["links"];
  double lo = 1e300, hi = 0;
  for (const auto& v : l) {
    lo = std::min(lo, std::abs(v.get<double>()));
    hi = std::max(hi, std::abs(v.get<double>()));
  }
  EXPECT_LE(hi / lo, 6.0 + 1e-9);
  EXPECT_GE(j["transmission_angle_deg"]["min"].get<double>(), 30.0 - 1e-6);
  EXPECT_LE(j["transmission_angle_deg"]["max"].get<double>(), 150.0 + 1e-6);
  for (const char* f :
       {"fourbar_errors.csv", "fourbar_sweep.csv", "fourbar_error.svg", "fourbar_linkage.svg"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
  }
  std::filesystem::remove_all(dir);
}

TEST(CliSynth, Rssr) {
  const auto j = json_of("synth rssr --table " + example("rssr_19.csv"));
  const double k_ref[6] = {-0.0818733, 3.4893753, -1.1764544, -1.3955576, -0.3864268, -2.0938118};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(j["k"][i].get<double>(), k_ref[i], 1e-6);
  EXPECT_NEAR(j["errors_deg"][0].get<double>(), 0.01420369, 0.6e-8);
  EXPECT_NEAR(j["errors_deg"][18].get<double>(), 0.00412793, 0.6e-8);
  EXPECT_NEAR(j["dimensions"]["a2_coupler"].get<double>(), 2.620598, 1e-6);
}

// A fit whose linkage does not assemble at a table point does not generate the table: exit 1,
// the status on stderr and in the JSON (never an ok with NaN errors).
TEST(CliSynth, RssrThatDoesNotAssembleAtATablePointFails) {
  const auto r = run_kinevo("synth rssr --table " + data("rssr_not_assembled.csv") + " --json");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("not_assembled: the linkage found does not assemble at 1 of the 7"),
            std::string::npos)
      << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "not_assembled");
  EXPECT_EQ(json_of("synth rssr --table " + example("rssr_19.csv"))["status"], "ok");
}

// Points that do not determine the linkage are a failed result in the library (issue 27); the
// command prints it as the exception it replaced: one error line, exit 1, no report, no files.
TEST(CliSynth, UndeterminedTablesAreOneErrorLineAndNoFiles) {
  const auto dir = kinevo::test::fresh_dir("synth_undetermined");
  const auto flat = dir / "flat.csv";
  const auto three = dir / "three.csv";
  const auto seven = dir / "seven.csv";
  std::ofstream(flat) << "psi_deg,phi_deg\n10,20\n20,20\n30,20\n40,20\n";
  std::ofstream(three) << "psi_deg,phi_deg\n10,20\n20,20\n30,20\n";
  std::ofstream(seven) << "psi_deg,phi_deg\n10,20\n20,20\n30,20\n40,20\n50,20\n60,20\n70,20\n";
  const std::string rank_deficient =
      "least squares: the equations are rank deficient (rank 2 of 3); the data do not determine "
      "the unknowns";
  struct undetermined {
    std::string args, message;
  };
  for (const auto& c : std::vector<undetermined>{
           {"synth fourbar --table " + flat.string(), rank_deficient},
           {"synth fourbar --crank input --table " + flat.string(), rank_deficient},
           {"synth fourbar --exact --table " + three.string(),
            "the three precision points do not determine k (singular Freudenstein matrix"},
           {"synth rssr --table " + seven.string(),
            "least squares: the equations are rank deficient (rank"},
       }) {
    const auto out = dir / "out";
    const auto r = run_kinevo(c.args + " --output-dir " + out.string());
    EXPECT_EQ(r.status, 1) << c.args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("kinevo: error: " + c.message, 0), 0u) << c.args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
    const auto j = nlohmann::json::parse(run_kinevo(c.args + " --json").out);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_EQ(j["exit_status"], 1);
    EXPECT_EQ(j["message"].get<std::string>().rfind("error: " + c.message, 0), 0u) << j.dump();
  }
  std::filesystem::remove_all(dir);
}

TEST(CliSynth, Dyad) {
  const auto j = json_of("synth dyad --poses " + example("dyad_17.csv") + " --starts 100");
  bool found = false;
  for (const auto& s : j["solutions"]) {
    ASSERT_EQ(s["a0"].size(), 2u);
    ASSERT_EQ(s["b"].size(), 2u);
    if (std::abs(s["error_pct"].get<double>() - 39.01) < 0.3901) found = true;
  }
  EXPECT_TRUE(found);
}

TEST(CliSynth, BadInputNamesFileAndLine) {
  const auto r = run_kinevo("synth fourbar --table " + data("bad_cell.csv"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad_cell.csv:4"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  const auto rep = run_kinevo("synth fourbar --table " + data("repeated.csv") + " --json");
  EXPECT_EQ(rep.status, 2);
  EXPECT_NE(rep.err.find("repeated.csv:6"), std::string::npos) << rep.err;
  const auto few = run_kinevo("synth rssr --table " + example("grashof_table1.csv"));
  EXPECT_EQ(few.status, 2);
  EXPECT_NE(few.err.find("at least 6"), std::string::npos) << few.err;
  const auto exact = run_kinevo("synth fourbar --exact --table " + example("grashof_table1.csv"));
  EXPECT_EQ(exact.status, 2);
  EXPECT_NE(exact.err.find("exactly 3"), std::string::npos) << exact.err;
  const auto missing = run_kinevo("synth dyad --poses /nonexistent/poses.csv");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
}

TEST(CliSynth, AbsurdOrNonFiniteBoundsAreRefusedNotCrashed) {
  // --max-ratio 1e160 squared to inf, the ratio constraints became NaN and the feasibility
  // restoration handed an empty system to minimum_norm_solution: SIGSEGV.
  for (const char* v : {"1e160", "1e308", "inf", "nan", "1e7"}) {
    const auto r =
        run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " --max-ratio " + v);
    EXPECT_EQ(r.status, 2) << v << ": " << r.err;
    EXPECT_NE(r.err.find("--max-ratio"), std::string::npos) << v << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << v;
  }
  const auto t = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                            " --min-transmission nan");
  EXPECT_EQ(t.status, 2) << t.err;
  EXPECT_NE(t.err.find("--min-transmission"), std::string::npos) << t.err;
  const auto f =
      run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " --frame inf");
  EXPECT_EQ(f.status, 2) << f.err;
  EXPECT_NE(f.err.find("--frame"), std::string::npos) << f.err;
}

TEST(CliSynth, QuietPrintsNothing) {
  const auto r = run_kinevo("synth rssr -q --table " + example("rssr_19.csv"));
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.out.empty());
}

// Seeds are integers in [0, 2^64 - 1] (CLI11's own conversion made -1 and 1e23 into 2^64 - 1).
TEST(CliSynth, SeedOutOfRangeIsRefused) {
  for (const std::string seed : {"-1", "1e23"}) {
    const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                              " --method ga --quiet --seed " + seed);
    EXPECT_EQ(r.status, 2) << seed;
    EXPECT_NE(r.err.find("--seed"), std::string::npos) << r.err;
  }
}

// Every numeric option of every synth subcommand is checked by the library's validate(): NaN,
// infinities, out-of-range values and absurd sizes are refused with exit 2, the option named,
// nothing on stdout (no bad_alloc, no silent clamping).
TEST(CliSynth, EveryNumericOptionIsValidated) {
  const std::string fb = "synth fourbar --table " + example("grashof_table1.csv");
  const std::string rs = "synth rssr --table " + example("rssr_19.csv");
  const std::string dy = "synth dyad --poses " + example("dyad_17.csv");
  const std::string ch = "synth chebyshev";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {fb + " --min-transmission nan", "--min-transmission"},
      {fb + " --min-transmission -5", "--min-transmission"},
      {fb + " --min-transmission 90", "--min-transmission"},
      {fb + " --frame 0", "--frame"},
      {fb + " --frame -1", "--frame"},
      {fb + " --frame nan", "--frame"},
      {fb + " --max-ratio -2", "--max-ratio"},
      {fb + " --generations 0", "--generations"},
      {fb + " --generations -3 --method ga", "--generations"},
      {fb + " --islands 0 --method ga", "--islands"},
      {fb + " --islands 1000000 --method ga", "--islands"},
      {fb + " --method lm", "--method"},
      {fb + " --crank left", "--crank"},
      {rs + " --alpha4 nan", "--alpha4"},
      {rs + " --alpha4 inf", "--alpha4"},
      {rs + " --a4 inf", "--a4"},
      {rs + " --a4 0", "--a4"},
      {rs + " --a4 nan", "--a4"},
      {rs + " --islands -1 --method ga", "--islands"},
      {rs + " --method qr", "--method"},
      {dy + " --starts 0", "--starts"},
      {dy + " --starts -5", "--starts"},
      {dy + " --starts 100000000", "--starts"},
      {dy + " --keep 0", "--keep"},
      {dy + " --generations 0 --method ga", "--generations"},
      {dy + " --method newton", "--method"},
      {ch + " --from -1e308 --to 1e308", "--to"},
      {ch + " --from nan --to 1", "--from"},
      {ch + " --from 0 --to inf", "--to"},
      {ch + " --from 1 --to 1", "--to"},
      {ch + " --from 0 --to 1 -n 0", "-n"},
      {ch + " --from 0 --to 1 -n -4", "-n"},
      {ch + " --from 0 --to 1 -n 1e8", "-n"},
  };
  for (const auto& [args, option] : cases) {
    const auto r = run_kinevo(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

// --quiet and --json are accepted by every synth subcommand alike (chebyshev refused --quiet).
TEST(CliSynth, QuietAndJsonOnEverySubcommand) {
  const std::vector<std::string> subs = {
      "synth fourbar --table " + example("grashof_table1.csv"),
      "synth rssr --table " + example("rssr_19.csv"),
      "synth dyad --poses " + example("dyad_17.csv") + " --starts 10",
      "synth chebyshev --from 30 --to 120 -n 3"};
  for (const auto& s : subs) {
    const auto q = run_kinevo(s + " --quiet");
    EXPECT_EQ(q.status, 0) << s << ": " << q.err;
    EXPECT_TRUE(q.out.empty()) << s;
    const auto j = run_kinevo(s + " --json");
    EXPECT_EQ(j.status, 0) << s << ": " << j.err;
    EXPECT_TRUE(nlohmann::json::accept(j.out)) << s << ": " << j.out;
  }
  const auto c = json_of("synth chebyshev --from 30 --to 120 -n 3");
  ASSERT_EQ(c["points"].size(), 3u);
  EXPECT_NEAR(c["points"][0].get<double>(), 36.02885683, 1e-6);
}

namespace {

std::map<std::string, std::string> folder_contents(const std::filesystem::path& dir) {
  std::map<std::string, std::string> m;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(e.path());
    std::stringstream s;
    s << f.rdbuf();
    m[e.path().filename().string()] = s.str();
  }
  return m;
}

int partial_entries(const std::filesystem::path& parent) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(parent)) {
    if (e.path().filename().string().ends_with(".partial")) ++n;
  }
  return n;
}

// Entries beside the output folder that a run left behind (staging folders, probes).
int leftovers_beside(const std::filesystem::path& parent) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(parent)) {
    const std::string f = e.path().filename().string();
    if (f.find(".kinevo") != std::string::npos || f.ends_with(".partial")) ++n;
  }
  return n;
}

// The run's command under an unprivileged user when the tests run as root (root writes into
// read-only folders anyway), so that a read-only folder is read-only to the run.
std::string unprivileged(const std::string& args) {
  const std::string bin = KINEVO_BINARY;
  if (::geteuid() != 0) return bin + " " + args;
  return "setpriv --reuid=65534 --regid=65534 --clear-groups " + bin + " " + args;
}

}  // namespace

// A run killed while writing (here by the test hook, SIGKILL after the first file) leaves -o DIR
// with the complete old set, never a mix; the next run clears the leftover and replaces the set.
TEST(CliSynth, KilledRunLeavesTheOldOutputFolder) {
  const auto root = kinevo::test::fresh_dir("synth_killed");
  const auto dir = root / "out";
  const std::string base =
      "synth fourbar --table " + example("grashof_table1.csv") + " -q -o " + dir.string();
  ASSERT_EQ(run_kinevo(base).status, 0);
  { std::ofstream(dir / "mine.txt") << "the user's own file\n"; }
  const auto old = folder_contents(dir);
  ASSERT_EQ(old.size(), 5u);

  ::setenv("KINEVO_TEST_KILL_AFTER_FILES", "1", 1);
  const auto killed = run_kinevo(base + " --crank input");
  ::unsetenv("KINEVO_TEST_KILL_AFTER_FILES");
  EXPECT_NE(killed.status, 0);
  EXPECT_EQ(folder_contents(dir), old);
  EXPECT_EQ(partial_entries(root), 1);  // the killed run's staging folder

  ASSERT_EQ(run_kinevo(base + " --crank input").status, 0);
  const auto now = folder_contents(dir);
  EXPECT_EQ(now.size(), 5u);
  EXPECT_NE(now.at("fourbar_errors.csv"), old.at("fourbar_errors.csv"));
  EXPECT_EQ(now.at("mine.txt"), old.at("mine.txt"));
  EXPECT_EQ(partial_entries(root), 0);
  std::filesystem::remove_all(root);
}

// -o DIR keeps what the run does not write, never reads it (a FIFO inside was once copied and
// failed the run), writes the complete set, and leaves no staging folder beside DIR.
TEST(CliSynth, OutputFolderKeepsOtherEntriesAndLeavesNoStaging) {
  const auto root = kinevo::test::fresh_dir("synth_outkeep");
  const auto dir = root / "out";
  std::filesystem::create_directories(dir / "notes");
  { std::ofstream(dir / "mine.txt") << "the user's own file\n"; }
  { std::ofstream(dir / "notes" / "n.txt") << "nested\n"; }
  { std::ofstream(dir / "fourbar_errors.csv") << "old\n"; }
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0644), 0);
  const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " -q -o " +
                            dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_fifo(dir / "pipe"));
  std::filesystem::remove(dir / "pipe");  // folder_contents would block opening it
  const auto now = folder_contents(dir);
  for (const char* f : {"fourbar_errors.csv", "fourbar_sweep.csv", "fourbar_error.svg",
                        "fourbar_linkage.svg", "mine.txt"}) {
    EXPECT_EQ(now.count(f), 1u) << f;
  }
  EXPECT_NE(now.at("fourbar_errors.csv"), "old\n");
  EXPECT_GT(now.at("fourbar_errors.csv").size(), 100u);
  EXPECT_EQ(now.at("mine.txt"), "the user's own file\n");
  EXPECT_TRUE(std::filesystem::exists(dir / "notes" / "n.txt"));
  EXPECT_EQ(leftovers_beside(root), 0);
  EXPECT_EQ(leftovers_beside(dir), 0);
}

// A missing DIR is created, but never its missing parents (README): -o missing/sub is refused
// before the run, and creates nothing.
TEST(CliSynth, OutputFolderMissingParentIsRefused) {
  const auto root = kinevo::test::fresh_dir("synth_outparent");
  const auto table = example("grashof_table1.csv");
  auto r = run_kinevo("synth fourbar --table " + table + " -q -o " +
                      (root / "missing" / "sub").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--output-dir"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((root / "missing" / "sub").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(root / "missing"));
  r = run_kinevo("synth fourbar --table " + table + " -q -o " + (root / "new").string());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(root / "new" / "fourbar_errors.csv"));
  EXPECT_EQ(leftovers_beside(root), 0);
}

// Folders that cannot take the files are refused before the run with exit 2, naming the option
// and the folder in kinevo's words, for every subcommand with -o.
TEST(CliSynth, UnwritableOutputFolderIsRefusedBeforeTheRun) {
  const std::vector<std::string> commands = {
      "synth fourbar --table " + example("grashof_table1.csv") + " -q",
      "synth cam " + example("cam_translating_roller.toml") + " -q",
      "screw instant -t " + example("screw_instant_points.csv") + " -q",
      "analyze chain " + example("chain_6r_hexflex.toml") + " -q",
      "analyze loop rrrr --a1 2 --a2 2.5 --a3 1.3 --a4 1 --from 0 --to 3 --step 0.5 -q"};
  for (const auto& c : commands) {
    for (const std::string dir : {"/proc", "/proc/kinevo_no_such_folder"}) {
      const auto r = run_kinevo(c + " -o " + dir);
      EXPECT_EQ(r.status, 2) << c << " -o " << dir << ": " << r.err;
      EXPECT_NE(r.err.find("--output-dir: cannot write '" + dir + "'"), std::string::npos)
          << c << ": " << r.err;
      EXPECT_EQ(r.err.find("filesystem"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find("std::"), std::string::npos) << r.err;
    }
  }
}

TEST(CliSynth, ReadOnlyOutputFolderIsRefusedBeforeTheRun) {
  const auto root = kinevo::test::fresh_dir("synth_outro");
  const auto dir = root / "ro";
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "mine.txt") << "kept\n"; }
  std::filesystem::permissions(root, std::filesystem::perms::all);  // the run's user may enter
  std::filesystem::permissions(
      dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
               std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  const auto r = kinevo::test::run_command(unprivileged(
      "synth fourbar --table " + example("grashof_table1.csv") + " -o " + dir.string()));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--output-dir: cannot write '" + dir.string() + "'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  EXPECT_EQ(folder_contents(dir).size(), 1u);
  EXPECT_EQ(leftovers_beside(root), 0);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
}

// A run whose files cannot be moved in (a folder of an output's name is in the way) fails with
// exit 2 naming the file, keeps DIR's other content and leaves no staging folder behind.
TEST(CliSynth, FailedOutputMoveLeavesNoStaging) {
  const auto root = kinevo::test::fresh_dir("synth_outfail");
  const auto dir = root / "out";
  std::filesystem::create_directories(dir / "fourbar_sweep.csv" / "inner");
  { std::ofstream(dir / "mine.txt") << "kept\n"; }
  const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " -q -o " +
                            dir.string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find((dir / "fourbar_sweep.csv").string()), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("filesystem"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_directory(dir / "fourbar_sweep.csv" / "inner"));
  EXPECT_EQ(folder_contents(dir).at("mine.txt"), "kept\n");
  EXPECT_EQ(leftovers_beside(root), 0);
  EXPECT_EQ(leftovers_beside(dir), 0);
}

TEST(CliSynth, UnusableOutputFolderIsExit2) {
  const auto root = kinevo::test::fresh_dir("synth_badout");
  { std::ofstream(root / "file") << "x\n"; }
  const auto r = run_kinevo("synth rssr --table " + example("rssr_19.csv") + " -o " +
                            (root / "file").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("not a folder"), std::string::npos) << r.err;
  std::filesystem::remove_all(root);
}
