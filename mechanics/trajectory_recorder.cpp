#include "kinevo/mechanics/trajectory_recorder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

#include "kinevo/io/errors.hpp"

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
std::string column_unit(const std::string& column) {
  if (column == "t") return "s";
  if (column == "energy") return "J";
  if (column == "position_violation" || column == "velocity_violation" ||
      column == "reference_difference") {
    return "model units";
  }
  if (ends_with(column, "_active") || ends_with(column, "_slip") || column == "solve_status" ||
      column == "unconverged_solves") {
    return "1";
  }
  // Views and C strings, not string assignments: GCC 12's -Wrestrict misfires on those here.
  const bool force = column.rfind("fc_", 0) == 0;
  std::string_view name(column);
  if (force) name.remove_prefix(3);
  const char* per_time = "";
  if (name.ends_with("_ddot")) {
    name.remove_suffix(5);
    per_time = "/s^2";
  } else if (name.ends_with("_dot")) {
    name.remove_suffix(4);
    per_time = "/s";
  }
  const char* base = "model units";
  if (name.ends_with("_x") || name.ends_with("_y") || name.ends_with("_z")) base = "m";
  if (name.ends_with("_phi")) base = "rad";
  if (name.size() > 3 && name[name.size() - 3] == '_' && name[name.size() - 2] == 'e' &&
      std::isdigit(static_cast<unsigned char>(name.back()))) {
    base = "1";
  }
  if (force) {
    const std::string_view b(base);
    return b == "rad" ? "N m" : b == "m" ? "N" : "model units";
  }
  return fmt::format("{}{}", base, per_time);
}

}  // namespace

std::string column_axis_label(const std::vector<std::string>& columns) {
  std::vector<std::string> units;
  for (const auto& c : columns) {
    const auto u = column_unit(c);
    if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  const std::string names = columns.size() <= 4 ? fmt::format("{}", fmt::join(columns, ", "))
                                                : fmt::format("{} columns", columns.size());
  return fmt::format("{} [{}]", names, fmt::join(units, ", "));
}

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
  co.x_label = column_axis_label({plot_x_});
  co.y_label = column_axis_label(plotted_);
  io::save_line_chart(path, series_, co);
}

}  // namespace kinevo::mechanics
