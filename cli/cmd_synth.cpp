// kinevo synth: linkage synthesis from input-output tables (four-bar, RSSR), from poses (RR dyad)
// and through points (four-bar path generator). Parses options into the library's requests
// (synthesis/linkages/synthesis_request.hpp), which check themselves, read the tables and
// synthesise; prints the result's report and has the library write its files.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/report_output.hpp"
#include "kinevo/cli/run_context.hpp"
#include "kinevo/cli/synth_cli_options.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/synthesis/linkages/chebyshev_points.hpp"
#include "kinevo/synthesis/linkages/synthesis_request.hpp"

namespace kinevo::cli {

namespace {

namespace syn = kinevo::synthesis;

// Before the run: the request checked (names and values, exit 2 naming the option) and the
// animation page's path.
template <class Request>
void prepare(const Request& request, const synth_args& a,
             std::initializer_list<std::pair<const char*, const char*>> renames = {}) {
  validate_options(request, renames);
  check_output_dir(a);
  check_output_path(a.animate, "--animate");
}

// The run with the progress line fed by the library (the GA, the dyad's starts); synthesis
// does not poll the interrupt flag.
template <class Request>
auto run_with_progress(const Request& request, const synth_args& a, const char* command) {
  io::progress_line progress(command, a.quiet || a.json);
  auto r = request.run(cli_run_context(progress, false));
  progress.finish();
  return r;
}

// After the run: a result without an answer (no linkage at all) is one error line, exit 1, as
// the exception it replaced was; otherwise the report, the files, the warnings (in the report
// and the JSON already; on stderr too, so that nobody misses them), the animation page; then the
// exit status of the result's summary, a failure named on stderr unless its message is the
// first warning already (synth path's).
template <class Result>
int report(const Result& r, const synth_args& a, const std::string& command) {
  if constexpr (requires { r.has_answer(); }) {
    // No answer (the points do not determine k, no start converged): the summary's message
    // alone, as an error, and no report or files.
    if (!r.has_answer()) {
      if (ga::mpi_environment::rank() == 0)
        fmt::print(stderr, "kinevo: error: {}\n", r.summary.message);
      return core::exit_status(r.summary);
    }
  }
  print(r, a, syn::save_result_files(r, a.output_dir));
  if constexpr (requires { r.warnings; }) {
    for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: {}: warning: {}\n", command, w);
  }
  if constexpr (requires { r.animation(); }) {
    if (!a.animate.empty() && !syn::save_result_animation(r, a.animate)) {
      fmt::print(stderr, "kinevo: {}: no linkage to animate\n", command);
    }
  }
  const bool said = !r.warnings.empty() && r.warnings.front() == r.summary.message;
  if (!r.summary.usable() && !said) {
    fmt::print(stderr, "kinevo: {}: {}\n", command, r.summary.brief_report());
  }
  return core::exit_status(r.summary);
}

int run_fourbar(fourbar_args& a) {
  prepare(a.request, a, {{"min_transmission_deg", "--min-transmission"}});
  return report(run_with_progress(a.request, a, "synth fourbar"), a, "synth fourbar");
}

int run_rssr(rssr_args& a) {
  prepare(a.request, a, {{"alpha4_deg", "--alpha4"}});
  return report(run_with_progress(a.request, a, "synth rssr"), a, "synth rssr");
}

int run_dyad(dyad_args& a) {
  prepare(a.request, a);
  return report(run_with_progress(a.request, a, "synth dyad"), a, "synth dyad");
}

// A "lo hi" pair from the command line as a bound interval.
std::optional<syn::path_interval> path_cli_interval(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return syn::path_interval{v[0], v[1]};
}

int run_path(path_args& a) {
  a.request.link_bounds = path_cli_interval(a.link_bounds);
  a.request.coupler_bounds = path_cli_interval(a.coupler_bounds);
  a.request.frame_bounds = path_cli_interval(a.frame_bounds);
  prepare(a.request, a,
          {{"min_transmission_deg", "--min-transmission"}, {"evaluations", "--evaluations"}});
  return report(run_with_progress(a.request, a, "synth path"), a, "synth path");
}

int run_chebyshev(const chebyshev_args& a) {
  validate_options(a.options, {{"n", "-n"}});
  const auto r = syn::chebyshev_points(a.options);
  if (a.json) {
    fmt::print("{}\n", r.to_json().dump());
  } else if (!a.quiet) {
    fmt::print("{}", r.full_report());
  }
  return exit_ok;
}

const command_registration synth_registration(
    55, "synth",
    "Linkage synthesis: four-bar and RSSR function generators, RR dyad guidance, four-bar "
    "path generators",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto fb = std::make_shared<fourbar_args>();
      auto rs = std::make_shared<rssr_args>();
      auto dy = std::make_shared<dyad_args>();
      auto pa = std::make_shared<path_args>();
      auto ch = std::make_shared<chebyshev_args>();
      CLI::App* f = add_fourbar_command(sub, *fb);
      CLI::App* r = add_rssr_command(sub, *rs);
      CLI::App* d = add_dyad_command(sub, *dy);
      CLI::App* pt = add_path_command(sub, pa);
      CLI::App* c = add_chebyshev_command(sub, *ch);
      return [f, r, d, c, pt, fb, rs, dy, pa, ch]() {
        if (ga::mpi_environment::rank() != 0) {
          for (output_args* a :
               {static_cast<output_args*>(fb.get()), static_cast<output_args*>(rs.get()),
                static_cast<output_args*>(dy.get()), static_cast<output_args*>(pa.get()),
                static_cast<output_args*>(ch.get())}) {
            a->quiet = true;
            a->json = false;
            a->output_dir.clear();
          }
        }
        // Under mpiexec every rank computes (the GA's islands span the ranks; the rest is
        // deterministic) and meets the same errors, which main maps to one exit status on
        // every rank; only rank 0 prints.
        if (f->parsed()) return run_fourbar(*fb);
        if (r->parsed()) return run_rssr(*rs);
        if (d->parsed()) return run_dyad(*dy);
        if (pt->parsed()) return run_path(*pa);
        if (c->parsed()) return run_chebyshev(*ch);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
