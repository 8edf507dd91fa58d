#include "kinevo/ga/options.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

namespace {

[[noreturn]] void bad(const std::string& msg) {
  throw std::invalid_argument(msg);
}

template <typename E, std::size_t N>
E parse_name(const std::string& name, const std::array<std::pair<const char*, E>, N>& table,
             const char* what) {
  std::string names;
  for (const auto& [n, e] : table) {
    if (name == n) return e;
    names += names.empty() ? n : std::string(", ") + n;
  }
  bad("unknown " + std::string(what) + " '" + name + "'; use one of: " + names);
}

constexpr std::array<std::pair<const char*, encoding>, 3> encodings{
    {{"real", encoding::real}, {"binary", encoding::binary}, {"gray", encoding::gray}}};
constexpr std::array<std::pair<const char*, selection_method>, 3> selections{
    {{"sus", selection_method::sus},
     {"tournament", selection_method::tournament},
     {"rank", selection_method::rank}}};
constexpr std::array<std::pair<const char*, crossover_method>, 5> crossovers{
    {{"n_point", crossover_method::n_point},
     {"uniform", crossover_method::uniform},
     {"sbx", crossover_method::sbx},
     {"blx", crossover_method::blx},
     {"de", crossover_method::de}}};
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
  if (tournament_size < 1) {
    throw io::option_error("tournament_size", "must be at least 1" + got(tournament_size));
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
                crossover == crossover_method::de)) {
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

}  // namespace kinevo::ga
