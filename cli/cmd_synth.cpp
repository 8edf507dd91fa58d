// kinevo synth: linkage synthesis from input-output tables (four-bar, RSSR) and from poses (RR
// dyad). Parses options into the library's option structs, reads the tables, calls synthesis/,
// prints the result's report and has it write its files.
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
#include "kinevo/synthesis/chebyshev_points.hpp"
#include "kinevo/synthesis/dyad_guidance.hpp"
#include "kinevo/synthesis/fourbar_synthesis.hpp"
#include "kinevo/synthesis/input_tables.hpp"
#include "kinevo/synthesis/output_folder.hpp"
#include "kinevo/synthesis/rssr_synthesis.hpp"

namespace kinevo::cli {

namespace {

namespace syn = kinevo::synthesis;

// What every synth subcommand takes besides its own options.
struct synth_args : output_args {
  bool radians = false;
};

void add_tables(CLI::App& app, synth_args& a) {
  app.add_flag("--radians", a.radians, "Angles in the table are radians (default: degrees)");
  app.add_option("-o,--output-dir", a.output_dir,
                 "Write CSV tables and SVG pictures into this folder (created if needed; "
                 "replaced as a whole, other files in it are kept)");
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

// Runs a parse step that throws io::option_error as if it were a validate() (same message).
template <class Parse>
struct parse_step {
  Parse parse;
  void validate() const { parse(); }
};

void attach_progress(syn::ga_synthesis_options& g, io::progress_line& progress) {
  g.on_progress = [&progress](double f) { progress.update(f, "GA"); };
}

// Writes the result's files into a fresh folder swapped into place at the end; returns the names.
template <class Result>
std::vector<std::string> save_all(const Result& r, const output_args& a) {
  if (a.output_dir.empty()) return {};
  syn::output_folder folder(a.output_dir);
  r.save_files(folder);
  folder.commit();
  return folder.written();
}

// ---------------------------------------------------------------------------------- fourbar

struct fourbar_args : synth_args {
  std::string table;
  std::string crank = "none", output = "any", coupler = "none";
  std::string method = "penalty";
  std::string animate;
  syn::fourbar_synthesis_options options;
};

int run_fourbar(fourbar_args& a) {
  validate_synth(parse_step{[&] {
    a.options.method = syn::parse_fourbar_method(a.method);
    a.options.crank = syn::parse_crank_requirement(a.crank);
    a.options.output_rocker = syn::parse_output_rocker(a.output);
    a.options.coupler = syn::parse_coupler_requirement(a.coupler);
  }});
  validate_synth(a.options, {{"min_transmission_deg", "--min-transmission"}});
  check_output_path(a.animate, "--animate");
  const auto t = syn::read_function_table(a.table, a.radians, 3, "the four-bar (k1, k2, k3)");
  io::progress_line progress("synth fourbar", a.quiet || a.json);
  attach_progress(a.options.ga, progress);
  const auto r = syn::synthesize_fourbar(t, a.options);
  progress.finish();
  print(r, a, save_all(r, a));
  if (!a.animate.empty()) {
    const io::animation motion = r.animation();
    if (motion.times.empty()) fmt::print(stderr, "kinevo: synth fourbar: no linkage to animate\n");
    if (!motion.times.empty()) io::save_animation_html(motion, a.animate);
  }
  if (r.status == "ok") return exit_ok;
  fmt::print(stderr, "kinevo: synth fourbar: {}: {}\n", r.status, r.status_message);
  return exit_failure;
}

// ---------------------------------------------------------------------------------- rssr

struct rssr_args : synth_args {
  std::string table;
  std::string method = "householder";
  syn::rssr_synthesis_options options;
};

int run_rssr(rssr_args& a) {
  validate_synth(parse_step{[&] { a.options.method = syn::parse_rssr_method(a.method); }});
  validate_synth(a.options, {{"alpha4_deg", "--alpha4"}});
  const auto t = syn::read_function_table(a.table, a.radians, 6, "the RSSR (k1..k6)");
  io::progress_line progress("synth rssr", a.quiet || a.json);
  attach_progress(a.options.ga, progress);
  const auto r = syn::synthesize_rssr(t, a.options);
  progress.finish();
  print(r, a, save_all(r, a));
  return exit_ok;
}

// ---------------------------------------------------------------------------------- dyad

struct dyad_args : synth_args {
  std::string poses;
  std::string method = "gauss-newton";
  syn::dyad_guidance_options options;
};

int run_dyad(dyad_args& a) {
  validate_synth(parse_step{[&] { a.options.method = syn::parse_dyad_method(a.method); }});
  a.options.starts.seed = a.options.ga.islands.seed;  // one --seed for both methods
  validate_synth(a.options);
  const auto t = syn::read_pose_table(a.poses, a.radians);
  io::progress_line progress("synth dyad", a.quiet || a.json);
  attach_progress(a.options.ga, progress);
  a.options.starts.on_progress = [&](int done, int total) {
    progress.update(static_cast<double>(done) / total, fmt::format("start {}/{}", done, total));
  };
  const auto r = syn::synthesize_dyad(t, a.options);
  progress.finish();
  print(r, a, save_all(r, a));
  return exit_ok;
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

const command_registration synth_registration(
    55, "synth", "Linkage synthesis: four-bar and RSSR function generators, RR dyad guidance",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto fb = std::make_shared<fourbar_args>();
      CLI::App* f = sub.add_subcommand("fourbar", "Four-bar function generator (Freudenstein)");
      f->add_option("-t,--table", fb->table, "CSV table: psi, phi [, weight]")->required();
      f->add_flag("--exact", fb->options.exact, "Exact synthesis through exactly 3 points");
      f->add_option("--crank", fb->crank, "Require a crank: none, input, output or both")
          ->capture_default_str();
      f->add_option("--output", fb->output, "Output link type: any or rocker")
          ->capture_default_str();
      f->add_option("--coupler", fb->coupler,
                    "Coupler motion relative to the frame: none, "
                    "crank (full turn) or rocker")
          ->capture_default_str();
      f->add_option("--method", fb->method, "penalty (interior penalty) or ga")
          ->capture_default_str();
      f->add_option("--min-transmission", fb->options.min_transmission_deg,
                    "Smallest allowed transmission angle, degrees, in [0, 90)");
      f->add_option("--max-ratio", fb->options.max_ratio,
                    "Largest allowed longest/shortest link ratio, in (1, 1e6] (0: no bound)");
      f->add_option("--frame", fb->options.frame, "Frame length the links are scaled to")
          ->capture_default_str();
      f->add_option("--animate", fb->animate,
                    "HTML page of the linkage through the table's input range");
      add_output(*f, *fb);
      add_tables(*f, *fb);
      add_ga(*f, fb->options.ga);

      auto rs = std::make_shared<rssr_args>();
      CLI::App* r = sub.add_subcommand("rssr", "RSSR spatial function generator (least squares)");
      r->add_option("-t,--table", rs->table, "CSV table: psi, phi (at least 6 points)")->required();
      r->add_option("--alpha4", rs->options.alpha4_deg,
                    "Angle between the input and output axes, degrees")
          ->capture_default_str();
      r->add_option("--method", rs->method, "householder (least squares) or ga")
          ->capture_default_str();
      r->add_option("--a4", rs->options.a4, "Distance between the axes (scales all lengths)")
          ->capture_default_str();
      add_output(*r, *rs);
      add_tables(*r, *rs);
      add_ga(*r, rs->options.ga);

      auto dy = std::make_shared<dyad_args>();
      CLI::App* d = sub.add_subcommand("dyad", "RR dyad for rigid-body guidance through poses");
      d->add_option("-p,--poses", dy->poses, "CSV table: x, y, theta; first row the reference pose")
          ->required();
      d->add_option("--starts", dy->options.starts.starts, "Random starts, at most 1e6")
          ->capture_default_str();
      d->add_option("--keep", dy->options.starts.keep, "Distinct solutions reported")
          ->capture_default_str();
      d->add_option("--method", dy->method, "gauss-newton (random starts) or ga")
          ->capture_default_str();
      add_output(*d, *dy);
      add_tables(*d, *dy);
      add_ga(*d, dy->options.ga);

      auto ch = std::make_shared<chebyshev_args>();
      CLI::App* c = sub.add_subcommand("chebyshev", "Chebyshev spacing of precision points");
      c->add_option("--from", ch->options.from, "Start of the input range")->required();
      c->add_option("--to", ch->options.to, "End of the input range")->required();
      c->add_option("-n", ch->options.n, "Number of points, at most 1e6")->capture_default_str();
      add_output(*c, *ch);

      return [f, r, d, c, fb, rs, dy, ch]() {
        if (ga::mpi_environment::rank() != 0) {
          for (output_args* a :
               {static_cast<output_args*>(fb.get()), static_cast<output_args*>(rs.get()),
                static_cast<output_args*>(dy.get()), static_cast<output_args*>(ch.get())}) {
            a->quiet = true;
            a->json = false;
            a->output_dir.clear();
          }
        }
        return run_on_rank([&]() {
          if (f->parsed()) return run_fourbar(*fb);
          if (r->parsed()) return run_rssr(*rs);
          if (d->parsed()) return run_dyad(*dy);
          if (c->parsed()) return run_chebyshev(*ch);
          return exit_bad_input;
        });
      };
    });

}  // namespace

}  // namespace kinevo::cli
