// The compact system (constrained_system::compact): M and A by their structurally non-zero
// entries, which GIGSP's sparse path reads instead of the dense n x n M and m x n A (a 1,000-link
// spatial chain's simulation: 761 MB peak before, docs/reliability.md). Its dense form must be the
// dense evaluation exactly, and GIGSP must give the same answer, bit for bit, from either: on
// every example model, on planar and spatial chains, on a chain with redundant rows (the sparse
// factor refuses them, the dense sweep takes over) and on a NaN row (the same refusal message).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <string>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Bit for bit: the same numbers, NaN where NaN (EXPECT_EQ on doubles is exact).
void expect_same_vector(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                        const std::string& what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    if (std::isnan(b[i])) {
      EXPECT_TRUE(std::isnan(a[i])) << what << " entry " << i;
    } else {
      EXPECT_EQ(a[i], b[i]) << what << " entry " << i;
    }
  }
}

// The compact evaluation against the dense one at a moving state, and GIGSP (the default
// options, which read the compact form) on both.
void expect_compact_equals_dense(const model& m, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& qd, double t, const std::string& what) {
  constrained_system dense, compact;
  m.evaluate(q, qd, t, dense);
  m.evaluate(q, qd, t, compact, /*compact=*/true);
  ASSERT_TRUE(compact.compact) << what;
  EXPECT_EQ(compact.mass.size(), 0) << what;
  EXPECT_EQ(compact.jacobian.size(), 0) << what;
  const constrained_system expanded = dense_system(compact);
  EXPECT_FALSE(expanded.compact);
  EXPECT_EQ(expanded.mass, dense.mass) << what;
  EXPECT_EQ(expanded.jacobian, dense.jacobian) << what;
  EXPECT_EQ(expanded.force, dense.force) << what;
  EXPECT_EQ(expanded.rhs, dense.rhs) << what;

  const auto solver = make_solver("gigsp", solver_options{});
  ASSERT_TRUE(solver->reads_compact());
  const acceleration_result a = solver->solve(compact);
  const acceleration_result b = make_solver("gigsp", solver_options{})->solve(dense);
  EXPECT_EQ(a.status, b.status) << what << ": " << a.message << " / " << b.message;
  EXPECT_EQ(a.message, b.message) << what;
  EXPECT_EQ(a.rank, b.rank) << what;
  EXPECT_EQ(a.redundant, b.redundant) << what;
  expect_same_vector(a.acceleration, b.acceleration, what + " acceleration");
  expect_same_vector(a.constraint_force, b.constraint_force, what + " constraint force");
  // The other solvers do not read it.
  for (const std::string name : {"lm", "uk", "sl", "kv", "qtz"}) {
    EXPECT_FALSE(make_solver(name, solver_options{})->reads_compact()) << name;
  }
}

void at_a_moving_state(const model& m, const std::string& what) {
  const Eigen::VectorXd qd =
      m.initial_velocities() + Eigen::VectorXd::LinSpaced(m.coordinates(), 0.1, 0.3);
  expect_compact_equals_dense(m, m.initial_positions(), qd, 0.2, what);
}

TEST(CompactSystem, EqualsTheDenseOneOnEveryExampleModel) {
  const auto paths = kinevo::test::example_model_paths();
  for (const auto& path : paths) {
    const model m = load_model(path);
    at_a_moving_state(m, path.filename().string());
  }
  EXPECT_GT(paths.size(), 20u);
}

TEST(CompactSystem, EqualsTheDenseOneOnChains) {
  for (const bool spatial : {false, true}) {
    for (int links : {1, 2, 10, 40}) {
      chain_options o;
      o.links = links;
      o.spatial = spatial;
      const model m = load_model_from_string(chain_model_text(o), "chain.toml");
      at_a_moving_state(m,
                        fmt::format("{} chain of {} links", spatial ? "spatial" : "planar", links));
    }
  }
}

// GIGSP asks for dense systems after a compact one its dense sweep had to expand (a small model),
// and for compact ones again when a dense system arrives that its sparse path takes (a long
// chain); the answers are those of a fresh solver on the other form, bit for bit.
TEST(CompactSystem, GigspAsksForTheFormItsPathReads) {
  const auto gigsp = make_solver("gigsp", solver_options{});
  ASSERT_TRUE(gigsp->reads_compact());
  const model small = load_model(examples + "/slider_crank.toml");
  constrained_system compact, dense;
  small.evaluate(small.initial_positions(), small.initial_velocities(), 0.0, compact, true);
  small.evaluate(small.initial_positions(), small.initial_velocities(), 0.0, dense);
  const acceleration_result a = gigsp->solve(compact);
  EXPECT_FALSE(gigsp->reads_compact()) << "the slider-crank takes the dense sweep";
  const acceleration_result b = gigsp->solve(dense);
  EXPECT_FALSE(gigsp->reads_compact());
  const acceleration_result fresh = make_solver("gigsp", solver_options{})->solve(dense);
  expect_same_vector(a.acceleration, fresh.acceleration, "slider-crank, compact");
  expect_same_vector(b.acceleration, fresh.acceleration, "slider-crank, dense");

  chain_options o;
  o.links = 30;
  const model chain = load_model_from_string(chain_model_text(o), "chain30.toml");
  constrained_system chain_dense, chain_compact;
  chain.evaluate(chain.initial_positions(), chain.initial_velocities(), 0.0, chain_dense);
  chain.evaluate(chain.initial_positions(), chain.initial_velocities(), 0.0, chain_compact, true);
  const acceleration_result c = gigsp->solve(chain_dense);
  EXPECT_TRUE(gigsp->reads_compact()) << "the 30-link chain takes the sparse path";
  const acceleration_result chain_fresh =
      make_solver("gigsp", solver_options{})->solve(chain_compact);
  expect_same_vector(c.acceleration, chain_fresh.acceleration, "30-link chain");
}

// Every 5th spherical joint written twice: three redundant rows each, which the sparse factor
// refuses; the compact system then goes through its dense form, to the same answer.
TEST(CompactSystem, RedundantRowsTakeTheDenseSweepToTheSameAnswer) {
  chain_options o;
  o.links = 20;
  o.spatial = true;
  std::string text = chain_model_text(o);
  for (int k = 5; k <= o.links; k += 5) {
    text += fmt::format(
        "\n[[joint]]\ntype = \"spherical\"\nname = \"again{}\"\nbody_i = \"b{}\"\nbody_j = "
        "\"b{}\"\npoint_i = [0.0, 0.0, \"l/2\"]\npoint_j = [0.0, 0.0, \"-l/2\"]\n",
        k, k - 1, k);
  }
  const model m = load_model_from_string(text, "copied.toml");
  constrained_system compact;
  m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0, compact, true);
  const acceleration_result r = make_solver("gigsp", solver_options{})->solve(compact);
  EXPECT_EQ(r.status, solve_status::ok) << r.message;
  EXPECT_EQ(r.redundant.size(), 12u);
  at_a_moving_state(m, "spatial chain with copied joints");
}

TEST(CompactSystem, NonFiniteRowIsRefusedWithTheSameMessage) {
  const model m = load_model(std::string(KINEVO_TEST_DATA) + "/mechanics/nan_constraint.toml");
  Eigen::VectorXd q = m.initial_positions();
  q.setConstant(std::numeric_limits<double>::quiet_NaN());
  constrained_system dense, compact;
  m.evaluate(q, m.initial_velocities(), 0.0, dense);
  m.evaluate(q, m.initial_velocities(), 0.0, compact, true);
  const acceleration_result a = make_solver("gigsp", solver_options{})->solve(compact);
  const acceleration_result b = make_solver("gigsp", solver_options{})->solve(dense);
  EXPECT_EQ(a.status, solve_status::non_finite);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(non_finite_entries(m, compact), non_finite_entries(m, dense));
  EXPECT_FALSE(non_finite_entries(m, compact).empty());
}

}  // namespace
}  // namespace kinevo::mechanics
