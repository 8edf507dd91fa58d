// A chain of single-loop analysers and its input motion, read from a small TOML file
// (docs/loop-analysis.md, examples/shovel_actuator.toml):
//   [motion]  expression = "3 + 0.5*sin(pi*t)^2", t_start, t_end, dt
//   [[loop]]  name, type = "rrrr" | "rprr" | "rrrp", the type's dimensions (a1, a2, ...),
//             branch = 1 | -1; from the second loop on: input = "<output of the previous loop>"
//             and offset_deg (added to that angle, default 0); rrrr also coupler_r and
//             coupler_alpha_deg.
#pragma once

#include <filesystem>
#include <string>

#include "kinevo/analysis/loop_chain.hpp"
#include "kinevo/analysis/loop_motion.hpp"

namespace kinevo::analysis {

struct chain_file {
  loop_chain chain;
  expression_motion motion;
  // Where the motion's expression is, for sample_motion()'s messages:
  // "<file>:<line>: [motion] field 'expression'".
  std::string motion_where;
};

// Throws io::input_error naming the file, the line and the field for anything unusable.
chain_file read_chain_file(const std::filesystem::path& path);
chain_file parse_chain_file(const std::string& text, const std::string& source);

}  // namespace kinevo::analysis
