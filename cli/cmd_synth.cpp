// kinevo synth: linkage synthesis from input-output tables (four-bar, RSSR) and from poses (RR
// dyad). Parses options into the library's option structs, reads the tables, calls synthesis/,
// prints the result's report and has it write its files.
#include <fmt/format.h>

#include <algorithm>
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
#include "kinevo/synthesis/path_synthesis.hpp"
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
  for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: synth fourbar: warning: {}\n", w);
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
  for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: synth rssr: warning: {}\n", w);
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
  for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: synth dyad: warning: {}\n", w);
  return exit_ok;
}

// ---------------------------------------------------------------------------------- path

struct path_args : synth_args {
  std::string table;
  std::string timing, path, link_type, frame, ga_preset;
  int population = 0;
  std::vector<double> link_bounds, coupler_bounds, frame_bounds;
  double min_transmission = 0.0;
  std::string animate;
  syn::path_synthesis_options options;
  std::vector<std::string> given;  // options given on the command line (beat the file's header)
};

// A "lo hi" pair from the command line as a bound interval.
std::optional<syn::path_interval> path_cli_interval(const std::vector<double>& v) {
  if (v.empty()) return std::nullopt;
  return syn::path_interval{v[0], v[1]};
}

int run_path(path_args& a) {
  syn::path_problem_options& po = a.options.problem;
  validate_synth(parse_step{[&] {
    if (!a.timing.empty()) po.timing = syn::parse_path_timing(a.timing);
    if (!a.link_type.empty()) po.link_type = syn::parse_path_link_type(a.link_type);
    if (!a.path.empty() && a.path != "open" && a.path != "closed") {
      throw io::option_error("path", fmt::format("'{}': use open or closed", a.path));
    }
    if (!a.ga_preset.empty()) {
      a.options.ga.ga = syn::path_synthesis_options::path_ga_preset(a.ga_preset);
    }
    if (a.population != 0) a.options.ga.ga.population = a.population;
    if (!a.frame.empty() && a.frame != "fixed" && a.frame != "free") {
      throw io::option_error("frame", fmt::format("'{}': use fixed or free", a.frame));
    }
  }});
  po.closed = a.path == "closed";
  po.fixed_frame = a.frame == "fixed";
  po.min_transmission_deg = a.min_transmission;
  po.link_bounds = path_cli_interval(a.link_bounds);
  po.coupler_bounds = path_cli_interval(a.coupler_bounds);
  po.frame_bounds = path_cli_interval(a.frame_bounds);
  validate_synth(a.options, {{"min_transmission_deg", "--min-transmission"},
                             {"evaluations", "--evaluations"}});
  check_output_path(a.animate, "--animate");
  const auto t = syn::read_path_table(a.table, a.radians);
  syn::apply_path_header(t, po, a.given);
  if (std::find(a.given.begin(), a.given.end(), "evaluations") == a.given.end()) {
    if (const auto n = t.header_number("evaluations")) {
      a.options.evaluations = static_cast<long long>(*n);
      validate_synth(a.options, {{"evaluations", "# evaluations"}});
    }
  }
  io::progress_line progress("synth path", a.quiet || a.json);
  attach_progress(a.options.ga, progress);
  const auto r = syn::synthesize_path(t, a.options);
  progress.finish();
  print(r, a, save_all(r, a));
  // In the report and the JSON already; on stderr too, so that nobody misses them.
  for (const auto& w : r.warnings) fmt::print(stderr, "kinevo: synth path: warning: {}\n", w);
  if (!a.animate.empty()) {
    const io::animation motion = r.animation();
    if (motion.times.empty()) fmt::print(stderr, "kinevo: synth path: no linkage to animate\n");
    if (!motion.times.empty()) io::save_animation_html(motion, a.animate);
  }
  return r.status == "ok" ? exit_ok : exit_failure;
}

void add_path_command(CLI::App& sub, const std::shared_ptr<path_args>& pa, CLI::App*& out) {
  CLI::App* p = sub.add_subcommand("path", "Four-bar path generator through precision points");
  out = p;
  p->add_option("table,-t,--table", pa->table,
                "CSV table: x, y [, input_deg]; '# key = value' header lines set the problem")
      ->required();
  const auto mark = [pa](const char* name) {
    return [pa, name](const auto&) { pa->given.push_back(name); };
  };
  p->add_option("--timing", pa->timing,
                "free, prescribed (the input column) or relative (input column + free offset)")
      ->each(mark("timing"));
  p->add_option("--path", pa->path, "open or closed (the input turns fully)")->each(mark("path"));
  p->add_option("--link-type", pa->link_type, "any, grashof or crank-rocker (default)")
      ->each(mark("link_type"));
  p->add_option("--min-transmission", pa->min_transmission,
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
  p->add_option("--frame", pa->frame,
                "free (default) or fixed: input pivot at the origin, frame "
                "line along x")
      ->each(mark("frame"));
  p->add_option("--evaluations", pa->options.evaluations,
                "Objective evaluations in all (GA and refinement); default: the file's "
                "'# evaluations', else 20000")
      ->each(mark("evaluations"));
  add_seed_option(*p, "--seed", pa->options.ga.islands.seed, "GA master seed");
  p->add_option("--ga", pa->ga_preset, "GA operators: sbx (default), de or g3-pcx");
  p->add_option("--population", pa->population, "GA population per island (default 20)");
  p->add_option("--round-evaluations", pa->options.evaluations_per_round,
                "Evaluations per round of GA search and refinement")
      ->capture_default_str();
  p->add_flag("--seed-rounds", pa->options.seed_rounds,
              "Seed each round's GA with the best design so far");
  p->add_option("--islands", pa->options.ga.islands.islands, "GA islands")->capture_default_str();
  p->add_flag("--no-refine{false}", pa->options.ga.refine, "GA only, without the local refinement");
  p->add_option("--animate", pa->animate, "HTML page of the linkage through the points");
  add_output(*p, *pa);
  add_tables(*p, *pa);
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
    55, "synth",
    "Linkage synthesis: four-bar and RSSR function generators, RR dyad guidance, four-bar "
    "path generators",
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

      auto pa = std::make_shared<path_args>();
      CLI::App* pt = nullptr;
      add_path_command(sub, pa, pt);

      auto ch = std::make_shared<chebyshev_args>();
      CLI::App* c = sub.add_subcommand("chebyshev", "Chebyshev spacing of precision points");
      c->add_option("--from", ch->options.from, "Start of the input range")->required();
      c->add_option("--to", ch->options.to, "End of the input range")->required();
      c->add_option("-n", ch->options.n, "Number of points, at most 1e6")->capture_default_str();
      add_output(*c, *ch);

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
