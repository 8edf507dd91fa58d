// A run's motion kept in memory by the trajectory recorder for an animation: the time and the
// coordinates of every row it records (the rows of the run's CSV, with the values the CSV holds),
// and the first value of a recorded row, in any column, that is not finite (a diverged run's).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kinevo::mechanics {

struct recorded_trajectory {
  std::vector<std::string> coordinate_names;
  std::vector<double> times;
  std::vector<std::vector<double>> coordinates;  // one per time, in coordinate_names' order

  struct cell {
    std::size_t row = 0;  // 0: the first recorded row
    std::string column;
    double value = 0.0;
  };
  std::optional<cell> first_non_finite;

  // Throws io::input_error when a recorded row holds a non-finite value: no page is drawn from
  // a diverged run. Worded as io::parse_csv_table words it for the run's CSV read as `source`
  // (the row's line, its column, its text), so the message is the one --animate gave when it
  // read the rows back from the CSV.
  void check_finite(const std::string& source) const;
};

}  // namespace kinevo::mechanics
