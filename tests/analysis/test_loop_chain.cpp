// Coupled loops and input motions: the shovel actuator (RESC12 driving RESC11, Angeles et al.,
// Diseño cinemático de maquinaria, paper "Software para el análisis digital de sistemas
// mecánicos") against a direct evaluation by circle intersection and finite differences; the
// input s(t) = 3 + 0.5 sin^2(pi t) against its exact table; chain file errors.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>

#include "kinevo/analysis/loop_chain.hpp"
#include "kinevo/analysis/loop_chain_file.hpp"
#include "kinevo/analysis/loop_motion.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::analysis {
namespace {

using std::numbers::pi;

// The shovel's bucket angle phi(t) straight from the geometry of examples/shovel_actuator.toml:
// the lever angle from the cylinder triangle, the output pin as the intersection of two circles.
double shovel_phi(double t) {
  const double s = 3.0 + 0.5 * std::pow(std::sin(pi * t), 2);
  const double psi = std::acos((s * s - 2.5 * 2.5 - 1.2 * 1.2) / (2 * 2.5 * 1.2));
  const double lever = psi + 20.0 * pi / 180.0;
  const std::complex<double> b = 0.8 * std::polar(1.0, lever), d(1.0, 0.0);
  const double r1 = 1.05, r2 = 0.9, l = std::abs(d - b);
  const double x = (l * l + r1 * r1 - r2 * r2) / (2 * l);  // along the diagonal from b
  const std::complex<double> u = (d - b) / l;
  const std::complex<double> c = b + u * std::complex<double>(x, std::sqrt(r1 * r1 - x * x));
  return std::arg(c - d);
}

TEST(LoopChain, ShovelMatchesADirectEvaluation) {
  const chain_file f = read_chain_file(KINEVO_EXAMPLES + "/shovel_actuator.toml");
  ASSERT_EQ(f.chain.stages.size(), 2u);
  const auto r = analyse_chain(f.chain, sample_motion(f.motion, "motion"));
  ASSERT_TRUE(r.all_assembled());
  ASSERT_EQ(r.motion.size(), 101u);
  constexpr double h = 1e-5;
  for (std::size_t i = 0; i < r.motion.size(); i += 5) {
    const double t = r.motion[i].t;
    const kinematic_value& phi = r.stages[1].states[i].outputs[0];
    EXPECT_NEAR(phi.value, shovel_phi(t), 1e-12) << t;
    const double rate = (shovel_phi(t + h) - shovel_phi(t - h)) / (2 * h);
    const double accel = (shovel_phi(t + h) - 2 * shovel_phi(t) + shovel_phi(t - h)) / (h * h);
    EXPECT_NEAR(phi.rate, rate, 1e-7) << t;
    EXPECT_NEAR(phi.accel, accel, 2e-4) << t;
  }
}

TEST(LoopMotion, ShovelInputDerivativesAreExact) {
  const io::csv_table table = io::read_csv_table(KINEVO_TEST_DATA + "/analysis/shovel_input.csv");
  expression_motion m{"3 + 0.5*sin(pi*t)^2", {0.0, 1.0, 0.05}};
  const auto samples = sample_motion(m, "test");
  ASSERT_EQ(samples.size(), table.rows.size());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    EXPECT_NEAR(samples[i].t, table.rows[i][0], 1e-12);
    EXPECT_NEAR(samples[i].value, table.rows[i][1], 1e-9);  // the table's 9 decimals
    EXPECT_NEAR(samples[i].rate, table.rows[i][2], 1e-9);
    EXPECT_NEAR(samples[i].accel, table.rows[i][3], 1e-9);
    EXPECT_NEAR(samples[i].accel, pi * pi * std::cos(2 * pi * samples[i].t), 1e-12);
  }
  EXPECT_EQ(samples.back().t, 1.0);  // the grid ends exactly at t_end
}

TEST(LoopMotion, SweepAndBadExpressions) {
  const auto s = sample_motion(sweep_motion{0.0, 1.0, 0.3, 2.0});
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s.back().value, 1.0);
  EXPECT_DOUBLE_EQ(s[1].t, 0.15);
  EXPECT_EQ(s[1].accel, 0.0);
  EXPECT_THROW(sample_motion(expression_motion{"sin(x)", {}}, "here"), io::input_error);
  EXPECT_THROW(sample_motion(expression_motion{"1/(t - 0.5)", {0.0, 1.0, 0.25}}, "here"),
               io::input_error);
  EXPECT_THROW(sample_motion(sweep_motion{0.0, 1.0, 0.0, 1.0}), io::option_error);
}

TEST(LoopChain, FileErrorsNameFileLineAndField) {
  const std::string head = "[motion]\nexpression = \"t\"\nt_end = 1.0\ndt = 0.1\n";
  const auto message = [&](const std::string& loops) {
    try {
      parse_chain_file(head + loops, "c.toml");
    } catch (const io::input_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("[[loop]]\nname = \"x\"\ntype = \"rrrr\"\na1 = 1\na2 = 1\na3 = 1\n"),
            "c.toml:5: [[loop]] 'x' field 'a4': missing");
  EXPECT_EQ(message("[[loop]]\nname = \"x\"\ntype = \"rprr\"\na1 = 1\na2 = -2\n"),
            "c.toml:9: [[loop]] 'x' field 'a2': must be finite and > 0 (got -2)");
  EXPECT_NE(message("[[loop]]\nname = \"x\"\ntype = \"rprr\"\na1 = 1\na2 = 2\n[[loop]]\nname = "
                    "\"y\"\ntype = \"rrrp\"\na1 = 0\na2 = 1\na3 = 2\ninput = \"phi\"\n")
                .find("c.toml:16: [[loop]] 'y' field 'input': 'phi' is not an angle output of loop "
                      "'x'"),
            std::string::npos);
  EXPECT_EQ(message("[[loop]]\nname = \"x\"\ntype = \"rprr\"\na1 = 1\na2 = 2\nsize = 3\n"),
            "c.toml:10: [[loop]]: unknown field 'size' (expected one of: name, type, input, "
            "offset_deg, a1, a2, branch)");
}

}  // namespace
}  // namespace kinevo::analysis
