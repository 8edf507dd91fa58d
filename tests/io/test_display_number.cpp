// Numbers as printed (io/display_number.hpp): no "-0", angles in (-180, 180] degrees.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <limits>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/display_number.hpp"

namespace kinevo::io {
namespace {

TEST(DisplayNumber, NoNegativeZero) {
  EXPECT_EQ(fmt::format("{}", -0.0), "-0");  // what it guards against
  EXPECT_EQ(fmt::format("{}", no_negative_zero(-0.0)), "0");
  EXPECT_EQ(fmt::format("{:g}", no_negative_zero(-1e-300)), "-1e-300");  // not zero: kept
  EXPECT_EQ(fmt::format("{:.6f}", -1e-9), "-0.000000");
  EXPECT_EQ(fmt::format("{:.6f}", no_negative_zero(-1e-9, 6)), "0.000000");
  EXPECT_EQ(fmt::format("{:.6f}", no_negative_zero(-6e-7, 6)), "-0.000001");
  csv_writer w({"a", "b"});
  w.add_row({-0.0, 2.5});
  EXPECT_EQ(w.str(), "a,b\n0,2.5\n");
}

TEST(DisplayNumber, AnglesInAHalfTurnEitherSide) {
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(470.0), 110.0);
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(250.0), -110.0);
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(-210.5), 149.5);
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(180.0), 180.0);
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(-180.0), 180.0);  // (-180, 180]: -180 is 180
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(540.0), 180.0);
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(-720.0), 0.0);
  EXPECT_EQ(fmt::format("{}", degrees_in_half_turn(-360.0)), "0");
  EXPECT_DOUBLE_EQ(degrees_in_half_turn(45.0), 45.0);
  EXPECT_TRUE(std::isnan(degrees_in_half_turn(std::numeric_limits<double>::quiet_NaN())));
}

}  // namespace
}  // namespace kinevo::io
