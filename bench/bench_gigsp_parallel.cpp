// Threaded GIGSP against the serial one (generalized-inverse dissertation (GIGSP), section 4.4,
// Tables 4.6 and 4.7) and against an Eigen ColPivHouseholderQR solve of the same constrained
// system, on random dense systems. Prints a Markdown table (medians of --reps runs) and the
// machine load; docs/parallel-gigsp.md explains the columns.
//   build/bench/bench_gigsp_parallel [--reps 5] [--sizes 150x240,300x420,420x480,1000x1200]
//                                    [--block 32] [--threads 2] [--stat median|min]
#include <fmt/format.h>

#include <Eigen/Core>
#include <Eigen/QR>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/mechanics/solvers/gigsp_threaded.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace {

using namespace kinevo::mechanics;

double uniform(std::mt19937& gen) {
  return static_cast<double>(gen()) / 2147483648.0 - 1.0;
}

struct system_data {
  Eigen::MatrixXd mass, jacobian;
  Eigen::VectorXd force, rhs;
  bool diagonal = true;
  constrained_system view() const {
    constrained_system s;
    s.mass = mass;
    s.mass_is_diagonal = diagonal;
    s.force = force;
    s.jacobian = jacobian;
    s.rhs = rhs;
    return s;
  }
};

// Random dense A (m x n), consistent b, every 50th row redundant (a combination of two earlier
// rows); M = I or a random SPD matrix G G^T / n + I.
system_data make_system(int m, int n, bool spd, unsigned seed) {
  std::mt19937 gen(seed);
  system_data d;
  d.jacobian.resize(m, n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) d.jacobian(i, j) = uniform(gen);
  }
  Eigen::VectorXd a0(n);
  for (int j = 0; j < n; ++j) a0[j] = uniform(gen);
  for (int i = 49; i < m; i += 50) {
    d.jacobian.row(i) = 0.5 * d.jacobian.row(i - 7) - 0.25 * d.jacobian.row(i / 2);
  }
  d.rhs = d.jacobian * a0;
  d.force.resize(n);
  for (int j = 0; j < n; ++j) d.force[j] = uniform(gen);
  d.diagonal = !spd;
  if (spd) {
    Eigen::MatrixXd g(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) g(i, j) = uniform(gen);
    }
    d.mass = g * g.transpose() / n + Eigen::MatrixXd::Identity(n, n);
  } else {
    d.mass = Eigen::MatrixXd::Identity(n, n);
  }
  return d;
}

// gigsp_solver's threaded path on `pool` (so that 1 thread can be timed: the solver itself is
// serial below 2 threads).
Eigen::VectorXd threaded_gigsp(const constrained_system& s, kinevo::core::thread_pool& pool) {
  return gigsp_dense_threaded(s, 1e-9, 1e-7, 1e-8, pool).acceleration;
}

// The same system through Eigen's column-pivoting Householder QR of (A L^-T)^T = Q R P^T: the
// minimum-norm correction y = Q_1 R_1^-T (P^T c)_1 of A L^-T y = c = b - A L^-T g, a = L^-T (g +
// y).
Eigen::VectorXd qr_solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (start_solve(s, "qr", mf, a_f)) return {};
  const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
  const Eigen::VectorXd g = mf.solve_lower(s.force);
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a_hat.transpose());
  qr.setThreshold(1e-9);
  const Eigen::Index r = qr.rank();
  const Eigen::VectorXd pc = qr.colsPermutation().transpose() * (s.rhs - a_hat * g);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(a_hat.cols());
  y.head(r) =
      qr.matrixR().topLeftCorner(r, r).triangularView<Eigen::Upper>().transpose().solve(pc.head(r));
  y = qr.householderQ() * y;
  return mf.solve_upper(g + y);
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct timing {
  double seconds;  // median (or minimum) wall time
  double cores;    // median CPU time / wall time: the cores the process really had
};

// Medians (or minima) of `reps` runs of each function, taken round-robin (one run of each in
// turn) so that a burst of load from other processes falls on every column alike. `least`: the
// smallest time instead of the median (the run least touched by other processes).
std::vector<timing> median_seconds(int reps, const std::vector<std::function<void()>>& fs,
                                   bool least) {
  std::vector<std::vector<double>> t(fs.size()), c(fs.size());
  for (int i = 0; i < reps; ++i) {
    for (std::size_t k = 0; k < fs.size(); ++k) {
      const double cpu = process_cpu_seconds();
      const auto start = std::chrono::steady_clock::now();
      fs[k]();
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      t[k].push_back(wall);
      c[k].push_back((process_cpu_seconds() - cpu) / wall);
    }
  }
  std::vector<timing> out;
  for (std::size_t k = 0; k < fs.size(); ++k) {
    std::sort(t[k].begin(), t[k].end());
    std::sort(c[k].begin(), c[k].end());
    out.push_back({least ? t[k].front() : t[k][t[k].size() / 2], c[k][c[k].size() / 2]});
  }
  return out;
}

// The time of the threaded sweep on `threads` idle cores, replaying its schedule (cyclic blocks,
// look-ahead, waits for each factored block) with the task CPU times of a 1-thread run; the
// wake-ups (microseconds each, one per block) are not counted.
double modelled_sweep_seconds(const sweep_profile& p, int threads) {
  const int blocks = static_cast<int>(p.factor.size());
  if (blocks == 0) return p.outside;
  std::vector<double> clock(static_cast<std::size_t>(threads), 0.0);
  std::vector<double> factored(static_cast<std::size_t>(blocks), 0.0);
  // Each thread first copies its own blocks (update[j][j]).
  for (int j = 0; j < blocks; ++j) {
    clock[static_cast<std::size_t>(j % threads)] +=
        p.update[static_cast<std::size_t>(j)][static_cast<std::size_t>(j)];
  }
  clock[0] += p.factor[0];
  factored[0] = clock[0];
  for (int k = 0; k + 1 < blocks; ++k) {
    for (int t = 0; t < threads; ++t) {
      double& c = clock[static_cast<std::size_t>(t)];
      c = std::max(c, factored[static_cast<std::size_t>(k)]);
      const int first = k + 1 + ((t - (k + 1)) % threads + threads) % threads;
      for (int j = first; j < blocks; j += threads) {
        c += p.update[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)];
        if (j == k + 1) {
          c += p.factor[static_cast<std::size_t>(j)];
          factored[static_cast<std::size_t>(j)] = c;
        }
      }
    }
  }
  return *std::max_element(clock.begin(), clock.end()) + p.outside;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5, block = 32, threads = 2;
  bool least = false;
  std::string sizes = "150x240,300x420,420x480,1000x1200";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--reps") reps = std::stoi(value);
    if (key == "--block") block = std::stoi(value);
    if (key == "--threads") threads = std::stoi(value);
    if (key == "--sizes") sizes = value;
    if (key == "--stat") least = value == "min";
  }
  std::vector<std::pair<int, int>> shapes;
  std::stringstream ss(sizes);
  for (std::string item; std::getline(ss, item, ',');) {
    const auto x = item.find('x');
    shapes.emplace_back(std::stoi(item.substr(0, x)), std::stoi(item.substr(x + 1)));
  }
  fmt::print("load average before: {}\n", load_average());
  fmt::print("reps {} ({}), block {} rows, {} threads\n\n", reps, least ? "minima" : "medians",
             block, threads);
  fmt::print(
      "| A (m x n) | M | Ts serial [ms] | T1 [ms] | T{0} [ms] | S = Ts/T{0} | T1/T{0} | E = S/{0} "
      "| "
      "T1 - Ts [ms] | {0} T{0} - Ts [ms] | sweep Ts / T1 / T{0} [ms] | QR [ms] | max abs(a_qr - a) "
      "| "
      "max abs(a_T{0} - a) | cores T1 / T{0} |\n",
      threads);
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  kinevo::core::thread_pool pool1(1), pool(threads);
  for (const auto& [m, n] : shapes) {
    for (bool spd : {false, true}) {
      const system_data d = make_system(m, n, spd, 2026u + static_cast<unsigned>(m));
      const constrained_system s = d.view();
      auto serial = make_solver("gigsp", {});
      Eigen::VectorXd a_serial, a_1, a_p, a_qr;
      // The row process alone (the part Table 4.6 splits), on the same A L^-T.
      mass_factor mf;
      Eigen::VectorXd a_f;
      start_solve(s, "gigsp", mf, a_f);
      const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
      const std::vector<timing> t = median_seconds(
          reps,
          {[&] { a_serial = serial->solve(s).acceleration; },
           [&] { a_1 = threaded_gigsp(s, pool1); }, [&] { a_p = threaded_gigsp(s, pool); },
           [&] { a_qr = qr_solve(s); },
           [&] { orthonormalize_rows(a_hat, s.rhs, 1e-9, 1e-7, 1e-8); },
           [&] { orthonormalize_rows_threaded(a_hat, s.rhs, 1e-9, 1e-7, 1e-8, pool1, block); },
           [&] { orthonormalize_rows_threaded(a_hat, s.rhs, 1e-9, 1e-7, 1e-8, pool, block); }},
          least);
      const double ts = t[0].seconds, t1 = t[1].seconds, tp = t[2].seconds, tq = t[3].seconds;
      const double sweep_s = t[4].seconds, sweep_1 = t[5].seconds, sweep_p = t[6].seconds;
      // The solver with threads set must give the mirrored path's answer.
      solver_options o;
      o.direct.threads = threads;
      const Eigen::VectorXd a_solver = make_solver("gigsp", o)->solve(s).acceleration;
      if ((a_solver - a_p).cwiseAbs().maxCoeff() > 1e-12 * (1.0 + a_p.cwiseAbs().maxCoeff())) {
        fmt::print(stderr, "solver and mirrored path differ at {}x{}\n", m, n);
        return 1;
      }
      const double speedup = ts / tp;
      fmt::print(
          "| {}x{} | {} | {:.1f} | {:.1f} | {:.1f} | {:.2f} | {:.2f} | {:.2f} | {:+.1f} | {:+.1f} "
          "| "
          "{:.1f} / {:.1f} / {:.1f} | {:.1f} | {:.1e} | {:.1e} | {:.2f} / {:.2f} |\n",
          m, n, spd ? "SPD" : "I", 1e3 * ts, 1e3 * t1, 1e3 * tp, speedup, t1 / tp,
          speedup / threads, 1e3 * (t1 - ts), 1e3 * (threads * tp - ts), 1e3 * sweep_s,
          1e3 * sweep_1, 1e3 * sweep_p, 1e3 * tq, (a_qr - a_serial).cwiseAbs().maxCoeff(),
          (a_p - a_serial).cwiseAbs().maxCoeff(), t[1].cores, t[2].cores);
      std::fflush(stdout);
    }
  }
  // The sweep's schedule replayed with its task costs (load-independent: thread CPU times).
  fmt::print(
      "\nSweep on idle cores, modelled from the task CPU times of a 1-thread run (best of {}):\n\n"
      "| A (m x n) | sweep CPU, 1 thread [ms] | in-block share | outside tasks [ms] | "
      "modelled T{} [ms] | modelled T1/T{} |\n|---|---|---|---|---|---|\n",
      reps, threads, threads);
  for (const auto& [m, n] : shapes) {
    const system_data d = make_system(m, n, false, 2026u + static_cast<unsigned>(m));
    sweep_profile best;
    double best_total = 0.0;
    for (int i = 0; i < reps; ++i) {
      sweep_profile p;
      orthonormalize_rows_threaded(d.jacobian, d.rhs, 1e-9, 1e-7, 1e-8, pool1, block, &p);
      const double total = modelled_sweep_seconds(p, 1);
      if (i == 0 || total < best_total) {
        best = p;
        best_total = total;
      }
    }
    double in_block = 0.0;
    for (double f : best.factor) in_block += f;
    const double tp = modelled_sweep_seconds(best, threads);
    fmt::print("| {}x{} | {:.1f} | {:.1f} % | {:.1f} | {:.1f} | {:.2f} |\n", m, n, 1e3 * best_total,
               100.0 * in_block / best_total, 1e3 * best.outside, 1e3 * tp, best_total / tp);
  }
  fmt::print("\nload average after: {}\n", load_average());
  return 0;
}
