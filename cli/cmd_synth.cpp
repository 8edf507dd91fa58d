// kinevo synth: linkage synthesis from input-output tables (four-bar, RSSR) and from poses (RR
// dyad). Parses options, reads the tables, calls synthesis/, prints and writes the results.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "ga/mpi_environment.hpp"
#include "io/csv_table.hpp"
#include "io/progress.hpp"
#include "io/svg_plot.hpp"
#include "synthesis/crank_constrained.hpp"
#include "synthesis/drawings.hpp"
#include "synthesis/fourbar_analysis.hpp"
#include "synthesis/freudenstein.hpp"
#include "synthesis/ga_synthesis.hpp"
#include "synthesis/grashof.hpp"
#include "synthesis/input_tables.hpp"
#include "synthesis/rr_dyad.hpp"
#include "synthesis/rssr.hpp"

namespace kinevo::cli {

namespace {

namespace syn = kinevo::synthesis;
constexpr double deg = std::numbers::pi / 180.0;

struct common_args {
  bool json = false;
  bool quiet = false;
  bool radians = false;
  std::string output_dir;
  std::uint64_t seed = 1;
  int islands = 1;
  long long generations = 150;
};

void add_common(CLI::App& app, common_args& a) {
  app.add_flag("--json", a.json, "Print one JSON object on stdout (nothing else)");
  app.add_flag("-q,--quiet", a.quiet, "Print nothing on success (files are still written)");
  app.add_flag("--radians", a.radians, "Angles in the table are radians (default: degrees)");
  app.add_option("-o,--output-dir", a.output_dir,
                 "Write CSV tables and SVG pictures into this folder (created if needed)");
}

void add_ga(CLI::App& app, common_args& a) {
  add_seed_option(app, "--seed", a.seed, "GA master seed (--method ga)");
  app.add_option("--islands", a.islands, "GA islands (--method ga)")->capture_default_str();
  app.add_option("--generations", a.generations, "GA generations per range run (--method ga)")
      ->capture_default_str();
}

syn::ga_synthesis_options ga_options_from(const common_args& a, io::progress_line& progress) {
  syn::ga_synthesis_options g;
  g.islands.islands = a.islands;
  g.islands.seed = a.seed;
  g.generations = a.generations;
  g.on_progress = [&progress](double f) { progress.update(f, "GA"); };
  try {
    g.ga.validate();
    g.islands.validate(g.ga);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(e.what());
  }
  if (a.generations < 1) throw io::input_error("--generations must be at least 1");
  return g;
}

std::filesystem::path output_file(const common_args& a, const std::string& name,
                                  std::vector<std::string>& written) {
  std::filesystem::create_directories(a.output_dir);
  auto p = std::filesystem::path(a.output_dir) / name;
  written.push_back(p.string());
  return p;
}

std::vector<double> in_degrees(const std::vector<double>& v) {
  std::vector<double> d;
  for (const double x : v) d.push_back(x / deg);
  return d;
}

// NaN (no assembly) becomes JSON null.
nlohmann::json numbers(const std::vector<double>& v) {
  nlohmann::json j = nlohmann::json::array();
  for (const double x : v) j.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json());
  return j;
}

// ---------------------------------------------------------------------------------- fourbar

struct fourbar_args : common_args {
  std::string table;
  bool exact = false;
  std::string crank = "none";
  std::string method = "penalty";
  double min_transmission_deg = 0.0;
  double max_ratio = 0.0;
  double frame = 1.0;
};

int run_fourbar(const fourbar_args& a) {
  if (!(a.frame > 0.0 && std::isfinite(a.frame))) {
    throw io::input_error("--frame must be positive and finite");
  }
  if (a.method != "penalty" && a.method != "ga") {
    throw io::input_error(fmt::format("--method '{}': use penalty or ga", a.method));
  }
  syn::crank_constrained_options co;
  try {
    co.crank = syn::parse_crank_requirement(a.crank);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(std::string("--crank: ") + e.what());
  }
  if (!(a.min_transmission_deg >= 0.0 && a.min_transmission_deg < 90.0)) {
    throw io::input_error("--min-transmission must be in [0, 90) degrees");
  }
  // Beyond 1e6 a ratio bounds nothing buildable, and 1e160 squared overflows to inf.
  if (a.max_ratio != 0.0 && !(a.max_ratio > 1.0 && a.max_ratio <= syn::max_link_ratio_limit)) {
    throw io::input_error(
        fmt::format("--max-ratio {}: must be in (1, 1e6] (or 0 for no bound)", a.max_ratio));
  }
  co.min_transmission = a.min_transmission_deg * deg;
  co.max_link_ratio = a.max_ratio;
  const bool constrained = co.crank != syn::crank_requirement::none || co.min_transmission > 0.0 ||
                           co.max_link_ratio > 0.0;
  if (a.exact && (constrained || a.method == "ga")) {
    throw io::input_error(
        "--exact passes through 3 points exactly; it takes no --crank, bounds "
        "or --method ga (drop --exact for a constrained fit)");
  }
  const auto t = syn::read_function_table(a.table, a.radians, 3, "the four-bar (k1, k2, k3)");
  if (a.exact && t.input.size() != 3) {
    throw io::input_error(
        fmt::format("{}: --exact needs exactly 3 points, the table has {} (drop "
                    "--exact for least squares)",
                    t.source, t.input.size()));
  }
  co.weights = t.weights;

  io::progress_line progress("synth fourbar", a.quiet || a.json);
  const auto t0 = std::chrono::steady_clock::now();
  syn::freudenstein_fit fit;
  std::string method;
  nlohmann::json details = nlohmann::json::object();
  if (a.exact) {
    fit = syn::freudenstein_exact(t.input, t.output);
    method = "exact (3 precision points)";
    details["rcond"] = fit.rcond;
  } else if (a.method == "ga") {
    const auto r = syn::ga_crank_constrained(t.input, t.output, co, ga_options_from(a, progress));
    fit = r.fit;
    method = "island GA, constraints as penalties";
    details["evaluations"] = r.evaluations;
    details["feasible"] = r.feasible;
    if (!r.feasible) {
      progress.finish();
      throw std::runtime_error(
          "the GA found no linkage meeting the constraints; try more "
          "--generations or --islands, or relax --max-ratio/--min-transmission");
    }
  } else if (constrained) {
    const auto r = syn::crank_constrained_least_squares(t.input, t.output, co);
    fit = r.fit;
    method = "least squares with interior penalty";
    nlohmann::json stages = nlohmann::json::array();
    for (const auto& s : r.penalty.stages) {
      stages.push_back({{"r", s.r},
                        {"k", {s.x(0), s.x(1), s.x(2)}},
                        {"z", s.objective},
                        {"iterations", s.iterations},
                        {"status", syn::to_string(s.status)}});
    }
    details["stages"] = stages;
    details["extrapolated"] = r.penalty.extrapolated;
  } else {
    fit = syn::freudenstein_least_squares(t.input, t.output, t.weights);
    method = t.weights.empty() ? "least squares (Householder QR)" : "weighted least squares";
  }
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const Eigen::Vector3d k = fit.k;
  const auto in = syn::input_crank(k);
  const auto out = syn::output_crank(k);
  const bool in_turns = in.crank && syn::input_turns_fully(k);
  const bool out_turns = out.crank && syn::output_turns_fully(k);
  const auto err = syn::fourbar_structural_error(k, t.input, t.output);
  std::optional<syn::fourbar_links> links;
  std::string link_problem;
  try {
    links = syn::links_from_k(k, a.frame);
  } catch (const std::domain_error& e) {
    link_problem = e.what();
  }
  const auto in_lim = syn::input_rocker_limits(k);
  const auto out_lim = syn::output_rocker_limits(k);
  std::vector<double> dead = in_degrees(syn::input_dead_points(k));
  double mu_min = std::nan(""), mu_max = std::nan("");
  if (links) {
    std::vector<double> range;
    const auto sweep = syn::sweep_fourbar(k, err.branch, t.input, t.output, 181);
    range = in_turns ? std::vector<double>{} : sweep.psi;
    if (in_turns) {
      for (int i = 0; i < 360; ++i) range.push_back(i * deg);
    }
    for (const double p : range) {
      const double mu = syn::transmission_angle(*links, p) / deg;
      mu_min = std::isnan(mu_min) ? mu : std::min(mu_min, mu);
      mu_max = std::isnan(mu_max) ? mu : std::max(mu_max, mu);
    }
  }

  std::vector<std::string> written;
  if (!a.output_dir.empty()) {
    io::csv_writer csv(
        {"line", "psi_deg", "phi_deg", "generated_deg", "error_deg", "freudenstein_residual"});
    for (std::size_t i = 0; i < t.input.size(); ++i) {
      csv.add_row({static_cast<double>(t.lines[i]), t.input[i] / deg, t.output[i] / deg,
                   err.generated[i] / deg, err.error[i] / deg,
                   fit.residual(static_cast<Eigen::Index>(i))});
    }
    csv.save(output_file(a, "fourbar_errors.csv", written));
    const auto sweep = syn::sweep_fourbar(k, err.branch, t.input, t.output);
    io::csv_writer sc({"psi_deg", "generated_deg", "table_interpolated_deg", "error_deg"});
    for (std::size_t i = 0; i < sweep.psi.size(); ++i) {
      sc.add_row({sweep.psi[i] / deg, sweep.generated[i] / deg, sweep.interpolated[i] / deg,
                  sweep.difference[i] / deg});
    }
    sc.save(output_file(a, "fourbar_sweep.csv", written));
    io::chart_options ch;
    ch.title = "four-bar structural error";
    ch.x_label = "input angle psi (deg)";
    ch.y_label = "error (deg)";
    io::save_line_chart(output_file(a, "fourbar_error.svg", written),
                        {{"dense sweep vs. linear interpolation of the table",
                          in_degrees(sweep.psi), in_degrees(sweep.difference), "", false},
                         {"table points", in_degrees(t.input), in_degrees(err.error), "", true}},
                        ch);
    if (links) {
      syn::save_fourbar_drawing(output_file(a, "fourbar_linkage.svg", written), *links, t.input,
                                err.generated);
    }
  }

  if (a.json) {
    nlohmann::json j;
    j["table"] = t.source;
    j["points"] = t.input.size();
    j["method"] = method;
    j["k"] = {k(0), k(1), k(2)};
    if (links) {
      j["links"] = {links->a1, links->a2, links->a3, links->a4};
      j["grashof"] = syn::grashof_type(*links);
    } else {
      j["links"] = nullptr;
      j["link_problem"] = link_problem;
    }
    j["residual"] = numbers(
        std::vector<double>(fit.residual.data(), fit.residual.data() + fit.residual.size()));
    j["residual_norm"] = fit.residual_norm;
    j["errors_deg"] = numbers(in_degrees(err.error));
    j["generated_deg"] = numbers(in_degrees(err.generated));
    j["branch"] = err.branch;
    j["max_error_deg"] =
        std::isfinite(err.max_abs) ? nlohmann::json(err.max_abs / deg) : nlohmann::json();
    j["input_crank"] = in_turns;
    j["output_crank"] = out_turns;
    j["f1"] = in.f1;
    j["f2"] = in.f2;
    j["g1"] = out.f1;
    j["g2"] = out.f2;
    j["input_dead_points_deg"] = dead;
    j["output_dead_points_deg"] = in_degrees(syn::output_dead_points(k));
    std::vector<double> il, ol;
    for (int i = 0; i < in_lim.count; ++i) il.push_back(std::acos(in_lim.cos_limit[i]) / deg);
    for (int i = 0; i < out_lim.count; ++i) ol.push_back(std::acos(out_lim.cos_limit[i]) / deg);
    j["input_rocker_limits_deg"] = il;
    j["output_rocker_limits_deg"] = ol;
    j["transmission_angle_deg"] = {
        {"min", std::isfinite(mu_min) ? nlohmann::json(mu_min) : nlohmann::json()},
        {"max", std::isfinite(mu_max) ? nlohmann::json(mu_max) : nlohmann::json()}};
    j["details"] = details;
    j["seconds"] = seconds;
    j["files"] = written;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("four-bar function generator: {} ({} points), {}\n", t.source, t.input.size(),
               method);
    fmt::print("k = ({:.6f}, {:.6f}, {:.6f})   Freudenstein residual ||e|| = {:.6f}\n", k(0), k(1),
               k(2), fit.residual_norm);
    if (links) {
      fmt::print(
          "links: frame a1 = {:.6g}, input a2 = {:.6g}, coupler a3 = {:.6g}, output a4 = {:.6g}"
          "   ({})\n",
          links->a1, links->a2, links->a3, links->a4, syn::grashof_type(*links));
      if (links->a2 < 0 || links->a4 < 0) {
        // Sign convention of the Grashof paper (Fig. 2): the angle is measured to the link's
        // extension; physically the link is |a| long and its angle is offset by 180 degrees.
        fmt::print("note: a negative a2 or a4 means psi or phi is measured to the extension of "
                   "that link: the link is |a| long, its angle offset by 180 deg\n");
      }
    } else {
      fmt::print("links: none ({})\n", link_problem);
    }
    fmt::print("input:  {} (f1 = {:.6g}, f2 = {:.6g}{})\n", in.crank ? "crank" : "rocker", in.f1,
               in.f2, in.crank ? (in_turns ? "; full turn checked" : "; FULL TURN FAILS") : "");
    fmt::print("output: {} (g1 = {:.6g}, g2 = {:.6g}{})\n", out.crank ? "crank" : "rocker", out.f1,
               out.f2, out.crank ? (out_turns ? "; full turn checked" : "; FULL TURN FAILS") : "");
    if (!dead.empty()) fmt::print("input dead points: {:.4f} deg\n", fmt::join(dead, ", "));
    const auto out_dead = in_degrees(syn::output_dead_points(k));
    if (!out_dead.empty()) {
      fmt::print("output dead points: {:.4f} deg\n", fmt::join(out_dead, ", "));
    }
    if (std::isfinite(mu_min)) {
      fmt::print("transmission angle: {:.2f} .. {:.2f} deg ({})\n", mu_min, mu_max,
                 in_turns ? "full turn" : "table range");
    }
    fmt::print("{:>6} {:>10} {:>10} {:>12} {:>11} {:>11}\n", "line", "psi", "phi", "generated",
               "error_deg", "e");
    for (std::size_t i = 0; i < t.input.size(); ++i) {
      fmt::print("{:>6} {:>10.4f} {:>10.4f} {:>12.6f} {:>11.6f} {:>11.6f}\n", t.lines[i],
                 t.input[i] / deg, t.output[i] / deg, err.generated[i] / deg, err.error[i] / deg,
                 fit.residual(static_cast<Eigen::Index>(i)));
    }
    if (links) {
      const double lo =
          std::min({std::abs(links->a1), std::abs(links->a2), links->a3, std::abs(links->a4)});
      const double hi =
          std::max({std::abs(links->a1), std::abs(links->a2), links->a3, std::abs(links->a4)});
      const double worst_mu = std::isfinite(mu_min) ? std::min(mu_min, 180.0 - mu_max) : 90.0;
      if (hi > 10.0 * lo || worst_mu < 20.0) {
        fmt::print(
            "note: link ratio {:.1f}:1, worst transmission angle {:.1f} deg; "
            "bound them with --max-ratio and --min-transmission\n",
            hi / lo, worst_mu);
      }
    }
    if (err.unassembled > 0) {
      fmt::print("warning: the linkage does not assemble at {} table point(s)\n", err.unassembled);
    }
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  }
  return exit_ok;
}

// ---------------------------------------------------------------------------------- rssr

struct rssr_args : common_args {
  std::string table;
  double alpha4_deg = 90.0;
  double a4 = 1.0;
  std::string method = "householder";
};

int run_rssr(const rssr_args& a) {
  if (!(a.a4 > 0.0)) throw io::input_error("--a4 must be positive");
  if (a.method != "householder" && a.method != "ga") {
    throw io::input_error(fmt::format("--method '{}': use householder or ga", a.method));
  }
  const auto t = syn::read_function_table(a.table, a.radians, 6, "the RSSR (k1..k6)");
  const double alpha4 = a.alpha4_deg * deg;
  io::progress_line progress("synth rssr", a.quiet || a.json);
  const auto t0 = std::chrono::steady_clock::now();
  syn::rssr_fit fit;
  long long evaluations = 0;
  if (a.method == "ga") {
    const auto r = syn::ga_rssr(t.input, t.output, alpha4, ga_options_from(a, progress));
    fit = r.fit;
    evaluations = r.evaluations;
  } else {
    fit = syn::rssr_least_squares(t.input, t.output, alpha4);
  }
  progress.finish();
  const auto errors = syn::rssr_errors(fit.k, alpha4, t.input, t.output);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::optional<syn::rssr_dimensions> dims;
  std::string dim_problem;
  try {
    dims = syn::rssr_dimensions_from_k(fit.k, alpha4, a.a4);
  } catch (const std::domain_error& e) {
    dim_problem = e.what();
  }
  double sum = 0.0;
  for (const double e : errors) sum += e * e;
  const double rms = std::sqrt(sum / static_cast<double>(errors.size())) / deg;

  std::vector<std::string> written;
  if (!a.output_dir.empty()) {
    io::csv_writer csv({"line", "psi_deg", "phi_deg", "error_deg", "equation_residual"});
    for (std::size_t i = 0; i < t.input.size(); ++i) {
      csv.add_row({static_cast<double>(t.lines[i]), t.input[i] / deg, t.output[i] / deg,
                   errors[i] / deg, fit.residual(static_cast<Eigen::Index>(i))});
    }
    csv.save(output_file(a, "rssr_errors.csv", written));
    // phi(psi) over the table's range, followed continuously from the first point.
    const auto [lo, hi] = std::minmax_element(t.input.begin(), t.input.end());
    const auto first = static_cast<std::size_t>(lo - t.input.begin());
    const int samples = 181;
    const auto sweep = syn::rssr_sweep(fit.k, alpha4, *lo, *hi, t.output[first], samples);
    std::vector<double> sweep_psi;
    io::csv_writer sc({"psi_deg", "generated_deg"});
    for (int i = 0; i < samples; ++i) {
      sweep_psi.push_back(*lo + (*hi - *lo) * i / (samples - 1));
      sc.add_row({sweep_psi.back() / deg, sweep[static_cast<std::size_t>(i)] / deg});
    }
    sc.save(output_file(a, "rssr_sweep.csv", written));
    io::chart_options oc;
    oc.title = "RSSR output angle";
    oc.x_label = "input angle psi (deg)";
    oc.y_label = "output angle phi (deg)";
    io::save_line_chart(output_file(a, "rssr_output.svg", written),
                        {{"generated", in_degrees(sweep_psi), in_degrees(sweep), "", false},
                         {"table", in_degrees(t.input), in_degrees(t.output), "", true}},
                        oc);
    io::chart_options ch;
    ch.title = "RSSR structural error";
    ch.x_label = "input angle psi (deg)";
    ch.y_label = "error (deg)";
    io::save_line_chart(
        output_file(a, "rssr_error.svg", written),
        {{"prescribed - generated", in_degrees(t.input), in_degrees(errors), "", true}}, ch);
  }
  if (a.json) {
    nlohmann::json j;
    j["table"] = t.source;
    j["points"] = t.input.size();
    j["alpha4_deg"] = a.alpha4_deg;
    j["method"] = a.method;
    if (a.method == "ga") j["evaluations"] = evaluations;
    j["k"] = std::vector<double>(fit.k.data(), fit.k.data() + 6);
    j["residual_norm"] = fit.residual_norm;
    j["errors_deg"] = numbers(in_degrees(errors));
    j["rms_error_deg"] = rms;
    if (dims) {
      j["dimensions"] = {{"a1_output", dims->a1},
                         {"a2_coupler", dims->a2},
                         {"a3_input", dims->a3},
                         {"a4_axis_distance", dims->a4},
                         {"output_offset", dims->output_offset},
                         {"input_offset", dims->input_offset},
                         {"phi0_deg", dims->phi0 / deg}};
    } else {
      j["dimensions"] = nullptr;
      j["dimension_problem"] = dim_problem;
    }
    j["seconds"] = seconds;
    j["files"] = written;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("RSSR function generator: {} ({} points), alpha4 = {} deg, {}\n", t.source,
               t.input.size(), a.alpha4_deg,
               a.method == "ga" ? "island GA" : "least squares (Householder QR)");
    fmt::print("k = ({:.7f})\n",
               fmt::join(std::vector<double>(fit.k.data(), fit.k.data() + 6), ", "));
    if (dims) {
      fmt::print(
          "output link a1 = {:.6f}, coupler a2 = {:.6f}, input link a3 = {:.6f}, axes a4 = "
          "{:.6g}\n",
          dims->a1, dims->a2, dims->a3, dims->a4);
      fmt::print("offsets: output {:.6f}, input {:.6f}; output dial zero phi0 = {:.4f} deg\n",
                 dims->output_offset, dims->input_offset, dims->phi0 / deg);
    } else {
      fmt::print("dimensions: none ({})\n", dim_problem);
    }
    fmt::print("rms error {:.8f} deg, equation residual {:.3e}\n", rms, fit.residual_norm);
    fmt::print("{:>6} {:>10} {:>10} {:>14}\n", "line", "psi", "phi", "error_deg");
    for (std::size_t i = 0; i < t.input.size(); ++i) {
      fmt::print("{:>6} {:>10.4f} {:>10.4f} {:>14.8f}\n", t.lines[i], t.input[i] / deg,
                 t.output[i] / deg, errors[i] / deg);
    }
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  }
  return exit_ok;
}

// ---------------------------------------------------------------------------------- dyad

struct dyad_args : common_args {
  std::string poses;
  int starts = 100;
  int keep = 5;
  std::string method = "gauss-newton";
};

int run_dyad(const dyad_args& a) {
  if (a.starts < 1) throw io::input_error("--starts must be at least 1");
  if (a.keep < 1) throw io::input_error("--keep must be at least 1");
  if (a.method != "gauss-newton" && a.method != "ga") {
    throw io::input_error(fmt::format("--method '{}': use gauss-newton or ga", a.method));
  }
  const auto t = syn::read_pose_table(a.poses, a.radians);
  io::progress_line progress("synth dyad", a.quiet || a.json);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<syn::dyad_solution> sols;
  long long evaluations = 0;
  if (a.method == "ga") {
    const auto r = syn::ga_dyad(t.poses, ga_options_from(a, progress));
    sols.push_back(r.solution);
    evaluations = r.evaluations;
  } else {
    syn::dyad_options o;
    o.starts = a.starts;
    o.seed = a.seed;
    o.keep = a.keep;
    o.on_progress = [&](int done, int total) {
      progress.update(static_cast<double>(done) / total, fmt::format("start {}/{}", done, total));
    };
    sols = syn::dyad_synthesis(t.poses, o);
  }
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (sols.empty()) {
    throw std::runtime_error("no start converged; try more --starts or another --seed");
  }
  std::vector<std::string> written;
  if (!a.output_dir.empty()) {
    io::csv_writer csv(
        {"solution", "a0_re", "a0_im", "b_re", "b_im", "length", "error_pct", "found"});
    for (std::size_t i = 0; i < sols.size(); ++i) {
      const auto& s = sols[i];
      csv.add_row({static_cast<double>(i + 1), s.a0.real(), s.a0.imag(), s.b.real(), s.b.imag(),
                   std::abs(s.a0 - s.b), 100.0 * s.error, static_cast<double>(s.found)});
    }
    csv.save(output_file(a, "dyad_solutions.csv", written));
    syn::save_dyad_drawing(output_file(a, "dyad.svg", written), t.poses, sols);
  }
  if (a.json) {
    nlohmann::json j;
    j["poses"] = t.poses.size();
    j["method"] = a.method;
    j["starts"] = a.method == "ga" ? 0 : a.starts;
    j["seed"] = a.seed;
    nlohmann::json js = nlohmann::json::array();
    for (const auto& s : sols) {
      js.push_back({{"a0", {s.a0.real(), s.a0.imag()}},
                    {"b", {s.b.real(), s.b.imag()}},
                    {"length", std::abs(s.a0 - s.b)},
                    {"error_pct", 100.0 * s.error},
                    {"residual_norm", s.residual_norm},
                    {"found", s.found}});
    }
    j["solutions"] = js;
    if (a.method == "ga") j["evaluations"] = evaluations;
    j["seconds"] = seconds;
    j["files"] = written;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("RR dyad for rigid-body guidance: {} ({} poses), {}\n", t.source, t.poses.size(),
               a.method == "ga"
                   ? "island GA + Gauss-Newton"
                   : fmt::format("{} from {} random starts (seed {})",
                                 t.poses.size() == 5 ? "damped Newton" : "Gauss-Newton", a.starts,
                                 a.seed));
    fmt::print("{:>3} {:>24} {:>24} {:>10} {:>9} {:>6}\n", "#", "circle point a0", "centre point b",
               "length", "error %", "found");
    for (std::size_t i = 0; i < sols.size(); ++i) {
      const auto& s = sols[i];
      fmt::print("{:>3} {:>11.6f} {:+11.6f}i {:>11.6f} {:+11.6f}i {:>10.6f} {:>9.3f} {:>6}\n",
                 i + 1, s.a0.real(), s.a0.imag(), s.b.real(), s.b.imag(), std::abs(s.a0 - s.b),
                 100.0 * s.error, s.found);
    }
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  }
  return exit_ok;
}

// ---------------------------------------------------------------------------------- chebyshev

struct chebyshev_args {
  double from = 0.0, to = 0.0;
  int n = 3;
  bool json = false;
};

int run_chebyshev(const chebyshev_args& a) {
  if (!(a.to > a.from)) throw io::input_error("--to must be greater than --from");
  if (a.n < 1) throw io::input_error("-n must be at least 1");
  const auto x = syn::chebyshev_spacing(a.from, a.to, a.n);
  if (a.json) {
    fmt::print("{}\n", nlohmann::json{{"points", x}}.dump());
  } else {
    for (const double v : x) fmt::print("{:.10g}\n", v);
  }
  return exit_ok;
}

const command_registration registration(
    55, "synth", "Linkage synthesis: four-bar and RSSR function generators, RR dyad guidance",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto fb = std::make_shared<fourbar_args>();
      CLI::App* f = sub.add_subcommand("fourbar", "Four-bar function generator (Freudenstein)");
      f->add_option("-t,--table", fb->table, "CSV table: psi, phi [, weight]")->required();
      f->add_flag("--exact", fb->exact, "Exact synthesis through exactly 3 points");
      f->add_option("--crank", fb->crank, "Require a crank: none, input, output or both")
          ->capture_default_str();
      f->add_option("--method", fb->method, "penalty (interior penalty) or ga")
          ->capture_default_str();
      f->add_option("--min-transmission", fb->min_transmission_deg,
                    "Smallest allowed transmission angle, degrees");
      f->add_option("--max-ratio", fb->max_ratio, "Largest allowed longest/shortest link ratio");
      f->add_option("--frame", fb->frame, "Frame length the links are scaled to")
          ->capture_default_str();
      add_common(*f, *fb);
      add_ga(*f, *fb);

      auto rs = std::make_shared<rssr_args>();
      CLI::App* r = sub.add_subcommand("rssr", "RSSR spatial function generator (least squares)");
      r->add_option("-t,--table", rs->table, "CSV table: psi, phi (at least 6 points)")->required();
      r->add_option("--alpha4", rs->alpha4_deg, "Angle between the input and output axes, degrees")
          ->capture_default_str();
      r->add_option("--method", rs->method, "householder (least squares) or ga")
          ->capture_default_str();
      r->add_option("--a4", rs->a4, "Distance between the axes (scales all lengths)")
          ->capture_default_str();
      add_common(*r, *rs);
      add_ga(*r, *rs);

      auto dy = std::make_shared<dyad_args>();
      CLI::App* d = sub.add_subcommand("dyad", "RR dyad for rigid-body guidance through poses");
      d->add_option("-p,--poses", dy->poses, "CSV table: x, y, theta; first row the reference pose")
          ->required();
      d->add_option("--starts", dy->starts, "Random starts")->capture_default_str();
      d->add_option("--keep", dy->keep, "Distinct solutions reported")->capture_default_str();
      d->add_option("--method", dy->method, "gauss-newton (random starts) or ga")
          ->capture_default_str();
      add_common(*d, *dy);
      add_ga(*d, *dy);

      auto ch = std::make_shared<chebyshev_args>();
      CLI::App* c = sub.add_subcommand("chebyshev", "Chebyshev spacing of precision points");
      c->add_option("--from", ch->from, "Start of the input range")->required();
      c->add_option("--to", ch->to, "End of the input range")->required();
      c->add_option("-n", ch->n, "Number of points")->capture_default_str();
      c->add_flag("--json", ch->json, "Print JSON");

      return [f, r, d, c, fb, rs, dy, ch]() {
        // Under mpiexec every rank computes (the GA's islands span the ranks; the rest is
        // deterministic); only rank 0 prints and writes files.
        if (ga::mpi_environment::rank() != 0) {
          fb->quiet = rs->quiet = dy->quiet = true;
          fb->json = rs->json = dy->json = false;
          fb->output_dir.clear(), rs->output_dir.clear(), dy->output_dir.clear();
        }
        if (f->parsed()) return run_fourbar(*fb);
        if (r->parsed()) return run_rssr(*rs);
        if (d->parsed()) return run_dyad(*dy);
        if (c->parsed()) return run_chebyshev(*ch);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
