// The one interface of every constrained-acceleration solver: numbers in (M, f, A, b), the
// acceleration, constraint forces and diagnostics out. Solvers never see expressions.
//   M a = f + f_c,  A a = b   (seed 003, eqs. 2.5-2.9; f_c = M (a - a_f), eq. 2.18)
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kinevo::mechanics {

// The system at one state. Rows of A and entries of b follow constraint_names.
struct constrained_system {
  Eigen::MatrixXd mass;           // M, n x n, symmetric positive definite
  bool mass_is_diagonal = false;  // lets solvers take the diagonal fast path
  // A non-diagonal M's diagonal blocks (first coordinate, size), in order; empty when unknown
  // or M is diagonal. Lets solvers factor a spatial model's M block by block (owned by the model).
  std::span<const std::pair<int, int>> mass_blocks;
  Eigen::VectorXd force;                          // f, applied generalized forces (n)
  Eigen::MatrixXd jacobian;                       // A, m x n
  Eigen::VectorXd rhs;                            // b, m
  std::span<const std::string> constraint_names;  // m names (owned by the model)
  // Structurally non-zero (row, column) entries of A, row-major; empty means dense. Lets the
  // direct solvers exploit the sparsity of chains (owned by the model).
  std::span<const std::pair<int, int>> jacobian_pattern;

  // Compact form (model::evaluate with compact = true, for a solver whose reads_compact() is
  // true): `mass` and `jacobian` are left empty and M and A are held by their structurally
  // non-zero entries, so that a large spatial model does not need its dense n x n M and m x n A
  // (392 and 224 MB for a 1,000-link spatial chain). mass_values: M's diagonal when
  // mass_is_diagonal, else each of mass_blocks as a dense size x size column-major block, one
  // after another; jacobian_values: A's entries in jacobian_pattern order.
  bool compact = false;
  Eigen::VectorXd mass_values;
  Eigen::VectorXd jacobian_values;

  int coordinates() const { return static_cast<int>(force.size()); }
  int constraints() const { return static_cast<int>(rhs.size()); }
};

// The values are also the codes of the simulation CSV's solve_status column (0 ok ...
// 5 non_finite), so keep their order.
enum class solve_status {
  ok,             // a is the constrained acceleration
  least_squares,  // inconsistent set: a is a least-squares compromise (U-K) and says so
  inconsistent,   // refused: inconsistent constraints (GIGSP), see `inconsistent`
  singular,       // refused: singular system (LM with redundant rows, ...)
  not_converged,  // iterative solver (GA) stopped before its tolerance
  non_finite      // refused: M, f, A or b has a NaN or infinite entry (message names the rows)
};

// The name printed and written to JSON: "ok", "least_squares", "inconsistent", "singular",
// "not_converged", "non_finite".
inline const char* status_name(solve_status s) {
  switch (s) {
    case solve_status::ok:
      return "ok";
    case solve_status::least_squares:
      return "least_squares";
    case solve_status::inconsistent:
      return "inconsistent";
    case solve_status::singular:
      return "singular";
    case solve_status::not_converged:
      return "not_converged";
    case solve_status::non_finite:
      return "non_finite";
  }
  return "unknown";
}

struct acceleration_result {
  solve_status status = solve_status::ok;
  Eigen::VectorXd acceleration;      // a (n); empty when refused
  Eigen::VectorXd constraint_force;  // f_c = M (a - a_f) (n)
  int rank = 0;                      // numerical rank of A (M-weighted where relevant)
  std::vector<int> redundant;        // row indices of A found redundant (dropped)
  std::vector<int> inconsistent;     // row indices of A found inconsistent
  std::string message;               // human-readable diagnosis, names constraints
  // Iterative solvers (the GA) report their work here.
  long long evaluations = 0;
  int runs = 0;
};

class acceleration_solver {
 public:
  virtual ~acceleration_solver() = default;
  virtual std::string name() const = 0;
  // Non-const: a solver may keep state between calls (warm starts, workspaces).
  virtual acceleration_result solve(const constrained_system& system) = 0;
  // The same result into `out`, which the caller keeps from one solve to the next (a
  // simulation, at every stage): a solver that overrides this reuses out's storage and its
  // own, so a step allocates nothing. The default calls solve().
  virtual void solve_into(const constrained_system& system, acceleration_result& out) {
    out = solve(system);
  }
  // Whether solve_into() takes a compact system (constrained_system::compact) as well as a
  // dense one; a caller that builds the system asks before it does (the default: dense only).
  virtual bool reads_compact() const { return false; }
};

}  // namespace kinevo::mechanics
