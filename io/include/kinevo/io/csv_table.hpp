// Numeric CSV tables: one header line of column names, '#' comments and blank lines ignored,
// every other cell a finite number. Errors name the file, line and column.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"  // input_error, which this header used to define

namespace kinevo::io {

struct csv_table {
  std::string source;                     // file name used in messages
  std::vector<std::string> columns;       // header names
  std::vector<std::vector<double>> rows;  // rows[i][j]
  std::vector<int> line_numbers;          // 1-based line of rows[i] in the file
  // Index of a column by name; throws input_error naming the file and the columns it has.
  std::size_t column(const std::string& name) const;
  std::vector<double> column_values(const std::string& name) const;
  // A message prefix "file:line" for row i.
  std::string where(std::size_t row) const;
};

// Column names are at most this long (they are repeated in messages).
inline constexpr std::size_t max_column_name_length = 200;

csv_table read_csv_table(const std::filesystem::path& path);
csv_table parse_csv_table(const std::string& text, const std::string& source);

// Writes rows of numbers with full precision (17 significant digits) under a header.
class csv_writer {
 public:
  // Keeps the text in memory (str(), save()).
  explicit csv_writer(std::vector<std::string> columns);
  // Streams the header and every row to each of `sinks` as they come (a long run's rows are
  // then not held in memory; str() has the header only).
  csv_writer(std::vector<std::string> columns, std::vector<std::ostream*> sinks);
  void add_row(const std::vector<double>& values);
  std::string str() const { return text_; }
  void save(const std::filesystem::path& path) const;  // atomic

 private:
  std::size_t width_;
  std::string text_;
  std::vector<std::ostream*> sinks_;
  std::string line_;  // the row being formatted (streaming)
};

}  // namespace kinevo::io
