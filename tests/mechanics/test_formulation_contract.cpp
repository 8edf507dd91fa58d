// The contract every formulation keeps (mechanics/dynamics/formulation.hpp), tested on every model
// kind the examples have, with the defaults: the motion equals full + GIGSP (with projection, so
// that the reference itself stays on the constraints) to 1e-8 in q, on particles, planar bodies, a
// full mass matrix, redundant rows (the five-bar, 0 degrees of freedom) and a chain: after 0.5 s,
// 0.15 s for the parallelogram (before it lies flat: docs/formulations.md for the crossings) and
// 0.01 s for the seven-link loop (links at 100 rad/s: over 0.5 s its motion is chaotic, every
// two integrations of it part, full with and without projection by 20 rad).
// `reuse` is approximate by design (docs/formulations.md) and has its own bounds
// (test_reuse_formulation.cpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

struct named_model {
  std::string name;
  model m;
  double t_end = 0.5;
};

std::vector<named_model> models() {
  std::vector<named_model> out;
  for (const char* f : {"double_pendulum", "slider_crank", "fivebar_redundant"}) {
    out.push_back({f, load_model(examples + "/" + f + ".toml")});
  }
  out.push_back({"seven_link_loop", load_model(examples + "/seven_link_loop.toml"), 0.01});
  out.push_back(
      {"parallelogram_bodies", load_model(examples + "/parallelogram_bodies.toml"), 0.15});
  chain_options c;
  c.links = 5;
  out.push_back({"chain of 5", load_model_from_string(chain_model_text(c), "chain.toml")});
  return out;
}

simulation_result run_kind(const model& m, double t_end, formulation_kind kind,
                           stabilization_kind stabilization) {
  simulation_options o;
  o.t_end = t_end;
  o.dt = 1e-4;
  o.stabilization = stabilization;
  o.formulation.kind = kind;
  auto solver = make_solver("gigsp");
  return simulate(m, *solver, o);
}

TEST(FormulationContract, EveryFormulationFollowsFullGigspOnEveryModelKind) {
  for (const auto& [name, m, t_end] : models()) {
    const simulation_result reference =
        run_kind(m, t_end, formulation_kind::full, stabilization_kind::projection);
    ASSERT_TRUE(reference.completed) << name << ": " << reference.message;
    const Eigen::VectorXd q_ref = reference.records.back().q;
    for (const auto& text : formulation_names()) {
      const formulation_kind kind = parse_formulation(text);
      if (kind == formulation_kind::reuse || kind == formulation_kind::full) continue;
      const simulation_result r = run_kind(m, t_end, kind, stabilization_kind::none);
      ASSERT_TRUE(r.completed) << name << ", " << text << ": " << r.message;
      EXPECT_EQ(r.formulation.name, text);
      EXPECT_NEAR(r.records.back().t, t_end, 1e-12) << name << ", " << text;
      EXPECT_LT((r.records.back().q - q_ref).cwiseAbs().maxCoeff(), 1e-8) << name << ", " << text;
      EXPECT_LT(r.max_position_violation, 1e-8) << name << ", " << text;
    }
  }
}

}  // namespace
}  // namespace kinevo::mechanics
