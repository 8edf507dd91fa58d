#include "kinevo/ga/options.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

namespace {

template <typename E, std::size_t N>
E parse_name(const std::string& name, const std::array<std::pair<const char*, E>, N>& table,
             const char* what) {
  std::string names;
  for (const auto& [n, e] : table) {
    if (name == n) return e;
    names += names.empty() ? n : std::string(", ") + n;
  }
  throw io::option_error(what, "'" + name + "' is unknown; use one of: " + names);
}

constexpr std::array<std::pair<const char*, encoding>, 3> encodings{
    {{"real", encoding::real}, {"binary", encoding::binary}, {"gray", encoding::gray}}};
constexpr std::array<std::pair<const char*, selection_method>, 3> selections{
    {{"sus", selection_method::sus},
     {"tournament", selection_method::tournament},
     {"rank", selection_method::rank}}};
constexpr std::array<std::pair<const char*, crossover_method>, 8> crossovers{
    {{"n_point", crossover_method::n_point},
     {"uniform", crossover_method::uniform},
     {"sbx", crossover_method::sbx},
     {"blx", crossover_method::blx},
     {"de", crossover_method::de},
     {"pcx", crossover_method::pcx},
     {"undx", crossover_method::undx},
     {"spx", crossover_method::spx}}};
constexpr std::array<std::pair<const char*, generation_model>, 3> generation_models{
    {{"generational", generation_model::generational},
     {"g3", generation_model::g3},
     {"mgg", generation_model::mgg}}};
constexpr std::array<std::pair<const char*, metric_model>, 2> metric_models{
    {{"isotropic", metric_model::isotropic}, {"learned", metric_model::learned}}};
constexpr std::array<std::pair<const char*, metric_root>, 2> metric_roots{
    {{"symmetric", metric_root::symmetric}, {"cholesky", metric_root::cholesky}}};
constexpr std::array<std::pair<const char*, mutation_method>, 3> mutations{
    {{"bit_flip", mutation_method::bit_flip},
     {"polynomial", mutation_method::polynomial},
     {"gaussian", mutation_method::gaussian}}};

template <typename E, std::size_t N>
std::string name_of(E e, const std::array<std::pair<const char*, E>, N>& table) {
  for (const auto& [n, v] : table) {
    if (v == e) return n;
  }
  return "?";
}

// The learned metric is PCX's, in the g3 model (whose best-parent centre its update assumes).
void validate_metric(const ga_options& o) {
  io::require_integer("metric_lazy", o.metric_lazy, 1);
  if (o.metric == metric_model::isotropic) {
    if (o.metric_carry) throw io::option_error("metric_carry", "needs metric learned");
    if (o.metric_lazy != 1) throw io::option_error("metric_lazy", "needs metric learned");
    if (o.metric_root_kind != ga_options{}.metric_root_kind) {
      throw io::option_error("metric_root", "needs metric learned");
    }
    return;
  }
  if (o.crossover != crossover_method::pcx || o.model != generation_model::g3) {
    throw io::option_error("metric", "learned needs crossover pcx with generation_model g3 (got " +
                                         to_string(o.crossover) + ", " + to_string(o.model) +
                                         "); set metric isotropic");
  }
  if (o.metric_interval != 0 && o.metric_interval < 2) {
    throw io::option_error("metric_interval", "must be 0 (automatic) or at least 2 (got " +
                                                  std::to_string(o.metric_interval) + ")");
  }
  io::require_real("metric_rate", o.metric_rate, {0.0, 1.0});
}

// The steady-state models (g3, mgg) and the multi-parent crossovers belong together: each names
// the other as the fix.
void validate_generation_model(const ga_options& o) {
  const auto got = [](auto v) { return " (got " + std::to_string(v) + ")"; };
  const bool g3 = o.steady_state();
  const std::string model = to_string(o.model);
  if (o.multi_parent() && !g3) {
    throw io::option_error("crossover", to_string(o.crossover) +
                                            " is a multi-parent crossover for the g3 or mgg "
                                            "generation model: set generation_model g3 or mgg");
  }
  if (g3 && !o.multi_parent()) {
    throw io::option_error("generation_model",
                           model +
                               " needs a multi-parent crossover: set crossover pcx, undx or "
                               "spx (got " +
                               to_string(o.crossover) + ")");
  }
  if (g3 && o.genes != encoding::real) {
    throw io::option_error("generation_model", model + " needs real genes (got " +
                                                   to_string(o.genes) + "); set genes real");
  }
  if (!g3) return;
  const int min_parents = o.crossover == crossover_method::undx ? 3 : 2;
  if (o.parents < min_parents || o.parents > o.population) {
    throw io::option_error("parents", "must be in [" + std::to_string(min_parents) +
                                          ", population] = [" + std::to_string(min_parents) + ", " +
                                          std::to_string(o.population) + "] for " +
                                          to_string(o.crossover) + got(o.parents));
  }
  if (o.offspring < 1 || o.offspring > o.population) {
    throw io::option_error("offspring", "must be in [1, population] = [1, " +
                                            std::to_string(o.population) + "]" + got(o.offspring));
  }
  if (o.replaced < 1 || o.replaced > o.population) {
    throw io::option_error("replaced", "must be in [1, population] = [1, " +
                                           std::to_string(o.population) + "]" + got(o.replaced));
  }
  io::require_real("pcx_sigma_zeta", o.pcx_sigma_zeta, io::non_negative());
  io::require_real("pcx_sigma_eta", o.pcx_sigma_eta, io::non_negative());
  io::require_real("undx_sigma_xi", o.undx_sigma_xi, io::any_finite());
  io::require_real("undx_sigma_eta", o.undx_sigma_eta, io::any_finite());
  io::require_real("spx_epsilon", o.spx_epsilon, io::any_finite());
}

}  // namespace

// Every check names the field (io::option_error) and keeps the words the CLI has always shown.
void ga_options::validate() const {
  const auto got = [](auto v) { return " (got " + std::to_string(v) + ")"; };
  if (population < 2) throw io::option_error("population", "must be at least 2" + got(population));
  if (elites < 0 || elites >= population) {
    throw io::option_error("elites", "must be in [0, population - 1] = [0, " +
                                         std::to_string(population - 1) + "]" + got(elites));
  }
  const bool real = genes == encoding::real;
  if (!real && (bits_per_variable < 1 || bits_per_variable > 32)) {
    throw io::option_error("bits_per_variable", "must be in [1, 32]" + got(bits_per_variable));
  }
  // A tournament draws tournament_size individuals per selection: more than the population
  // adds nothing but time (2^31 - 1 hung the run).
  if (tournament_size < 1 || tournament_size > population) {
    throw io::option_error("tournament_size", "must be in [1, population] = [1, " +
                                                  std::to_string(population) + "]" +
                                                  got(tournament_size));
  }
  io::require_real("rank_pressure", rank_pressure, {1.0, 2.0});
  io::require_real("crossover_rate", crossover_rate, {0.0, 1.0});
  if (crossover_points < 1) {
    throw io::option_error("crossover_points", "must be at least 1" + got(crossover_points));
  }
  io::require_real("uniform_swap", uniform_swap, {0.0, 1.0});
  io::require_real("sbx_eta", sbx_eta, io::non_negative());
  io::require_real("blx_alpha", blx_alpha, io::non_negative());
  io::require_real("de_weight", de_weight, {0.0, 2.0, true});
  epsilon.validate();
  io::require_real("bit_mutation_rate", bit_mutation_rate, {0.0, 1.0});
  if (!(gene_mutation_rate <= 1.0)) {
    throw io::option_error("gene_mutation_rate", "must be <= 1 (negative: 1/dimension)");
  }
  io::require_real("polynomial_eta", polynomial_eta, io::non_negative());
  io::require_real("gaussian_sigma", gaussian_sigma, io::positive());
  if (!real && (crossover == crossover_method::sbx || crossover == crossover_method::blx ||
                crossover == crossover_method::de || multi_parent())) {
    throw io::option_error("crossover", to_string(crossover) + " needs real genes; with " +
                                            to_string(genes) + " genes use n_point or uniform");
  }
  if (!real && mutation != mutation_method::bit_flip) {
    throw io::option_error("mutation", to_string(mutation) + " needs real genes; with " +
                                           to_string(genes) + " genes use bit_flip");
  }
  if (crossover == crossover_method::de && population < 4) {
    throw io::option_error("population",
                           "must be at least 4 for de crossover (a trial needs "
                           "three other individuals)" +
                               got(population));
  }
  if (real && mutation == mutation_method::bit_flip) {
    throw io::option_error("mutation",
                           "bit_flip needs binary or gray genes; with real genes use polynomial "
                           "or gaussian");
  }
  validate_generation_model(*this);
  validate_metric(*this);
}

ga_options gaucsd_options() {
  ga_options o;
  o.population = 100;
  o.genes = encoding::binary;
  o.bits_per_variable = 16;
  o.selection = selection_method::sus;
  o.crossover = crossover_method::n_point;
  o.crossover_points = 2;
  o.crossover_rate = 0.6;
  o.mutation = mutation_method::bit_flip;
  o.bit_mutation_rate = 0.001;
  o.elites = 1;
  return o;
}

ga_options g3_pcx_options() {
  ga_options o;
  o.population = 100;
  o.model = generation_model::g3;
  o.crossover = crossover_method::pcx;
  o.parents = 3;
  o.offspring = 2;
  o.replaced = 2;
  o.pcx_sigma_zeta = 0.1;
  o.pcx_sigma_eta = 0.1;
  return o;
}

ga_options g3_pcx_metric_options() {
  ga_options o = g3_pcx_options();
  o.metric = metric_model::learned;
  o.pcx_sigma_eta = 0.14;
  return o;
}

std::string to_string(encoding e) {
  return name_of(e, encodings);
}
std::string to_string(selection_method s) {
  return name_of(s, selections);
}
std::string to_string(crossover_method c) {
  return name_of(c, crossovers);
}
std::string to_string(mutation_method m) {
  return name_of(m, mutations);
}
std::string to_string(generation_model g) {
  return name_of(g, generation_models);
}
std::string to_string(metric_model m) {
  return name_of(m, metric_models);
}
metric_model parse_metric_model(const std::string& n) {
  return parse_name(n, metric_models, "metric");
}
std::string to_string(metric_root r) {
  return name_of(r, metric_roots);
}
metric_root parse_metric_root(const std::string& n) {
  return parse_name(n, metric_roots, "metric_root");
}
encoding parse_encoding(const std::string& n) {
  return parse_name(n, encodings, "encoding");
}
selection_method parse_selection(const std::string& n) {
  return parse_name(n, selections, "selection");
}
crossover_method parse_crossover(const std::string& n) {
  return parse_name(n, crossovers, "crossover");
}
mutation_method parse_mutation(const std::string& n) {
  return parse_name(n, mutations, "mutation");
}
generation_model parse_generation_model(const std::string& n) {
  return parse_name(n, generation_models, "generation_model");
}

}  // namespace kinevo::ga
