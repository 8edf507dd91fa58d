// The distributed GIGSP over MPI ranks against the serial GIGSP (generalized-inverse
// dissertation (GIGSP), section 4.4, Tables 4.6-4.8), run by hand:
//   mpiexec -n 1 build/bench/bench_gigsp_mpi        mpiexec -n 2 build/bench/bench_gigsp_mpi
//   [reps] [block_rows ...]
// For A of 150x240, 300x420, 420x480 and 1000x1200 (random dense rows, three redundant, M
// diagonal so that the Gram-Schmidt sweep dominates as in the dissertation's timings): serial
// time Ts (gigsp on rank 0), distributed time Tp (every rank; rank 0's clock), speedup Ts/Tp,
// efficiency Ts/(p Tp), overhead p Tp - Ts, and the collective calls and doubles per solve.
// Then the measured broadcast cost t(bytes) = latency + bytes/bandwidth (latency from one
// double, bandwidth from the largest messages), and the time model T(p) = compute/p + blocks
// (latency + bytes/bandwidth) ceil(log2 p), also with the part that does not divide (own blocks,
// set-up) kept whole, that projects the node count of minimum time (Table 4.8). Rank 0 prints
// markdown.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../tests/mechanics/random_gigsp_systems.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/mechanics/solvers/gigsp_distributed.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/studies/mpi_row_collective.hpp"

namespace {

using namespace kinevo;
using clock_type = std::chrono::steady_clock;

void barrier() {
  std::vector<double> token(1, 0.0);
  ga::mpi_environment::broadcast(token, 0);
}

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Rank 0's view: every rank takes the same decisions from broadcast values.
double broadcast_value(double v) {
  std::vector<double> x(1, v);
  ga::mpi_environment::broadcast(x, 0);
  return x[0];
}

struct timing {
  double serial = 0.0, one_process = 0.0, distributed = 0.0;
  long long calls = 0, doubles = 0;
  bool blocked = true;
  double block = 0.0, update = 0.0, collective = 0.0;  // rank 0's parts of the last solve
};

timing measure(const mechanics::constrained_system& s, int block_rows, int reps) {
  const bool root = ga::mpi_environment::rank() == 0;
  timing t;
  std::vector<double> ts, t1, tp;
  for (int r = 0; r < reps; ++r) {
    barrier();
    if (root) {
      mechanics::gigsp_solver serial;
      const auto t0 = clock_type::now();
      const auto res = serial.solve(s);
      ts.push_back(seconds_since(t0));
      if (res.rank <= 0) std::abort();
      mechanics::gigsp_distributed_solver one({}, std::make_shared<mechanics::serial_collective>(),
                                              {.block_rows = block_rows, .min_rows = 1});
      const auto t1_0 = clock_type::now();
      one.solve(s);
      t1.push_back(seconds_since(t1_0));
    }
    barrier();
    mechanics::gigsp_distributed_solver d({}, std::make_shared<studies::mpi_row_collective>(),
                                          {.block_rows = block_rows, .min_rows = 1});
    const auto t0 = clock_type::now();
    const auto res = d.solve(s);
    tp.push_back(seconds_since(t0));
    if (res.rank <= 0) std::abort();
    t.calls = d.last_statistics().broadcasts;
    t.doubles = d.last_statistics().doubles_sent;
    t.blocked = !d.last_statistics().serial_route && !d.last_statistics().fell_back;
    t.block = d.last_statistics().block_seconds;
    t.update = d.last_statistics().update_seconds;
    t.collective = d.last_statistics().collective_seconds;
  }
  t.serial = broadcast_value(root ? median(ts) : 0.0);
  t.one_process = broadcast_value(root ? median(t1) : 0.0);
  t.distributed = broadcast_value(median(tp));
  return t;
}

struct link_cost {
  double latency = 0.0, seconds_per_byte = 0.0;
};

// Broadcast of k doubles (roots alternating), timed over many repetitions; t(bytes) = latency +
// bytes / bandwidth.
link_cost measure_broadcast() {
  const bool root = ga::mpi_environment::rank() == 0;
  std::vector<double> x, y;
  if (root) fmt::print("\n| doubles | bytes | broadcast time (us) |\n|---:|---:|---:|\n");
  for (const int k : {1, 16, 128, 1024, 4096, 16384, 65536, 262144}) {
    std::vector<double> data(static_cast<std::size_t>(k), 1.0);
    const int reps = std::max(10, 4000 / (1 + k / 64));
    // The fastest of five batches: the machine is shared, and the link's cost is its best.
    double t = 1e30;
    for (int batch = 0; batch < 5; ++batch) {
      barrier();
      const auto t0 = clock_type::now();
      for (int r = 0; r < reps; ++r) ga::mpi_environment::broadcast(data, r % 2);
      barrier();
      t = std::min(t, broadcast_value(seconds_since(t0) / reps));
    }
    x.push_back(8.0 * k);
    y.push_back(t);
    if (root) fmt::print("| {} | {} | {:.2f} |\n", k, 8 * k, 1e6 * t);
  }
  // Latency: the one-double broadcast; bandwidth: the slope between the two largest messages
  // (a least-squares line is pulled by the largest sizes and can give a latency below zero).
  link_cost c;
  const std::size_t last = x.size() - 1;
  c.latency = y.front();
  c.seconds_per_byte = std::max(1e-12, (y[last] - y[last - 1]) / (x[last] - x[last - 1]));
  c.latency = broadcast_value(c.latency);
  c.seconds_per_byte = broadcast_value(c.seconds_per_byte);
  return c;
}

// The time of one solve on p ranks: `serial` (own blocks, set-up, the final solve: not divided),
// `divided` / p (the block updates), and one broadcast per row block through a binomial tree
// of ceil(log2 p) stages. With serial = 0 it is the plain model compute/p + communication(p).
double model_time(double serial, double divided, int m, int n, int block, int p,
                  const link_cost& c) {
  if (p == 1) return serial + divided;
  const double blocks = std::ceil(static_cast<double>(m) / block);
  const double bytes = 8.0 * (3.0 + block * (n + 2.0));
  return serial + divided / p +
         blocks * (c.latency + bytes * c.seconds_per_byte) *
             std::ceil(std::log2(static_cast<double>(p)));
}

int best_nodes(double serial, double divided, int m, int n, int block, const link_cost& c) {
  int best = 1;
  for (int p = 2; p <= 512; ++p) {
    if (model_time(serial, divided, m, n, block, p, c) <
        model_time(serial, divided, m, n, block, best, c))
      best = p;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  ga::mpi_environment mpi(argc, argv);
  const int ranks = ga::mpi_environment::size();
  const bool root = ga::mpi_environment::rank() == 0;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  std::vector<int> blocks;
  for (int i = 2; i < argc; ++i) blocks.push_back(std::atoi(argv[i]));
  if (blocks.empty()) blocks = {8, 16, 32, 64};

  struct size_case {
    int m, n;
  };
  const std::vector<size_case> sizes = {{150, 240}, {300, 420}, {420, 480}, {1000, 1200}};
  if (root) {
    fmt::print("## {} rank(s), median of {} solves\n\n", ranks, reps);
    fmt::print(
        "| A (m x n) | block rows | Ts serial (ms) | T1 blocked, 1 process (ms) | Tp distributed "
        "(ms) | speedup Ts/Tp | T1/Tp | efficiency Ts/(p Tp) | overhead p Tp - Ts (ms) | "
        "collective calls | doubles moved | blocked sweep | rank 0: own blocks / updates / in "
        "collectives (ms) |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  }
  for (const auto& sz : sizes) {
    const int third = sz.m / 3;
    const test::random_gigsp_system sys(sz.m, sz.n, 4242u + static_cast<unsigned>(sz.m),
                                        {third, third + 1, 2 * third}, {}, false);
    const mechanics::constrained_system s = sys.system();
    for (const int b : blocks) {
      const timing t = measure(s, b, sz.m >= 1000 ? std::max(3, reps / 2) : reps);
      if (!root) continue;
      fmt::print(
          "| {}x{} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {} | {} | "
          "{} | {:.2f} / {:.2f} / {:.2f} |\n",
          sz.m, sz.n, b, 1e3 * t.serial, 1e3 * t.one_process, 1e3 * t.distributed,
          t.serial / t.distributed, t.one_process / t.distributed,
          t.serial / (ranks * t.distributed), 1e3 * (ranks * t.distributed - t.serial), t.calls,
          t.doubles, t.blocked ? "yes" : "no", 1e3 * t.block, 1e3 * t.update, 1e3 * t.collective);
    }
  }

  if (ranks < 2) return 0;  // no link to measure
  if (root) fmt::print("\n## Broadcast cost between {} ranks\n", ranks);
  const link_cost c = measure_broadcast();
  if (!root) return 0;
  fmt::print("\nfit: latency {:.2f} us, bandwidth {:.2f} GB/s\n", 1e6 * c.latency,
             1e-9 / c.seconds_per_byte);
  // Projection of Table 4.8: compute = the blocked sweep on one process (the one-rank
  // collective, on rank 0), communication from the fit above and from an assumed cluster link.
  const link_cost cluster{50e-6, 8e-9};  // Gigabit Ethernet: 50 us, 125 MB/s
  // The dissertation's era (assumed, for the shape of Table 4.8): nodes 100 times slower than
  // this one, a switch of 40 us and 100 MB/s.
  const link_cost old_switch{40e-6, 1e-8};
  constexpr double old_slowdown = 100.0;
  const int block = 16;
  fmt::print(
      "\n## Projected node count of minimum time (block {})\n\nT1 = the blocked sweep on one "
      "process (rank 0, one-rank collective) = S + U, U its block updates. Plain model: T(p) = "
      "T1/p + comm(p); with the serial part: T(p) = S + U/p + comm(p).\n\n| m | n | T1 (ms) | U/T1 "
      "| best p, plain, this link | best p, plain, GbE | best p, S + U/p, this link | best p, S + "
      "U/p, GbE | best p, S + U/p, compute x100, 40 us, 100 MB/s "
      "|\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      block);
  std::vector<size_case> grid;
  for (const int m : {10, 50, 100})
    for (const int n : {10, 50, 100, 1000})
      if (m <= n) grid.push_back({m, n});
  grid.insert(grid.end(), sizes.begin(), sizes.end());
  for (const auto& g : grid) {
    const test::random_gigsp_system sys(g.m, g.n, 77u + static_cast<unsigned>(g.m + g.n), {}, {},
                                        false);
    const mechanics::constrained_system s = sys.system();
    mechanics::gigsp_distributed_solver one({}, std::make_shared<mechanics::serial_collective>(),
                                            {.block_rows = block, .min_rows = 1});
    const int runs = g.m * g.n > 100000 ? 3 : 51;
    std::vector<double> t, u;
    for (int r = 0; r < runs; ++r) {
      const auto t0 = clock_type::now();
      one.solve(s);
      t.push_back(seconds_since(t0));
      u.push_back(one.last_statistics().update_seconds);
    }
    const double total = median(t), divided = std::min(total, median(u));
    fmt::print("| {} | {} | {:.4f} | {:.2f} | {} | {} | {} | {} | {} |\n", g.m, g.n, 1e3 * total,
               divided / total, best_nodes(0.0, total, g.m, g.n, block, c),
               best_nodes(0.0, total, g.m, g.n, block, cluster),
               best_nodes(total - divided, divided, g.m, g.n, block, c),
               best_nodes(total - divided, divided, g.m, g.n, block, cluster),
               best_nodes(old_slowdown * (total - divided), old_slowdown * divided, g.m, g.n, block,
                          old_switch));
  }
  return 0;
}
