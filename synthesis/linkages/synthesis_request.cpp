#include "kinevo/synthesis/linkages/synthesis_request.hpp"

#include <algorithm>

#include "kinevo/io/errors.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "kinevo/synthesis/linkages/path_table.hpp"

namespace kinevo::synthesis {

fourbar_synthesis_options fourbar_request::resolved() const {
  fourbar_synthesis_options o = options;
  o.method = parse_fourbar_method(method);
  o.crank = parse_crank_requirement(crank);
  o.output_rocker = parse_output_rocker(output);
  o.coupler = parse_coupler_requirement(coupler);
  o.validate();
  return o;
}

fourbar_synthesis_result fourbar_request::run(const core::run_context& context) const {
  (void)resolved();  // options are checked before the file is read
  return run(io::read_csv_table(table), context);
}

fourbar_synthesis_result fourbar_request::run(const io::csv_table& t,
                                              const core::run_context& context) const {
  const fourbar_synthesis_options o = resolved();
  return synthesize_fourbar(function_table_from(t, radians, 3, "the four-bar (k1, k2, k3)"), o,
                            context);
}

rssr_synthesis_options rssr_request::resolved() const {
  rssr_synthesis_options o = options;
  o.method = parse_rssr_method(method);
  o.validate();
  return o;
}

rssr_synthesis_result rssr_request::run(const core::run_context& context) const {
  (void)resolved();
  return run(io::read_csv_table(table), context);
}

rssr_synthesis_result rssr_request::run(const io::csv_table& t,
                                        const core::run_context& context) const {
  const rssr_synthesis_options o = resolved();
  return synthesize_rssr(function_table_from(t, radians, 6, "the RSSR (k1..k6)"), o, context);
}

dyad_guidance_options dyad_request::resolved() const {
  dyad_guidance_options o = options;
  o.method = parse_dyad_method(method);
  o.starts.seed = o.ga.islands.seed;  // one seed for both methods
  o.validate();
  return o;
}

dyad_guidance_result dyad_request::run(const core::run_context& context) const {
  (void)resolved();
  return run(io::read_csv_table(poses), context);
}

dyad_guidance_result dyad_request::run(const io::csv_table& t,
                                       const core::run_context& context) const {
  const dyad_guidance_options o = resolved();
  return synthesize_dyad(pose_table_from(t, radians), o, context);
}

path_synthesis_options path_request::resolved() const {
  path_synthesis_options o = options;
  path_problem_options& p = o.problem;
  if (!timing.empty()) p.timing = parse_path_timing(timing);
  if (!link_type.empty()) p.link_type = parse_path_link_type(link_type);
  p.closed = !path.empty() && parse_path_closed(path);
  if (!ga_preset.empty()) o.ga.ga = path_synthesis_options::path_ga_preset(ga_preset);
  if (population != 0) o.ga.ga.population = population;
  p.fixed_frame = !frame.empty() && parse_path_fixed_frame(frame);
  p.min_transmission_deg = min_transmission_deg;
  p.link_bounds = link_bounds;
  p.coupler_bounds = coupler_bounds;
  p.frame_bounds = frame_bounds;
  o.validate();
  return o;
}

path_synthesis_result path_request::run(const core::run_context& context) const {
  path_synthesis_options o = resolved();
  const path_table t = read_path_table(table, radians);
  apply_path_header(t, o.problem, given);
  if (std::find(given.begin(), given.end(), "evaluations") == given.end()) {
    if (const auto n = t.header_number("evaluations")) {
      o.evaluations = static_cast<long long>(*n);
      try {
        o.validate();
      } catch (const io::option_error& e) {
        if (e.field() != "evaluations") throw;
        throw io::input_error("# evaluations " + e.requirement());
      }
    }
  }
  return synthesize_path(t, o, context);
}

}  // namespace kinevo::synthesis
