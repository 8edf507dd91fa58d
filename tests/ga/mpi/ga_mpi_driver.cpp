// Prints the best point of a fixed island-model run in hex floats (%a), so that ctest can
// compare threads against `mpiexec -n 2` / `-n 4` bit for bit.
//   ga_mpi_driver <function> <dim> <islands> <topology> <encoding> <seed> [checkpoint resume]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "ga/island_model.hpp"
#include "ga/mpi_environment.hpp"
#include "ga/test_functions.hpp"

int main(int argc, char** argv) {
  using namespace kinevo::ga;
  mpi_environment mpi(argc, argv);
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s function dim islands topology encoding seed\n", argv[0]);
    return 2;
  }
  try {
    const auto p = make_test_function(argv[1], std::atoi(argv[2]));
    ga_options ga = std::string(argv[5]) == "real" ? ga_options{} : gaucsd_options();
    if (std::string(argv[5]) == "gray") ga.genes = encoding::gray;
    ga.population = 40;
    island_options io;
    io.islands = std::atoi(argv[3]);
    io.links = parse_topology(argv[4]);
    io.migration_interval = 5;
    io.migrants = 2;
    io.seed = std::strtoull(argv[6], nullptr, 10);
    island_model model(ga, io);
    termination t;
    t.max_generations = 60;
    const run_result r = model.run(*p, search_box::of(*p), t);
    // A second run with another run index: the model is reused.
    run_settings s;
    s.run_index = 7;
    const run_result r2 = model.run(*p, search_box::of(*p), t, s);
    if (model.is_root()) {
      std::printf("%a %lld %lld %d\n", r.best_value, r.evaluations, r.generations, r.best_island);
      for (int j = 0; j < r.best_x.size(); ++j) std::printf("%a\n", r.best_x[j]);
      std::printf("%a\n", r2.best_value);
      for (int j = 0; j < r2.best_x.size(); ++j) std::printf("%a\n", r2.best_x[j]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ga_mpi_driver: %s\n", e.what());
    mpi_environment::abort(1);
  }
  return 0;
}
