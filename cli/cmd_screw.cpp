// kinevo screw: screw parameters of a rigid-body motion from body points, finite (two positions)
// or instantaneous (positions and velocities). Parses options, reads the point table, calls
// analysis/ and prints the result's report; -o writes the per-point table.
#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "kinevo/analysis/finite_screw.hpp"
#include "kinevo/analysis/instant_screw.hpp"
#include "kinevo/analysis/point_table.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/report_output.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"

namespace kinevo::cli {

namespace {

namespace an = kinevo::analysis;

struct screw_args : output_args {
  std::string table;
  an::screw_options options;
};

void add_screw_options(CLI::App& app, screw_args& a, const std::string& columns) {
  app.add_option("-t,--table", a.table, "CSV table: " + columns)->required();
  app.add_option("--rigidity-tolerance", a.options.rigidity_tolerance,
                 "Largest relative departure from a rigid motion accepted, in (0, 1)")
      ->capture_default_str();
  add_output(app, a);
  app.add_option("-o,--output-dir", a.output_dir,
                 "Write the per-point table (CSV) into this folder (its parent must exist)");
}

// Prints the report (JSON or text), writes the per-point CSV, and turns the status into the
// exit status: a singular or non-rigid set fails (1) with its message on stderr.
template <class Result>
int finish(const Result& r, const screw_args& a, const std::string& csv_name,
           const io::csv_writer& csv) {
  std::vector<std::string> written;
  if (!a.output_dir.empty()) {
    synthesis::output_folder folder(a.output_dir);
    csv.save(folder.file(csv_name));
    folder.commit();
    written = folder.written();
  }
  print(r, a, written);
  const core::summary s = r.summary();
  if (!s.usable()) fmt::print(stderr, "kinevo screw: {}: {}\n", a.table, s.message);
  return core::exit_status(s);
}

int run_finite(const screw_args& a) {
  validate_options(a.options);
  check_output_dir(a);
  const auto t = an::read_point_table(a.table, an::point_table_kind::finite);
  const auto r = an::finite_screw(t.first, t.second, a.options, t.labels);
  return finish(r, a, "screw_finite_points.csv", r.points_csv(t.first, t.second));
}

int run_instant(const screw_args& a) {
  validate_options(a.options);
  check_output_dir(a);
  const auto t = an::read_point_table(a.table, an::point_table_kind::instant);
  const auto r = an::instant_screw(t.first, t.second, a.options, t.labels);
  return finish(r, a, "screw_instant_points.csv", r.points_csv());
}

const command_registration screw_registration(
    37, "screw",
    "Screw parameters (axis, point, angle, slide) of a rigid-body motion from body points",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto fa = std::make_shared<screw_args>();
      CLI::App* f = sub.add_subcommand(
          "finite", "Finite displacement: three or more points in two positions");
      add_screw_options(*f, *fa, "point, x, y, z, x_prime, y_prime, z_prime");
      auto ia = std::make_shared<screw_args>();
      CLI::App* i = sub.add_subcommand(
          "instant", "Instantaneous motion: three or more points with their velocities");
      add_screw_options(*i, *ia, "point, x, y, z, xdot, ydot, zdot");
      return [f, i, fa, ia]() {
        if (f->parsed()) return run_finite(*fa);
        if (i->parsed()) return run_instant(*ia);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
