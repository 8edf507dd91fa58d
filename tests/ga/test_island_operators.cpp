// Operators seen through one island: a population is written into the island's state text,
// one generation is stepped, and the offspring are read back. Expected rates and selection
// means are closed forms, not numbers taken from a previous run.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "ga_test_support.hpp"
#include "kinevo/ga/detail/island.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace kinevo::ga {
namespace {

struct individual {
  double f = 0.0;
  std::vector<double> genes;         // real genes
  std::vector<std::uint64_t> words;  // binary genomes
};

using testing::hexd;

// Replaces the island's population (keeps its generator state).
void set_population(island& isl, const std::vector<individual>& pop, bool binary) {
  std::ostringstream os;
  isl.save(os);
  std::istringstream in(os.str());
  std::ostringstream text;  // (a stream: GCC 12 warns falsely on string concatenation here)
  std::string line;
  for (int k = 0; k < 3 && std::getline(in, line); ++k) text << line << '\n';  // rng, evals, best
  for (const auto& ind : pop) {
    text << "individual " << hexd(ind.f);
    if (binary) {
      for (auto w : ind.words) text << ' ' << w;
    } else {
      for (double g : ind.genes) text << ' ' << hexd(g);
    }
    text << '\n';
  }
  std::istringstream s(text.str());
  isl.load(s);
}

std::vector<individual> get_population(const island& isl, int n, bool binary) {
  std::ostringstream os;
  isl.save(os);
  std::istringstream in(os.str());
  std::string line;
  std::vector<individual> out;
  while (std::getline(in, line)) {
    if (line.rfind("individual ", 0) != 0) continue;
    std::istringstream s(line.substr(11));
    std::string tok;
    individual ind;
    s >> tok;
    ind.f = std::strtod(tok.c_str(), nullptr);
    if (binary) {
      std::uint64_t w = 0;
      while (s >> w) ind.words.push_back(w);
    } else {
      for (int j = 0; j < n && s >> tok; ++j)
        ind.genes.push_back(std::strtod(tok.c_str(), nullptr));
    }
    out.push_back(ind);
  }
  return out;
}

island started(const ga_options& o, const problem& p, std::uint64_t seed = 3) {
  island isl;
  isl.configure(o, p.dimension());
  isl.start(p, search_box::of(p), seed, 0, 0, nullptr);
  return isl;
}

TEST(IslandOperators, BitMutationHitsItsRateWithoutDrawingPerBit) {
  sphere_function p(4);  // 4 x 16 bits: one word per genome
  ga_options o = gaucsd_options();
  o.population = 200;
  o.elites = 0;
  o.crossover_rate = 0.0;
  o.bit_mutation_rate = 0.01;
  island isl = started(o, p);
  long long ones = 0;
  const int steps = 20;
  for (int s = 0; s < steps; ++s) {
    set_population(isl, std::vector<individual>(200, individual{0.0, {}, {0}}), true);
    isl.step(p);
    for (const auto& ind : get_population(isl, 4, true)) ones += std::popcount(ind.words[0]);
  }
  const double expected = 0.01 * 64 * 200 * steps;  // 2560, binomial sd ~ 50
  EXPECT_NEAR(static_cast<double>(ones), expected, 4.0 * std::sqrt(expected));
}

TEST(IslandOperators, TwoPointCrossoverKeepsGenesAndHitsItsRate) {
  sphere_function p(4);
  ga_options o = gaucsd_options();
  o.population = 200;
  o.elites = 0;
  o.bit_mutation_rate = 0.0;
  o.selection = selection_method::tournament;
  o.tournament_size = 1;  // random mating
  o.crossover_rate = 0.6;
  island isl = started(o, p);
  int differing = 0, crossed = 0;
  for (int s = 0; s < 10; ++s) {
    std::vector<individual> pop;
    for (int i = 0; i < 200; ++i) pop.push_back({0.0, {}, {i % 2 ? ~std::uint64_t{0} : 0}});
    set_population(isl, pop, true);
    isl.step(p);
    const auto kids = get_population(isl, 4, true);
    for (int q = 0; q < 100; ++q) {
      const auto a = kids[2 * q].words[0];
      const auto b = kids[2 * q + 1].words[0];
      const auto x = a ^ b;
      ASSERT_TRUE(x == 0 || x == ~std::uint64_t{0}) << "children are not complementary";
      if (x == 0) continue;
      ++differing;
      // Two-point: at most two changes of bit value along the genome.
      EXPECT_LE(std::popcount(a ^ (a >> 1)) - static_cast<int>((a >> 63) & 1), 2);
      if (a != 0 && a != ~std::uint64_t{0}) ++crossed;
    }
  }
  ASSERT_GT(differing, 300);
  const double rate = static_cast<double>(crossed) / differing;
  EXPECT_NEAR(rate, 0.6, 4.0 * std::sqrt(0.24 / differing));
}

TEST(IslandOperators, UniformRealCrossoverSwapsWholeGenes) {
  sphere_function p(6);
  ga_options o;
  o.population = 100;
  o.elites = 0;
  o.crossover = crossover_method::uniform;
  o.crossover_rate = 1.0;
  o.gene_mutation_rate = 0.0;
  o.tournament_size = 1;
  island isl = started(o, p);
  std::vector<individual> pop;
  for (int i = 0; i < 100; ++i)
    pop.push_back({0.0, std::vector<double>(6, i % 2 ? 1.0 : -1.0), {}});
  set_population(isl, pop, false);
  isl.step(p);
  const auto kids = get_population(isl, 6, false);
  for (int q = 0; q < 50; ++q) {
    for (int j = 0; j < 6; ++j) {
      const double a = kids[2 * q].genes[j];
      const double b = kids[2 * q + 1].genes[j];
      EXPECT_TRUE(a == 1.0 || a == -1.0);
      EXPECT_TRUE(a + b == 0.0 || a == b);  // swapped or kept, never blended
    }
  }
}

TEST(IslandOperators, RealOperatorsStayInTheBoxAndKeepIdenticalParents) {
  for (auto c : {crossover_method::sbx, crossover_method::blx, crossover_method::n_point}) {
    rastrigin_function p(5);
    ga_options o;
    o.population = 60;
    o.elites = 0;
    o.crossover = c;
    o.crossover_rate = 1.0;
    o.gene_mutation_rate = 0.0;
    island isl = started(o, p);
    // Identical parents: every crossover returns them unchanged.
    set_population(
        isl, std::vector<individual>(60, individual{0.0, std::vector<double>(5, 1.25), {}}), false);
    isl.step(p);
    for (const auto& k : get_population(isl, 5, false)) {
      for (double g : k.genes) EXPECT_EQ(g, 1.25) << to_string(c);
    }
    // Random parents near the bounds: children stay inside [-5.12, 5.12].
    for (int s = 0; s < 20; ++s) {
      isl.step(p);
      for (const auto& k : get_population(isl, 5, false)) {
        for (double g : k.genes) {
          EXPECT_GE(g, -5.12);
          EXPECT_LE(g, 5.12);
        }
      }
    }
  }
}

TEST(IslandOperators, RealMutationHitsItsPerGeneRate) {
  for (auto m : {mutation_method::polynomial, mutation_method::gaussian}) {
    sphere_function p(4);
    ga_options o;
    o.population = 250;
    o.elites = 0;
    o.crossover_rate = 0.0;
    o.mutation = m;
    o.gene_mutation_rate = 0.25;
    island isl = started(o, p);
    int changed = 0;
    for (int s = 0; s < 10; ++s) {
      set_population(isl,
                     std::vector<individual>(250, individual{0.0, std::vector<double>(4, 0.5), {}}),
                     false);
      isl.step(p);
      for (const auto& k : get_population(isl, 4, false)) {
        for (double g : k.genes) changed += g != 0.5;
      }
    }
    const double trials = 10 * 250 * 4;
    EXPECT_NEAR(changed / trials, 0.25, 4.0 * std::sqrt(0.25 * 0.75 / trials)) << to_string(m);
  }
}

// Selection without variation on f = x^2, x_i = (i + 0.5) / P: the mean of the selected values
// has a closed form for each scheme (x is uniform on [0, 1]).
double selected_mean(selection_method sel, int tournament, double pressure) {
  sphere_function p(1);
  ga_options o;
  o.population = 2000;
  o.elites = 0;
  o.crossover_rate = 0.0;
  o.gene_mutation_rate = 0.0;
  o.selection = sel;
  o.tournament_size = tournament;
  o.rank_pressure = pressure;
  island isl;
  isl.configure(o, 1);
  search_box box{Eigen::VectorXd::Constant(1, -1.0), Eigen::VectorXd::Constant(1, 1.0)};
  isl.start(p, box, 11, 0, 0, nullptr);
  std::vector<individual> pop;
  for (int i = 0; i < 2000; ++i) {
    const double x = (i + 0.5) / 2000.0;
    pop.push_back({x * x, {x}, {}});
  }
  set_population(isl, pop, false);
  isl.step(p);
  double sum = 0.0;
  for (const auto& k : get_population(isl, 1, false)) sum += k.f;
  return sum / 2000.0;
}

TEST(IslandOperators, SelectionPressureMatchesClosedForms) {
  // Tournament of t: x ~ Beta(1, t), E[x^2] = 2 / ((t + 1)(t + 2)).
  EXPECT_NEAR(selected_mean(selection_method::tournament, 1, 1.5), 1.0 / 3.0, 0.02);
  EXPECT_NEAR(selected_mean(selection_method::tournament, 2, 1.5), 1.0 / 6.0, 0.015);
  EXPECT_NEAR(selected_mean(selection_method::tournament, 4, 1.5), 1.0 / 15.0, 0.01);
  // SUS on window-scaled fitness 1 - x^2: E = (1/3 - 1/5) / (2/3) = 0.2.
  EXPECT_NEAR(selected_mean(selection_method::sus, 2, 1.5), 0.2, 0.005);
  // Linear ranking, weight s - (2s - 2) x: E = s/3 - (2s - 2)/4.
  EXPECT_NEAR(selected_mean(selection_method::rank, 2, 2.0), 2.0 / 3.0 - 0.5, 0.005);
  EXPECT_NEAR(selected_mean(selection_method::rank, 2, 1.5), 0.5 - 0.25, 0.005);
}

TEST(IslandOperators, ElitesSurviveUnchanged) {
  rastrigin_function p(3);
  ga_options o;
  o.population = 30;
  o.elites = 3;
  island isl = started(o, p);
  for (int s = 0; s < 30; ++s) {
    auto before = get_population(isl, 3, false);
    std::sort(before.begin(), before.end(), [](auto& a, auto& b) { return a.f < b.f; });
    isl.step(p);
    const auto after = get_population(isl, 3, false);
    for (int e = 0; e < 3; ++e) {
      EXPECT_EQ(after[e].f, before[e].f);
      EXPECT_EQ(after[e].genes, before[e].genes);
    }
    double lowest = after[0].f;
    for (const auto& a : after) lowest = std::min(lowest, a.f);
    EXPECT_EQ(isl.best_value(), lowest);  // elitism: the best ever is in the population
  }
}

}  // namespace
}  // namespace kinevo::ga
