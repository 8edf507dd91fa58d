#include "kinevo/mechanics/trajectory_recorder.hpp"

#include <fmt/format.h>

#include <algorithm>

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
  co.x_label = plot_x_ == "t" ? "t [s]" : plot_x_;
  co.y_label = plotted_.size() == 1 ? plotted_[0] : "value";
  io::save_line_chart(path, series_, co);
}

}  // namespace kinevo::mechanics
