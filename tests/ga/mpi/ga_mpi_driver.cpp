// Prints the best point of a fixed island-model run in hex floats (%a), so that ctest can
// compare threads against `mpiexec -n 2` / `-n 4` bit for bit.
//   ga_mpi_driver <function> <dim> <islands> <topology> <encoding> <seed> [checkpoint resume]
// Function g06 is the constrained CEC 2006 g06 (dim ignored) with <encoding> naming the
// constraint handling and crossover instead, e.g. epsilon_de or feasibility_sbx; the best's
// violation is printed after each best value. Encoding g3_pcx, g3_undx or g3_spx runs the g3
// generation model with that crossover (G3-PCX settings otherwise), g3_pcx_metric G3-PCX in a
// learned metric, mgg_pcx, mgg_undx or
// mgg_spx the mgg model; g06 takes e.g. feasibility_pcx (g3) or feasibility_undx_mgg the same
// way. g3_pcx_carry: G3-PCX in range runs whose islands start each run from their previous
// population moved to the new centre (range_run_options::carry, fill).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "../constrained_test_problems.hpp"
#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"

int main(int argc, char** argv) {
  using namespace kinevo::ga;
  mpi_environment mpi(argc, argv);
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s function dim islands topology encoding seed\n", argv[0]);
    return 2;
  }
  try {
    const std::string function = argv[1];
    std::string encoding_name = argv[5];
    const bool constrained = function == "g06";
    const testing::cec2006_g06 g06;
    std::unique_ptr<problem> p;
    const bool carry = encoding_name == "g3_pcx_carry";
    if (carry) encoding_name = "g3_pcx";
    const bool g3 = encoding_name.rfind("g3_", 0) == 0;
    const bool mgg = encoding_name.rfind("mgg_", 0) == 0;
    ga_options ga = encoding_name == "real" || constrained ? ga_options{} : gaucsd_options();
    if (encoding_name == "g3_pcx_metric") {
      ga = g3_pcx_metric_options();
    } else if (g3 || mgg) {
      ga = g3_pcx_options();
      ga.crossover = parse_crossover(encoding_name.substr(g3 ? 3 : 4));
      if (mgg) ga.model = generation_model::mgg;
    }
    if (constrained) {
      const auto cut = encoding_name.find('_');
      std::string crossover = encoding_name.substr(cut + 1);
      const bool constrained_mgg =
          crossover.size() > 4 && crossover.compare(crossover.size() - 4, 4, "_mgg") == 0;
      if (constrained_mgg) crossover.resize(crossover.size() - 4);
      constraint_options co;
      co.method = parse_constraint_handling(encoding_name.substr(0, cut));
      ga.constraints = co.method;
      ga.crossover = parse_crossover(crossover);
      if (ga.multi_parent()) {
        ga.model = constrained_mgg ? generation_model::mgg : generation_model::g3;
      }
      p = std::make_unique<constrained_objective>(g06, co);
    } else {
      p = make_test_function(function, std::atoi(argv[2]));
    }
    if (encoding_name == "gray") ga.genes = encoding::gray;
    ga.population = 40;
    if (ga.crossover == crossover_method::spx) ga.parents = std::min(p->dimension() + 1, 40);
    island_options io;
    io.islands = std::atoi(argv[3]);
    io.links = parse_topology(argv[4]);
    io.migration_interval = 5;
    io.migrants = 2;
    io.seed = std::strtoull(argv[6], nullptr, 10);
    island_model model(ga, io);
    termination t;
    t.max_generations = 60;
    if (carry) {
      range_run_options ro;
      ro.runs = 4;
      ro.shrink = 0.5;
      ro.carry = carry_mode::fill;
      const range_run_result rr = run_range_runs(model, *p, search_box::of(*p), t, ro);
      if (model.is_root()) {
        std::printf("%a %lld\n", rr.best_value, rr.evaluations);
        for (const auto& run : rr.runs) std::printf("%a\n", run.result.best_value);
        for (int j = 0; j < rr.best_x.size(); ++j) std::printf("%a\n", rr.best_x[j]);
      }
      return 0;
    }
    const run_result r = model.run(*p, search_box::of(*p), t);
    // A second run with another run index: the model is reused.
    run_settings s;
    s.run_index = 7;
    const run_result r2 = model.run(*p, search_box::of(*p), t, s);
    if (model.is_root()) {
      std::printf("%a %lld %lld %d\n", r.best_value, r.evaluations, r.generations, r.best_island);
      if (constrained) std::printf("violation %a\n", r.best_violation);
      for (int j = 0; j < r.best_x.size(); ++j) std::printf("%a\n", r.best_x[j]);
      std::printf("%a\n", r2.best_value);
      if (constrained) std::printf("violation %a\n", r2.best_violation);
      for (int j = 0; j < r2.best_x.size(); ++j) std::printf("%a\n", r2.best_x[j]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ga_mpi_driver: %s\n", e.what());
    mpi_environment::abort(1);
  }
  return 0;
}
