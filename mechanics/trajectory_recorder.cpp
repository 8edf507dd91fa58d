#include "mechanics/trajectory_recorder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "io/errors.hpp"

namespace kinevo::mechanics {

namespace {

std::size_t index_of(const std::string& name, const std::vector<std::string>& columns,
                     const char* field) {
  const auto it = std::find(columns.begin(), columns.end(), name);
  if (it == columns.end()) {
    throw io::option_error(field, fmt::format("has no column '{}' (columns: {})",
                                              io::excerpt(name, 40), fmt::join(columns, ", ")));
  }
  return static_cast<std::size_t>(it - columns.begin());
}

std::vector<std::size_t> indices_of(const std::vector<std::string>& plotted,
                                    const std::vector<std::string>& columns) {
  std::vector<std::size_t> index;
  for (const auto& p : plotted) index.push_back(index_of(p, columns, "plot_columns"));
  return index;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The unit of a recorded column, read from the names the components give their coordinates
// (<body>_x, _y, _z: length; _phi: angle; _e0.._e3: Euler parameters, no unit) with SI units,
// the units of the examples; a coordinate declared by name in the file has "model units".
std::string column_unit(std::string name) {
  if (name == "t") return "s";
  if (name == "energy") return "J";
  if (name == "position_violation" || name == "velocity_violation" ||
      name == "reference_difference") {
    return "model units";
  }
  if (ends_with(name, "_active") || ends_with(name, "_slip") || name == "solve_status" ||
      name == "unconverged_solves") {
    return "1";
  }
  const bool force = name.rfind("fc_", 0) == 0;
  if (force) name = name.substr(3);
  std::string per_time;
  if (ends_with(name, "_ddot")) {
    name.resize(name.size() - 5), per_time = "/s^2";
  } else if (ends_with(name, "_dot")) {
    name.resize(name.size() - 4), per_time = "/s";
  }
  std::string base = "model units";
  if (ends_with(name, "_x") || ends_with(name, "_y") || ends_with(name, "_z")) base = "m";
  if (ends_with(name, "_phi")) base = "rad";
  if (name.size() > 3 && name[name.size() - 3] == '_' && name[name.size() - 2] == 'e' &&
      std::isdigit(static_cast<unsigned char>(name.back()))) {
    base = "1";
  }
  if (force) return base == "rad" ? "N m" : base == "m" ? "N" : "model units";
  if (per_time.empty()) return base;
  return (base == "1" ? "1" : base) + per_time;
}

// "name [unit]" for one column; several columns of one unit share it, mixed units are listed.
std::string axis_label(const std::vector<std::string>& columns) {
  std::vector<std::string> units;
  for (const auto& c : columns) {
    const auto u = column_unit(c);
    if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  const std::string names = columns.size() <= 4 ? fmt::format("{}", fmt::join(columns, ", "))
                                                : fmt::format("{} columns", columns.size());
  return fmt::format("{} [{}]", names, fmt::join(units, ", "));
}

}  // namespace

trajectory_recorder::trajectory_recorder(const model& m, bool with_reference, int record_every,
                                         std::vector<std::string> plotted, bool keep_rows,
                                         std::string plot_x)
    : model_(m),
      with_reference_(with_reference),
      keep_rows_(keep_rows),
      thinner_(record_every),
      table_(record_columns(m, with_reference)),
      plotted_(plotted.empty() ? m.coordinate_names() : std::move(plotted)),
      plot_index_(indices_of(plotted_, record_columns(m, with_reference))),
      plot_x_(plot_x.empty() ? "t" : std::move(plot_x)),
      plot_x_index_(index_of(plot_x_, record_columns(m, with_reference), "plot_x")),
      series_(plotted_.size()) {
  for (std::size_t i = 0; i < plotted_.size(); ++i) series_[i].label = plotted_[i];
}

void trajectory_recorder::add(const step_record& r) {
  step_record flagged = r;
  if (!thinner_.keep(flagged, r.final)) return;
  const auto row = record_row(model_, flagged, with_reference_);
  if (keep_rows_) table_.add_row(row);
  for (std::size_t i = 0; i < plot_index_.size(); ++i) {
    series_[i].x.push_back(row[plot_x_index_]);
    series_[i].y.push_back(row[plot_index_[i]]);
  }
  ++rows_;
  last_t_ = r.t;
}

std::string trajectory_recorder::written_span() const {
  return rows_ > 0 ? fmt::format("up to t = {:.6g} ({} rows)", last_t_, rows_) : "(no rows)";
}

void trajectory_recorder::save_plot(const std::filesystem::path& path,
                                    const std::string& title) const {
  io::chart_options co;
  co.title = title;
  co.x_label = axis_label({plot_x_});
  co.y_label = axis_label(plotted_);
  io::save_line_chart(path, series_, co);
}

}  // namespace kinevo::mechanics
