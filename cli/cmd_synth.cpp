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
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/synthesis/linkages/chebyshev_points.hpp"
#include "kinevo/synthesis/linkages/synthesis_request.hpp"

namespace kinevo::cli {

namespace {

namespace syn = kinevo::synthesis;

// What every synth subcommand takes besides its own options.
struct synth_args : output_args {
  std::string animate;  // fourbar and path: the animation page
};

void add_tables(CLI::App& app, bool& radians, synth_args& a) {
  app.add_flag("--radians", radians, "Angles in the table are radians (default: degrees)");
  app.add_option("-o,--output-dir", a.output_dir,
                 "Write CSV tables and SVG pictures into this folder (its parent must exist; "
                 "other files in it are kept)");
}

void add_ga(CLI::App& app, syn::ga_synthesis_options& g) {
  add_seed_option(app, "--seed", g.islands.seed, "GA master seed (--method ga)");
  app.add_option("--islands", g.islands.islands, "GA islands (--method ga)")->capture_default_str();
  app.add_option("--generations", g.generations, "GA generations per range run (--method ga)")
      ->capture_default_str();
  app.add_flag("--no-refine{false}", g.refine, "GA only, without the local refinement");
}

// validate() through validate_options (exit 2 naming the option), also for the GA's own checks,
// which throw a plain std::invalid_argument.
template <class Options>
void validate_synth(const Options& o,
                    std::initializer_list<std::pair<const char*, const char*>> renames = {}) {
  try {
    validate_options(o, renames);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(e.what());
  }
}

// Before the run: the request checked (names and values, exit 2 naming the option) and the
// animation page's path; then the progress line fed by the GA.
template <class Request>
void prepare(Request& request, const synth_args& a, io::progress_line& progress,
             std::initializer_list<std::pair<const char*, const char*>> renames = {}) {
  validate_synth(request, renames);
  check_output_dir(a);
  check_output_path(a.animate, "--animate");
  request.options.ga.on_progress = [&progress](double f) { progress.update(f, "GA"); };
}

// After the run: the report, the files, the warnings (in the report and the JSON already; on
// stderr too, so that nobody misses them) and the animation page.
template <class Result>
void report(const Result& r, const synth_args& a, const std::string& command) {
  print(r, a, syn::save_result_files(r, a.output_dir));
  if constexpr (requires { r.warnings; }) {
    for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: {}: warning: {}\n", command, w);
  }
  if constexpr (requires { r.animation(); }) {
    if (!a.animate.empty() && !syn::save_result_animation(r, a.animate)) {
      fmt::print(stderr, "kinevo: {}: no linkage to animate\n", command);
    }
  }
}

// ---------------------------------------------------------------------------------- fourbar

struct fourbar_args : synth_args {
  syn::fourbar_request request;
};

int run_fourbar(fourbar_args& a) {
  io::progress_line progress("synth fourbar", a.quiet || a.json);
  prepare(a.request, a, progress, {{"min_transmission_deg", "--min-transmission"}});
  const auto r = a.request.run();
  progress.finish();
  report(r, a, "synth fourbar");
  if (r.status == "ok") return exit_ok;
  fmt::print(stderr, "kinevo: synth fourbar: {}: {}\n", r.status, r.status_message);
  return exit_failure;
}

// ---------------------------------------------------------------------------------- rssr

struct rssr_args : synth_args {
  syn::rssr_request request;
};

int run_rssr(rssr_args& a) {
  io::progress_line progress("synth rssr", a.quiet || a.json);
  prepare(a.request, a, progress, {{"alpha4_deg", "--alpha4"}});
  const auto r = a.request.run();
  progress.finish();
  report(r, a, "synth rssr");
  if (r.status == "ok") return exit_ok;
  fmt::print(stderr, "kinevo: synth rssr: {}: {}\n", r.status, r.status_message);
  return exit_failure;
}

// ---------------------------------------------------------------------------------- dyad

struct dyad_args : synth_args {
  syn::dyad_request request;
};

int run_dyad(dyad_args& a) {
  io::progress_line progress("synth dyad", a.quiet || a.json);
  prepare(a.request, a, progress);
  a.request.options.starts.on_progress = [&](int done, int total) {
    progress.update(static_cast<double>(done) / total, fmt::format("start {}/{}", done, total));
  };
  const auto r = a.request.run();
  progress.finish();
  report(r, a, "synth dyad");
  return exit_ok;
}

// ---------------------------------------------------------------------------------- path

struct path_args : synth_args {
  syn::path_request request;
  std::vector<double> link_bounds, coupler_bounds, frame_bounds;  // "lo hi" as given
};

// A "lo hi" pair from the command line as a bound interval.
std::optional<syn::path_interval> path_cli_interval(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return syn::path_interval{v[0], v[1]};
}

int run_path(path_args& a) {
  a.request.link_bounds = path_cli_interval(a.link_bounds);
  a.request.coupler_bounds = path_cli_interval(a.coupler_bounds);
  a.request.frame_bounds = path_cli_interval(a.frame_bounds);
  io::progress_line progress("synth path", a.quiet || a.json);
  prepare(a.request, a, progress,
          {{"min_transmission_deg", "--min-transmission"}, {"evaluations", "--evaluations"}});
  const auto r = a.request.run();
  progress.finish();
  report(r, a, "synth path");
  return r.status == "ok" ? exit_ok : exit_failure;
}

CLI::App* add_path_command(CLI::App& sub, const std::shared_ptr<path_args>& pa) {
  CLI::App* p = sub.add_subcommand("path", "Four-bar path generator through precision points");
  p->add_option("table,-t,--table", pa->request.table,
                "CSV table: x, y [, input_deg]; '# key = value' header lines set the problem")
      ->required();
  const auto mark = [pa](const char* name) {
    return [pa, name](const auto&) { pa->request.given.push_back(name); };
  };
  p->add_option("--timing", pa->request.timing,
                "free, prescribed (the input column) or relative (input column + free offset)")
      ->each(mark("timing"));
  p->add_option("--path", pa->request.path, "open or closed (the input turns fully)")
      ->each(mark("path"));
  p->add_option("--link-type", pa->request.link_type, "any, grashof or crank-rocker (default)")
      ->each(mark("link_type"));
  p->add_option("--min-transmission", pa->request.min_transmission_deg,
                "Smallest transmission angle over the motion, degrees in [0, 90)")
      ->each(mark("min_transmission"));
  p->add_option("--link-bounds", pa->link_bounds, "Link length bounds LO HI")
      ->expected(2)
      ->each(mark("link_bounds"));
  p->add_option("--coupler-bounds", pa->coupler_bounds, "Coupler point bounds LO HI")
      ->expected(2)
      ->each(mark("coupler_bounds"));
  p->add_option("--frame-bounds", pa->frame_bounds, "Input pivot position bounds LO HI")
      ->expected(2)
      ->each(mark("frame_bounds"));
  p->add_option("--frame", pa->request.frame,
                "free (default) or fixed: input pivot at the origin, frame "
                "line along x")
      ->each(mark("frame"));
  p->add_option("--evaluations", pa->request.options.evaluations,
                "Objective evaluations in all (GA and refinement); default: the file's "
                "'# evaluations', else 20000")
      ->each(mark("evaluations"));
  add_seed_option(*p, "--seed", pa->request.options.ga.islands.seed, "GA master seed");
  p->add_option("--ga", pa->request.ga_preset, "GA operators: sbx (default), de or g3-pcx");
  p->add_option("--population", pa->request.population, "GA population per island (default 20)");
  p->add_option("--round-evaluations", pa->request.options.evaluations_per_round,
                "Evaluations per round of GA search and refinement")
      ->capture_default_str();
  p->add_flag("--seed-rounds", pa->request.options.seed_rounds,
              "Seed each round's GA with the best design so far");
  p->add_option("--islands", pa->request.options.ga.islands.islands, "GA islands")
      ->capture_default_str();
  p->add_flag("--no-refine{false}", pa->request.options.ga.refine,
              "GA only, without the local refinement");
  p->add_option("--animate", pa->animate, "HTML page of the linkage through the points");
  add_output(*p, *pa);
  add_tables(*p, pa->request.radians, *pa);
  return p;
}

// ---------------------------------------------------------------------------------- chebyshev

struct chebyshev_args : output_args {
  syn::chebyshev_options options;
};

int run_chebyshev(const chebyshev_args& a) {
  validate_synth(a.options, {{"n", "-n"}});
  const auto r = syn::chebyshev_points(a.options);
  if (a.json) {
    fmt::print("{}\n", r.to_json().dump());
  } else if (!a.quiet) {
    fmt::print("{}", r.full_report());
  }
  return exit_ok;
}

// Under mpiexec every rank computes (the GA's islands span the ranks; the rest is
// deterministic), so every rank meets the same errors: only rank 0 prints, reports and writes.
int run_on_rank(const std::function<int()>& run) {
  if (ga::mpi_environment::rank() == 0) return run();
  try {
    return run();
  } catch (const io::input_error&) {
    return exit_bad_input;
  } catch (const std::exception&) {
    return exit_failure;
  }
}

CLI::App* add_fourbar_command(CLI::App& sub, fourbar_args& fb) {
  CLI::App* f = sub.add_subcommand("fourbar", "Four-bar function generator (Freudenstein)");
  f->add_option("-t,--table", fb.request.table, "CSV table: psi, phi [, weight]")->required();
  f->add_flag("--exact", fb.request.options.exact, "Exact synthesis through exactly 3 points");
  f->add_option("--crank", fb.request.crank, "Require a crank: none, input, output or both")
      ->capture_default_str();
  f->add_option("--output", fb.request.output, "Output link type: any or rocker")
      ->capture_default_str();
  f->add_option("--coupler", fb.request.coupler,
                "Coupler motion relative to the frame: none, "
                "crank (full turn) or rocker")
      ->capture_default_str();
  f->add_option("--method", fb.request.method, "penalty (interior penalty) or ga")
      ->capture_default_str();
  f->add_option("--min-transmission", fb.request.options.min_transmission_deg,
                "Smallest allowed transmission angle, degrees, in [0, 90)");
  f->add_option("--max-ratio", fb.request.options.max_ratio,
                "Largest allowed longest/shortest link ratio, in (1, 1e6] (0: no bound)");
  f->add_option("--frame", fb.request.options.frame, "Frame length the links are scaled to")
      ->capture_default_str();
  f->add_option("--animate", fb.animate,
                "HTML page of the linkage through the table's input range");
  add_output(*f, fb);
  add_tables(*f, fb.request.radians, fb);
  add_ga(*f, fb.request.options.ga);
  return f;
}

CLI::App* add_rssr_command(CLI::App& sub, rssr_args& rs) {
  CLI::App* r = sub.add_subcommand("rssr", "RSSR spatial function generator (least squares)");
  r->add_option("-t,--table", rs.request.table, "CSV table: psi, phi (at least 6 points)")
      ->required();
  r->add_option("--alpha4", rs.request.options.alpha4_deg,
                "Angle between the input and output axes, degrees")
      ->capture_default_str();
  r->add_option("--method", rs.request.method, "householder (least squares) or ga")
      ->capture_default_str();
  r->add_option("--a4", rs.request.options.a4, "Distance between the axes (scales all lengths)")
      ->capture_default_str();
  add_output(*r, rs);
  add_tables(*r, rs.request.radians, rs);
  add_ga(*r, rs.request.options.ga);
  return r;
}

CLI::App* add_dyad_command(CLI::App& sub, dyad_args& dy) {
  CLI::App* d = sub.add_subcommand("dyad", "RR dyad for rigid-body guidance through poses");
  d->add_option("-p,--poses", dy.request.poses,
                "CSV table: x, y, theta; first row the reference pose")
      ->required();
  d->add_option("--starts", dy.request.options.starts.starts, "Random starts, at most 1e6")
      ->capture_default_str();
  d->add_option("--keep", dy.request.options.starts.keep, "Distinct solutions reported")
      ->capture_default_str();
  d->add_option("--method", dy.request.method, "gauss-newton (random starts) or ga")
      ->capture_default_str();
  add_output(*d, dy);
  add_tables(*d, dy.request.radians, dy);
  add_ga(*d, dy.request.options.ga);
  return d;
}

CLI::App* add_chebyshev_command(CLI::App& sub, chebyshev_args& ch) {
  CLI::App* c = sub.add_subcommand("chebyshev", "Chebyshev spacing of precision points");
  c->add_option("--from", ch.options.from, "Start of the input range")->required();
  c->add_option("--to", ch.options.to, "End of the input range")->required();
  c->add_option("-n", ch.options.n, "Number of points, at most 1e6")->capture_default_str();
  add_output(*c, ch);
  return c;
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
        return run_on_rank([&]() {
          if (f->parsed()) return run_fourbar(*fb);
          if (r->parsed()) return run_rssr(*rs);
          if (d->parsed()) return run_dyad(*dy);
          if (pt->parsed()) return run_path(*pa);
          if (c->parsed()) return run_chebyshev(*ch);
          return exit_bad_input;
        });
      };
    });

}  // namespace

}  // namespace kinevo::cli
