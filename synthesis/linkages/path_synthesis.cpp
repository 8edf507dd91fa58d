#include "kinevo/synthesis/linkages/path_synthesis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <numbers>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/ga/termination.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/synthesis/common/report_format.hpp"
#include "kinevo/synthesis/linkages/detail/buildability.hpp"
#include "kinevo/synthesis/linkages/detail/path_ga_problem.hpp"

namespace kinevo::synthesis {

ga::ga_options path_synthesis_options::path_ga_preset(const std::string& name) {
  ga::ga_options g;
  if (name == "g3-pcx") {
    g = ga::g3_pcx_options();
  } else if (name == "de") {
    g.crossover = ga::crossover_method::de;
  } else if (name != "sbx") {
    throw io::option_error("ga", fmt::format("'{}': use de, sbx or g3-pcx", name));
  }
  g.constraints = ga::constraint_handling::feasibility;
  return g;
}

ga_synthesis_options path_synthesis_options::default_path_ga() {
  // Short GA runs seeding the refinement won on the published cases (bench/path): a population
  // of 20 with kinevo's SBX GA, 200 evaluations a round (docs/synthesis.md).
  ga_synthesis_options g;
  g.ga = path_ga_preset("sbx");
  g.ga.population = 20;
  return g;
}

void path_synthesis_options::validate() const {
  problem.validate();
  io::require_integer("evaluations", evaluations, 100, 1'000'000'000);
  io::require_integer("rounds", rounds, 0, 1'000'000);
  io::require_integer("evaluations_per_round", evaluations_per_round, 100, 1'000'000'000);
  ga.validate();
}

namespace {

// Rounds of global search and local refinement: each round runs the island GA (a fresh run,
// seeded with the best design so far) on its share of the budget, then refines the GA's best
// by Levenberg-Marquardt. Later rounds search again around what refinement found, so a GA that
// stalled near a poor local optimum gets another chance while the refined best is kept.

struct path_search {
  path_design design;
  path_evaluation evaluation;
  bool found = false;
  long long evaluations = 0, ga_evaluations = 0, refinement_evaluations = 0;
  int rounds = 0;
  double ga_objective = 0.0;
  bool ga_feasible = false;
  std::optional<path_refinement_result> refinement;
};

bool path_better(const path_evaluation& a, const path_evaluation& b) {
  if (a.feasible() != b.feasible()) return a.feasible();
  return a.feasible() ? a.objective < b.objective : a.violation() < b.violation();
}

// The GA genes of a design (for seeding the next round), inverse of path_ga_problem::decode.
Eigen::VectorXd path_genes(const path_ga_problem& gp, const path_design& d) {
  const path_problem& p = gp.problem();
  const path_linkage& l = d.linkage;
  std::vector<double> g{gp.length_gene(l.r1), gp.length_gene(l.r2),      gp.length_gene(l.r3),
                        gp.length_gene(l.r4), gp.coordinate_gene(l.rcx), gp.coordinate_gene(l.rcy)};
  const double turn = 2.0 * std::numbers::pi;
  const auto wrap = [&](double a) { return a - turn * std::floor(a / turn); };
  if (p.timing == path_timing::relative) g.push_back(wrap(d.input[0] - p.input[0]));
  if (p.timing == path_timing::free) {
    const path_motion m = path_motion_of(p, d.input);
    g.push_back(wrap(d.input[0]));
    g.push_back(m.direction > 0 ? 0.5 : -0.5);
    double used = 0.0;
    for (std::size_t i = 0; i + 1 < d.input.size(); ++i) {
      g.push_back(std::abs(m.arcs[i]) / turn);
      used += std::abs(m.arcs[i]) / turn;
    }
    g.push_back(std::max(0.0, 1.0 - used));
  }
  Eigen::VectorXd v = Eigen::Map<Eigen::VectorXd>(g.data(), static_cast<Eigen::Index>(g.size()));
  return v.cwiseMax(gp.lower_bounds()).cwiseMin(gp.upper_bounds());
}

path_search run_path_search(const path_problem& p, const path_synthesis_options& o,
                            const core::run_context& context) {
  const path_ga_problem gp(p);
  ga::island_model model(o.ga.ga, o.ga.islands);
  path_search s;
  // Each round: the GA on `evaluations_per_round` (or what is left), then refinement until it
  // converges or the budget is spent; rounds follow while a GA run still fits.
  for (int round = 0; o.rounds == 0 || round < o.rounds; ++round) {
    // A quarter of the budget is kept for the final polish of the best design.
    const long long left = o.evaluations - o.evaluations / 4 - s.evaluations;
    ga::termination limits;
    limits.max_generations = std::numeric_limits<long long>::max() / 4;
    limits.max_evaluations = std::min(left, o.evaluations_per_round);
    if (limits.max_evaluations < o.ga.ga.population) break;
    ga::run_settings settings;
    settings.run_index = static_cast<std::uint64_t>(round);
    Eigen::VectorXd seed;
    if (s.found && o.seed_rounds) {
      seed = path_genes(gp, s.design);
      settings.start_point = &seed;
    }
    const long long done = s.evaluations;
    if (context.on_progress) {
      settings.on_sync = [&](const ga::sync_report& r) {
        context.report(
            {static_cast<double>(done + r.evaluations) / static_cast<double>(o.evaluations), round,
             r.generation, done + r.evaluations, "GA"});
      };
    }
    const ga::run_result run = model.run(gp, ga::search_box::of(gp), limits, settings);
    s.evaluations += run.evaluations;
    s.ga_evaluations += run.evaluations;
    ++s.rounds;
    path_design d = gp.decode(run.best_x);
    path_evaluation e = evaluate_path_design(p, d);
    const path_evaluation ga_e = e;
    std::optional<path_refinement_result> round_refinement;
    if (o.ga.refine && e.feasible()) {
      path_refinement_options ro;
      ro.max_evaluations = std::max(o.evaluations - o.evaluations / 4 - s.evaluations, 1LL);
      path_refinement_result rr = refine_path_design(p, d, ro);
      s.evaluations += rr.evaluations;
      s.refinement_evaluations += rr.evaluations;
      if (rr.improved) {
        d = rr.design;
        e = evaluate_path_design(p, d);
      }
      round_refinement = rr;
    }
    if (!s.found || path_better(e, s.evaluation)) {
      // The best design so far, with its own GA point and refinement.
      s.design = d;
      s.evaluation = e;
      s.found = true;
      s.ga_objective = ga_e.objective;
      s.ga_feasible = ga_e.feasible();
      s.refinement = round_refinement;
    }
  }
  // What is left after the last GA run: polish the best without the stall rule.
  if (o.ga.refine && s.found && s.evaluation.feasible() && o.evaluations - s.evaluations > 10) {
    path_refinement_options ro;
    ro.max_evaluations = o.evaluations - s.evaluations;
    ro.stall_steps = 0;
    ro.max_iterations = 1'000'000;  // the budget decides
    path_refinement_result rr = refine_path_design(p, s.design, ro);
    s.evaluations += rr.evaluations;
    s.refinement_evaluations += rr.evaluations;
    if (rr.improved) {
      s.design = rr.design;
      s.evaluation = evaluate_path_design(p, s.design);
      s.refinement = rr;
    }
  }
  return s;
}

void describe_path_result(path_synthesis_result& r) {
  const path_problem& p = r.problem;
  const path_linkage& l = r.design.linkage;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto pos = path_position_at(l, r.design.input[i], r.design.branch);
    r.cx.push_back(pos ? pos->c.x() : std::numeric_limits<double>::quiet_NaN());
    r.cy.push_back(pos ? pos->c.y() : std::numeric_limits<double>::quiet_NaN());
  }
  r.grashof = grashof_type(l);
  r.ratio = link_ratio(l);
  r.order_defect = r.evaluation.order_violation > 0.0;
  r.branch_defect = r.evaluation.motion_violation > 0.0;
  const path_evaluation& e = r.evaluation;
  if (!e.feasible()) {
    std::vector<std::string> failed;
    if (e.link_type_violation > 0.0) {
      failed.push_back(p.link_type == path_link_type::grashof
                           ? "the link type: Grashof's condition, shortest + longest link at most "
                             "the other two (s + l <= p + q)"
                           : "the link type: a crank driving a rocker, Grashof's condition with "
                             "the input the shortest link (crank condition (18))");
    }
    if (e.motion_violation > 0.0) {
      failed.push_back("assembly between the points: the loop opens on the way (branch defect)");
    }
    if (e.order_violation > 0.0) {
      failed.push_back(
          "the order of the points: the inputs go back or sweep more than a turn "
          "(order defect)");
    }
    if (e.transmission_violation > 0.0) failed.push_back("the minimum transmission angle");
    if (e.frame_violation > 0.0) failed.push_back("the frame bounds (input pivot outside them)");
    r.summary = core::summary::ended(
        core::termination::infeasible, "",
        fmt::format("no design found meets {}; the least-violating one is shown",
                    fmt::join(failed, "; ")));
  }
  const double deg = 180.0 / std::numbers::pi;
  r.warnings = buildability_warnings(
      e.min_transmission * deg, e.max_transmission * deg, r.ratio,
      "ask for a buildable one with --min-transmission 30",
      "narrow the link lengths with --link-bounds LO HI (e.g. within a factor 10)");
  if (!r.summary.usable()) r.warnings.insert(r.warnings.begin(), r.summary.message);
  if (r.refinement && r.refinement->stop == "evaluation limit") {
    r.warnings.push_back(
        "the local refinement stopped at the evaluation limit before converging; raise "
        "--evaluations");
  }
}

}  // namespace

path_synthesis_result synthesize_path(const path_table& t, const path_synthesis_options& o,
                                      const core::run_context& context) {
  o.validate();
  const auto t0 = std::chrono::steady_clock::now();
  path_synthesis_result r;
  r.table = t.source;
  r.lines = t.lines;
  r.reference = t.reference;
  r.best_published_objective = t.best_published_objective;
  r.problem = make_path_problem(t, o.problem);
  path_search s = run_path_search(r.problem, o, context);
  r.design = s.design;
  r.evaluation = s.evaluation;
  r.evaluations = s.evaluations;
  r.ga_evaluations = s.ga_evaluations;
  r.refinement_evaluations = s.refinement_evaluations;
  r.rounds = s.rounds;
  r.ga_objective = s.ga_objective;
  r.ga_feasible = s.ga_feasible;
  r.refinement = s.refinement;
  describe_path_result(r);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace kinevo::synthesis
