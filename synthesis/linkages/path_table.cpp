#include "kinevo/synthesis/linkages/path_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>
#include <sstream>

#include "kinevo/io/input_file.hpp"

namespace kinevo::synthesis {

const std::vector<std::string>& path_header_keys() {
  static const std::vector<std::string> keys = {
      "best published objective", "source",      "timing",         "path",         "link type",
      "min transmission",         "link bounds", "coupler bounds", "frame bounds", "frame",
      "published evaluations",    "evaluations"};
  return keys;
}

namespace {

// Lower case with runs of blanks as one space and no blanks at either end.
std::string path_header_key(const std::string& raw) {
  std::string k;
  for (const char ch : raw) {
    if (std::isspace(static_cast<unsigned char>(ch))) {
      if (!k.empty() && k.back() != ' ') k += ' ';
    } else {
      k += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
  }
  while (!k.empty() && k.back() == ' ') k.pop_back();
  return k;
}

std::string path_trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One finite number filling the whole text, or nothing.
std::optional<double> path_number(const std::string& text) {
  const std::string t = path_trimmed(text);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

void read_path_header(const std::string& text, path_table& t) {
  std::istringstream in(text);
  std::string line;
  int n = 0;
  const auto& keys = path_header_keys();
  while (std::getline(in, line)) {
    ++n;
    const auto hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line[hash] != '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = path_header_key(line.substr(hash + 1, eq - hash - 1));
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) continue;
    if (t.header.count(key)) {
      throw io::input_error(
          fmt::format("{}:{}: header '{}' repeats line {}", t.source, n, key, t.header[key].line));
    }
    t.header[key] = {path_trimmed(line.substr(eq + 1)), n};
  }
}

std::size_t path_column(const io::csv_table& t, std::initializer_list<const char*> prefixes,
                        std::size_t fallback) {
  for (std::size_t j = 0; j < t.columns.size(); ++j) {
    for (const char* p : prefixes) {
      if (t.columns[j].rfind(p, 0) == 0) return j;
    }
  }
  return fallback;
}

}  // namespace

std::optional<double> path_table::header_number(const std::string& key) const {
  const auto it = header.find(key);
  if (it == header.end()) return std::nullopt;
  const auto v = path_number(it->second.value);
  if (!v) {
    throw io::input_error(fmt::format("{}:{}: header '{}': '{}' is not a finite number", source,
                                      it->second.line, key, it->second.value));
  }
  return v;
}

std::optional<std::pair<double, double>> path_table::header_interval(const std::string& key) const {
  const auto it = header.find(key);
  if (it == header.end()) return std::nullopt;
  const std::string& s = it->second.value;
  const auto comma = s.find(',');
  const auto lo = comma == std::string::npos ? std::nullopt : path_number(s.substr(0, comma));
  const auto hi = comma == std::string::npos ? std::nullopt : path_number(s.substr(comma + 1));
  if (!lo || !hi || !(*lo < *hi)) {
    throw io::input_error(
        fmt::format("{}:{}: header '{}': '{}' is not an interval 'lo, hi' with "
                    "lo < hi",
                    source, it->second.line, key, s));
  }
  return std::make_pair(*lo, *hi);
}

path_table path_table_from_text(const std::string& text, const std::string& source, bool radians) {
  path_table r;
  r.source = source;
  read_path_header(text, r);
  r.best_published_objective = r.header_number("best published objective");
  if (const auto it = r.header.find("source"); it != r.header.end()) r.reference = it->second.value;
  const io::csv_table t = io::parse_csv_table(text, source);
  if (t.columns.size() < 2) {
    throw io::input_error(
        fmt::format("{}: needs columns x and y, found {}", source, fmt::join(t.columns, ", ")));
  }
  const std::size_t cx = path_column(t, {"x"}, 0);
  const std::size_t cy = path_column(t, {"y"}, cx == 1 ? 0 : 1);
  const std::size_t ci = path_column(t, {"input", "theta"}, t.columns.size());
  if (cx == cy) throw io::input_error(fmt::format("{}: x and y are the same column", source));
  const double f = radians ? 1.0 : std::numbers::pi / 180.0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const double x = t.rows[i][cx], y = t.rows[i][cy];
    for (std::size_t p = 0; p < r.x.size(); ++p) {
      const bool same_point = x == r.x[p] && y == r.y[p];
      const bool same_input = ci < t.columns.size() && t.rows[i][ci] * f == r.input[p];
      if (same_point && (ci >= t.columns.size() || same_input)) {
        throw io::input_error(
            fmt::format("{}: point ({}, {}) repeats line {}", t.where(i), x, y, r.lines[p]));
      }
    }
    r.x.push_back(x);
    r.y.push_back(y);
    if (ci < t.columns.size()) r.input.push_back(t.rows[i][ci] * f);
    r.lines.push_back(t.line_numbers[i]);
  }
  if (r.x.size() < 3) {
    throw io::input_error(
        fmt::format("{}: {} point(s); path synthesis needs at least 3", source, r.x.size()));
  }
  return r;
}

path_table read_path_table(const std::filesystem::path& path, bool radians) {
  return path_table_from_text(io::read_input_file(path, "table"), path.string(), radians);
}

}  // namespace kinevo::synthesis
