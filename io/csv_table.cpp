#include "kinevo/io/csv_table.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/display_number.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/input_file.hpp"

namespace kinevo::io {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(trim(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

std::size_t csv_table::column(const std::string& name) const {
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (columns[j] == name) return j;
  }
  throw input_error(fmt::format("{}: no column '{}' (columns: {})", source, excerpt(name, 40),
                                excerpt(fmt::format("{}", fmt::join(columns, ", ")), 200)));
}

std::vector<double> csv_table::column_values(const std::string& name) const {
  const auto j = column(name);
  std::vector<double> v;
  v.reserve(rows.size());
  for (const auto& r : rows) v.push_back(r[j]);
  return v;
}

std::string csv_table::where(std::size_t row) const {
  return fmt::format("{}:{}", source, line_numbers.at(row));
}

csv_table parse_csv_table(const std::string& text, const std::string& source) {
  csv_table t;
  t.source = source;
  // A UTF-8 byte-order mark (spreadsheet exports) made the first line, often a comment, the
  // header.
  std::istringstream in{std::string(strip_byte_order_mark(text))};
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    auto cells = split(line);
    if (t.columns.empty()) {
      for (const auto& c : cells) {
        if (c.empty()) {
          throw input_error(fmt::format("{}:{}: empty column name in the header", source, line_no));
        }
        if (c.size() > max_column_name_length) {
          throw input_error(fmt::format("{}:{}: column name '{}' is longer than {} characters",
                                        source, line_no, excerpt(c, 40), max_column_name_length));
        }
      }
      t.columns = std::move(cells);
      continue;
    }
    if (cells.size() != t.columns.size()) {
      throw input_error(fmt::format("{}:{}: {} cells, but the header has {} columns ({})", source,
                                    line_no, cells.size(), t.columns.size(),
                                    excerpt(fmt::format("{}", fmt::join(t.columns, ", ")), 200)));
    }
    std::vector<double> row;
    for (std::size_t j = 0; j < cells.size(); ++j) {
      const std::string& c = cells[j];
      char* end = nullptr;
      errno = 0;
      const double v = c.empty() ? 0.0 : std::strtod(c.c_str(), &end);
      if (c.empty() || end != c.c_str() + c.size()) {
        throw input_error(fmt::format("{}:{}: column '{}': '{}' is not a number", source, line_no,
                                      excerpt(t.columns[j], 40), excerpt(c)));
      }
      // ERANGE: beyond the double range (inf), or below it. A subnormal result is a valid
      // value; only a non-zero number that rounds to 0 is refused.
      if (!std::isfinite(v) || (errno == ERANGE && v == 0.0)) {
        throw input_error(
            fmt::format("{}:{}: column '{}': '{}' is not a finite number in the range of doubles",
                        source, line_no, excerpt(t.columns[j], 40), excerpt(c)));
      }
      row.push_back(v);
    }
    t.rows.push_back(std::move(row));
    t.line_numbers.push_back(line_no);
  }
  if (t.columns.empty())
    throw input_error(fmt::format("{}: no header line (file is empty?)", source));
  return t;
}

csv_table read_csv_table(const std::filesystem::path& path) {
  return parse_csv_table(read_input_file(path, "table"), path.string());
}

csv_writer::csv_writer(std::vector<std::string> columns) : width_(columns.size()) {
  text_ = fmt::format("{}\n", fmt::join(columns, ","));
}

csv_writer::csv_writer(std::vector<std::string> columns, std::vector<std::ostream*> sinks)
    : csv_writer(std::move(columns)) {
  sinks_ = std::move(sinks);
  for (std::ostream* out : sinks_) *out << text_;
}

void csv_writer::add_row(const std::vector<double>& values) {
  if (values.size() != width_) {
    throw option_error(
        "values", fmt::format("has {} entries for {} columns (csv_writer)", values.size(), width_));
  }
  std::string& line = sinks_.empty() ? text_ : line_;
  line_.clear();
  auto out = std::back_inserter(line);
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (j) line += ',';
    // fmt's "{}" is the shortest form that reads back to the same double (2.4, not
    // 2.3999999999999999), so files stay exact and readable; never "-0".
    fmt::format_to(out, "{}", no_negative_zero(values[j]));
  }
  line += '\n';
  for (std::ostream* sink : sinks_)
    sink->write(line.data(), static_cast<std::streamsize>(line.size()));
}

void csv_writer::save(const std::filesystem::path& path) const {
  write_text_atomically(path, text_);
}

}  // namespace kinevo::io
