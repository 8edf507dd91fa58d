#include "kinevo/mechanics/solvers/gigsp_threaded.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <ctime>
#include <utility>

namespace kinevo::mechanics {

namespace {

using row_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The shared state of one sweep. Block k's rows of `rem`, `beta`, `q`, `qb` are written only
// by the thread that owns block k; its accepted rows are stored in q's rows of the block itself
// (q.middleRows(start(k), accepted[k])).
struct sweep {
  row_matrix rem, q;
  Eigen::VectorXd beta, qb, norm0, later_norm;
  double scale = 0.0, rank_tolerance = 0.0, degenerate_tolerance = 0.0;
  int rows = 0, block_rows = 1, blocks = 0;
  std::vector<int> accepted;
  std::vector<std::vector<int>> kept, dependent;
  std::atomic<int> factored{0};      // blocks factored so far; `blocks` once deferred
  sweep_profile* profile = nullptr;  // each entry written by the task's thread only
  const Eigen::MatrixXd* a_hat = nullptr;
  std::atomic<bool> deferred{false};

  int start(int k) const { return k * block_rows; }
  int size(int k) const { return std::min(block_rows, rows - start(k)); }
};

// Modified Gram-Schmidt inside block k, whose rows already have every earlier block's accepted
// rows removed: the serial sweep's tests in the serial order (orthonormalize_rows).
void factor_block(sweep& s, int k) {
  const int first = s.start(k), end = first + s.size(k);
  int taken = 0;
  for (int i = first; i < end; ++i) {
    const double nr = s.rem.row(i).norm();
    if (s.norm0[i] == 0.0 || nr <= s.rank_tolerance * s.norm0[i] ||
        nr <= s.degenerate_tolerance * s.scale) {
      s.dependent[static_cast<std::size_t>(k)].push_back(i);
      continue;
    }
    // The serial sweep takes the first undecided row whose remainder is at least 1e-3 of the
    // largest remainder of the undecided rows; these are all at most later_norm[i] (remainders
    // only shrink), so this row is surely taken. Otherwise it might wait there: give up.
    if (nr < 1e-3 * s.later_norm[i]) {
      s.deferred = true;
      return;
    }
    // Second pass against the block's accepted rows (earlier blocks were removed twice).
    for (int j = first; j < first + taken; ++j) {
      const double c = s.q.row(j).dot(s.rem.row(i));
      s.rem.row(i) -= c * s.q.row(j);
      s.beta[i] -= c * s.qb[j];
    }
    const int r = first + taken;
    const double n2 = s.rem.row(i).norm();
    s.q.row(r) = s.rem.row(i) / n2;
    s.qb[r] = s.beta[i] / n2;
    s.kept[static_cast<std::size_t>(k)].push_back(i);
    for (int l = i + 1; l < end; ++l) {
      const double c = s.q.row(r).dot(s.rem.row(l));
      s.rem.row(l) -= c * s.q.row(r);
      s.beta[l] -= c * s.qb[r];
    }
    ++taken;
  }
  s.accepted[static_cast<std::size_t>(k)] = taken;
}

// Removes block k's accepted rows Q from block j: R -= (R Q^T) Q, twice (block classical
// Gram-Schmidt with reorthogonalisation), as matrix products.
void update_block(sweep& s, int j, int k, Eigen::MatrixXd& c) {
  const int taken = s.accepted[static_cast<std::size_t>(k)];
  if (taken == 0) return;
  auto r = s.rem.middleRows(s.start(j), s.size(j));
  auto b = s.beta.segment(s.start(j), s.size(j));
  const auto q = s.q.middleRows(s.start(k), taken);
  const auto qb = s.qb.segment(s.start(k), taken);
  for (int pass = 0; pass < 2; ++pass) {
    c.noalias() = r * q.transpose();
    r.noalias() -= c * q;
    b.noalias() -= c * qb;
  }
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void timed_factor(sweep& s, int k) {
  if (!s.profile) return factor_block(s, k);
  const double start = thread_cpu_seconds();
  factor_block(s, k);
  s.profile->factor[static_cast<std::size_t>(k)] = thread_cpu_seconds() - start;
}

void timed_update(sweep& s, int j, int k, Eigen::MatrixXd& c) {
  if (!s.profile) return update_block(s, j, k, c);
  const double start = thread_cpu_seconds();
  update_block(s, j, k, c);
  s.profile->update[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)] =
      thread_cpu_seconds() - start;
}

void publish(sweep& s, int value) {
  s.factored.store(value, std::memory_order_release);
  s.factored.notify_all();
}

// Thread t of `threads`: the blocks t, t + threads, ... (cyclic), each updated with block k's
// rows in the order k = 0, 1, ...; the owner of block k + 1 updates and factors it first.
void work_share(sweep& s, int t, int threads) {
  Eigen::MatrixXd c;
  // Each thread copies its own blocks of A L^-T (row-major) first.
  for (int j = t; j < s.blocks; j += threads) {
    const double start = s.profile ? thread_cpu_seconds() : 0.0;
    s.rem.middleRows(s.start(j), s.size(j)) = s.a_hat->middleRows(s.start(j), s.size(j));
    if (s.profile) {
      s.profile->update[static_cast<std::size_t>(j)][static_cast<std::size_t>(j)] =
          thread_cpu_seconds() - start;
    }
  }
  if (t == 0) {
    timed_factor(s, 0);
    publish(s, s.deferred ? s.blocks : 1);
  }
  for (int k = 0; k + 1 < s.blocks; ++k) {
    for (int f = s.factored.load(std::memory_order_acquire); f < k + 1;
         f = s.factored.load(std::memory_order_acquire)) {
      s.factored.wait(f, std::memory_order_acquire);
    }
    if (s.deferred) return;
    const int first = k + 1 + ((t - (k + 1)) % threads + threads) % threads;
    for (int j = first; j < s.blocks; j += threads) {
      timed_update(s, j, k, c);
      if (j == k + 1) {
        timed_factor(s, j);
        publish(s, s.deferred ? s.blocks : k + 2);
        if (s.deferred) return;
      }
    }
  }
}

}  // namespace

gram_schmidt_rows orthonormalize_rows_threaded(const Eigen::MatrixXd& a_hat,
                                               const Eigen::VectorXd& b, double rank_tolerance,
                                               double consistency_tolerance,
                                               double degenerate_tolerance, core::thread_pool& pool,
                                               int block_rows, sweep_profile* profile) {
  const double cpu_start = profile ? thread_cpu_seconds() : 0.0;
  const int m = static_cast<int>(a_hat.rows());
  const Eigen::Index n = a_hat.cols();
  sweep s;
  s.rows = m;
  s.block_rows = std::max(1, block_rows);
  s.blocks = (m + s.block_rows - 1) / s.block_rows;
  s.a_hat = &a_hat;
  s.rem.resize(m, n);
  s.beta = b;
  s.q.resize(m, n);
  s.qb.resize(m);
  s.norm0 = a_hat.cwiseAbs2().rowwise().sum().cwiseSqrt();  // column by column: vectorised
  s.scale = m > 0 ? s.norm0.maxCoeff() : 0.0;
  // later_norm[i] = max over rows l >= i of |a_l|: bounds every remainder still undecided at i.
  s.later_norm = s.norm0;
  for (int i = m - 2; i >= 0; --i) s.later_norm[i] = std::max(s.later_norm[i], s.later_norm[i + 1]);
  s.rank_tolerance = rank_tolerance;
  s.degenerate_tolerance = degenerate_tolerance;
  s.accepted.assign(static_cast<std::size_t>(s.blocks), 0);
  s.kept.resize(static_cast<std::size_t>(s.blocks));
  s.dependent.resize(static_cast<std::size_t>(s.blocks));
  if (profile) {
    s.profile = profile;
    profile->factor.assign(static_cast<std::size_t>(s.blocks), 0.0);
    profile->update.assign(static_cast<std::size_t>(s.blocks),
                           std::vector<double>(static_cast<std::size_t>(s.blocks), 0.0));
  }

  const int threads = std::min(pool.size(), s.blocks);
  if (threads <= 1) {
    if (s.blocks > 0) work_share(s, 0, 1);
  } else {
    // The shares wait for each other's blocks: one that threw (only std::bad_alloc) would leave
    // the others waiting for ever, so it ends the program instead (noexcept).
    pool.run([&](int t) {
      if (t < threads) [&]() noexcept { work_share(s, t, threads); }();
    });
  }
  if (s.deferred) {
    return orthonormalize_rows(a_hat, b, rank_tolerance, consistency_tolerance,
                               degenerate_tolerance);
  }

  gram_schmidt_rows g;
  int r = 0;
  for (int k = 0; k < s.blocks; ++k) r += s.accepted[static_cast<std::size_t>(k)];
  g.q.resize(r, n);
  g.beta.resize(r);
  int at = 0;
  for (int k = 0; k < s.blocks; ++k) {
    const int taken = s.accepted[static_cast<std::size_t>(k)];
    g.q.middleRows(at, taken) = s.q.middleRows(s.start(k), taken);
    g.beta.segment(at, taken) = s.qb.segment(s.start(k), taken);
    const auto& kept = s.kept[static_cast<std::size_t>(k)];
    g.kept.insert(g.kept.end(), kept.begin(), kept.end());
    at += taken;
  }
  // A dependent row's right-hand side remainder must vanish too, or the set is inconsistent
  // (as in the serial sweep: its frozen remainder against every accepted row).
  // All dependent rows at once: C = R_d Q^T (one matrix product), beta_d - C beta.
  const double b_scale = 1.0 + (b.size() > 0 ? b.cwiseAbs().maxCoeff() : 0.0);
  std::vector<int> dependent;
  for (const auto& rows : s.dependent) dependent.insert(dependent.end(), rows.begin(), rows.end());
  if (!dependent.empty()) {
    row_matrix rd(static_cast<Eigen::Index>(dependent.size()), n);
    Eigen::VectorXd bd(static_cast<Eigen::Index>(dependent.size()));
    for (std::size_t d = 0; d < dependent.size(); ++d) {
      rd.row(static_cast<Eigen::Index>(d)) = s.rem.row(dependent[d]);
      bd[static_cast<Eigen::Index>(d)] = s.beta[dependent[d]];
    }
    const Eigen::VectorXd remainder = bd - (rd * g.q.transpose()) * g.beta;
    for (std::size_t d = 0; d < dependent.size(); ++d) {
      if (std::abs(remainder[static_cast<Eigen::Index>(d)]) > consistency_tolerance * b_scale) {
        g.inconsistent.push_back(dependent[d]);
      } else {
        g.redundant.push_back(dependent[d]);
      }
    }
  }
  if (profile) {
    double tasks = 0.0;
    for (double f : profile->factor) tasks += f;
    for (const auto& row : profile->update) {
      for (double u : row) tasks += u;
    }
    profile->outside = thread_cpu_seconds() - cpu_start - tasks;
  }
  return g;
}

bool threaded_cholesky(const Eigen::MatrixXd& m, core::thread_pool& pool, Eigen::MatrixXd& l,
                       int block) {
  const int n = static_cast<int>(m.rows());
  const int threads = pool.size();
  block = std::max(1, block);
  l = m;
  for (int k = 0; k < n; k += block) {
    const int b = std::min(block, n - k), rest = n - k - b;
    const Eigen::LLT<Eigen::MatrixXd> llt(l.block(k, k, b, b));
    if (llt.info() != Eigen::Success) return false;
    l.block(k, k, b, b) = llt.matrixL();
    if (rest == 0) break;
    // Row blocks under the diagonal block, each written by one thread only.
    const int chunks = (rest + block - 1) / block;
    const auto rows_of = [&](int c) {
      const int r0 = k + b + c * block;
      return std::pair{r0, std::min(block, n - r0)};
    };
    const auto each_chunk = [&](const std::function<void(int, int)>& f) {
      if (threads < 2 || chunks < 2) {
        for (int c = 0; c < chunks; ++c) f(rows_of(c).first, rows_of(c).second);
        return;
      }
      pool.run([&](int t) {
        for (int c = t; c < chunks; c += threads) f(rows_of(c).first, rows_of(c).second);
      });
    };
    each_chunk([&](int r0, int rb) {
      auto panel = l.block(r0, k, rb, b);
      l.block(k, k, b, b)
          .transpose()
          .triangularView<Eigen::Upper>()
          .solveInPlace<Eigen::OnTheRight>(panel);
    });
    // Only the lower part is needed: columns k + b .. r0 + rb of each row block.
    each_chunk([&](int r0, int rb) {
      const int cols = r0 + rb - (k + b);
      l.block(r0, k + b, rb, cols).noalias() -=
          l.block(r0, k, rb, b) * l.block(k + b, k, cols, b).transpose();
    });
  }
  l.triangularView<Eigen::StrictlyUpper>().setZero();
  return true;
}

Eigen::MatrixXd right_solve_lower_transpose_threaded(const Eigen::MatrixXd& l,
                                                     const Eigen::MatrixXd& a,
                                                     core::thread_pool& pool) {
  const int threads = pool.size();
  const auto solve = [&](const Eigen::MatrixXd& rows) -> Eigen::MatrixXd {
    return l.triangularView<Eigen::Lower>().solve(rows.transpose()).transpose();
  };
  // Below ~1e6 flops waking the workers costs more than the split saves.
  const double flops = static_cast<double>(a.rows()) * static_cast<double>(a.cols() * a.cols());
  if (threads < 2 || a.rows() < 2 * threads || flops < 1e6) return solve(a);
  Eigen::MatrixXd out(a.rows(), a.cols());
  pool.run([&](int t) {
    const Eigen::Index lo = a.rows() * t / threads, hi = a.rows() * (t + 1) / threads;
    out.middleRows(lo, hi - lo) = solve(a.middleRows(lo, hi - lo));
  });
  return out;
}

bool gigsp_diagnosis(const constrained_system& s, const gram_schmidt_rows& gs,
                     acceleration_result& r) {
  r.rank = static_cast<int>(gs.kept.size());
  r.redundant = gs.redundant;
  r.inconsistent = gs.inconsistent;
  if (gs.inconsistent.empty()) return false;
  r.status = solve_status::inconsistent;
  r.message = fmt::format(
      "gigsp: inconsistent constraints: {} {} dependent on earlier constraints but "
      "{} right-hand side disagrees, so no acceleration satisfies the set; correct the model",
      row_names(s, gs.inconsistent), gs.inconsistent.size() == 1 ? "is" : "are",
      gs.inconsistent.size() == 1 ? "its" : "their");
  return true;
}

acceleration_result gigsp_dense_threaded(const constrained_system& s, double rank_tolerance,
                                         double consistency_tolerance, double degenerate_tolerance,
                                         core::thread_pool& pool) {
  // L = diag(sqrt(m_ii)) on the diagonal fast path (a scaling, not worth threads).
  Eigen::MatrixXd l;
  Eigen::VectorXd sqrt_diag;
  if (s.mass_is_diagonal) {
    const Eigen::VectorXd d = s.mass.diagonal();
    if (!(d.array() > 0.0).all()) return not_positive_definite("gigsp");
    sqrt_diag = d.cwiseSqrt();
  } else if (!threaded_cholesky(s.mass, pool, l)) {
    return not_positive_definite("gigsp");
  }
  const auto solve_lower = [&](const Eigen::VectorXd& f) -> Eigen::VectorXd {
    if (s.mass_is_diagonal) return f.cwiseQuotient(sqrt_diag);
    return l.triangularView<Eigen::Lower>().solve(f);
  };
  const auto solve_upper = [&](const Eigen::VectorXd& y) -> Eigen::VectorXd {
    if (s.mass_is_diagonal) return y.cwiseQuotient(sqrt_diag);
    return l.triangularView<Eigen::Lower>().transpose().solve(y);
  };
  // Eq. 2.30 with g = L^-1 f = L^T a_f: a = L^-T (g + A_1^T (b_1 - A_1 g)).
  const Eigen::VectorXd g = solve_lower(s.force);
  const Eigen::VectorXd a_f = solve_upper(g);
  acceleration_result r;
  if (s.constraints() == 0) {
    r.acceleration = a_f;
    set_constraint_force(s, a_f, r);
    return r;
  }
  const Eigen::MatrixXd a_hat =
      s.mass_is_diagonal ? Eigen::MatrixXd(s.jacobian * sqrt_diag.cwiseInverse().asDiagonal())
                         : right_solve_lower_transpose_threaded(l, s.jacobian, pool);
  const gram_schmidt_rows gs = orthonormalize_rows_threaded(
      a_hat, s.rhs, rank_tolerance, consistency_tolerance, degenerate_tolerance, pool);
  if (gigsp_diagnosis(s, gs, r)) return r;
  r.acceleration = solve_upper(g + gs.q.transpose() * (gs.beta - gs.q * g));
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
