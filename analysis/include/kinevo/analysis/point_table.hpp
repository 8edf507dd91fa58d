// Tables of body points for the screw analysers: a 'point' label column, the positions x, y, z
// and either the second positions x_prime, y_prime, z_prime (finite displacement) or the
// velocities xdot, ydot, zdot (instantaneous motion). Errors are io::input_error naming the
// file, line and column.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::analysis {

enum class point_table_kind { finite, instant };

struct point_table {
  std::string source;
  std::vector<double> labels;           // the 'point' column
  std::vector<Eigen::Vector3d> first;   // p_i
  std::vector<Eigen::Vector3d> second;  // p_i' (finite) or pdot_i (instant)
  std::vector<int> lines;               // line of each point in the file
};

// At least three points; labels must not repeat.
point_table point_table_from(const io::csv_table& t, point_table_kind kind);
point_table read_point_table(const std::filesystem::path& path, point_table_kind kind);

}  // namespace kinevo::analysis
