// Interrupts an island-model run deterministically under mpiexec and resumes it, for ctest:
//   ga_mpi_interrupt_driver straight  <islands> <checkpoint>   prints the uninterrupted result
//   ga_mpi_interrupt_driver interrupt <islands> <checkpoint> <rank> <generation> <INT|TERM>
//       raises that signal on that rank alone at the synchronisation point of that generation;
//       every rank must stop at the next one, rank 0 writes the checkpoint, all exit 130
//   ga_mpi_interrupt_driver resume    <islands> <checkpoint>   prints the resumed result
//   ga_mpi_interrupt_driver wait      <islands> <checkpoint> <ready-file>
//       a slow run that touches ready-file from generation 8 on and runs until a real signal comes
//   ga_mpi_interrupt_driver nan       <islands> unused
//       an objective that turns NaN near its minimum: prints the failure message, which must be
//       the same for threads and for any number of ranks (issue 16, item 15)
// The printed result (hex floats) must be the same for all of them.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "kinevo/io/interrupt.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace {

using namespace kinevo::ga;
using namespace kinevo::io;

constexpr long long generations = 400;

// Rastrigin that takes its time, so that a real signal arrives mid-run.
class slow_rastrigin : public rastrigin_function {
 public:
  using rastrigin_function::rastrigin_function;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    std::this_thread::sleep_for(std::chrono::microseconds(1000) * x.cols());
    rastrigin_function::evaluate(x, values);
  }
};

// The sphere, NaN where it drops below 1: islands get there at different generations.
class sphere_nan_near_minimum : public sphere_function {
 public:
  using sphere_function::sphere_function;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    sphere_function::evaluate(x, values);
    for (Eigen::Index i = 0; i < values.size(); ++i) {
      if (values[i] < 1.0) values[i] = std::numeric_limits<double>::quiet_NaN();
    }
  }
};

void print(const island_model& model, const run_result& r) {
  if (!model.is_root()) return;
  std::printf("%a %lld %lld %d\n", r.best_value, r.evaluations, r.generations, r.best_island);
  for (int j = 0; j < r.best_x.size(); ++j) std::printf("%a\n", r.best_x[j]);
}

int run(int argc, char** argv) {
  const std::string mode = argv[1];
  island_options io;
  io.islands = std::atoi(argv[2]);
  io.migration_interval = 4;
  io.seed = 23;
  const std::string checkpoint = argv[3];
  ga_options ga;
  ga.population = 30;
  island_model model(ga, io);
  slow_rastrigin slow(5);
  rastrigin_function fast(5);
  // Same name and dimension: the checkpoint of one resumes with the other.
  const problem& p = mode == "wait" ? static_cast<const problem&>(slow) : fast;
  termination limits;
  limits.max_generations = mode == "wait" ? 1000000 : generations;
  limits.interrupt = &interrupt_flag();
  install_interrupt_handlers();
  run_settings s;
  if (mode == "straight") {
    print(model, model.run(p, search_box::of(p), limits));
    return 0;
  }
  if (mode == "nan") {
    const sphere_nan_near_minimum nan_problem(5);
    try {
      model.run(nan_problem, search_box::of(nan_problem), limits);
      std::printf("no failure\n");
    } catch (const std::runtime_error& e) {
      if (model.is_root()) std::printf("%s\n", e.what());
    }
    return 0;
  }
  if (mode == "resume") {
    limits.max_generations = generations;
    print(model, model.resume(p, search_box::of(p), checkpoint, limits));
    return 0;
  }
  s.checkpoint_file = checkpoint;
  s.checkpoint_every = 1000000;  // only the checkpoint the interrupt writes
  if (mode == "interrupt" && argc >= 7) {
    const int rank = std::atoi(argv[4]);
    const long long at = std::atoll(argv[5]);
    const int sig = std::string(argv[6]) == "INT" ? SIGINT : SIGTERM;
    s.on_sync = [=](const sync_report& r) {
      if (r.generation == at && mpi_environment::rank() == rank) std::raise(sig);
    };
  } else if (mode == "wait" && argc >= 5) {
    const std::string ready = argv[4];
    s.on_sync = [=](const sync_report& r) {
      if (r.generation >= 8 && mpi_environment::rank() == 0) std::ofstream(ready) << "ready\n";
    };
  } else {
    std::fprintf(stderr, "ga_mpi_interrupt_driver: bad arguments\n");
    return 2;
  }
  const run_result r = model.run(p, search_box::of(p), limits, s);
  if (r.reason != stop_reason::interrupted) {
    std::fprintf(stderr, "ga_mpi_interrupt_driver: not interrupted (%s)\n",
                 to_string(r.reason).c_str());
    return 1;
  }
  if (model.is_root()) std::fprintf(stderr, "interrupted at generation %lld\n", r.generations);
  return 130;
}

}  // namespace

int main(int argc, char** argv) {
  mpi_environment mpi(argc, argv);
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s straight|interrupt|resume|wait islands checkpoint ...\n",
                 argv[0]);
    return 2;
  }
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ga_mpi_interrupt_driver: %s\n", e.what());
    mpi_environment::abort(1);
  }
}
