// The progress line's text: percentage, detail, elapsed time and ETA (pure formatting, no clock).
#include <gtest/gtest.h>

#include "kinevo/io/progress.hpp"

namespace {

using kinevo::io::format_duration;
using kinevo::io::format_progress;

TEST(Progress, DurationIsMinutesAndSecondsThenHours) {
  EXPECT_EQ(format_duration(0.0), "0:00");
  EXPECT_EQ(format_duration(4.4), "0:04");
  EXPECT_EQ(format_duration(59.6), "1:00");
  EXPECT_EQ(format_duration(23.0), "0:23");
  EXPECT_EQ(format_duration(3723.0), "1:02:03");
  EXPECT_EQ(format_duration(-5.0), "0:00");
}

TEST(Progress, LineShowsElapsedAndEtaFromAverageRate) {
  // 4 s for 14.5 %: the remaining 85.5 % takes 4 * 85.5 / 14.5 = 23.6 s, shown as 0:24.
  EXPECT_EQ(format_progress("simulate", 0.145, "t = 1.157", 4.0),
            "simulate  14.5% t = 1.157  0:04 elapsed, ETA 0:24");
  EXPECT_EQ(format_progress("simulate", 0.5, "t = 1", 10.0),
            "simulate  50.0% t = 1  0:10 elapsed, ETA 0:10");
}

TEST(Progress, NoEtaBeforeAnyWorkOrAtTheEndOrWhenUnknown) {
  EXPECT_EQ(format_progress("optimize", 0.0, "", 1.0), "optimize   0.0%  0:01 elapsed");
  EXPECT_EQ(format_progress("optimize", 1.0, "done", 61.0), "optimize 100.0% done  1:01 elapsed");
  EXPECT_EQ(format_progress("study", -1.0, "row 3", 2.0), "study row 3  0:02 elapsed");
}

}  // namespace
