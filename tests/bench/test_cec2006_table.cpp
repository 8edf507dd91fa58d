// The CEC 2006 benchmark's shared pieces (bench/cec2006_table.hpp): the error measure, the
// "met" rule, the CSV both sides write, the side-by-side table; and bench/cec2006_kinevo.sh
// end to end on the Bracken-McCormick example.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/cec2006_table.hpp"
#include "tests/cli/run_command.hpp"

namespace cec = kinevo::bench::cec2006;

namespace {

cec::run_row row(const std::string& problem, int seed, bool feasible, double error) {
  cec::run_row r;
  r.solver = "s";
  r.budget = 100000;
  r.problem = problem;
  r.seed = seed;
  r.evaluations = 100000;
  r.f = 1.0;
  r.feasible = feasible;
  r.max_violation = feasible ? 0.0 : 1.0;
  r.error = error;
  return r;
}

// Ten runs of which `feasible` are feasible with error `error`, the rest infeasible with error 0
// (an infeasible run's error never counts).
std::vector<cec::run_row> ten(int feasible, double error) {
  std::vector<cec::run_row> v;
  for (int s = 1; s <= 10; ++s)
    v.push_back(row("g01", s, s <= feasible, s <= feasible ? error : 0));
  return v;
}

using kinevo::test::run_command;

std::filesystem::path fresh_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() /
           ("kinevo_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST(Cec2006Table, ErrorIsRelativeAboveOneAndAbsoluteBelow) {
  EXPECT_DOUBLE_EQ(cec::relative_error(-30000.0, -30665.5386717834),
                   (30665.5386717834 - 30000.0) / 30665.5386717834);
  EXPECT_DOUBLE_EQ(cec::relative_error(0.06, 0.05), 0.01);
  EXPECT_DOUBLE_EQ(cec::relative_error(-15.0, -15.0), 0.0);
  EXPECT_EQ(cec::best_known_f.size(), 24u);
  EXPECT_EQ(cec::best_known_f[0], -15.0);
  EXPECT_EQ(cec::best_known_f[23], -5.50801327159536);
  EXPECT_EQ(cec::problem_name(7), "g07");
}

TEST(Cec2006Table, MedianOverFeasibleFinalsOnly) {
  std::vector<cec::run_row> v = {row("g01", 1, true, 3e-5), row("g01", 2, true, 1e-5),
                                 row("g01", 3, false, 0.0), row("g01", 4, true, 2e-5)};
  cec::cell c = cec::summarise(v);
  EXPECT_EQ(c.runs, 4);
  EXPECT_EQ(c.feasible, 3);
  EXPECT_DOUBLE_EQ(c.median_error, 2e-5);  // odd count: the middle one; the infeasible 0 ignored
  v.push_back(row("g01", 5, true, 5e-5));
  c = cec::summarise(v);
  EXPECT_DOUBLE_EQ(c.median_error, 2.5e-5);  // even count: the mean of the middle two
}

TEST(Cec2006Table, MetNeedsSixOfTenFeasibleAndMedianAtMostOneInTenThousand) {
  EXPECT_TRUE(cec::summarise(ten(6, 1e-4)).met);
  EXPECT_FALSE(cec::summarise(ten(5, 1e-6)).met);  // too few feasible
  EXPECT_FALSE(cec::summarise(ten(10, 1.1e-4)).met);
  EXPECT_TRUE(cec::summarise(ten(10, 0.0)).met);
  const cec::cell none = cec::summarise(ten(0, 0.0));
  EXPECT_FALSE(none.met);
  EXPECT_TRUE(std::isnan(none.median_error));
  // A feasible run without a best-known value (error NaN) leaves the median undefined.
  auto v = ten(10, 1e-6);
  v[3].error = std::nan("");
  EXPECT_TRUE(std::isnan(cec::summarise(v).median_error));
  EXPECT_FALSE(cec::summarise(v).met);
}

TEST(Cec2006Table, CsvRoundTripsAndColumnsAreFoundByName) {
  cec::run_row r = row("g13", 7, true, 1.0 / 3.0);
  r.solver = "pagmo-gaco";
  r.f = 0.053941514041898 + 1e-13;
  r.max_violation = 9.9e-5;
  std::stringstream csv;
  csv << cec::csv_header << '\n'
      << cec::to_csv(r) << '\n'
      << cec::to_csv(row("g02", 1, false, std::nan(""))) << '\n';
  const auto back = cec::read_csv(csv, "round trip");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].solver, "pagmo-gaco");
  EXPECT_EQ(back[0].budget, 100000);
  EXPECT_EQ(back[0].problem, "g13");
  EXPECT_EQ(back[0].seed, 7);
  EXPECT_EQ(back[0].f, r.f);  // 17 digits: exact
  EXPECT_TRUE(back[0].feasible);
  EXPECT_EQ(back[0].max_violation, 9.9e-5);
  EXPECT_EQ(back[0].error, 1.0 / 3.0);
  EXPECT_FALSE(back[1].feasible);
  EXPECT_TRUE(std::isnan(back[1].error));

  std::stringstream reordered(
      "error,feasible,f,solver,problem,seed,budget,evaluations,max_violation\n"
      "2e-5,true,-15,kinevo-default,g01,3,500000,499990,0\n");
  const auto rows = cec::read_csv(reordered, "reordered");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].solver, "kinevo-default");
  EXPECT_EQ(rows[0].budget, 500000);
  EXPECT_EQ(rows[0].evaluations, 499990);
  EXPECT_TRUE(rows[0].feasible);
  EXPECT_EQ(rows[0].error, 2e-5);
}

TEST(Cec2006Table, CsvErrorsNameFileAndLine) {
  std::stringstream missing("solver,budget,problem\n");
  try {
    cec::read_csv(missing, "a.csv");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("a.csv: no column 'seed'"), std::string::npos) << e.what();
  }
  std::stringstream bad(std::string(cec::csv_header) + "\ns,100,g01,1,100,abc,1,0,0\n");
  try {
    cec::read_csv(bad, "b.csv");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("b.csv:2"), std::string::npos) << e.what();
  }
}

TEST(Cec2006Table, MarkdownTableHasProblemRowsSolverBudgetColumnsAndMetCounts) {
  std::vector<cec::run_row> rows;
  for (const char* solver : {"pagmo-gaco", "kinevo-default"}) {
    for (long long budget : {500000LL, 100000LL}) {
      for (const char* problem : {"g02", "g01"}) {
        auto v = ten(std::string(problem) == "g01" ? 10 : 2, 1e-6);
        for (auto& r : v) {
          r.solver = solver;
          r.budget = budget;
          r.problem = problem;
        }
        rows.insert(rows.end(), v.begin(), v.end());
      }
    }
  }
  EXPECT_EQ(
      cec::markdown_table(rows),
      "| problem | pagmo-gaco 1e5 | pagmo-gaco 5e5 | kinevo-default 1e5 | kinevo-default 5e5 |\n"
      "|---|---|---|---|---|\n"
      "| g01 | **1.00e-06 (10/10)** | **1.00e-06 (10/10)** | **1.00e-06 (10/10)** | "
      "**1.00e-06 (10/10)** |\n"
      "| g02 | 1.00e-06 (2/10) | 1.00e-06 (2/10) | 1.00e-06 (2/10) | 1.00e-06 (2/10) |\n"
      "| met | 1/2 | 1/2 | 1/2 | 1/2 |\n");
  EXPECT_EQ(cec::budget_label(100000), "1e5");
  EXPECT_EQ(cec::budget_label(20000), "2e4");
  EXPECT_EQ(cec::budget_label(123000), "123000");
}

// bench/cec2006_kinevo.sh on Bracken-McCormick (examples/problem_constrained.toml), once with a
// best-known header line and once without: one CSV row per budget, problem and seed, in order.
TEST(Cec2006KinevoScript, WritesOneRowPerRunWithErrorsFromTheHeader) {
  if (run_command("command -v jq >/dev/null 2>&1").status != 0) GTEST_SKIP() << "jq not installed";
  const auto dir = fresh_dir("cec2006_script");
  const std::string problem = read_text(std::string(KINEVO_EXAMPLES) + "/problem_constrained.toml");
  // f* = 9 - 2.875 sqrt 7 at x* = ((sqrt 7 - 1)/2, (sqrt 7 + 1)/4).
  const double f_star = 9.0 - 2.875 * std::sqrt(7.0);
  std::ofstream(dir / "bm.toml")
      << "# best-known f* = " << fmt::format("{:.17g}", f_star)
      << "\n# best-known x* = [0.82287565553229529, 0.91143782776614765]\n"
      << problem;
  std::ofstream(dir / "plain.toml") << problem;
  const std::string script = kinevo::test_paths::source_dir() + "/bench/cec2006_kinevo.sh";
  const auto r =
      run_command("bash " + script + " --label kinevo-test --kinevo " + KINEVO_BINARY + " --dir " +
                  dir.string() + " --problems bm,plain --seeds 2" + " --budgets 2000,4000 --out " +
                  (dir / "k.csv").string() + " -- --population 40 2>" + (dir / "err.txt").string());
  ASSERT_EQ(r.status, 0) << read_text(dir / "err.txt");
  std::ifstream in(dir / "k.csv");
  const auto rows = cec::read_csv(in, "k.csv");
  ASSERT_EQ(rows.size(), 8u);
  std::size_t k = 0;
  for (long long budget : {2000LL, 4000LL}) {
    for (const char* name : {"bm", "plain"}) {
      for (int seed = 1; seed <= 2; ++seed, ++k) {
        const auto& row = rows[k];
        EXPECT_EQ(row.solver, "kinevo-test");
        EXPECT_EQ(row.budget, budget);
        EXPECT_EQ(row.problem, name);
        EXPECT_EQ(row.seed, seed);
        EXPECT_GT(row.evaluations, 0);
        EXPECT_LE(row.evaluations, budget);
        EXPECT_TRUE(std::isfinite(row.f));
        if (row.feasible) {
          EXPECT_LE(row.max_violation, 1e-4);
        }
        if (std::string(name) == "bm") {
          EXPECT_NEAR(row.error, cec::relative_error(row.f, f_star), 1e-15);
        } else {
          EXPECT_TRUE(std::isnan(row.error));
        }
      }
    }
  }
  // The same seeds give the same rows (kinevo is deterministic per seed).
  const auto again =
      run_command("bash " + script + " --label kinevo-test --kinevo " + KINEVO_BINARY + " --dir " +
                  dir.string() + " --problems bm,plain --seeds 2" +
                  " --budgets 2000,4000 -- --population 40 2>/dev/null");
  EXPECT_EQ(again.out, read_text(dir / "k.csv"));
  std::filesystem::remove_all(dir);
}

TEST(Cec2006KinevoScript, AFailedRunIsAnInfeasibleRowAndExitStatusOne) {
  if (run_command("command -v jq >/dev/null 2>&1").status != 0) GTEST_SKIP() << "jq not installed";
  const std::string script = kinevo::test_paths::source_dir() + "/bench/cec2006_kinevo.sh";
  const auto r =
      run_command("bash " + script + " --label bad --kinevo " + KINEVO_BINARY + " --dir " +
                  KINEVO_EXAMPLES + " --problems problem_constrained --seeds 1" +
                  " --budgets 1000 -- --no-such-option 2>/dev/null");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            std::string(cec::csv_header) + "\nbad,1000,problem_constrained,1,0,nan,0,nan,nan\n");
}

TEST(Cec2006KinevoScript, RejectsAMissingLabelOrProblemFile) {
  const std::string script = kinevo::test_paths::source_dir() + "/bench/cec2006_kinevo.sh";
  EXPECT_EQ(
      run_command("bash " + script + " --kinevo " + KINEVO_BINARY + " >/dev/null 2>&1").status, 2);
  EXPECT_EQ(run_command("bash " + script + " --label x --kinevo " + KINEVO_BINARY + " --dir " +
                        KINEVO_EXAMPLES + " --problems no_such_problem >/dev/null 2>&1")
                .status,
            2);
}
