// The contract of every ga options struct (issue 9, items 2 and 5): each invalid field throws
// io::option_error naming that field; every enum round-trips through to_string/parse.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ga_test_support.hpp"
#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/constraint_handling.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/penalty.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/termination.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {
namespace {

using testing::inf;
using testing::nan;

std::string field_of(const std::function<void()>& validate) {
  try {
    validate();
  } catch (const io::option_error& e) {
    return e.field();
  }
  return "";
}

template <typename T>
struct field_case {
  std::string field;
  std::function<void(T&)> spoil;
};

TEST(OptionContracts, GaOptionsNameEveryInvalidField) {
  EXPECT_EQ(field_of([] { ga_options{}.validate(); }), "");
  EXPECT_EQ(field_of([] { gaucsd_options().validate(); }), "");
  EXPECT_EQ(field_of([] { g3_pcx_options().validate(); }), "");
  EXPECT_EQ(field_of([] { g3_pcx_metric_options().validate(); }), "");
  const std::vector<field_case<ga_options>> cases{
      // The learned metric is PCX's in the g3 model: anything else is refused by name.
      {"metric", [](ga_options& o) { o.metric = metric_model::learned; }},
      {"metric",
       [](ga_options& o) { o = g3_pcx_metric_options(), o.crossover = crossover_method::undx; }},
      {"metric",
       [](ga_options& o) { o = g3_pcx_metric_options(), o.model = generation_model::mgg; }},
      {"metric_interval",
       [](ga_options& o) { o = g3_pcx_metric_options(), o.metric_interval = 1; }},
      {"metric_interval",
       [](ga_options& o) { o = g3_pcx_metric_options(), o.metric_interval = -3; }},
      {"metric_rate", [](ga_options& o) { o = g3_pcx_metric_options(), o.metric_rate = 1.5; }},
      {"metric_rate", [](ga_options& o) { o = g3_pcx_metric_options(), o.metric_rate = nan; }},
      {"metric_carry", [](ga_options& o) { o = g3_pcx_options(), o.metric_carry = true; }},
      {"metric_lazy", [](ga_options& o) { o = g3_pcx_options(), o.metric_lazy = 10; }},
      {"metric_lazy", [](ga_options& o) { o = g3_pcx_metric_options(), o.metric_lazy = 0; }},
      {"metric_root",
       [](ga_options& o) { o = g3_pcx_options(), o.metric_root_kind = metric_root::cholesky; }},
      {"population", [](ga_options& o) { o.population = 1; }},
      {"elites", [](ga_options& o) { o.elites = -1; }},
      {"elites", [](ga_options& o) { o.elites = o.population; }},
      {"bits_per_variable", [](ga_options& o) { o = gaucsd_options(), o.bits_per_variable = 33; }},
      {"bits_per_variable", [](ga_options& o) { o = gaucsd_options(), o.bits_per_variable = 0; }},
      {"tournament_size", [](ga_options& o) { o.tournament_size = 0; }},
      {"rank_pressure", [](ga_options& o) { o.rank_pressure = 2.5; }},
      {"rank_pressure", [](ga_options& o) { o.rank_pressure = nan; }},
      {"crossover_rate", [](ga_options& o) { o.crossover_rate = -0.1; }},
      {"crossover_rate", [](ga_options& o) { o.crossover_rate = nan; }},
      {"crossover_points", [](ga_options& o) { o.crossover_points = 0; }},
      {"uniform_swap", [](ga_options& o) { o.uniform_swap = 1.5; }},
      {"sbx_eta", [](ga_options& o) { o.sbx_eta = inf; }},
      {"blx_alpha", [](ga_options& o) { o.blx_alpha = -1.0; }},
      {"de_weight", [](ga_options& o) { o.de_weight = 0.0; }},
      {"de_weight", [](ga_options& o) { o.de_weight = 2.5; }},
      {"de_weight", [](ga_options& o) { o.de_weight = nan; }},
      // The g3 model and its multi-parent crossovers (issue 25).
      {"crossover", [](ga_options& o) { o.crossover = crossover_method::pcx; }},
      {"generation_model", [](ga_options& o) { o.model = generation_model::g3; }},
      {"crossover",
       [](ga_options& o) { o = gaucsd_options(), o.crossover = crossover_method::spx; }},
      {"crossover", [](ga_options& o) { o = g3_pcx_options(), o.genes = encoding::binary; }},
      {"parents", [](ga_options& o) { o = g3_pcx_options(), o.parents = 1; }},
      {"parents", [](ga_options& o) { o = g3_pcx_options(), o.parents = o.population + 1; }},
      {"parents",
       [](ga_options& o) {
         o = g3_pcx_options(), o.crossover = crossover_method::undx, o.parents = 2;
       }},
      {"offspring", [](ga_options& o) { o = g3_pcx_options(), o.offspring = 0; }},
      {"offspring", [](ga_options& o) { o = g3_pcx_options(), o.offspring = o.population + 1; }},
      {"replaced", [](ga_options& o) { o = g3_pcx_options(), o.replaced = 0; }},
      {"replaced", [](ga_options& o) { o = g3_pcx_options(), o.replaced = o.population + 1; }},
      {"pcx_sigma_zeta", [](ga_options& o) { o = g3_pcx_options(), o.pcx_sigma_zeta = -0.1; }},
      {"pcx_sigma_eta", [](ga_options& o) { o = g3_pcx_options(), o.pcx_sigma_eta = nan; }},
      {"undx_sigma_xi", [](ga_options& o) { o = g3_pcx_options(), o.undx_sigma_xi = inf; }},
      {"undx_sigma_eta", [](ga_options& o) { o = g3_pcx_options(), o.undx_sigma_eta = nan; }},
      {"spx_epsilon", [](ga_options& o) { o = g3_pcx_options(), o.spx_epsilon = inf; }},
      {"epsilon_quantile", [](ga_options& o) { o.epsilon.quantile = 1.5; }},
      {"epsilon_exponent", [](ga_options& o) { o.epsilon.exponent = -1.0; }},
      {"epsilon_until", [](ga_options& o) { o.epsilon.until = 0.0; }},
      {"crossover",
       [](ga_options& o) { o = gaucsd_options(), o.crossover = crossover_method::de; }},
      // DE/rand/1 needs the target and three others.
      {"population",
       [](ga_options& o) { o.crossover = crossover_method::de, o.population = 3, o.elites = 0; }},
      {"bit_mutation_rate", [](ga_options& o) { o.bit_mutation_rate = 2.0; }},
      {"gene_mutation_rate", [](ga_options& o) { o.gene_mutation_rate = 1.5; }},
      {"gene_mutation_rate", [](ga_options& o) { o.gene_mutation_rate = nan; }},
      {"polynomial_eta", [](ga_options& o) { o.polynomial_eta = nan; }},
      {"gaussian_sigma", [](ga_options& o) { o.gaussian_sigma = 0.0; }},
      {"crossover",
       [](ga_options& o) { o = gaucsd_options(), o.crossover = crossover_method::sbx; }},
      {"mutation",
       [](ga_options& o) { o = gaucsd_options(), o.mutation = mutation_method::gaussian; }},
      {"mutation", [](ga_options& o) { o.mutation = mutation_method::bit_flip; }},
  };
  for (const auto& c : cases) {
    ga_options o;
    c.spoil(o);
    EXPECT_EQ(field_of([&] { o.validate(); }), c.field);
  }
  // de with the smallest population it allows, and every constraint handling, are valid.
  ga_options de;
  de.crossover = crossover_method::de;
  de.population = 4;
  EXPECT_EQ(field_of([&] { de.validate(); }), "");
  EXPECT_EQ(de.offspring_per_generation(), 4);             // every individual gets a trial
  EXPECT_EQ(ga_options{}.offspring_per_generation(), 99);  // population - elites
  for (const auto c : {constraint_handling::penalty, constraint_handling::multipliers,
                       constraint_handling::feasibility, constraint_handling::epsilon}) {
    ga_options o;
    o.constraints = c;
    EXPECT_EQ(field_of([&] { o.validate(); }), "");
  }
  // The words the CLI has always shown stay.
  ga_options o;
  o.population = 1;
  EXPECT_THROW(o.validate(), std::invalid_argument);
  try {
    o.validate();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("population must be at least 2"), std::string::npos);
  }
}

TEST(OptionContracts, IslandOptionsNameEveryInvalidFieldAndZeroIslandsIsRefused) {
  const ga_options ga;
  EXPECT_EQ(field_of([&] { island_options{}.validate(ga); }), "");
  const std::vector<field_case<island_options>> cases{
      {"islands", [](island_options& o) { o.islands = 0; }},
      {"islands", [](island_options& o) { o.islands = -3; }},
      {"migration_interval", [](island_options& o) { o.migration_interval = 0; }},
      {"migrants", [](island_options& o) { o.migrants = -1; }},
      {"migrants", [](island_options& o) { o.migrants = 100; }},  // > population - elites
      {"threads", [](island_options& o) { o.threads = -1; }},
  };
  for (const auto& c : cases) {
    island_options o;
    c.spoil(o);
    EXPECT_EQ(field_of([&] { o.validate(ga); }), c.field);
  }
  EXPECT_EQ(field_of([] { require_island_count(0); }), "islands");
  EXPECT_EQ(field_of([] { require_island_count(1); }), "");
  island_options zero;
  zero.islands = 0;
  EXPECT_THROW(island_model(ga, zero), std::invalid_argument);
}

TEST(OptionContracts, TerminationNamesEveryInvalidField) {
  EXPECT_EQ(field_of([] { termination{}.validate(); }), "");
  const std::vector<field_case<termination>> cases{
      {"target_value", [](termination& t) { t.target_value = nan; }},
      {"stall_tolerance", [](termination& t) { t.stall_tolerance = -1.0; }},
      {"stall_tolerance", [](termination& t) { t.stall_tolerance = nan; }},
      {"max_seconds", [](termination& t) { t.max_seconds = nan; }},
      {"max_seconds", [](termination& t) { t.max_seconds = inf; }},
      {"max_generations", [](termination& t) { t.max_generations = 0; }},
      {"max_generations", [](termination& t) { t.max_generations = -1; }},
      {"max_evaluations", [](termination& t) { t.max_evaluations = -5; }},
      {"stall_generations", [](termination& t) { t.stall_generations = -1; }},
      {"max_seconds", [](termination& t) { t.max_seconds = -1.0; }},
  };
  for (const auto& c : cases) {
    termination t;
    c.spoil(t);
    EXPECT_EQ(field_of([&] { t.validate(); }), c.field);
  }
  termination none;
  none.max_generations = 0;
  try {
    none.validate();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("no termination limit"), std::string::npos);
  }
}

TEST(OptionContracts, RangeRunOptionsNameEveryInvalidField) {
  EXPECT_EQ(field_of([] { range_run_options{}.validate(); }), "");
  const std::vector<field_case<range_run_options>> cases{
      {"runs", [](range_run_options& o) { o.runs = 0; }},
      {"shrink", [](range_run_options& o) { o.shrink = 0.0; }},
      {"shrink", [](range_run_options& o) { o.shrink = 1.5; }},
      {"radii_per_run", [](range_run_options& o) { o.radii_per_run = {1.0}; }},
      {"radii_per_run", [](range_run_options& o) { o.runs = 1, o.radii_per_run = {-1.0}; }},
      {"move_floor", [](range_run_options& o) { o.move_floor = 2.0; }},
      {"first_run_budget", [](range_run_options& o) { o.first_run_budget = 0.0; }},
      {"move_factor", [](range_run_options& o) { o.move_factor = nan; }},
      {"rotate", [](range_run_options& o) { o.rotate = true; }},
      {"clip_lower", [](range_run_options& o) { o.clip_lower = Eigen::VectorXd::Zero(2); }},
  };
  for (const auto& c : cases) {
    range_run_options o;
    c.spoil(o);
    EXPECT_EQ(field_of([&] { o.validate(); }), c.field);
  }
}

TEST(OptionContracts, ConstraintOptionsNameEveryInvalidField) {
  EXPECT_EQ(field_of([] { constraint_options{}.validate(); }), "");
  const std::vector<field_case<constraint_options>> cases{
      {"equality_tolerance", [](constraint_options& o) { o.equality_tolerance = -1e-4; }},
      {"equality_tolerance", [](constraint_options& o) { o.equality_tolerance = nan; }},
      {"equality_tolerance", [](constraint_options& o) { o.equality_tolerance = inf; }},
      {"inequality_tolerance", [](constraint_options& o) { o.inequality_tolerance = -1.0; }},
      {"inequality_tolerance", [](constraint_options& o) { o.inequality_tolerance = nan; }},
      {"penalty.weight", [](constraint_options& o) { o.penalty.weight = -1.0; }},
  };
  for (const auto& c : cases) {
    constraint_options o;
    c.spoil(o);
    EXPECT_EQ(field_of([&] { o.validate(); }), c.field);
  }
}

TEST(OptionContracts, EveryGaEnumRoundTripsThroughItsName) {
  for (auto e : {encoding::real, encoding::binary, encoding::gray}) {
    EXPECT_EQ(parse_encoding(to_string(e)), e);
  }
  for (auto s : {selection_method::sus, selection_method::tournament, selection_method::rank}) {
    EXPECT_EQ(parse_selection(to_string(s)), s);
  }
  for (auto c : {crossover_method::n_point, crossover_method::uniform, crossover_method::sbx,
                 crossover_method::blx, crossover_method::de, crossover_method::pcx,
                 crossover_method::undx, crossover_method::spx}) {
    EXPECT_EQ(parse_crossover(to_string(c)), c);
  }
  for (auto g : {generation_model::generational, generation_model::g3, generation_model::mgg}) {
    EXPECT_EQ(parse_generation_model(to_string(g)), g);
  }
  EXPECT_THROW(parse_generation_model("g4"), std::invalid_argument);
  for (auto m : {metric_model::isotropic, metric_model::learned}) {
    EXPECT_EQ(parse_metric_model(to_string(m)), m);
  }
  EXPECT_THROW(parse_metric_model("euclid"), std::invalid_argument);
  for (auto m :
       {mutation_method::bit_flip, mutation_method::polynomial, mutation_method::gaussian}) {
    EXPECT_EQ(parse_mutation(to_string(m)), m);
  }
  for (auto t :
       {topology::ring, topology::fully_connected, topology::random, topology::unconnected}) {
    EXPECT_EQ(parse_topology(to_string(t)), t);
  }
  for (auto t : {transport::automatic, transport::threads, transport::mpi}) {
    EXPECT_EQ(parse_transport(to_string(t)), t);
  }
  for (auto r : {stop_reason::generations, stop_reason::evaluations, stop_reason::target,
                 stop_reason::stall, stop_reason::wall_time, stop_reason::interrupted}) {
    EXPECT_EQ(parse_stop_reason(to_string(r)), r);
  }
  for (auto k : {penalty_kind::fixed, penalty_kind::increasing, penalty_kind::multipliers}) {
    EXPECT_EQ(parse_penalty_kind(to_string(k)), k);
  }
  for (auto c : {constraint_handling::penalty, constraint_handling::multipliers,
                 constraint_handling::feasibility, constraint_handling::epsilon}) {
    EXPECT_EQ(parse_constraint_handling(to_string(c)), c);
  }
  EXPECT_THROW(parse_constraint_handling("deb"), std::invalid_argument);
  EXPECT_THROW(parse_encoding("decimal"), std::invalid_argument);
  EXPECT_THROW(parse_selection(""), std::invalid_argument);
  EXPECT_THROW(parse_crossover("SBX"), std::invalid_argument);
  EXPECT_THROW(parse_mutation("flip"), std::invalid_argument);
  EXPECT_THROW(parse_topology("star"), std::invalid_argument);
  EXPECT_THROW(parse_transport("tcp"), std::invalid_argument);
  EXPECT_THROW(parse_stop_reason("done"), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::ga
