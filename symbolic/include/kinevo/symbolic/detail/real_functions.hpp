// abs, sign and step of a real argument, with the derivatives a model needs. GiNaC's own abs
// is complex: its derivative is written with conjugate(), which the tape cannot compile (a
// constraint using abs(x) failed to load with "function 'conjugate' cannot be compiled").
// Here, for real x:
//   d/dx abs(x) = sign(x),   d/dx sign(x) = 0,   d/dx step(x) = 0   (for x != 0)
// At x = 0 abs has no derivative; sign(0) = 0 is used, as a subgradient. step(0) = 1/2.
// Model and problem expressions parse abs, sign and step to these (expression_context).
#pragma once

#include <ginac/ginac.h>

namespace kinevo::symbolic {

DECLARE_FUNCTION_1P(real_abs)
DECLARE_FUNCTION_1P(real_sign)
DECLARE_FUNCTION_1P(real_step)

}  // namespace kinevo::symbolic
