#include "synthesis/ga_synthesis.hpp"

#include <gtest/gtest.h>

#include <numbers>

#include "synthesis/fourbar_analysis.hpp"
#include "synthesis/grashof.hpp"
#include "synthesis/input_tables.hpp"

namespace ks = kinevo::synthesis;

// The GA with the crank conditions as penalties: feasible, a real input crank, and an error no
// worse than the source document's printed penalty-method result (0.050684).
TEST(GaSynthesis, Table1InputCrank) {
  const auto t = ks::read_function_table(
      std::string(KINEVO_TEST_DATA) + "/synthesis/grashof_table1.csv", false, 3, "test");
  ks::crank_constrained_options o;
  ks::ga_synthesis_options g;
  g.islands.seed = 3;
  const auto r = ks::ga_crank_constrained(t.input, t.output, o, g);
  EXPECT_TRUE(r.feasible);
  EXPECT_TRUE(ks::input_crank(r.fit.k).crank);
  EXPECT_TRUE(ks::input_turns_fully(r.fit.k));
  EXPECT_LE(r.fit.residual_norm, 0.050684);
  // Same seed, same answer.
  const auto again = ks::ga_crank_constrained(t.input, t.output, o, g);
  EXPECT_EQ(again.fit.k, r.fit.k);
}

// The GA plus a Gauss-Newton polish finds one of the 17-pose minima (39.01 % or 60.81 %).
TEST(GaSynthesis, Dyad17) {
  const auto t =
      ks::read_pose_table(std::string(KINEVO_TEST_DATA) + "/synthesis/dyad_17.csv", false);
  ks::ga_synthesis_options g;
  const auto r = ks::ga_dyad(t.poses, g);
  const double e = r.solution.error;
  EXPECT_TRUE(std::abs(e - 0.3901) < 0.004 || std::abs(e - 0.6081) < 0.006) << e;
}

// The GA on the RSSR's linear least squares, whose optimum Householder QR gives exactly: the GA
// never beats it (a check of both) and gets well below the residual at the box centre k = 0;
// it is far from competitive here (see docs/synthesis.md).
TEST(GaSynthesis, RssrNeverBeatsLeastSquares) {
  const auto t = ks::read_function_table(std::string(KINEVO_TEST_DATA) + "/synthesis/rssr_19.csv",
                                         false, 6, "test");
  const double alpha4 = std::numbers::pi / 2;
  const auto exact = ks::rssr_least_squares(t.input, t.output, alpha4);
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  ks::rssr_system(t.input, t.output, alpha4, a, b);
  ks::ga_synthesis_options g;
  g.generations = 300;
  const auto r = ks::ga_rssr(t.input, t.output, alpha4, g);
  EXPECT_GE(r.fit.residual_norm, exact.residual_norm * (1 - 1e-12));
  EXPECT_LT(r.fit.residual_norm, 0.1 * b.norm()) << r.fit.k.transpose();
}

// With link-ratio and transmission bounds the feasible set is fragmented; four islands and the
// growing penalty weight reach the minimum the interior penalty method finds (an independent
// method), within 1e-3 in ||e||.
TEST(GaSynthesis, BoundedAgreesWithPenaltyMethod) {
  const auto t = ks::read_function_table(
      std::string(KINEVO_TEST_DATA) + "/synthesis/grashof_table1.csv", false, 3, "test");
  ks::crank_constrained_options o;
  o.max_link_ratio = 6.0;
  o.min_transmission = 30.0 * std::numbers::pi / 180.0;
  const auto penalty = ks::crank_constrained_least_squares(t.input, t.output, o);
  ks::ga_synthesis_options g;
  g.islands.islands = 4;
  g.islands.seed = 1;
  const auto r = ks::ga_crank_constrained(t.input, t.output, o, g);
  ASSERT_TRUE(r.feasible);
  EXPECT_TRUE(ks::input_crank(r.fit.k).crank);
  EXPECT_NEAR(r.fit.residual_norm, penalty.fit.residual_norm, 1e-3);
}
