#include "kinevo/cli/synth_cli_options.hpp"

#include "kinevo/cli/command.hpp"

namespace kinevo::cli {

namespace syn = kinevo::synthesis;

namespace {

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

}  // namespace

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

CLI::App* add_chebyshev_command(CLI::App& sub, chebyshev_args& ch) {
  CLI::App* c = sub.add_subcommand("chebyshev", "Chebyshev spacing of precision points");
  c->add_option("--from", ch.options.from, "Start of the input range")->required();
  c->add_option("--to", ch.options.to, "End of the input range")->required();
  c->add_option("-n", ch.options.n, "Number of points, at most 1e6")->capture_default_str();
  add_output(*c, ch);
  return c;
}

}  // namespace kinevo::cli
