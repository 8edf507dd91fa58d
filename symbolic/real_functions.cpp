#include "kinevo/symbolic/detail/real_functions.hpp"

namespace kinevo::symbolic {

namespace {

bool is_real_number(const GiNaC::ex& x) {
  return GiNaC::is_exactly_a<GiNaC::numeric>(x) && GiNaC::ex_to<GiNaC::numeric>(x).is_real();
}

GiNaC::ex real_abs_eval(const GiNaC::ex& x) {
  if (is_real_number(x)) return GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(x));
  return real_abs(x).hold();
}
GiNaC::ex real_abs_evalf(const GiNaC::ex& x) {
  if (is_real_number(x)) return GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(x));
  return real_abs(x).hold();
}
GiNaC::ex real_abs_derivative(const GiNaC::ex& x, unsigned /*parameter*/) {
  return real_sign(x);
}

GiNaC::ex real_sign_eval(const GiNaC::ex& x) {
  if (is_real_number(x)) return GiNaC::csgn(GiNaC::ex_to<GiNaC::numeric>(x));
  return real_sign(x).hold();
}
GiNaC::ex real_sign_evalf(const GiNaC::ex& x) {
  return real_sign_eval(x);
}
GiNaC::ex zero_derivative(const GiNaC::ex& /*x*/, unsigned /*parameter*/) {
  return 0;
}

GiNaC::ex real_step_eval(const GiNaC::ex& x) {
  if (is_real_number(x)) return GiNaC::step(GiNaC::ex_to<GiNaC::numeric>(x));
  return real_step(x).hold();
}
GiNaC::ex real_step_evalf(const GiNaC::ex& x) {
  return real_step_eval(x);
}

// Printed as written in model files, so that messages show abs(x), not real_abs(x).
void print_abs(const GiNaC::ex& x, const GiNaC::print_context& c) {
  c.s << "abs(" << x << ")";
}
void print_sign(const GiNaC::ex& x, const GiNaC::print_context& c) {
  c.s << "sign(" << x << ")";
}
void print_step(const GiNaC::ex& x, const GiNaC::print_context& c) {
  c.s << "step(" << x << ")";
}

}  // namespace

REGISTER_FUNCTION(real_abs, eval_func(real_abs_eval)
                                .evalf_func(real_abs_evalf)
                                .derivative_func(real_abs_derivative)
                                .print_func<GiNaC::print_context>(print_abs))
REGISTER_FUNCTION(real_sign, eval_func(real_sign_eval)
                                 .evalf_func(real_sign_evalf)
                                 .derivative_func(zero_derivative)
                                 .print_func<GiNaC::print_context>(print_sign))
REGISTER_FUNCTION(real_step, eval_func(real_step_eval)
                                 .evalf_func(real_step_evalf)
                                 .derivative_func(zero_derivative)
                                 .print_func<GiNaC::print_context>(print_step))

}  // namespace kinevo::symbolic
