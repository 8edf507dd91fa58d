#include "kinevo/cli/optimize_sanlsu.hpp"

#include <fmt/format.h>

#include "kinevo/cli/command.hpp"
#include "kinevo/optimization/sanlsu_run.hpp"

namespace kinevo::cli {

namespace {

int print(const optimization::sanlsu_run& run, report_format f) {
  if (f.json) {
    fmt::print("{}\n", run.to_json().dump());
  } else if (!f.quiet) {
    fmt::print("{}", run.full_report());
  }
  if (const auto note = run.outcome_note()) fmt::print(stderr, "kinevo optimize: {}\n", *note);
  return core::exit_status(run.summary);
}

// An option error as the user's input error, the option named as written (and where it was).
template <class Run>
optimization::sanlsu_run guarded(const Run& run, const config_origins& origins) {
  try {
    return run();
  } catch (const io::option_error& e) {
    throw option_input_error(e, origins);
  }
}

}  // namespace

void add_sanlsu_options(CLI::App& sub, optimization::optimize_options& o) {
  add_enum_option(sub, "--method", o.solver, optimization::parse_method,
                  "ga (island-model GA) or sanlsu (gradient projection from one start on a "
                  "problem file with equality constraints; docs/gradient-projection.md)")
      ->default_str("ga");
  add_enum_option(sub, "--refine", o.refine_sanlsu, optimization::parse_refine,
                  "sanlsu: after the GA, gradient projection from its best to the KKT point "
                  "(memetic); none (default)");
  optimization::gradient_projection_options& s = o.sanlsu;
  add_enum_option(sub, "--sanlsu-case", s.method, optimization::parse_restoration,
                  "Restoration of h = 0: 2 (closest point, J frozen) or 3 (minimum-norm Newton)")
      ->default_str("3");
  sub.add_option("--sanlsu-tolx", s.tolerance_x, "Stop when max |x change| is below this")
      ->capture_default_str();
  sub.add_option("--sanlsu-tolf", s.tolerance_f, "Restoration stops when max |h| is below this")
      ->capture_default_str();
  sub.add_option("--sanlsu-damping", s.damping, "Newton step factor when |h| does not decrease")
      ->capture_default_str();
  sub.add_option("--sanlsu-max-iterations", s.max_iterations, "Outer (and Newton) iterations")
      ->capture_default_str();
  sub.add_option("--start", o.start,
                 "SANLSU start point, one value per variable (default: the file's initial "
                 "values, else the centre of the bounds)")
      ->delimiter(',');
}

int run_sanlsu_method(const optimization::optimize_options& o, report_format f,
                      const config_origins& origins) {
  return print(guarded([&] { return optimization::run_sanlsu(o); }, origins), f);
}

int refine_and_print(const optimization::optimize_options& o, optimization::optimization_run ga,
                     report_format f, const config_origins& origins) {
  return print(guarded([&] { return optimization::refine_with_sanlsu(o, std::move(ga)); }, origins),
               f);
}

}  // namespace kinevo::cli
