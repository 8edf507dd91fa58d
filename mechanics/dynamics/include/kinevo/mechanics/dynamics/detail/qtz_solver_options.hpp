// The options of the QTZ solver that the QTZ formulations run (orthogonalised, state space,
// reduced DAE): the formulation's rank tolerance. Here rather than beside qtz_solver, which
// sits below the formulations and does not know their options.
#pragma once

#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

direct_solver_options qtz_solver_options(const formulation_options& options);

}  // namespace kinevo::mechanics
