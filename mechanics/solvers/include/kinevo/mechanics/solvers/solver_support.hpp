// Pieces shared by the direct acceleration solvers: the factor of M (diagonal fast path or
// Cholesky), the unconstrained acceleration a_f = M^-1 f, constraint forces f_c = M (a - a_f)
// (generalized-inverse dissertation (GIGSP), eq. 2.18), and naming rows in messages.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/small_cholesky.hpp"

namespace kinevo::mechanics {

// M = L L^T, with L = diag(sqrt(m_ii)) when M is diagonal, and block by block when M is
// block-diagonal (a spatial model: L has the blocks' Cholesky factors; O(n) instead of O(n^3)).
class mass_factor {
 public:
  // Returns false when M is not positive definite.
  bool compute(const constrained_system& s);
  bool diagonal() const { return diagonal_; }
  bool blocked() const { return block_count_ > 0; }
  Eigen::VectorXd solve(const Eigen::VectorXd& f) const;              // M^-1 f
  Eigen::VectorXd solve_lower(const Eigen::VectorXd& f) const;        // L^-1 f
  Eigen::VectorXd solve_upper(const Eigen::VectorXd& y) const;        // L^-T y
  Eigen::MatrixXd right_solve_upper(const Eigen::MatrixXd& a) const;  // A L^-T
  // The same in place or into storage the caller keeps between solves (no allocation once the
  // sizes are reached); the arithmetic is that of the forms above, bit for bit.
  void solve_in_place(Eigen::VectorXd& x) const;        // x <- M^-1 x
  void solve_lower_in_place(Eigen::VectorXd& x) const;  // x <- L^-1 x
  void solve_upper_in_place(Eigen::VectorXd& x) const;  // x <- L^-T x
  // out = A L^-T; `work` holds its transpose on the way.
  void right_solve_upper(const Eigen::MatrixXd& a, Eigen::MatrixXd& out,
                         Eigen::MatrixXd& work) const;
  const Eigen::VectorXd& inverse_diagonal() const { return inv_diag_; }

 private:
  // A block of at most small_cholesky::max_size rows is factored in fixed-size storage
  // (`small`), a larger one by a dynamic-size LLT.
  struct block {
    Eigen::Index start = 0, size = 0;
    bool is_small = false;
    small_cholesky small;
    Eigen::LLT<Eigen::MatrixXd> llt;
  };
  bool compute_compact(const constrained_system& s);
  bool diagonal_ = false;
  Eigen::VectorXd sqrt_diag_, inv_diag_;
  Eigen::VectorXd diagonal_work_;  // M's diagonal of a dense system
  Eigen::MatrixXd block_work_;     // one block of a compact M
  Eigen::LLT<Eigen::MatrixXd> llt_;
  std::vector<block> blocks_;    // storage, kept between compute() calls
  std::size_t block_count_ = 0;  // > 0: the block-diagonal path, blocks_[0, block_count_)
  bool all_small_ = false;       // every active block is small
  std::span<const block> active_blocks() const { return {blocks_.data(), block_count_}; }
};

// M x, using M's diagonal or its blocks when known.
Eigen::VectorXd mass_times(const constrained_system& s, const Eigen::VectorXd& x);
// out = M x into the caller's storage (out must not alias x).
void mass_times(const constrained_system& s, const Eigen::VectorXd& x, Eigen::VectorXd& out);

// The dense form of a compact system (constrained_system::compact): M and A as dense matrices,
// for a solver or a message that needs them; a dense system is returned as it is.
constrained_system dense_system(const constrained_system& s);
// The same into `d`, reusing its storage (a solver's, kept between solves): M's and A's entries
// are written, the compact values are left as they are (unread once d.compact is false).
void dense_system_into(const constrained_system& s, constrained_system& d);

// "'rod1', 'rod2'" (or "row 3" when the system has no names).
std::string row_names(const constrained_system& s, const std::vector<int>& rows);

// Finishes a result: f_c = M (a - a_f).
void set_constraint_force(const constrained_system& s, const Eigen::VectorXd& a_f,
                          acceleration_result& r);
// The same with `work` for a - a_f, reusing r.constraint_force's storage.
void set_constraint_force(const constrained_system& s, const Eigen::VectorXd& a_f,
                          acceleration_result& r, Eigen::VectorXd& work);
// Empties a result for reuse by solve_into (status ok, no rows, no message), keeping the
// storage of its vectors.
void reset_result(acceleration_result& r);

acceleration_result not_positive_definite(const std::string& solver);

// A result with status non_finite when M, f, A or b has a NaN or infinite entry, naming the
// rows ("constraint 'root'"), else std::nullopt. Every solver checks this first: a direct
// solver given a NaN row dropped it as degenerate and answered "ok" (GIGSP, U-K), or crashed
// in its decomposition (S-L); a constraint that turns NaN during a run must stop it instead.
std::optional<acceleration_result> refuse_non_finite(const constrained_system& s,
                                                     const std::string& solver);

// The start every direct solver shares: refuse_non_finite(), factor M and a_f = M^-1 f. Returns
// the finished result when nothing is left to solve (a non-finite system, M not positive
// definite, or no constraints: a = a_f);
// otherwise std::nullopt with `mf` and `a_f` set. `checked`: the caller has already called
// refuse_non_finite() on this system.
std::optional<acceleration_result> start_solve(const constrained_system& s,
                                               const std::string& solver, mass_factor& mf,
                                               Eigen::VectorXd& a_f, bool checked = false);

// Row classification by modified Gram-Schmidt on the rows of A L^-T with a tolerance relative
// to each row, the same row operations applied to b (generalized-inverse dissertation (GIGSP),
// eqs. 2.21-2.30 and appendix A). Rows are taken in order; a row whose remainder is below
// rank_tolerance times its norm is dependent on the earlier ones: redundant when its
// right-hand side remainder is ~0, inconsistent otherwise. A remainder below
// degenerate_tolerance times the largest row norm also counts as zero (degenerate rows).
struct gram_schmidt_rows {
  Eigen::MatrixXd q;     // r x n orthonormal rows (A_1 without its zero rows)
  Eigen::VectorXd beta;  // r (b_1 without the entries of zero rows)
  std::vector<int> kept, redundant, inconsistent;
};
gram_schmidt_rows orthonormalize_rows(const Eigen::MatrixXd& a_hat, const Eigen::VectorXd& b,
                                      double rank_tolerance, double consistency_tolerance,
                                      double degenerate_tolerance);
// The sweep's scratch, kept by a solver between solves so that the sweep allocates nothing once
// the sizes are reached.
struct gram_schmidt_workspace {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rem, q;
  Eigen::VectorXd beta, norm0, qb, remainder;
  std::vector<char> decided;
  std::vector<int> dependent;
};
// The same sweep into `out` (its storage reused), with the caller's scratch.
void orthonormalize_rows(const Eigen::MatrixXd& a_hat, const Eigen::VectorXd& b,
                         double rank_tolerance, double consistency_tolerance,
                         double degenerate_tolerance, gram_schmidt_workspace& work,
                         gram_schmidt_rows& out);

}  // namespace kinevo::mechanics
