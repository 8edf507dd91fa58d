#include "kinevo/synthesis/linkages/fourbar_synthesis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include "kinevo/core/resource_error.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/io/svg_plot.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/common/report_format.hpp"
#include "kinevo/synthesis/linkages/detail/buildability.hpp"
#include "kinevo/synthesis/linkages/detail/drawings.hpp"
#include "kinevo/synthesis/linkages/grashof.hpp"

namespace kinevo::synthesis {

std::string to_string(fourbar_method m) {
  return m == fourbar_method::ga ? "ga" : "penalty";
}

fourbar_method parse_fourbar_method(const std::string& s) {
  if (s == "penalty") return fourbar_method::penalty;
  if (s == "ga") return fourbar_method::ga;
  throw io::option_error("method", fmt::format("'{}': use penalty or ga", s));
}

bool fourbar_synthesis_options::constrained() const {
  return crank != crank_requirement::none || output_rocker ||
         coupler != coupler_requirement::none || min_transmission_deg > 0.0 || max_ratio > 0.0;
}

void fourbar_synthesis_options::validate() const {
  io::require_real("frame", frame, {1.0 / max_length_scale, max_length_scale});
  io::require_real("min_transmission_deg", min_transmission_deg, {0.0, 90.0, false, true});
  // Beyond 1e6 a ratio bounds nothing buildable, and 1e160 squared overflows to inf.
  if (max_ratio != 0.0) {
    io::require_real("max_ratio", max_ratio, {1.0, max_link_ratio_limit, true, false});
  }
  if (exact && (constrained() || method == fourbar_method::ga)) {
    throw io::option_error("exact",
                           "passes through 3 points exactly; it takes no --crank, --output, "
                           "--coupler, bounds or --method ga (drop --exact for a constrained fit)");
  }
  crank_requirements().validate();
  ga.validate();
}

crank_constrained_options fourbar_synthesis_options::crank_requirements() const {
  crank_constrained_options co;
  co.crank = crank;
  co.output_rocker = output_rocker;
  co.coupler = coupler;
  co.min_transmission = min_transmission_deg * degree;
  co.max_link_ratio = max_ratio;
  return co;
}

namespace {

// One link's crank conditions in words, the source's equation numbers in brackets.
std::string crank_line(const char* link, char symbol, int equation, const crank_test& t,
                       bool turns) {
  return fmt::format("{} link: {}: crank conditions {}1 = {:.6g} ({}a), {}2 = {:.6g} ({}b) {}{}\n",
                     link, t.crank ? "a crank (turns fully)" : "a rocker (does not turn fully)",
                     symbol, t.f1, equation, symbol, t.f2, equation,
                     t.crank ? "hold" : "do not hold",
                     t.crank ? (turns ? "; full turn checked" : "; FULL TURN FAILS") : "");
}

// Stage 1: k by the method the options ask for.
void fit_k(const function_table& t, const fourbar_synthesis_options& o, fourbar_synthesis_result& r,
           const core::run_context& context) {
  crank_constrained_options co = o.crank_requirements();
  co.weights = t.weights;
  if (o.exact) {
    r.fit = freudenstein_exact(t.input, t.output);
    r.method = "exact (3 precision points)";
    r.details["rcond"] = r.fit.rcond;
  } else if (o.method == fourbar_method::ga) {
    const auto g = ga_crank_constrained(t.input, t.output, co, o.ga, context);
    r.fit = g.fit;
    r.method = g.refined ? "island GA, constraints as penalties, refined by interior penalty"
                         : "island GA, constraints as penalties";
    r.details["evaluations"] = g.evaluations;
    r.details["feasible"] = g.feasible;
    r.details["ga_stage"] = {{"k", {g.ga_fit.k(0), g.ga_fit.k(1), g.ga_fit.k(2)}},
                             {"residual_norm", g.ga_fit.residual_norm},
                             {"seconds", g.ga_seconds}};
    r.details["refined"] = g.refined;
    if (!g.feasible) {
      throw std::runtime_error(
          "the GA found no linkage meeting the constraints; try more "
          "--generations or --islands, or relax the link types and bounds");
    }
  } else if (o.constrained()) {
    // The unconstrained fit is the penalty method's first start: points that do not determine k
    // end the run here, as a failed fit (synthesize_fourbar reports it).
    r.fit = freudenstein_least_squares(t.input, t.output, t.weights);
    if (!r.fit.summary.usable()) return;
    const auto c = crank_constrained_least_squares(t.input, t.output, co);
    r.fit = c.fit;
    r.method = "least squares with interior penalty";
    nlohmann::json stages = nlohmann::json::array();
    for (const auto& s : c.penalty.stages) {
      stages.push_back({{"r", s.r},
                        {"k", {s.x(0), s.x(1), s.x(2)}},
                        {"z", s.objective},
                        {"iterations", s.iterations},
                        {"status", to_string(s.status)}});
    }
    r.details["stages"] = stages;
    r.details["extrapolated"] = c.penalty.extrapolated;
  } else {
    r.fit = freudenstein_least_squares(t.input, t.output, t.weights);
    r.method = t.weights.empty() ? "least squares (Householder QR)" : "weighted least squares";
  }
}

std::vector<double> rocker_limits_deg(const rocker_limits& l) {
  std::vector<double> d;
  for (int i = 0; i < l.count; ++i) d.push_back(std::acos(l.cos_limit[i]) / degree);
  return d;
}

// Stage 2: mobility (Grashof paper, eqs. (11)-(12), (18)-(19), (22), (26)) and the structural
// error.
void analyse_mobility(const fourbar_synthesis_options& o, fourbar_synthesis_result& r) {
  const Eigen::Vector3d k = r.fit.k;
  r.input = input_crank(k);
  r.output = output_crank(k);
  r.input_turns = r.input.crank && input_turns_fully(k);
  r.output_turns = r.output.crank && output_turns_fully(k);
  r.error = fourbar_structural_error(k, r.psi, r.phi);
  try {
    r.links = links_from_k(k, o.frame);
  } catch (const io::option_error& e) {
    r.link_problem = e.what();
  }
  r.input_dead_points_deg = in_degrees(input_dead_points(k));
  r.output_dead_points_deg = in_degrees(output_dead_points(k));
  r.input_rocker_limits_deg = rocker_limits_deg(input_rocker_limits(k));
  r.output_rocker_limits_deg = rocker_limits_deg(output_rocker_limits(k));
}

// Stage 3: the transmission-angle range over a full turn of a crank input, else over the
// table's range of a rocker input (181 inputs on the assembly branch).
void analyse_transmission(fourbar_synthesis_result& r) {
  r.transmission_min_deg = r.transmission_max_deg = std::nan("");
  if (!r.links) return;
  std::vector<double> range;
  if (r.input_turns) {
    for (int i = 0; i < 360; ++i) range.push_back(i * degree);
  } else {
    range = sweep_fourbar(r.fit.k, r.error.branch, r.psi, r.phi, 181).psi;
  }
  for (const double p : range) {
    const double mu = transmission_angle(*r.links, p) / degree;
    r.transmission_min_deg =
        std::isnan(r.transmission_min_deg) ? mu : std::min(r.transmission_min_deg, mu);
    r.transmission_max_deg =
        std::isnan(r.transmission_max_deg) ? mu : std::max(r.transmission_max_deg, mu);
  }
}

// Stage 4: the documented buildability rules (transmission angle, link ratio), as warnings.
void assess_buildability(fourbar_synthesis_result& r) {
  r.link_ratio = std::nan("");
  if (!r.links) return;
  const auto& l = *r.links;
  const double lo = std::min({std::abs(l.a1), std::abs(l.a2), l.a3, std::abs(l.a4)});
  const double hi = std::max({std::abs(l.a1), std::abs(l.a2), l.a3, std::abs(l.a4)});
  r.link_ratio = hi / lo;
  r.warnings = buildability_warnings(r.transmission_min_deg, r.transmission_max_deg, r.link_ratio,
                                     "ask for a buildable one with --min-transmission 30",
                                     "bound the link ratio with --max-ratio 10");
}

}  // namespace

fourbar_synthesis_result synthesize_fourbar(const function_table& t,
                                            const fourbar_synthesis_options& o,
                                            const core::run_context& context) {
  o.validate();
  if (o.exact && t.input.size() != 3) {
    throw io::input_error(
        fmt::format("{}: --exact needs exactly 3 points, the table has {} (drop "
                    "--exact for least squares)",
                    t.source, t.input.size()));
  }
  fourbar_synthesis_result r;
  r.table = t.source;
  r.psi = t.input;
  r.phi = t.output;
  r.lines = t.lines;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    fit_k(t, o, r, context);
  } catch (const core::resource_error&) {
    throw;  // the system's limit (no more threads), not the linkage's: no infeasible answer
  } catch (const std::runtime_error& e) {
    if (!o.constrained()) throw;
    // No linkage of the required types: report the unconstrained fit and its conditions.
    r.summary = core::summary::ended(core::termination::infeasible, "", e.what());
    r.fit = freudenstein_least_squares(t.input, t.output, t.weights);
    if (r.method.empty()) r.method = "least squares with interior penalty";
    r.method += " (infeasible; unconstrained least squares shown)";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.has_answer()) {
    // The points do not determine k (singular or rank-deficient equations): no linkage to
    // analyse; the fit's summary says why.
    r.summary = r.fit.summary;
    return r;
  }
  analyse_mobility(o, r);
  analyse_transmission(r);
  assess_buildability(r);
  if (r.summary.usable() && r.error.unassembled > 0) {
    // A least-squares fit of Freudenstein's equation can pass points its linkage never reaches;
    // such a linkage does not generate the table, so it is a failure, not a warning.
    r.summary = core::summary::ended(
        core::termination::failed, "not_assembled",
        fmt::format("the linkage found does not assemble at {} of the {} table points (see the "
                    "table); try other link-type options, --method ga or a smaller table range",
                    r.error.unassembled, r.psi.size()));
  }
  const double phi0 = std::isfinite(r.error.generated.at(0)) ? r.error.generated[0] : r.phi.at(0);
  r.conditions = evaluate_link_types(r.fit.k, phi0, o.output_rocker, to_string(o.coupler));
  return r;
}

std::string fourbar_synthesis_result::brief_report() const {
  if (!has_answer()) return fmt::format("four-bar: {}\n", summary.brief_report());
  std::string s = fmt::format("four-bar: k = ({:.6f}, {:.6f}, {:.6f}), ||e|| = {:.6f}", fit.k(0),
                              fit.k(1), fit.k(2), fit.residual_norm);
  if (links) {
    s += fmt::format(", links {:.6g} {:.6g} {:.6g} {:.6g} ({})", links->a1, links->a2, links->a3,
                     links->a4, grashof_type(*links));
  } else {
    s += fmt::format(", no links ({})", link_problem);
  }
  if (std::isfinite(error.max_abs)) {
    s += fmt::format(", max error {:.6f} deg", error.max_abs / degree);
  }
  return s + "\n";
}

std::string fourbar_synthesis_result::full_report() const {
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out, "four-bar function generator: {} ({} points), {}\n", table, psi.size(),
                 method);
  if (!summary.usable()) fmt::format_to(out, "status: {}\n", summary.brief_report());
  if (!has_answer()) return s;
  fmt::format_to(out, "k = ({:.6f}, {:.6f}, {:.6f})   Freudenstein residual ||e|| = {:.6f}\n",
                 fit.k(0), fit.k(1), fit.k(2), fit.residual_norm);
  if (links) {
    fmt::format_to(
        out,
        "links: frame a1 = {:.6g}, input a2 = {:.6g}, coupler a3 = {:.6g}, output a4 = {:.6g}"
        "   ({})\n",
        links->a1, links->a2, links->a3, links->a4, grashof_type(*links));
    if (links->a2 < 0 || links->a4 < 0) {
      // Sign convention of the Grashof paper (Fig. 2): the angle is measured to the link's
      // extension; physically the link is |a| long and its angle is offset by 180 degrees.
      fmt::format_to(out,
                     "note: a negative a2 or a4 means psi or phi is measured to the extension of "
                     "that link: the link is |a| long, its angle offset by 180 deg\n");
    }
  } else {
    fmt::format_to(out, "links: none ({})\n", link_problem);
  }
  fmt::format_to(out, "{}", crank_line("input", 'f', 18, input, input_turns));
  fmt::format_to(out, "{}", crank_line("output", 'g', 19, output, output_turns));
  s += conditions.text();
  if (!input_dead_points_deg.empty()) {
    fmt::format_to(out, "input dead points: {:.4f} deg\n", fmt::join(input_dead_points_deg, ", "));
  }
  if (!output_dead_points_deg.empty()) {
    fmt::format_to(out, "output dead points: {:.4f} deg\n",
                   fmt::join(output_dead_points_deg, ", "));
  }
  if (std::isfinite(transmission_min_deg)) {
    fmt::format_to(out, "transmission angle: {:.2f} .. {:.2f} deg ({})\n", transmission_min_deg,
                   transmission_max_deg, input_turns ? "full turn" : "table range");
  }
  fmt::format_to(out, "{:>6} {:>10} {:>10} {:>12} {:>11} {:>11}\n", "line", "psi", "phi",
                 "generated", "error_deg", "e");
  for (std::size_t i = 0; i < psi.size(); ++i) {
    fmt::format_to(out, "{:>6} {:>10.4f} {:>10.4f} {:>12.6f} {:>11.6f} {:>11.6f}\n", lines[i],
                   psi[i] / degree, phi[i] / degree, error.generated[i] / degree,
                   error.error[i] / degree, fit.residual(static_cast<Eigen::Index>(i)));
  }
  if (links) fmt::format_to(out, "link ratio {:.3g}:1\n", link_ratio);
  for (const auto& w : warnings) fmt::format_to(out, "warning: {}\n", w);
  if (links && warnings.empty()) {
    fmt::format_to(out,
                   "buildable: transmission angle and link ratio within the documented "
                   "rules\n");
  }
  if (error.unassembled > 0) {
    fmt::format_to(out, "warning: the linkage does not assemble at {} table point(s)\n",
                   error.unassembled);
  }
  return s;
}

nlohmann::json fourbar_synthesis_result::to_json() const {
  nlohmann::json j;
  j["status"] = summary.status();
  if (!summary.usable()) j["status_message"] = summary.message;
  j["table"] = table;
  j["points"] = psi.size();
  j["method"] = method;
  if (!has_answer()) return j;  // no k: the status and its message say why
  j["k"] = {fit.k(0), fit.k(1), fit.k(2)};
  if (links) {
    j["links"] = {links->a1, links->a2, links->a3, links->a4};
    j["grashof"] = grashof_type(*links);
  } else {
    j["links"] = nullptr;
    j["link_problem"] = link_problem;
  }
  j["residual"] = json_numbers(
      std::vector<double>(fit.residual.data(), fit.residual.data() + fit.residual.size()));
  j["residual_norm"] = fit.residual_norm;
  j["errors_deg"] = json_numbers(in_degrees(error.error));
  j["generated_deg"] = json_numbers(in_degrees(error.generated));
  j["branch"] = error.branch;
  j["max_error_deg"] = json_number(error.max_abs / degree);
  j["input_crank"] = input_turns;
  j["output_crank"] = output_turns;
  j["f1"] = input.f1;
  j["f2"] = input.f2;
  j["g1"] = output.f1;
  j["g2"] = output.f2;
  j["input_dead_points_deg"] = input_dead_points_deg;
  j["output_dead_points_deg"] = output_dead_points_deg;
  j["input_rocker_limits_deg"] = input_rocker_limits_deg;
  j["output_rocker_limits_deg"] = output_rocker_limits_deg;
  j["transmission_angle_deg"] = {{"min", json_number(transmission_min_deg)},
                                 {"max", json_number(transmission_max_deg)}};
  j["conditions"] = conditions.to_json();
  j["link_ratio"] = json_number(link_ratio);
  j["warnings"] = warnings;
  j["details"] = details;
  j["seconds"] = seconds;
  return j;
}

io::animation fourbar_synthesis_result::animation() const {
  if (!links) return {};
  return fourbar_animation(*links, sweep_fourbar(fit.k, error.branch, psi, phi, 181));
}

void fourbar_synthesis_result::save_files(output_folder& folder) const {
  if (!has_answer()) return;  // no linkage: no tables or pictures
  io::csv_writer csv(
      {"line", "psi_deg", "phi_deg", "generated_deg", "error_deg", "freudenstein_residual"});
  for (std::size_t i = 0; i < psi.size(); ++i) {
    csv.add_row({static_cast<double>(lines[i]), psi[i] / degree, phi[i] / degree,
                 error.generated[i] / degree, error.error[i] / degree,
                 fit.residual(static_cast<Eigen::Index>(i))});
  }
  csv.save(folder.file("fourbar_errors.csv"));
  const auto sweep = sweep_fourbar(fit.k, error.branch, psi, phi);
  io::csv_writer sc({"psi_deg", "generated_deg", "table_interpolated_deg", "error_deg"});
  for (std::size_t i = 0; i < sweep.psi.size(); ++i) {
    sc.add_row({sweep.psi[i] / degree, sweep.generated[i] / degree, sweep.interpolated[i] / degree,
                sweep.difference[i] / degree});
  }
  sc.save(folder.file("fourbar_sweep.csv"));
  io::chart_options ch;
  ch.title = "four-bar structural error";
  ch.x_label = "input angle psi [deg]";
  ch.y_label = "error [deg]";
  io::save_line_chart(folder.file("fourbar_error.svg"),
                      {{"dense sweep vs. linear interpolation of the table", in_degrees(sweep.psi),
                        in_degrees(sweep.difference), "", false, ""},
                       {"table points", in_degrees(psi), in_degrees(error.error), "", true, ""}},
                      ch);
  if (links) {
    save_fourbar_drawing(folder.file("fourbar_linkage.svg"), *links, psi, error.generated);
  }
}

}  // namespace kinevo::synthesis
