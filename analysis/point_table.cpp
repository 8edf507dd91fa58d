#include "kinevo/analysis/point_table.hpp"

#include <fmt/format.h>

#include <array>

namespace kinevo::analysis {

point_table point_table_from(const io::csv_table& t, point_table_kind kind) {
  const bool finite = kind == point_table_kind::finite;
  const std::array<const char*, 3> second_names =
      finite ? std::array<const char*, 3>{"x_prime", "y_prime", "z_prime"}
             : std::array<const char*, 3>{"xdot", "ydot", "zdot"};
  // column() throws naming the file and the columns it has when one is missing.
  const std::size_t label = t.column("point");
  const std::array<std::size_t, 3> first{t.column("x"), t.column("y"), t.column("z")};
  const std::array<std::size_t, 3> second{t.column(second_names[0]), t.column(second_names[1]),
                                          t.column(second_names[2])};
  if (t.rows.size() < 3) {
    throw io::input_error(t.source, 0, "",
                          fmt::format("needs at least 3 points (rows), has {}: fewer do not "
                                      "determine a rigid-body motion",
                                      t.rows.size()));
  }
  point_table out;
  out.source = t.source;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto& row = t.rows[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (t.rows[j][label] == row[label]) {
        throw io::input_error(
            t.source, t.line_numbers[i], "column 'point'",
            fmt::format("point {:g} repeats line {}", row[label], t.line_numbers[j]));
      }
    }
    out.labels.push_back(row[label]);
    out.first.emplace_back(row[first[0]], row[first[1]], row[first[2]]);
    out.second.emplace_back(row[second[0]], row[second[1]], row[second[2]]);
    out.lines.push_back(t.line_numbers[i]);
  }
  return out;
}

point_table read_point_table(const std::filesystem::path& path, point_table_kind kind) {
  return point_table_from(io::read_csv_table(path), kind);
}

}  // namespace kinevo::analysis
