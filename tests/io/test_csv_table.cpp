#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"

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

// Issue 16.9: a UTF-8 byte-order mark before a comment line made the comment the header.
TEST(CsvTable, ByteOrderMarkIsAccepted) {
  const auto t = parse_csv_table("\xEF\xBB\xBF# exported\npsi,phi\n1,2\n", "bom.csv");
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_EQ(t.columns[0], "psi");
  EXPECT_EQ(t.where(0), "bom.csv:3");
  EXPECT_EQ(parse_csv_table("\xEF\xBB\xBF"
                            "a,b\n1,2\n",
                            "bom.csv")
                .columns[0],
            "a");
}

// Issue 16.8: a 10 MB cell was echoed whole in the message.
TEST(CsvTable, LongCellsAreEchoedShort) {
  const std::string cell(10'000'000, 'x');
  try {
    parse_csv_table("a,b\n1," + cell + "\n", "big.csv");
    FAIL() << "no error";
  } catch (const input_error& e) {
    const std::string m = e.what();
    EXPECT_LT(m.size(), 200u);
    EXPECT_NE(m.find("big.csv:2: column 'b': 'xxxx"), std::string::npos) << m;
    EXPECT_NE(m.find("(10000000 characters)"), std::string::npos) << m;
  }
}

// Subnormal values are numbers; only non-zero values that underflow to 0, and values beyond
// the double range, are refused.
TEST(CsvTable, SubnormalsAreNumbers) {
  EXPECT_EQ(parse_csv_table("a\n1e-310\n", "t.csv").rows[0][0], 1e-310);
  EXPECT_EQ(parse_csv_table("a\n0e-400\n", "t.csv").rows[0][0], 0.0);
  EXPECT_THROW(parse_csv_table("a\n1e-400\n", "t.csv"), input_error);
  EXPECT_THROW(parse_csv_table("a\n1e309\n", "t.csv"), input_error);
  EXPECT_THROW(parse_csv_table("a\n-inf\n", "t.csv"), input_error);
}

// Issue 16.11: devices, directories and oversized files are refused by name (a read of
// /dev/zero ended in std::bad_alloc).
TEST(CsvTable, NonRegularAndOversizedFilesAreRefused) {
  for (const std::string path : {"/dev/zero", "/tmp", "/nonexistent.csv"}) {
    try {
      (void)kinevo::io::read_csv_table(path);
      ADD_FAILURE() << path << " was read";
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  const auto big = std::filesystem::temp_directory_path() / "kinevo_oversized_table.csv";
  {
    std::ofstream out(big, std::ios::binary);
    out << "a\n";
    const std::string line(1 << 20, '1');
    for (int i = 0; i <= 64; ++i) out << line << "\n";
  }
  try {
    (void)kinevo::io::read_csv_table(big);
    ADD_FAILURE() << "an oversized table was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("more than the limit of 64 MiB"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(big);
}

TEST(AtomicFile, FailedWriteKeepsOldContent) {
  const auto p = std::filesystem::temp_directory_path() / "kinevo_atomic_test.txt";
  kinevo::io::write_text_atomically(p, "old");
  EXPECT_THROW(kinevo::io::write_atomically(p,
                                            [](std::ostream& o) {
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

TEST(CsvWriter, WritesShortestRoundTripNumbers) {
  kinevo::io::csv_writer w({"a", "b", "c"});
  const double third = 1.0 / 3.0;
  w.add_row({2.4, 1e-5, third});
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_csv_shortest";
  std::filesystem::create_directories(dir);
  w.save(dir / "t.csv");
  const auto table = kinevo::io::read_csv_table(dir / "t.csv");
  EXPECT_EQ(table.rows.at(0).at(0), 2.4);
  EXPECT_EQ(table.rows.at(0).at(2), third);  // exact round trip
  std::ifstream in(dir / "t.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(row.substr(0, row.rfind(',')), "2.4,1e-05");
}
