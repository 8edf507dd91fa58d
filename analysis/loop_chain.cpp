#include "kinevo/analysis/loop_chain.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace kinevo::analysis {

namespace {

// An assembled state whose numbers overflowed is not reported as ok: status non_finite, naming
// the first quantity that is NaN or infinite.
void mark_non_finite(loop_state& s, const std::vector<std::string>& names) {
  if (s.status != loop_status::ok) return;
  for (std::size_t i = 0; i < s.outputs.size(); ++i) {
    const kinematic_value& v = s.outputs[i];
    const std::string name = i < names.size() ? names[i] : fmt::format("output {}", i + 1);
    for (const auto& [x, suffix] :
         {std::pair{v.value, ""}, std::pair{v.rate, "_dot"}, std::pair{v.accel, "_ddot"}}) {
      if (!std::isfinite(x)) {
        s.status = loop_status::non_finite;
        s.non_finite_quantity = name + suffix;
        return;
      }
    }
  }
}

}  // namespace

loop_analysis analyse_chain(const loop_chain& chain, const std::vector<motion_sample>& motion) {
  loop_analysis r;
  r.motion = motion;
  for (const chain_stage& st : chain.stages) {
    stage_result s;
    s.name = st.name;
    s.kind = st.loop->kind();
    s.description = st.loop->describe();
    s.input_name = st.loop->input_name();
    s.output_names = st.loop->output_names();
    s.output_is_angle = st.loop->output_is_angle();
    s.mobility = st.loop->mobility();
    s.states.reserve(motion.size());
    r.stages.push_back(std::move(s));
  }
  for (const motion_sample& m : motion) {
    motion_sample in = m;
    for (std::size_t k = 0; k < chain.stages.size(); ++k) {
      if (k > 0) {
        const loop_state& prev = r.stages[k - 1].states.back();
        if (prev.status != loop_status::ok) {
          r.stages[k].states.push_back({loop_status::no_input, {}, not_a_number, {}});
          continue;
        }
        const kinematic_value& out =
            prev.outputs[static_cast<std::size_t>(chain.stages[k].source_output)];
        in = {m.t, out.value + chain.stages[k].offset, out.rate, out.accel};
      }
      loop_state state = chain.stages[k].loop->state_at(in);
      mark_non_finite(state, r.stages[k].output_names);
      r.stages[k].states.push_back(std::move(state));
    }
  }
  return r;
}

loop_analysis analyse_loop(std::unique_ptr<planar_loop> loop,
                           const std::vector<motion_sample>& motion) {
  loop_chain chain;
  chain.stages.push_back({loop->kind(), std::move(loop), 0, 0.0});
  return analyse_chain(chain, motion);
}

}  // namespace kinevo::analysis
