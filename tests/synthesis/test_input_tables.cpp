#include "kinevo/synthesis/linkages/input_tables.hpp"

#include <gtest/gtest.h>

#include <numbers>

namespace ks = kinevo::synthesis;
namespace kio = kinevo::io;

namespace {
std::string message_of(const std::string& file) {
  try {
    ks::read_function_table(std::string(KINEVO_TEST_DATA) + "/synthesis/" + file, false, 3,
                            "the four-bar");
  } catch (const kio::input_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(InputTables, ReadsDegreesAndLines) {
  const auto t = ks::read_function_table(
      std::string(KINEVO_TEST_DATA) + "/synthesis/grashof_table1.csv", false, 3, "x");
  ASSERT_EQ(t.input.size(), 5u);
  EXPECT_DOUBLE_EQ(t.input[0], 140 * std::numbers::pi / 180);
  EXPECT_DOUBLE_EQ(t.output[4], 50 * std::numbers::pi / 180);
  EXPECT_EQ(t.lines[0], 5);
}

TEST(InputTables, BadTablesNameTheLine) {
  EXPECT_NE(message_of("bad_cell.csv").find("bad_cell.csv:4"), std::string::npos)
      << message_of("bad_cell.csv");
  EXPECT_NE(message_of("nan.csv").find("nan.csv:4"), std::string::npos) << message_of("nan.csv");
  const auto rep = message_of("repeated.csv");
  EXPECT_NE(rep.find("repeated.csv:6"), std::string::npos) << rep;
  EXPECT_NE(rep.find("line 4"), std::string::npos) << rep;
  const auto few = message_of("too_few.csv");
  EXPECT_NE(few.find("too_few.csv:4: 2 point(s)"), std::string::npos) << few;
  EXPECT_NE(few.find("at least 3"), std::string::npos) << few;
}

TEST(InputTables, Poses) {
  const auto t =
      ks::read_pose_table(std::string(KINEVO_TEST_DATA) + "/synthesis/dyad_17.csv", false);
  ASSERT_EQ(t.poses.size(), 17u);
  EXPECT_DOUBLE_EQ(t.poses[16].x, 7.79);
  const auto bad =
      kio::parse_csv_table("x,y,theta\n0,0,10\n1,1,20\n2,2,10\n3,3,30\n4,4,40\n", "p.csv");
  try {
    ks::pose_table_from(bad, false);
    FAIL();
  } catch (const kio::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv:4"), std::string::npos) << e.what();
  }
  const auto few = kio::parse_csv_table("x,y,theta\n0,0,10\n1,1,20\n", "q.csv");
  EXPECT_THROW(ks::pose_table_from(few, false), kio::input_error);
}
