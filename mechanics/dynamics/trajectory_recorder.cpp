#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "kinevo/io/display_number.hpp"
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
// `declared` (the file's own units, e.g. a slip's) come first.
std::string column_unit(const std::string& column, const column_units& declared = {}) {
  if (const auto it = declared.find(column); it != declared.end()) return it->second;
  if (column == "t") return "s";
  if (column == "energy") return "J";
  if (column == "position_violation" || column == "velocity_violation" ||
      column == "reference_difference") {
    return "model units";
  }
  if (ends_with(column, "_active") || column == "solve_status" || column == "unconverged_solves") {
    return "1";
  }
  // A nonholonomic row's value: a velocity in the units of its expression (m/s for a rolling
  // contact's R*th_dot - x_dot), which the name does not tell; the file's `unit` does.
  if (ends_with(column, "_slip")) return "model units/s";
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

// The component a coordinate belongs to: its name up to the last '_' (b1 of b1_phi).
std::string component_of(const std::string& column) {
  const std::size_t at = column.rfind('_');
  return at == std::string::npos ? column : column.substr(0, at);
}

}  // namespace

std::vector<std::string> default_plot_columns(const std::vector<std::string>& coordinates) {
  if (coordinates.size() <= max_default_series) return coordinates;
  // The positions (columns in m) of the first and the last component: the two ends of a chain.
  std::vector<std::string> first, last;
  for (const auto& c : coordinates) {
    if (column_unit(c) != "m") continue;
    if (component_of(c) == component_of(coordinates.front())) first.push_back(c);
  }
  for (const auto& c : coordinates) {
    if (column_unit(c) == "m" && component_of(c) == component_of(coordinates.back())) {
      last.push_back(c);
    }
  }
  std::vector<std::string> out = first;
  if (component_of(coordinates.back()) != component_of(coordinates.front())) {
    out.insert(out.end(), last.begin(), last.end());
  }
  if (out.empty()) out.assign(coordinates.begin(), coordinates.begin() + max_default_series);
  return out;
}

column_units declared_column_units(const model& m) {
  column_units units;
  for (const auto& k : m.intermittent_constraints()) {
    if (k.slip_unit.empty()) continue;
    units[m.constraint_names()[static_cast<std::size_t>(k.row)] + "_slip"] = k.slip_unit;
  }
  return units;
}

std::vector<std::vector<std::size_t>> columns_by_unit(const std::vector<std::string>& columns,
                                                      const column_units& declared) {
  std::vector<std::string> units;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string u = column_unit(columns[i], declared);
    const auto it = std::find(units.begin(), units.end(), u);
    if (it == units.end()) {
      units.push_back(u);
      groups.push_back({i});
    } else {
      groups[static_cast<std::size_t>(it - units.begin())].push_back(i);
    }
  }
  return groups;
}

std::string column_axis_label(const std::vector<std::string>& columns,
                              const column_units& declared) {
  std::vector<std::string> units;
  for (const auto& c : columns) {
    const auto u = column_unit(c, declared);
    if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  const std::string names = columns.size() <= 4 ? fmt::format("{}", fmt::join(columns, ", "))
                                                : fmt::format("{} columns", columns.size());
  return fmt::format("{} [{}]", names, fmt::join(units, ", "));
}

trajectory_recorder::trajectory_recorder(const model& m, bool with_reference, int record_every,
                                         std::vector<std::string> plotted,
                                         std::vector<std::ostream*> row_sinks, std::string plot_x)
    : model_(m),
      with_reference_(with_reference),
      keep_rows_(!row_sinks.empty()),
      thinner_(record_every),
      table_(record_columns(m, with_reference), std::move(row_sinks)),
      plotted_(plotted.empty() ? default_plot_columns(m.coordinate_names()) : plotted),
      default_left_out_(plotted.empty() ? m.coordinate_names().size() - plotted_.size() : 0),
      plot_index_(indices_of(plotted_, record_columns(m, with_reference))),
      plot_x_(plot_x.empty() ? "t" : std::move(plot_x)),
      plot_x_index_(index_of(plot_x_, record_columns(m, with_reference), "plot_x")),
      series_(plotted_.size()),
      declared_units_(declared_column_units(m)) {
  for (std::size_t i = 0; i < plotted_.size(); ++i) series_[i].label = plotted_[i];
}

void trajectory_recorder::add(const step_record& r) {
  step_record flagged = r;
  if (!thinner_.keep(flagged, r.final)) return;
  const auto row = record_row(model_, flagged, with_reference_);
  if (keep_rows_) table_.add_row(row);
  if (keep_trajectory_) keep_row(row);
  if (!series_.empty() && series_[0].x.size() >= 2 * max_plot_points) thin_series();
  if (rows_ % plot_stride_ == 0 || r.final) {
    for (std::size_t i = 0; i < plot_index_.size(); ++i) {
      series_[i].x.push_back(row[plot_x_index_]);
      series_[i].y.push_back(row[plot_index_[i]]);
    }
  }
  ++rows_;
  last_t_ = r.t;
}

void trajectory_recorder::keep_trajectory() {
  keep_trajectory_ = true;
  columns_ = record_columns(model_, with_reference_);
  trajectory_.coordinate_names = model_.coordinate_names();
  coordinate_index_ = indices_of(trajectory_.coordinate_names, columns_);
}

void trajectory_recorder::keep_row(const std::vector<double>& row) {
  if (!trajectory_.first_non_finite) {
    const auto bad =
        std::find_if(row.begin(), row.end(), [](double v) { return !std::isfinite(v); });
    if (bad != row.end()) {
      const auto j = static_cast<std::size_t>(bad - row.begin());
      trajectory_.first_non_finite = {trajectory_.times.size(), columns_[j], *bad};
    }
  }
  // The values the CSV holds (io::csv_writer writes no "-0"), so that a page drawn from the
  // trajectory is the page drawn from the CSV.
  trajectory_.times.push_back(io::no_negative_zero(row[0]));
  std::vector<double> q;
  q.reserve(coordinate_index_.size());
  for (const std::size_t i : coordinate_index_) q.push_back(io::no_negative_zero(row[i]));
  trajectory_.coordinates.push_back(std::move(q));
}

// Keeps every second point of the series (rows 0, 2 stride, 4 stride, ...): the series stay
// a uniform sample of the rows with twice the stride.
void trajectory_recorder::thin_series() {
  for (auto& s : series_) {
    for (std::size_t k = 0; 2 * k < s.x.size(); ++k) {
      s.x[k] = s.x[2 * k];
      s.y[k] = s.y[2 * k];
    }
    s.x.resize((s.x.size() + 1) / 2);
    s.y.resize((s.y.size() + 1) / 2);
  }
  plot_stride_ *= 2;
}

std::string trajectory_recorder::written_span() const {
  return rows_ > 0 ? fmt::format("up to t = {:.6g} ({} rows)", last_t_, rows_) : "(no rows)";
}

std::string trajectory_recorder::plot_note() const {
  if (default_left_out_ == 0) return {};
  return fmt::format("plotted {} of {} coordinates ({}); --plot-columns names others",
                     plotted_.size(), plotted_.size() + default_left_out_,
                     fmt::join(plotted_, ", "));
}

void trajectory_recorder::save_plot(const std::filesystem::path& path,
                                    const std::string& title) const {
  // One panel per unit, so that no axis mixes units; a path (lengths against a length) is drawn
  // to equal scales.
  std::vector<io::chart_panel> panels;
  for (const auto& group : columns_by_unit(plotted_, declared_units_)) {
    io::chart_panel p;
    std::vector<std::string> names;
    for (const std::size_t i : group) {
      p.series.push_back(series_[i]);
      names.push_back(plotted_[i]);
    }
    p.options.title = panels.empty() ? title : std::string();
    p.options.x_label = column_axis_label({plot_x_}, declared_units_);
    p.options.y_label = column_axis_label(names, declared_units_);
    p.options.equal_aspect = column_unit(plot_x_, declared_units_) == "m" &&
                             column_unit(names.front(), declared_units_) == "m";
    if (p.options.equal_aspect) p.options.height = 560;
    panels.push_back(std::move(p));
  }
  if (panels.size() == 1) {
    io::save_line_chart(path, panels.front().series, panels.front().options);
  } else {
    io::save_stacked_charts(path, panels);
  }
}

}  // namespace kinevo::mechanics
