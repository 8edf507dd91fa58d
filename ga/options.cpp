#include "ga/options.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

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
constexpr std::array<std::pair<const char*, crossover_method>, 4> crossovers{
    {{"n_point", crossover_method::n_point},
     {"uniform", crossover_method::uniform},
     {"sbx", crossover_method::sbx},
     {"blx", crossover_method::blx}}};
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

void ga_options::validate() const {
  if (population < 2) bad("population must be at least 2 (got " + std::to_string(population) + ")");
  if (elites < 0 || elites >= population) {
    bad("elites must be in [0, population - 1] = [0, " + std::to_string(population - 1) +
        "] (got " + std::to_string(elites) + ")");
  }
  const bool real = genes == encoding::real;
  if (!real && (bits_per_variable < 1 || bits_per_variable > 32)) {
    bad("bits per variable must be in [1, 32] (got " + std::to_string(bits_per_variable) + ")");
  }
  if (tournament_size < 1) bad("tournament size must be at least 1");
  if (!(rank_pressure >= 1.0 && rank_pressure <= 2.0)) bad("rank pressure must be in [1, 2]");
  if (!(crossover_rate >= 0.0 && crossover_rate <= 1.0)) bad("crossover rate must be in [0, 1]");
  if (crossover_points < 1) bad("crossover points must be at least 1");
  if (!(uniform_swap >= 0.0 && uniform_swap <= 1.0)) bad("uniform swap must be in [0, 1]");
  if (!(sbx_eta >= 0.0) || !std::isfinite(sbx_eta)) bad("SBX eta must be finite and >= 0");
  if (!(blx_alpha >= 0.0) || !std::isfinite(blx_alpha)) bad("BLX alpha must be finite and >= 0");
  if (!(bit_mutation_rate >= 0.0 && bit_mutation_rate <= 1.0)) {
    bad("bit mutation rate must be in [0, 1]");
  }
  if (!(gene_mutation_rate <= 1.0)) bad("gene mutation rate must be <= 1 (negative: 1/dimension)");
  if (!(polynomial_eta >= 0.0) || !std::isfinite(polynomial_eta)) {
    bad("polynomial eta must be finite and >= 0");
  }
  if (!(gaussian_sigma > 0.0) || !std::isfinite(gaussian_sigma)) {
    bad("gaussian sigma must be finite and > 0");
  }
  if (!real && (crossover == crossover_method::sbx || crossover == crossover_method::blx)) {
    bad("crossover " + to_string(crossover) + " needs real genes; with " + to_string(genes) +
        " genes use n_point or uniform");
  }
  if (!real && mutation != mutation_method::bit_flip) {
    bad("mutation " + to_string(mutation) + " needs real genes; with " + to_string(genes) +
        " genes use bit_flip");
  }
  if (real && mutation == mutation_method::bit_flip) {
    bad("mutation bit_flip needs binary or gray genes; with real genes use polynomial or gaussian");
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
