// The compiled evaluator against finite differences of its own Phi and velocity form, for a
// components model (bodies, revolute joints, drivers) and the chain generator.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {
namespace {

void check_derivatives(const model& m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::VectorXd q = m.initial_positions(), qd(m.coordinates());
  for (int i = 0; i < m.coordinates(); ++i) {
    q[i] += 0.1 * u(rng);
    qd[i] = u(rng);
  }
  const double t = 0.3, h = 1e-6;
  const constrained_system s = m.evaluate(q, qd, t);
  const int hrows = m.holonomic_constraints();
  // Holonomic rows of A are Phi_q.
  for (int j = 0; j < m.coordinates(); ++j) {
    Eigen::VectorXd qp = q, qm = q;
    qp[j] += h;
    qm[j] -= h;
    const Eigen::VectorXd fd =
        (m.position_violation(qp, t) - m.position_violation(qm, t)) / (2 * h);
    for (int r = 0; r < hrows; ++r) EXPECT_NEAR(s.jacobian(r, j), fd[r], 1e-6) << r << "," << j;
  }
  EXPECT_LT((m.position_jacobian(q, t) - s.jacobian.topRows(hrows)).cwiseAbs().maxCoeff(), 1e-14);
  // b = -d/dtau C(q + qd tau, qd, t + tau).
  const Eigen::VectorXd cp = m.velocity_violation(q + h * qd, qd, t + h);
  const Eigen::VectorXd cm = m.velocity_violation(q - h * qd, qd, t - h);
  const Eigen::VectorXd fd = -(cp - cm) / (2 * h);
  EXPECT_LT((s.rhs - fd).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(ModelEvaluation, HaugFourBarDerivativesMatchFiniteDifferences) {
  check_derivatives(load_model(std::string(KINEVO_EXAMPLES) + "/haug_fourbar.toml"), 3);
}

TEST(ModelEvaluation, ChainDerivativesAndSparsity) {
  chain_options c;
  c.links = 6;
  const model m = load_model_from_string(chain_model_text(c), "chain.toml");
  EXPECT_EQ(m.coordinates(), 12);
  EXPECT_EQ(m.constraints(), 6);
  EXPECT_EQ(m.jacobian_pattern().size(), 2u + 4u * 5u);
  check_derivatives(m, 5);
  EXPECT_THROW((void)chain_model_text(chain_options{0}), std::invalid_argument);
}

TEST(ModelEvaluation, EnergyOfThePendulumAndUndefinedWithDampers) {
  const model m = load_model(std::string(KINEVO_EXAMPLES) + "/pendulum.toml");
  Eigen::VectorXd q(2), qd(2);
  q << 0.6, -0.8;
  qd << 0.8, 0.6;
  // 1/2 m v^2 + m g y with m = 1, g = 9.81.
  EXPECT_NEAR(*m.energy(q, qd, 0.0), 0.5 - 9.81 * 0.8, 1e-14);
  const model d = load_model_from_string(R"(
[[particle]]
name = "p"
mass = 2.0
position = [1.0, 0.0]
[[force]]
type = "spring_damper"
body_i = "ground"
body_j = "p"
stiffness = 10.0
damping = 0.5
rest_length = 0.5
)",
                                         "damped.toml");
  EXPECT_FALSE(d.has_energy());
  const constrained_system s = d.evaluate(d.initial_positions(), d.initial_velocities(), 0.0);
  // Spring stretched by 0.5 pulls p towards the origin with 10 * 0.5 = 5 N.
  EXPECT_NEAR(s.force[0], -5.0, 1e-14);
  EXPECT_NEAR(s.force[1], 0.0, 1e-14);
}

TEST(ChainOptions, ValidateNamesTheFieldOfEveryBadValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NO_THROW(chain_options{}.validate());
  const std::vector<std::pair<std::string, std::function<void(chain_options&)>>> cases{
      {"links", [](chain_options& o) { o.links = 0; }},
      {"length", [&](chain_options& o) { o.length = inf; }},
      {"mass", [](chain_options& o) { o.mass = -1.0; }},
      {"gravity", [&](chain_options& o) { o.gravity = nan; }},
      {"angle_deg", [&](chain_options& o) { o.angle_deg = inf; }}};
  for (const auto& [field, spoil] : cases) {
    chain_options o;
    spoil(o);
    // chain_model_text validates: a NaN gravity must not reach a model file.
    try {
      (void)chain_model_text(o);
      ADD_FAILURE() << field << " accepted";
    } catch (const io::option_error& e) {
      EXPECT_EQ(e.field(), field);
      EXPECT_NE(std::string(e.what()).find(field + " must be"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace kinevo::mechanics
