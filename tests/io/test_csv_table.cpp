#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "io/atomic_file.hpp"
#include "io/csv_table.hpp"

using kinevo::io::input_error;
using kinevo::io::parse_csv_table;

TEST(CsvTable, ReadsHeaderCommentsAndNumbers) {
  const auto t = parse_csv_table("# comment\npsi_deg, phi_deg\n\n140,80\n 130 , 7.4e1\n", "t.csv");
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_EQ(t.columns[1], "phi_deg");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(t.rows[1][1], 74.0);
  EXPECT_EQ(t.where(1), "t.csv:5");
}

TEST(CsvTable, NamesFileLineAndColumnOfBadCell) {
  try {
    parse_csv_table("a,b\n1,2\n3,x\n", "t.csv");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "t.csv:3: column 'b': 'x' is not a number");
  }
}

TEST(CsvTable, RejectsNanAndWrongWidth) {
  EXPECT_THROW(parse_csv_table("a,b\n1,nan\n", "t.csv"), input_error);
  EXPECT_THROW(parse_csv_table("a,b\n1\n", "t.csv"), input_error);
  EXPECT_THROW(parse_csv_table("", "t.csv"), input_error);
}

TEST(AtomicFile, FailedWriteKeepsOldContent) {
  const auto p = std::filesystem::temp_directory_path() / "kinevo_atomic_test.txt";
  kinevo::io::write_text_atomically(p, "old");
  EXPECT_THROW(kinevo::io::write_atomically(p, [](std::ostream& o) {
                 o << "partial";
                 throw std::runtime_error("boom");
               }),
               std::runtime_error);
  std::ifstream in(p);
  std::string s;
  in >> s;
  EXPECT_EQ(s, "old");
  // No temporary file is left behind.
  int others = 0;
  for (const auto& e : std::filesystem::directory_iterator(p.parent_path())) {
    if (e.path().filename().string().find(".kinevo_atomic_test.txt.tmp") == 0) ++others;
  }
  EXPECT_EQ(others, 0);
  std::filesystem::remove(p);
}
