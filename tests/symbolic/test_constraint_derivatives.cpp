// Phi_q, the velocity form and gamma from symbolic differentiation against finite differences.
#include <gtest/gtest.h>

#include <cmath>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/symbolic/detail/constraint_derivatives.hpp"
#include "kinevo/symbolic/detail/expression_context.hpp"

namespace kinevo::symbolic {
namespace {

double at(const GiNaC::ex& e, const GiNaC::exmap& m) {
  return GiNaC::ex_to<GiNaC::numeric>(GiNaC::evalf(e.subs(m))).to_double();
}

TEST(ConstraintDerivatives, HolonomicGammaMatchesFiniteDifferences) {
  expression_context ctx;
  std::vector<GiNaC::symbol> q{ctx.add_symbol("a", "t"), ctx.add_symbol("b", "t")};
  std::vector<GiNaC::symbol> qd{ctx.add_symbol("a_dot", "t"), ctx.add_symbol("b_dot", "t")};
  const GiNaC::symbol t = ctx.add_symbol("t", "t");
  // A rheonomic constraint mixing q and t.
  const GiNaC::ex phi = ctx.parse("2*cos(a) + 3*sin(b)*t - a*b^2 - sin(t)", "t");
  const auto row = holonomic_row(phi, q, qd, t);
  const std::vector<double> qv{0.3, -0.8}, qdv{1.1, 0.4};
  const double tv = 0.6;
  auto state = [&](double a, double b, double tt) {
    return GiNaC::exmap{{q[0], a}, {q[1], b}, {qd[0], qdv[0]}, {qd[1], qdv[1]}, {t, tt}};
  };
  const double h = 1e-5;
  // A = Phi_q by central differences of Phi.
  for (int j = 0; j < 2; ++j) {
    std::vector<double> p = qv, m = qv;
    p[static_cast<std::size_t>(j)] += h;
    m[static_cast<std::size_t>(j)] -= h;
    const double fd = (at(phi, state(p[0], p[1], tv)) - at(phi, state(m[0], m[1], tv))) / (2 * h);
    EXPECT_NEAR(at(row.jacobian_at(j), state(qv[0], qv[1], tv)), fd, 1e-8);
  }
  // Along q(tau) = q + qd tau (no acceleration), d/dtau C = -gamma.
  auto c_at = [&](double tau) {
    return at(row.velocity, state(qv[0] + qdv[0] * tau, qv[1] + qdv[1] * tau, tv + tau));
  };
  const double dc = (c_at(h) - c_at(-h)) / (2 * h);
  EXPECT_NEAR(at(row.rhs, state(qv[0], qv[1], tv)), -dc, 1e-7);
}

TEST(ConstraintDerivatives, NonholonomicRowsMustBeLinearInVelocities) {
  expression_context ctx;
  std::vector<GiNaC::symbol> q{ctx.add_symbol("x", "t"), ctx.add_symbol("th", "t")};
  std::vector<GiNaC::symbol> qd{ctx.add_symbol("x_dot", "t"), ctx.add_symbol("th_dot", "t")};
  const GiNaC::symbol t = ctx.add_symbol("t", "t");
  const auto row = nonholonomic_row(ctx.parse("2*th_dot - x_dot*cos(th)", "t"), q, qd, t, "f:3");
  EXPECT_TRUE((row.jacobian_at(1) - 2).is_zero());
  EXPECT_THROW(nonholonomic_row(ctx.parse("x_dot*th_dot", "t"), q, qd, t, "f:3"), io::input_error);
}

}  // namespace
}  // namespace kinevo::symbolic
