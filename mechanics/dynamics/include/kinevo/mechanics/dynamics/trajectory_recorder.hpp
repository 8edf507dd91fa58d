// What a caller keeps of a simulation run through its step callback: the CSV rows (every
// record_every-th step and the last, each flagged with the solves since the previous written
// row), streamed to the caller's files as they come, and the series of the plotted columns,
// decimated so that memory does not grow with the run's length; on request, the time and
// coordinates of every row in memory for an animation (recorded_trajectory). Whatever was recorded
// up to a stop (divergence, interrupt, an unconverged solve) can be saved: a row is only added once
// every solve that led to it was accepted.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/svg_plot.hpp"
#include "kinevo/mechanics/dynamics/recorded_trajectory.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

// Units the model file declares for columns the names do not explain: an intermittent row's
// `<name>_slip` column has its [[constraint]]'s `unit` (column name -> unit).
using column_units = std::map<std::string, std::string>;
column_units declared_column_units(const model& m);

class trajectory_recorder {
 public:
  // `plotted`: CSV column names to plot (empty: the coordinates); `plot_x`: the column they are
  // plotted against (empty: t), e.g. a point's x for its path in the XY plane. Throws
  // io::option_error (field "plot_columns" or "plot_x") naming a column that does not exist and
  // listing those that do. The CSV text (header, then one line per row) is written to each of
  // `row_sinks` as the rows come and not kept (none: only the plotted series are kept).
  trajectory_recorder(const model& m, bool with_reference, int record_every,
                      std::vector<std::string> plotted, std::vector<std::ostream*> row_sinks,
                      std::string plot_x = {});

  // Keeps from now on the time and coordinates of every row added (their values as the CSV
  // holds them: never -0), and the first non-finite value of any column: the page of an
  // animation holds every row, so its memory grows with the run's length.
  void keep_trajectory();
  const recorded_trajectory& trajectory() const { return trajectory_; }

  // Adds the record if record_every keeps it (always its final one).
  void add(const step_record& r);

  // The plotted series: every row up to 2 max_plot_points; beyond, every 2^k-th row (k grows
  // as the run does, so that at least max_plot_points rows stay) and the last. The SVG keeps
  // at most four points per pixel column anyway (io/svg_plot.hpp).
  static constexpr std::size_t max_plot_points = 65536;
  const std::vector<io::chart_series>& series() const { return series_; }
  const std::vector<std::string>& plotted() const { return plotted_; }
  long long rows() const { return rows_; }
  double last_t() const { return last_t_; }
  // "up to t = 0.25 (251 rows)", or "(no rows)".
  std::string written_span() const;
  // The column the series are plotted against ("t" unless plot_x was given).
  const std::string& plot_x() const { return plot_x_; }
  // The plotted series against t (or plot_x) as an SVG chart (atomically), titled `title`: one
  // panel per unit, lengths against a length at equal scales. Throws io::input_error when the
  // figure would exceed io::max_figure_bytes.
  void save_plot(const std::filesystem::path& path, const std::string& title) const;
  // When the default columns left some coordinates out: what was plotted and how to get the
  // others (empty otherwise).
  std::string plot_note() const;

 private:
  void thin_series();
  void keep_row(const std::vector<double>& row);

  const model& model_;
  bool with_reference_;
  bool keep_rows_;
  record_thinner thinner_;
  io::csv_writer table_;
  long long plot_stride_ = 1;  // every plot_stride_-th row is in the series
  std::vector<std::string> plotted_;
  std::size_t default_left_out_ = 0;
  std::vector<std::size_t> plot_index_;
  std::string plot_x_;
  std::size_t plot_x_index_ = 0;  // column of plot_x_ in a row (t is column 0)
  std::vector<io::chart_series> series_;
  column_units declared_units_;
  long long rows_ = 0;
  bool keep_trajectory_ = false;
  std::vector<std::string> columns_;  // the row's columns, once the trajectory is kept
  std::vector<std::size_t> coordinate_index_;
  recorded_trajectory trajectory_;
  double last_t_ = std::numeric_limits<double>::quiet_NaN();
};

// The default plotted columns: every coordinate of a model with at most max_default_series of
// them; else the positions of its first and last component (the ends of a chain), so that the
// default plot of a large model stays readable.
constexpr std::size_t max_default_series = 8;
std::vector<std::string> default_plot_columns(const std::vector<std::string>& coordinates);
// Indices of `columns` grouped by unit (in order of first appearance): one panel each.
std::vector<std::vector<std::size_t>> columns_by_unit(const std::vector<std::string>& columns,
                                                      const column_units& declared = {});

// A plot axis label for recorded columns: "names [unit]" (units from the coordinate names the
// components give: _x/_y/_z m, _phi rad, _dot per s, ...; "model units" where the name does not
// tell; a slip column the unit the file declares, else "model units/s"), e.g. "p2_x, p2_y [m]" or
// "b1_phi, b2_x [rad, m]".
std::string column_axis_label(const std::vector<std::string>& columns,
                              const column_units& declared = {});

}  // namespace kinevo::mechanics
