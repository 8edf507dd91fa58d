#include "kinevo/symbolic/detail/exact_numbers.hpp"
#include "kinevo/io/errors.hpp"

#include <cln/exception.h>
#include <cln/float.h>
#include <cln/rational.h>
#include <cln/real.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kinevo::symbolic {

GiNaC::numeric exact_number(double v) {
  if (!std::isfinite(v)) throw io::option_error("v", "must be finite (exact_number)");
  if (v == 0.0 || std::abs(v) >= DBL_MIN) return exact_value(GiNaC::numeric(v));
  // Subnormal: v = mantissa * 2^(exponent - 53) with an integer mantissa below 2^53.
  int exponent = 0;
  const double fraction = std::frexp(v, &exponent);
  const auto mantissa = static_cast<long>(std::ldexp(fraction, 53));
  return GiNaC::numeric(mantissa) * GiNaC::numeric(2).power(exponent - 53);
}

double nearest_double(const GiNaC::numeric& n) {
  if (!n.is_real()) return std::numeric_limits<double>::quiet_NaN();
  if (n.is_zero()) return 0.0;
  const double d = n.to_double();  // CLN: 0 below the normal range, inf above it
  if (d != 0.0) return d;
  // Below the normal range: scaled by 2^1074 the value is below 2^52, where doubles are
  // exact to 1/2; ldexp then rounds to the subnormal grid.
  const GiNaC::numeric scaled = n * GiNaC::numeric(2).power(1074);
  return std::ldexp(scaled.to_double(), -1074);
}

GiNaC::ex value_to_round(const GiNaC::ex& e) {
  if (GiNaC::is_a<GiNaC::numeric>(e) && GiNaC::ex_to<GiNaC::numeric>(e).is_rational()) return e;
  return GiNaC::evalf(e);
}

GiNaC::numeric exact_value(const GiNaC::numeric& n) {
  if (!n.is_real()) throw io::option_error("n", "must be real (exact_value)");
  if (n.is_rational()) return n;
  return GiNaC::numeric(cln::rational(cln::the<cln::cl_R>(n.to_cl_N())));
}

bool is_floating_point_trap(const std::exception& e) {
  return dynamic_cast<const cln::floating_point_exception*>(&e) != nullptr ||
         dynamic_cast<const cln::division_by_0_exception*>(&e) != nullptr;
}

}  // namespace kinevo::symbolic
