#include "kinevo/synthesis/linkages/input_tables.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

namespace kinevo::synthesis {

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Index of the first column starting with one of the prefixes, or `fallback` (npos: required).
std::size_t find_column(const io::csv_table& t, std::initializer_list<const char*> prefixes,
                        std::size_t fallback, const std::string& role) {
  for (std::size_t j = 0; j < t.columns.size(); ++j) {
    for (const char* p : prefixes) {
      if (starts_with(t.columns[j], p)) return j;
    }
  }
  if (fallback < t.columns.size()) return fallback;
  throw io::input_error(fmt::format("{}: no {} column (columns: {}); name it {}", t.source, role,
                                    fmt::join(t.columns, ", "), *prefixes.begin()));
}

}  // namespace

function_table function_table_from(const io::csv_table& t, bool radians, std::size_t unknowns,
                                   const std::string& what) {
  if (t.columns.size() < 2) {
    throw io::input_error(fmt::format("{}: needs an input and an output column, found {}", t.source,
                                      fmt::join(t.columns, ", ")));
  }
  const std::size_t ci = find_column(t, {"psi", "input"}, 0, "input");
  const std::size_t co = find_column(t, {"phi", "output"}, ci == 1 ? 0 : 1, "output");
  if (ci == co)
    throw io::input_error(fmt::format("{}: input and output are the same column", t.source));
  std::size_t cw = t.columns.size();
  for (std::size_t j = 0; j < t.columns.size(); ++j) {
    if (t.columns[j] == "weight") cw = j;
  }
  const double f = radians ? 1.0 : std::numbers::pi / 180.0;
  function_table r;
  r.source = t.source;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const double in = t.rows[i][ci] * f;
    for (std::size_t p = 0; p < r.input.size(); ++p) {
      if (std::abs(in - r.input[p]) <= 1e-12 * (1.0 + std::abs(in))) {
        throw io::input_error(
            fmt::format("{}: input {} '{}' repeats line {}; each input angle may "
                        "appear once",
                        t.where(i), t.columns[ci], t.rows[i][ci], r.lines[p]));
      }
    }
    if (cw < t.columns.size() && !(t.rows[i][cw] > 0.0)) {
      throw io::input_error(
          fmt::format("{}: column 'weight': {} must be positive", t.where(i), t.rows[i][cw]));
    }
    r.input.push_back(in);
    r.output.push_back(t.rows[i][co] * f);
    if (cw < t.columns.size()) r.weights.push_back(t.rows[i][cw]);
    r.lines.push_back(t.line_numbers[i]);
  }
  if (r.input.size() < unknowns) {
    // Name the last line read, where the missing points would follow.
    const std::string where =
        r.lines.empty() ? t.source : fmt::format("{}:{}", t.source, r.lines.back());
    throw io::input_error(fmt::format("{}: {} point(s), but {} needs at least {} (one per unknown)",
                                      where, r.input.size(), what, unknowns));
  }
  return r;
}

function_table read_function_table(const std::filesystem::path& path, bool radians,
                                   std::size_t unknowns, const std::string& what) {
  return function_table_from(io::read_csv_table(path), radians, unknowns, what);
}

pose_table pose_table_from(const io::csv_table& t, bool radians) {
  const std::size_t npos = t.columns.size();
  const std::size_t cx = find_column(t, {"x"}, npos, "x");
  const std::size_t cy = find_column(t, {"y"}, npos, "y");
  const std::size_t ct = find_column(t, {"theta"}, npos, "theta");
  const double f = radians ? 1.0 : std::numbers::pi / 180.0;
  pose_table r;
  r.source = t.source;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    pose p{t.rows[i][cx], t.rows[i][cy], t.rows[i][ct] * f};
    if (!r.poses.empty()) {
      const double d = std::remainder(p.theta - r.poses[0].theta, 2.0 * std::numbers::pi);
      if (std::abs(d) < 1e-9) {
        throw io::input_error(
            fmt::format("{}: theta equals the reference pose's (line {}); the dyad "
                        "equation needs theta_j != theta_0",
                        t.where(i), r.lines[0]));
      }
      for (std::size_t q = 1; q < r.poses.size(); ++q) {
        if (r.poses[q].x == p.x && r.poses[q].y == p.y && r.poses[q].theta == p.theta) {
          throw io::input_error(fmt::format("{}: pose repeats line {}", t.where(i), r.lines[q]));
        }
      }
    }
    r.poses.push_back(p);
    r.lines.push_back(t.line_numbers[i]);
  }
  if (r.poses.size() < 5) {
    const std::string where =
        r.lines.empty() ? t.source : fmt::format("{}:{}", t.source, r.lines.back());
    throw io::input_error(
        fmt::format("{}: {} pose(s), but the RR dyad needs at least 5 (a reference "
                    "and 4 more, one equation per unknown)",
                    where, r.poses.size()));
  }
  return r;
}

pose_table read_pose_table(const std::filesystem::path& path, bool radians) {
  return pose_table_from(io::read_csv_table(path), radians);
}

}  // namespace kinevo::synthesis
