// Settings of one island's generational GA (Ceres-style: a plain struct with documented
// defaults; `validate` says what to change). The defaults are kinevo's tuned real-coded GA;
// `gaucsd_options` gives the binary GA of the generalized-inverse dissertation (GIGSP), ch. 5.
#pragma once

#include <string>

#include "kinevo/ga/constraint_handling.hpp"

namespace kinevo::ga {

// How a candidate is stored. Binary and Gray genomes hold `bits_per_variable` bits per
// variable, decoded onto [lo, hi] as GAucsd does: x = lo + (hi - lo) k / (2^b - 1).
enum class encoding { real, binary, gray };

// sus: proportional selection by stochastic universal sampling of window-scaled fitness
// (f_worst - f, so that it works for minimisation); tournament: best of `tournament_size`
// drawn with replacement; rank: linear ranking with `rank_pressure` expected copies of the best.
enum class selection_method { sus, tournament, rank };

// n_point and uniform work on every encoding (on bits for binary/Gray, on whole genes for real);
// sbx (simulated binary crossover) and blx (BLX-alpha) are for real genes only. de is
// differential evolution's DE/rand/1/bin (Storn and Price, "Differential evolution - a simple
// and efficient heuristic for global optimization over continuous spaces", J. Global Optim. 11
// (1997), eqs. 2-4) for real genes: each individual i gets a trial x_r1 + F (x_r2 - x_r3) crossed
// binomially with x_i at crossover_rate, and the trial replaces x_i only when it is not worse
// (one-to-one survivor selection instead of parent selection and elites).
enum class crossover_method { n_point, uniform, sbx, blx, de };

// bit_flip is for binary/Gray genomes (per-bit rate, positions drawn by geometric skips);
// polynomial and gaussian are for real genes (per-gene rate).
enum class mutation_method { bit_flip, polynomial, gaussian };

struct ga_options {
  // Individuals per island (>= 2). Every generation evaluates population - elites offspring.
  int population = 100;

  encoding genes = encoding::real;
  // Bits per variable for binary/Gray genomes, 1..32.
  int bits_per_variable = 16;

  selection_method selection = selection_method::tournament;
  int tournament_size = 3;     // >= 1 (1 is random selection)
  double rank_pressure = 1.8;  // linear ranking, in [1, 2]

  crossover_method crossover = crossover_method::sbx;
  // Probability that a pair of parents is crossed (otherwise the children are copies).
  double crossover_rate = 0.9;
  int crossover_points = 2;   // n for n_point, 1..(genome length - 1)
  double uniform_swap = 0.5;  // per-position swap probability of uniform crossover
  double sbx_eta = 20.0;      // SBX distribution index (larger: children nearer the parents)
  double blx_alpha = 0.5;     // BLX-alpha extension of the parents' interval
  double de_weight = 0.5;     // F of de, in (0, 2]

  mutation_method mutation = mutation_method::polynomial;
  // Per-bit rate for bit_flip.
  double bit_mutation_rate = 0.001;
  // Per-gene rate for polynomial/gaussian; negative means 1 / dimension.
  double gene_mutation_rate = -1.0;
  double polynomial_eta = 20.0;  // polynomial mutation distribution index
  double gaussian_sigma = 0.1;   // gaussian step as a fraction of the search box width

  // The best `elites` individuals survive unchanged into the next generation (0..population-1).
  int elites = 1;

  // How candidates of a problem that reports violations are compared (feasibility or epsilon;
  // penalty and multipliers compare values: the problem holds the penalty). See
  // ga/constraint_handling.hpp.
  constraint_handling constraints = constraint_handling::penalty;
  epsilon_options epsilon;  // used by constraints = epsilon

  // Candidates evaluated per generation: population with de (every individual gets a trial),
  // population - elites otherwise.
  int offspring_per_generation() const {
    return crossover == crossover_method::de ? population : population - elites;
  }

  // Throws std::invalid_argument with a message naming the field and the fix.
  void validate() const;
};

// The settings of the generalized-inverse dissertation (GIGSP), sec. 5.4 (GAucsd): 16-bit plain
// binary genes, proportional selection (SUS), two-point crossover at rate 0.6, bit mutation 0.001.
ga_options gaucsd_options();

std::string to_string(encoding e);
std::string to_string(selection_method s);
std::string to_string(crossover_method c);
std::string to_string(mutation_method m);
// Parse the names printed by to_string; throw std::invalid_argument listing the valid names.
encoding parse_encoding(const std::string& name);
selection_method parse_selection(const std::string& name);
crossover_method parse_crossover(const std::string& name);
mutation_method parse_mutation(const std::string& name);

}  // namespace kinevo::ga
