// Reading a path-synthesis table: the precision points (x, y) the coupler point is to pass
// through, optionally the input angle at each (timing), and the problem's settings written in
// the file's header as "# key = value" lines (bounds, link type, the best published objective of
// a benchmark case), so that one file carries a whole published problem. Errors are
// io::input_error naming file, line and field.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"

namespace kinevo::synthesis {

// A header setting with the line it was read from (for messages).
struct path_header_value {
  std::string value;
  int line = 0;
};

struct path_table {
  std::string source;
  std::vector<double> x, y;
  std::vector<double> input;  // radians; empty when the table has no input-angle column
  std::vector<int> lines;     // line of each point in the file
  // Recognised "# key = value" header lines, by key (lower case, single spaces).
  std::map<std::string, path_header_value> header;
  std::optional<double> best_published_objective;  // "# best published objective = VALUE"
  std::string reference;                           // "# source = ..." (free text)

  // A header value parsed as a number / a pair "lo, hi"; io::input_error naming the line.
  std::optional<double> header_number(const std::string& key) const;
  std::optional<std::pair<double, double>> header_interval(const std::string& key) const;
};

// The header keys read: the others are comments.
const std::vector<std::string>& path_header_keys();

// Columns: the first named x* and y* (else the first two), and an optional input angle column
// named input* or theta* (degrees unless `radians`). At least 3 points, no point repeated.
path_table path_table_from_text(const std::string& text, const std::string& source, bool radians);
path_table read_path_table(const std::filesystem::path& path, bool radians);

}  // namespace kinevo::synthesis
