// Coupled single-loop analysers: the output angle of one loop, with its rate and acceleration
// and an optional constant offset, is the input angle of the next (Angeles et al., Diseño
// cinemático de maquinaria, paper "Software para el análisis digital de sistemas mecánicos":
// the shovel actuator couples RESC12 to RESC11 this way). A single loop is a chain of one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kinevo/analysis/loop_analysis.hpp"
#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis {

struct chain_stage {
  std::string name;
  std::unique_ptr<planar_loop> loop;
  // Which output of the previous stage drives this one (ignored for the first stage, which the
  // motion drives), and the constant added to it (rad).
  int source_output = 0;
  double offset = 0.0;
};

struct loop_chain {
  std::vector<chain_stage> stages;
};

// Analyses every motion sample through the chain. A stage whose driving stage has no rates
// there (not assembled, or at a dead point) gets status no_input at that sample.
loop_analysis analyse_chain(const loop_chain& chain, const std::vector<motion_sample>& motion);

// One loop driven by the motion directly.
loop_analysis analyse_loop(std::unique_ptr<planar_loop> loop,
                           const std::vector<motion_sample>& motion);

}  // namespace kinevo::analysis
