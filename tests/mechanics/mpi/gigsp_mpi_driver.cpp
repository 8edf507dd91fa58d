// The distributed GIGSP over MPI ranks against the serial GIGSP on random dense systems with
// redundant and inconsistent rows. Prints, on rank 0, what must not depend on the number of
// ranks (rank, rows named, status, agreement to round-off), so that ctest can compare a plain
// run with `mpiexec -n 2`; exits 1 when the two solvers disagree or the ranks' results differ
// in any bit.
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "../random_gigsp_systems.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/mechanics/solvers/gigsp_distributed.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/studies/mpi_row_collective.hpp"

namespace {

using namespace kinevo;

std::string list(const std::vector<int>& rows) {
  std::string out = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(rows[i]);
  }
  out += ']';
  return out;
}

// True when every rank holds rank 0's result bit for bit.
bool ranks_agree(const mechanics::acceleration_result& r) {
  std::vector<double> mine(r.acceleration.begin(), r.acceleration.end());
  mine.insert(mine.end(), r.constraint_force.begin(), r.constraint_force.end());
  mine.push_back(static_cast<double>(r.rank));
  for (const int i : r.redundant) mine.push_back(i);
  for (const int i : r.inconsistent) mine.push_back(-1.0 - i);
  std::vector<double> root = mine;
  ga::mpi_environment::broadcast(root, 0);
  return !ga::mpi_environment::any_rank(root != mine);
}

}  // namespace

int main(int argc, char** argv) {
  ga::mpi_environment mpi(argc, argv);
  const bool root = ga::mpi_environment::rank() == 0;
  struct system_case {
    int m, n;
    unsigned seed;
    std::vector<int> redundant, inconsistent;
    bool dense_mass;
    int block_rows;
  };
  const std::vector<system_case> cases = {
      {40, 60, 1, {}, {}, false, 4},
      {60, 80, 2, {17, 33, 34}, {}, false, 8},
      {70, 90, 3, {20, 55}, {}, true, 16},
      {50, 60, 4, {12}, {30, 49}, false, 5},
      {150, 240, 5, {40, 41, 120}, {90}, false, 16},
  };
  bool ok = true;
  try {
    auto collective = std::make_shared<studies::mpi_row_collective>();
    for (const auto& c : cases) {
      const test::random_gigsp_system sys(c.m, c.n, c.seed, c.redundant, c.inconsistent,
                                          c.dense_mass);
      const mechanics::constrained_system s = sys.system();
      mechanics::gigsp_distributed_solver distributed({}, collective, {.block_rows = c.block_rows});
      const mechanics::acceleration_result d = distributed.solve(s);
      const mechanics::acceleration_result serial = mechanics::gigsp_solver().solve(s);
      bool same = d.status == serial.status && d.rank == serial.rank &&
                  d.redundant == serial.redundant && d.inconsistent == serial.inconsistent &&
                  d.message == serial.message &&
                  d.acceleration.size() == serial.acceleration.size();
      if (same && serial.acceleration.size() > 0) {
        const double scale = 1.0 + serial.acceleration.cwiseAbs().maxCoeff();
        same = (d.acceleration - serial.acceleration).cwiseAbs().maxCoeff() < 1e-10 * scale;
      }
      const bool agree = ranks_agree(d);
      const bool blocked =
          !distributed.last_statistics().serial_route && !distributed.last_statistics().fell_back;
      same = !ga::mpi_environment::any_rank(!same);
      ok = ok && same && agree && blocked;
      if (root) {
        std::printf(
            "%dx%d seed %u: status %s rank %d redundant %s inconsistent %s; same as serial "
            "GIGSP: %s; ranks bit-identical: %s; blocked sweep: %s\n",
            c.m, c.n, c.seed, mechanics::status_name(d.status), d.rank, list(d.redundant).c_str(),
            list(d.inconsistent).c_str(), same ? "yes" : "NO", agree ? "yes" : "NO",
            blocked ? "yes" : "no");
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gigsp_mpi_driver: %s\n", e.what());
    ga::mpi_environment::abort(2);
  }
  return ok ? 0 : 1;
}
