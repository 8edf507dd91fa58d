#include "kinevo/analysis/loop_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/core/numbers.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/json_number.hpp"
#include "kinevo/io/svg_plot.hpp"

namespace kinevo::analysis {

namespace {

constexpr std::size_t max_listed_failures = 100;

// Transmission angles folded to [0, 180] deg (the sense of the angle does not matter).
struct transmission_range {
  double min_deg = std::numeric_limits<double>::infinity();
  double max_deg = -std::numeric_limits<double>::infinity();
  double t_min = not_a_number, t_max = not_a_number;
};

transmission_range transmission_of(const stage_result& s, const std::vector<motion_sample>& m) {
  transmission_range r;
  for (std::size_t i = 0; i < s.states.size(); ++i) {
    if (s.states[i].status != loop_status::ok) continue;
    const double mu = std::acos(std::cos(s.states[i].transmission_angle)) / degree;
    if (mu < r.min_deg) r.min_deg = mu, r.t_min = m[i].t;
    if (mu > r.max_deg) r.max_deg = mu, r.t_max = m[i].t;
  }
  return r;
}

std::size_t count_status(const stage_result& s, loop_status status) {
  return static_cast<std::size_t>(std::count_if(
      s.states.begin(), s.states.end(), [&](const loop_state& x) { return x.status == status; }));
}

std::string column_prefix(const loop_analysis& r, const stage_result& s) {
  return r.stages.size() > 1 ? fmt::format("{}.", s.name) : std::string();
}

}  // namespace

core::summary loop_analysis::summary() const {
  const auto failed = failures();
  if (failed.empty()) return {};
  std::string list;
  for (std::size_t k = 0; k < failed.size() && k < 5; ++k) {
    list += fmt::format("{}t = {:g} ({} {}{})", k ? ", " : "", failed[k].t, failed[k].stage,
                        to_string(failed[k].status),
                        failed[k].quantity.empty() ? "" : ": " + failed[k].quantity);
  }
  return core::summary::ended(core::termination::failed, "",
                              fmt::format("{} of {} points not analysed: {}{}", failed.size(),
                                          motion.size(), list, failed.size() > 5 ? ", ..." : ""));
}

std::vector<loop_failure> loop_analysis::failures() const {
  std::vector<loop_failure> f;
  for (std::size_t i = 0; i < motion.size(); ++i) {
    for (const stage_result& s : stages) {
      if (s.states[i].status == loop_status::ok) continue;
      f.push_back({i, motion[i].t, s.name, s.states[i].status, s.states[i].non_finite_quantity});
      break;
    }
  }
  return f;
}

std::string loop_analysis::full_report() const {
  std::string out;
  const auto failed = failures();
  for (const stage_result& s : stages) {
    out += fmt::format("{}: {}\n  mobility: {}\n", s.name, s.description, s.mobility.description);
    const auto mu = transmission_of(s, motion);
    if (std::isfinite(mu.min_deg)) {
      out += fmt::format(
          "  transmission angle: min {:.4f} deg at t = {:g}, max {:.4f} deg at t = {:g}\n",
          mu.min_deg, mu.t_min, mu.max_deg, mu.t_max);
    }
  }
  if (!motion.empty()) {
    out += fmt::format("{} points, t = {:g} .. {:g}; {} assembled\n", motion.size(),
                       motion.front().t, motion.back().t, motion.size() - failed.size());
  }
  for (std::size_t k = 0; k < failed.size() && k < 10; ++k) {
    out += fmt::format("  t = {:g}: {} {}\n", failed[k].t, failed[k].stage,
                       to_string(failed[k].status));
  }
  if (failed.size() > 10) out += fmt::format("  ... and {} more\n", failed.size() - 10);
  return out;
}

nlohmann::json loop_analysis::to_json() const {
  nlohmann::json j;
  const auto failed = failures();
  j["points"] = motion.size();
  j["assembled"] = motion.size() - failed.size();
  j["failed"] = failed.size();
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t k = 0; k < failed.size() && k < max_listed_failures; ++k) {
    nlohmann::json f{
        {"t", failed[k].t}, {"stage", failed[k].stage}, {"status", to_string(failed[k].status)}};
    if (!failed[k].quantity.empty()) f["quantity"] = failed[k].quantity;
    list.push_back(f);
  }
  j["failures"] = list;
  j["stages"] = nlohmann::json::array();
  for (const stage_result& s : stages) {
    const auto mu = transmission_of(s, motion);
    nlohmann::json limits = nlohmann::json::array();
    for (const double l : s.mobility.limits) limits.push_back(l);
    j["stages"].push_back(
        {{"name", s.name},
         {"kind", s.kind},
         {"description", s.description},
         {"mobility",
          {{"kind", s.mobility.kind}, {"description", s.mobility.description}, {"limits", limits}}},
         {"dead_points", count_status(s, loop_status::dead_point)},
         {"out_of_range", count_status(s, loop_status::out_of_range)},
         {"min_transmission_deg", io::json_number(mu.min_deg)},
         {"max_transmission_deg", io::json_number(mu.max_deg)}});
  }
  if (!stages.empty() && !motion.empty()) {
    const stage_result& last = stages.back();
    const loop_state& st = last.states.back();
    nlohmann::json fin{{"t", motion.back().t}, {"status", to_string(st.status)}};
    for (std::size_t o = 0; o < st.outputs.size(); ++o) {
      fin[last.output_names[o]] = {io::json_number(st.outputs[o].value),
                                   io::json_number(st.outputs[o].rate),
                                   io::json_number(st.outputs[o].accel)};
    }
    j["final"] = fin;
  }
  return j;
}

std::string loop_analysis::csv() const {
  std::vector<std::string> columns{"t", "input", "input_rate", "input_accel"};
  for (const stage_result& s : stages) {
    const std::string p = column_prefix(*this, s);
    for (const std::string& n : s.output_names) {
      for (const char* suffix : {"", "_dot", "_ddot"}) {
        columns.push_back(fmt::format("{}{}{}", p, n, suffix));
      }
    }
    columns.push_back(fmt::format("{}mu", p));
    columns.push_back(fmt::format("{}status", p));
  }
  io::csv_writer w(columns);
  for (std::size_t i = 0; i < motion.size(); ++i) {
    std::vector<double> row{motion[i].t, motion[i].value, motion[i].rate, motion[i].accel};
    for (const stage_result& s : stages) {
      const loop_state& st = s.states[i];
      for (std::size_t o = 0; o < s.output_names.size(); ++o) {
        const kinematic_value v = o < st.outputs.size() ? st.outputs[o] : kinematic_value{};
        row.insert(row.end(), {v.value, v.rate, v.accel});
      }
      row.push_back(st.transmission_angle);
      row.push_back(static_cast<double>(st.status));
    }
    w.add_row(row);
  }
  return w.str();
}

std::string loop_analysis::svg() const {
  std::vector<io::chart_series> series;
  std::vector<double> t;
  for (const motion_sample& m : motion) t.push_back(m.t);
  const auto add = [&](const std::string& label, auto value_of) {
    io::chart_series c{label, t, {}, "", false, ""};
    for (std::size_t i = 0; i < motion.size(); ++i) c.y.push_back(value_of(i));
    series.push_back(std::move(c));
  };
  for (const stage_result& s : stages) {
    const std::string p = column_prefix(*this, s);
    for (std::size_t o = 0; o < s.output_names.size(); ++o) {
      if (!s.output_is_angle[o]) continue;
      add(fmt::format("{}{}", p, s.output_names[o]), [&](std::size_t i) {
        const auto& st = s.states[i];
        return o < st.outputs.size() ? st.outputs[o].value / degree : not_a_number;
      });
    }
    add(fmt::format("{}mu", p),
        [&](std::size_t i) { return s.states[i].transmission_angle / degree; });
  }
  // Built whole: GCC 12's -Wrestrict misfires on assigning a literal to one of its strings here.
  const io::chart_options opt{
      stages.size() == 1 ? stages.front().description : std::string("coupled loops"),
      std::string("t [s]"), std::string("angle [deg]")};
  return io::line_chart_svg(series, opt);
}

}  // namespace kinevo::analysis
