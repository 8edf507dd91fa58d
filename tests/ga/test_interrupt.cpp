// SIGINT and SIGTERM raise the one interrupt flag; a GA run polls it through
// termination::interrupt, stops at a synchronisation point and its checkpoint resumes exactly.
#include "kinevo/io/interrupt.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace kinevo::ga {
namespace {

// The interrupt flag (io/interrupt.hpp).
using io::clear_interrupt;
using io::install_interrupt_handlers;
using io::interrupt_flag;
using io::interrupt_requested;
using io::interrupt_signal;
using io::request_interrupt;

TEST(Interrupt, SigintAndSigtermRaiseTheFlagAndSayWhich) {
  install_interrupt_handlers();
  for (const int sig : {SIGINT, SIGTERM}) {
    clear_interrupt();
    EXPECT_FALSE(interrupt_requested());
    ASSERT_EQ(std::raise(sig), 0);
    EXPECT_TRUE(interrupt_requested()) << sig;
    EXPECT_EQ(interrupt_signal(), sig);
    // A second signal must not end the process (under mpiexec a rank gets two).
    ASSERT_EQ(std::raise(sig), 0);
    EXPECT_TRUE(interrupt_flag().load());
  }
  clear_interrupt();
  request_interrupt();
  EXPECT_TRUE(interrupt_requested());
  EXPECT_EQ(interrupt_signal(), 0);
  clear_interrupt();
  EXPECT_FALSE(interrupt_requested());
}

// A SIGTERM at generation 23 stops the run at the next synchronisation point (25); the state
// saved then resumes to the uninterrupted result, bit for bit.
TEST(Interrupt, ASigtermedRunResumesToTheUninterruptedResult) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_interrupt_test";
  std::filesystem::create_directories(dir);
  install_interrupt_handlers();
  clear_interrupt();
  ackley_function p(4);
  island_options io;
  io.islands = 3;
  io.migration_interval = 5;
  io.seed = 5;
  termination limits;
  limits.max_generations = 60;
  limits.interrupt = &interrupt_flag();
  island_model straight_model(ga_options{}, io);
  const run_result straight = straight_model.run(p, search_box::of(p), limits);

  run_settings s;
  s.checkpoint_file = dir / "state.txt";
  s.checkpoint_every = 1000;  // only the checkpoint written because of the interrupt
  s.on_sync = [](const sync_report& r) {
    if (r.generation == 20) std::raise(SIGTERM);  // seen at the sync point of generation 25
  };
  island_model m(ga_options{}, io);
  const run_result cut = m.run(p, search_box::of(p), limits, s);
  EXPECT_EQ(cut.reason, stop_reason::interrupted);
  EXPECT_EQ(cut.generations, 25);
  clear_interrupt();

  island_model again(ga_options{}, io);
  const run_result resumed = again.resume(p, search_box::of(p), dir / "state.txt", limits);
  EXPECT_EQ(resumed.best_value, straight.best_value);
  EXPECT_EQ(resumed.best_x, straight.best_x);
  EXPECT_EQ(resumed.evaluations, straight.evaluations);
  EXPECT_EQ(resumed.generations, straight.generations);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::ga
