// Chain description files (TOML): the DH rows of a closed chain driven at one joint, or of an
// open chain guiding two points, with the input motion (a range of the input, or an expression
// in t that symbolic/ differentiates), the start guess and the solver settings. Format and
// examples: docs/spatial-chains.md, examples/chain_*.toml. Every error names the file, the line
// and the field (io::input_error).
#pragma once

#include <Eigen/Dense>
#include <filesystem>
#include <string>
#include <vector>

#include "kinevo/analysis/chain_path.hpp"
#include "kinevo/analysis/closed_chain.hpp"
#include "kinevo/analysis/guidance_chain.hpp"

namespace kinevo::analysis {

enum class chain_kind { closure, guidance };

struct chain_description {
  chain_kind kind = chain_kind::closure;
  closed_chain closure;                  // kind closure
  std::vector<input_sample> inputs;      // kind closure
  guidance_chain guidance;               // kind guidance
  std::vector<guidance_target> targets;  // kind guidance
  Eigen::VectorXd start;                 // all joints, rad or length
  chain_newton_options options;
};

// Parses the text of a chain file; `source` names it in messages.
chain_description parse_chain_description(const std::string& text, const std::string& source);
chain_description read_chain_description(const std::filesystem::path& path);

// Runs the analyser the description asks for.
chain_path_result analyze_chain(const chain_description& d);

}  // namespace kinevo::analysis
