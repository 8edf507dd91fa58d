// Doubles to GiNaC numbers and back without CLN's traps. CLN's double-floats have no NaN,
// infinity or subnormals: GiNaC::numeric(NaN) throws "floating point NaN occurred" (which
// escaped from model loading as exit 1 with no file or line), numeric(1e-310) throws
// "floating point underflow" (a valid mass was refused), and to_double() of 1e-310 silently
// returns 0.
#pragma once

#include <ginac/ginac.h>

namespace kinevo::symbolic {

// The number v, which must be finite (throws std::domain_error otherwise: callers check first
// and name the field), as the exact rational it is (0.1 is 3602879701896397 / 2^55): GiNaC's
// arithmetic on floating-point coefficients is rounded in the order of its address-dependent
// hash values, so a double kept as a float made the compiled model differ from process to
// process (docs/reliability.md, process-independent results).
GiNaC::numeric exact_number(double v);

// The double nearest to the real number n, subnormals included (to within one unit in the last
// place there); +-inf beyond the double range; 0 for 0 or below half the smallest subnormal;
// NaN when n is not real.
double nearest_double(const GiNaC::numeric& n);

// The form of a constant expression e that is rounded to a double: e itself when it is an
// exact number (rounded once, by nearest_double), else its floating-point value (evalf; for
// named constants and floating-point powers, which evalf would otherwise round to GiNaC's
// working precision before nearest_double rounds again). May throw what evalf throws.
GiNaC::ex value_to_round(const GiNaC::ex& e);

// The exact rational value of a real number n: floating-point numbers (double or longer) become
// the rational they equal, rationals are returned as they are. GiNaC compares numbers by exact
// value across representations (2 equals 2.0, x^3 equals x^3.0, with equal hash values), so a
// table keyed by GiNaC equality may return what was stored for either form: anything derived
// from a number that must not depend on which form came first has to derive it from this.
// Throws std::invalid_argument when n is not real.
GiNaC::numeric exact_value(const GiNaC::numeric& n);

// True for the exceptions CLN throws from floating-point arithmetic (overflow, underflow, NaN,
// division by zero), which GiNaC lets through while it evaluates constant subexpressions.
bool is_floating_point_trap(const std::exception& e);

}  // namespace kinevo::symbolic
