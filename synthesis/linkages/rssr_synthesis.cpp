#include "kinevo/synthesis/linkages/rssr_synthesis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/io/svg_plot.hpp"
#include "kinevo/synthesis/common/output_folder.hpp"
#include "kinevo/synthesis/common/report_format.hpp"
#include "kinevo/synthesis/linkages/detail/buildability.hpp"
#include "kinevo/synthesis/linkages/fourbar_synthesis.hpp"

namespace kinevo::synthesis {

std::string to_string(rssr_method m) {
  return m == rssr_method::ga ? "ga" : "householder";
}

rssr_method parse_rssr_method(const std::string& s) {
  if (s == "householder") return rssr_method::householder;
  if (s == "ga") return rssr_method::ga;
  throw io::option_error("method", fmt::format("'{}': use householder or ga", s));
}

void rssr_synthesis_options::validate() const {
  io::require_real("alpha4_deg", alpha4_deg, {-360.0, 360.0});
  io::require_real("a4", a4, {1.0 / max_length_scale, max_length_scale});
  ga.validate();
}

namespace {

// RMS of the structural errors in degrees (NaN when a point does not assemble).
double rms_deg(const std::vector<double>& errors) {
  double sum = 0.0;
  for (const double e : errors) sum += e * e;
  return std::sqrt(sum / static_cast<double>(errors.size())) / degree;
}

// Transmission angle over the table's input range (the generated circuit followed from the
// lowest input, as rssr_sweep), link ratio and the buildability warnings.
void assess_rssr_buildability(rssr_synthesis_result& r) {
  if (!r.dimensions) return;
  const rssr_dimensions& d = *r.dimensions;
  const auto [lo, hi] = std::minmax_element(r.psi.begin(), r.psi.end());
  const auto first = static_cast<std::size_t>(lo - r.psi.begin());
  const int samples = 181;
  const auto sweep = rssr_sweep(r.fit.k, d.alpha4, *lo, *hi, r.phi[first], samples);
  double mu_min = std::numeric_limits<double>::infinity(), mu_max = 0.0;
  for (int i = 0; i < samples; ++i) {
    const double psi = *lo + (*hi - *lo) * i / (samples - 1);
    const double mu = rssr_transmission_angle(r.fit.k, d, psi, sweep[static_cast<std::size_t>(i)]);
    if (!std::isfinite(mu)) {
      mu_min = mu_max = std::numeric_limits<double>::quiet_NaN();
      break;
    }
    mu_min = std::min(mu_min, mu);
    mu_max = std::max(mu_max, mu);
  }
  r.transmission_min_deg = mu_min / degree;
  r.transmission_max_deg = mu_max / degree;
  const std::array<double, 4> lengths{std::abs(d.a1), std::abs(d.a2), std::abs(d.a3),
                                      std::abs(d.a4)};
  const auto [shortest, longest] = std::minmax_element(lengths.begin(), lengths.end());
  r.link_ratio = *shortest > 0.0 ? *longest / *shortest : std::numeric_limits<double>::infinity();
  r.warnings = buildability_warnings(
      r.transmission_min_deg, r.transmission_max_deg, r.link_ratio,
      "the RSSR synthesis has no transmission-angle constraint: try another --alpha4, or a table "
      "that keeps the output away from its dead point",
      "--a4 scales every length alike; try another --alpha4 or table");
}

// A design that does not exist or does not reach the table's points is a failure.
void assess_rssr_status(rssr_synthesis_result& r) {
  if (!r.dimensions) {
    r.summary = core::summary::ended(
        core::termination::failed, "no_linkage",
        fmt::format("k defines no real RSSR linkage ({}); try another --alpha4 or --method ga",
                    r.dimension_problem));
    return;
  }
  const auto unassembled =
      std::count_if(r.errors.begin(), r.errors.end(), [](double e) { return std::isnan(e); });
  if (unassembled > 0) {
    r.summary = core::summary::ended(
        core::termination::failed, "not_assembled",
        fmt::format("the linkage found does not assemble at {} of the {} table points (see the "
                    "table); try another --alpha4, --method ga or a smaller table range",
                    unassembled, r.psi.size()));
  }
}

}  // namespace

rssr_synthesis_result synthesize_rssr(const function_table& t, const rssr_synthesis_options& o,
                                      const core::run_context& context) {
  o.validate();
  rssr_synthesis_result r;
  r.table = t.source;
  r.psi = t.input;
  r.phi = t.output;
  r.lines = t.lines;
  r.alpha4_deg = o.alpha4_deg;
  r.method = o.method;
  const double alpha4 = o.alpha4_deg * degree;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.method == rssr_method::ga) {
    const auto g = ga_rssr(t.input, t.output, alpha4, o.ga, context);
    r.fit = g.fit;
    r.evaluations = g.evaluations;
    r.ga_stage = rssr_synthesis_result::ga_stage_report{
        g.ga_fit, rms_deg(rssr_errors(g.ga_fit.k, alpha4, t.input, t.output)), g.ga_seconds,
        g.refined, g.refinement_iterations};
  } else {
    r.fit = rssr_least_squares(t.input, t.output, alpha4);
  }
  if (!r.has_answer()) {
    // The points do not determine k: nothing to analyse; the fit's summary says why.
    r.summary = r.fit.summary;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  r.errors = rssr_errors(r.fit.k, alpha4, t.input, t.output);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  try {
    r.dimensions = rssr_dimensions_from_k(r.fit.k, alpha4, o.a4);
  } catch (const io::option_error& e) {
    r.dimension_problem = e.what();
  }
  r.rms_error_deg = rms_deg(r.errors);
  assess_rssr_buildability(r);
  assess_rssr_status(r);
  return r;
}

std::string rssr_synthesis_result::brief_report() const {
  if (!has_answer()) return fmt::format("RSSR: {}\n", summary.brief_report());
  return fmt::format("RSSR: k = ({:.7f}), rms error {:.8f} deg, equation residual {:.3e}\n",
                     fmt::join(std::vector<double>(fit.k.data(), fit.k.data() + 6), ", "),
                     rms_error_deg, fit.residual_norm);
}

std::string rssr_synthesis_result::full_report() const {
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out, "RSSR function generator: {} ({} points), alpha4 = {} deg, {}\n", table,
                 psi.size(), alpha4_deg,
                 method == rssr_method::ga ? "island GA" : "least squares (Householder QR)");
  if (!has_answer()) {
    fmt::format_to(out, "status: {}\n", summary.brief_report());
    return s;
  }
  fmt::format_to(out, "k = ({:.7f})\n",
                 fmt::join(std::vector<double>(fit.k.data(), fit.k.data() + 6), ", "));
  if (dimensions) {
    const auto& d = *dimensions;
    fmt::format_to(out,
                   "output link a1 = {:.6f}, coupler a2 = {:.6f}, input link a3 = {:.6f}, axes "
                   "a4 = {:.6g}\n",
                   d.a1, d.a2, d.a3, d.a4);
    fmt::format_to(out,
                   "offsets: output {:.6f}, input {:.6f}; output dial zero phi0 = {:.4f} deg\n",
                   d.output_offset, d.input_offset, d.phi0 / degree);
  } else {
    fmt::format_to(out, "dimensions: none ({})\n", dimension_problem);
  }
  if (ga_stage) {
    // No time here: the text is compared across runs (threads vs MPI ranks); JSON has it.
    const auto& g = *ga_stage;
    fmt::format_to(out, "GA stage: {}, equation residual {:.3e}; Householder Gauss-Newton: {}\n",
                   std::isfinite(g.rms_error_deg)
                       ? fmt::format("rms error {:.8f} deg", g.rms_error_deg)
                       : std::string("does not assemble at every point"),
                   g.fit.residual_norm,
                   g.refined ? fmt::format("{} iteration(s)", g.refinement_iterations)
                             : std::string("off or no better"));
  }
  fmt::format_to(out, "rms error {:.8f} deg, equation residual {:.3e}\n", rms_error_deg,
                 fit.residual_norm);
  if (dimensions) {
    fmt::format_to(out,
                   "transmission angle {:.2f} .. {:.2f} deg over the table's range (90 deg less "
                   "the angle between the coupler and the output joint's velocity); link ratio "
                   "{:.3g}:1\n",
                   transmission_min_deg, transmission_max_deg, link_ratio);
  }
  fmt::format_to(out, "{:>6} {:>10} {:>10} {:>14}\n", "line", "psi", "phi", "error_deg");
  for (std::size_t i = 0; i < psi.size(); ++i) {
    fmt::format_to(out, "{:>6} {:>10.4f} {:>10.4f} {:>14.8f}\n", lines[i], psi[i] / degree,
                   phi[i] / degree, errors[i] / degree);
  }
  for (const auto& w : warnings) fmt::format_to(out, "warning: {}\n", w);
  if (dimensions && warnings.empty()) {
    fmt::format_to(out,
                   "buildable: transmission angle and link ratio within the documented rules\n");
  }
  return s;
}

nlohmann::json rssr_synthesis_result::to_json() const {
  nlohmann::json j;
  j["status"] = summary.status();
  if (!summary.usable()) j["status_message"] = summary.message;
  j["table"] = table;
  j["points"] = psi.size();
  j["alpha4_deg"] = alpha4_deg;
  j["method"] = to_string(method);
  if (method == rssr_method::ga) j["evaluations"] = evaluations;
  if (!has_answer()) return j;  // no k: the status and its message say why
  if (ga_stage) {
    j["ga_stage"] = {{"k", std::vector<double>(ga_stage->fit.k.data(), ga_stage->fit.k.data() + 6)},
                     {"residual_norm", ga_stage->fit.residual_norm},
                     {"rms_error_deg", json_number(ga_stage->rms_error_deg)},
                     {"seconds", ga_stage->seconds},
                     {"refined", ga_stage->refined},
                     {"refinement_iterations", ga_stage->refinement_iterations}};
  }
  j["k"] = std::vector<double>(fit.k.data(), fit.k.data() + 6);
  j["residual_norm"] = fit.residual_norm;
  j["errors_deg"] = json_numbers(in_degrees(errors));
  j["rms_error_deg"] = rms_error_deg;
  if (dimensions) {
    const auto& d = *dimensions;
    j["dimensions"] = {{"a1_output", d.a1},
                       {"a2_coupler", d.a2},
                       {"a3_input", d.a3},
                       {"a4_axis_distance", d.a4},
                       {"output_offset", d.output_offset},
                       {"input_offset", d.input_offset},
                       {"phi0_deg", d.phi0 / degree}};
  } else {
    j["dimensions"] = nullptr;
    j["dimension_problem"] = dimension_problem;
  }
  j["transmission_deg"] = {{"min", json_number(transmission_min_deg)},
                           {"max", json_number(transmission_max_deg)}};
  j["link_ratio"] = json_number(link_ratio);
  j["warnings"] = warnings;
  j["seconds"] = seconds;
  return j;
}

void rssr_synthesis_result::save_files(output_folder& folder) const {
  if (!has_answer()) return;  // no linkage: no tables or pictures
  io::csv_writer csv({"line", "psi_deg", "phi_deg", "error_deg", "equation_residual"});
  for (std::size_t i = 0; i < psi.size(); ++i) {
    csv.add_row({static_cast<double>(lines[i]), psi[i] / degree, phi[i] / degree,
                 errors[i] / degree, fit.residual(static_cast<Eigen::Index>(i))});
  }
  csv.save(folder.file("rssr_errors.csv"));
  // phi(psi) over the table's range, followed continuously from the first point.
  const auto [lo, hi] = std::minmax_element(psi.begin(), psi.end());
  const auto first = static_cast<std::size_t>(lo - psi.begin());
  const int samples = 181;
  const double alpha4 = alpha4_deg * degree;
  const auto sweep = rssr_sweep(fit.k, alpha4, *lo, *hi, phi[first], samples);
  std::vector<double> sweep_psi;
  io::csv_writer sc({"psi_deg", "generated_deg"});
  for (int i = 0; i < samples; ++i) {
    sweep_psi.push_back(*lo + (*hi - *lo) * i / (samples - 1));
    sc.add_row({sweep_psi.back() / degree, sweep[static_cast<std::size_t>(i)] / degree});
  }
  sc.save(folder.file("rssr_sweep.csv"));
  io::chart_options oc;
  oc.title = "RSSR output angle";
  oc.x_label = "input angle psi [deg]";
  oc.y_label = "output angle phi [deg]";
  io::save_line_chart(folder.file("rssr_output.svg"),
                      {{"generated", in_degrees(sweep_psi), in_degrees(sweep), "", false, ""},
                       {"table", in_degrees(psi), in_degrees(phi), "", true, ""}},
                      oc);
  io::chart_options ch;
  ch.title = "RSSR structural error";
  ch.x_label = "input angle psi [deg]";
  ch.y_label = "error [deg]";
  io::save_line_chart(
      folder.file("rssr_error.svg"),
      {{"prescribed - generated", in_degrees(psi), in_degrees(errors), "", true, ""}}, ch);
}

}  // namespace kinevo::synthesis
