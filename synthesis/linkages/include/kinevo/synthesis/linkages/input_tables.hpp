// Reading synthesis tables: input-output angle tables (four-bar, RSSR) and pose tables (RR dyad),
// with the checks a synthesis needs beyond "every cell is a number": enough points for the
// unknowns, no repeated input, positive weights. Errors are io::input_error naming file and line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/synthesis/linkages/rr_dyad.hpp"

namespace kinevo::synthesis {

struct function_table {
  std::string source;
  std::vector<double> input;    // psi, radians
  std::vector<double> output;   // phi, radians
  std::vector<double> weights;  // empty unless a 'weight' column is present
  std::vector<int> lines;       // line of each point in the file
};

// Columns: the input is the first column named psi* or input* (else the first column), the output
// the first named phi* or output* (else the second); an optional 'weight' column. Angles are in
// degrees unless `radians`. `unknowns` is the number of parameters the synthesis determines.
function_table function_table_from(const io::csv_table& t, bool radians, std::size_t unknowns,
                                   const std::string& what);
function_table read_function_table(const std::filesystem::path& path, bool radians,
                                   std::size_t unknowns, const std::string& what);

struct pose_table {
  std::string source;
  std::vector<pose> poses;  // pose 0 is the reference
  std::vector<int> lines;
};

// Columns x*, y*, theta* (names starting so, e.g. x_cm, theta_deg); theta in degrees unless
// `radians`. At least 5 poses; no pose may repeat the reference angle theta_0.
pose_table pose_table_from(const io::csv_table& t, bool radians);
pose_table read_pose_table(const std::filesystem::path& path, bool radians);

}  // namespace kinevo::synthesis
