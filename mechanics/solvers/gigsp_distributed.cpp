#include "kinevo/mechanics/solvers/gigsp_distributed.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"

namespace kinevo::mechanics {

namespace {

using row_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// orthonormalize_rows takes the first undecided row whose remainder is at least this fraction
// of the largest remainder; a smaller one waits. Must equal the ratio used there.
constexpr double waiting_ratio = 1e-3;
// Remainders only shrink under projections, but by round-off they may grow by a few ulps: the
// bound of the largest remainder is widened by this much so that the test stays safe.
constexpr double bound_slack = 1.0 + 1e-12;

// Codes of a row's decision in a block broadcast and in the final classification.
constexpr double code_accepted = 1.0;
constexpr double code_dependent = 2.0;
constexpr double code_redundant = 1.0;
constexpr double code_inconsistent = 2.0;

// Layout of a block broadcast: a header, one decision code per row of the block, the block's
// orthonormal rows (at most block_rows of n) and their right-hand sides.
constexpr std::size_t header_fallback = 0;  // 1: a row might have had to wait, stop
constexpr std::size_t header_accepted = 1;  // rows of q in this block
constexpr std::size_t header_bound = 2;     // the owner's bound of its later remainders
constexpr std::size_t header_size = 3;

std::string inconsistent_message(const constrained_system& s, const std::vector<int>& rows) {
  // The serial GIGSP's wording, so that both name the rows alike.
  return fmt::format(
      "gigsp: inconsistent constraints: {} {} dependent on earlier constraints but "
      "{} right-hand side disagrees, so no acceleration satisfies the set; correct the model",
      row_names(s, rows), rows.size() == 1 ? "is" : "are", rows.size() == 1 ? "its" : "their");
}

}  // namespace

void gigsp_distribution_options::validate() const {
  io::require_integer("block_rows", block_rows, 1);
  io::require_integer("min_rows", min_rows, 0);
}

gigsp_distributed_solver::gigsp_distributed_solver(const direct_solver_options& options,
                                                   std::shared_ptr<row_collective> collective,
                                                   const gigsp_distribution_options& distribution)
    : options_(options),
      collective_(std::move(collective)),
      distribution_(distribution),
      serial_(options) {
  options_.validate();
  distribution_.validate();
  if (!collective_)
    throw io::option_error("collective", "must be given (gigsp_distributed_solver)");
}

std::string gigsp_distributed_solver::name() const {
  return "gigsp";
}

void gigsp_distributed_solver::broadcast(std::span<double> data, int root) {
  ++stats_.broadcasts;
  stats_.doubles_sent += static_cast<long long>(data.size());
  const auto t0 = clock_type::now();
  collective_->broadcast(data, root);
  stats_.collective_seconds += seconds_since(t0);
}

void gigsp_distributed_solver::allgather(std::span<const double> local, std::span<double> all) {
  ++stats_.broadcasts;
  stats_.doubles_sent += static_cast<long long>(all.size());
  const auto t0 = clock_type::now();
  collective_->allgather(local, all);
  stats_.collective_seconds += seconds_since(t0);
}

// Rank 0's result to every rank: status, rank, the row lists, a, f_c and the message, packed
// as doubles (integers and characters are exact in a double).
void gigsp_distributed_solver::broadcast_result(acceleration_result& r) {
  const bool root = collective_->rank() == 0;
  std::array<double, 6> head{};
  if (root) {
    head = {static_cast<double>(r.status),
            static_cast<double>(r.rank),
            static_cast<double>(r.redundant.size()),
            static_cast<double>(r.inconsistent.size()),
            static_cast<double>(r.acceleration.size()),
            static_cast<double>(r.message.size())};
  }
  broadcast(head, 0);
  const auto count = [&](int i) {
    return static_cast<std::size_t>(head[static_cast<std::size_t>(i)]);
  };
  const std::size_t redundant = count(2), inconsistent = count(3), n = count(4), message = count(5);
  // f_c has the size of a (both empty when refused).
  std::vector<double> body(redundant + inconsistent + 2 * n + message);
  if (root) {
    auto out = body.begin();
    for (const int i : r.redundant) *out++ = i;
    for (const int i : r.inconsistent) *out++ = i;
    out = std::copy(r.acceleration.begin(), r.acceleration.end(), out);
    out = std::copy(r.constraint_force.begin(), r.constraint_force.end(), out);
    for (const char c : r.message) *out++ = static_cast<unsigned char>(c);
  }
  broadcast(body, 0);
  if (root) return;
  r = acceleration_result{};
  r.status = static_cast<solve_status>(count(0));
  r.rank = static_cast<int>(head[1]);
  const double* in = body.data();
  for (std::size_t i = 0; i < redundant; ++i) r.redundant.push_back(static_cast<int>(*in++));
  for (std::size_t i = 0; i < inconsistent; ++i) r.inconsistent.push_back(static_cast<int>(*in++));
  const auto length = static_cast<Eigen::Index>(n);
  if (n > 0) {
    r.acceleration = Eigen::Map<const Eigen::VectorXd>(in, length);
    r.constraint_force = Eigen::Map<const Eigen::VectorXd>(in + n, length);
  }
  in += 2 * n;
  for (std::size_t i = 0; i < message; ++i) {
    r.message.push_back(static_cast<char>(static_cast<unsigned char>(*in++)));
  }
}

acceleration_result gigsp_distributed_solver::solve(const constrained_system& s) {
  stats_ = {};
  // Every rank holds the same system, so every rank returns here alike (no collective call).
  if (auto bad = refuse_non_finite(s, "gigsp")) return *bad;
  bool fell_back = false;
  acceleration_result r = blocked_sweep(s, fell_back);
  stats_.fell_back = fell_back;
  if (stats_.serial_route || fell_back) {
    // Every rank knows (the decision was collective); rank 0 alone solves.
    if (collective_->rank() == 0) r = serial_.solve(s);
  }
  broadcast_result(r);
  return r;
}

acceleration_result gigsp_distributed_solver::blocked_sweep(const constrained_system& s,
                                                            bool& fell_back) {
  const int me = collective_->rank(), ranks = collective_->size();
  const int m = s.constraints(), n = s.coordinates();
  const int block = distribution_.block_rows;
  const int blocks = m == 0 ? 0 : (m + block - 1) / block;
  const auto block_begin = [&](int k) { return k * block; };
  const auto block_end = [&](int k) { return std::min(m, (k + 1) * block); };

  // Own rows, in row order: blocks me, me + ranks, ... . `local_start[k]` is the position of
  // block k's first row among them (for own blocks).
  std::vector<int> own_rows;
  std::vector<int> local_start(static_cast<std::size_t>(blocks) + 1, 0);
  for (int k = 0; k < blocks; ++k) {
    local_start[static_cast<std::size_t>(k)] = static_cast<int>(own_rows.size());
    if (k % ranks != me) continue;
    for (int i = block_begin(k); i < block_end(k); ++i) own_rows.push_back(i);
  }
  local_start[static_cast<std::size_t>(blocks)] = static_cast<int>(own_rows.size());
  const int own = static_cast<int>(own_rows.size());

  // The products of eq. 2.30 for the own rows only: A_own L^-T.
  mass_factor mf;
  const bool positive = mf.compute(s);
  bool serial_here = m == 0 || m < distribution_.min_rows || !positive ||
                     (options_.allow_sparse && sparse_gram::applicable(s));
  row_matrix rem;
  Eigen::VectorXd beta(own), norm0(own);
  double own_largest = 0.0;
  if (!serial_here) {
    Eigen::MatrixXd a_own(own, n);
    for (int i = 0; i < own; ++i) {
      a_own.row(i) = s.jacobian.row(own_rows[static_cast<std::size_t>(i)]);
      beta[i] = s.rhs[own_rows[static_cast<std::size_t>(i)]];
    }
    rem = mf.right_solve_upper(a_own);
    norm0 = rem.rowwise().norm();
    own_largest = own > 0 ? norm0.maxCoeff() : 0.0;
    serial_here = !rem.allFinite();
  }
  // One collective decides the route and gives every rank the others' largest row norms.
  const std::array<double, 2> mine{serial_here ? 1.0 : 0.0, own_largest};
  std::vector<double> all(2 * static_cast<std::size_t>(ranks));
  allgather(mine, all);
  std::vector<double> bound(static_cast<std::size_t>(ranks));  // largest remainder, per rank
  double scale = 0.0;
  for (int p = 0; p < ranks; ++p) {
    if (all[2 * static_cast<std::size_t>(p)] != 0.0) stats_.serial_route = true;
    bound[static_cast<std::size_t>(p)] = all[2 * static_cast<std::size_t>(p) + 1];
    scale = std::max(scale, bound[static_cast<std::size_t>(p)]);
  }
  if (stats_.serial_route) return {};

  const double b_scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
  row_matrix q(m, n);  // every accepted row, from every rank
  Eigen::VectorXd qb(m);
  int r = 0;
  std::vector<char> dependent(static_cast<std::size_t>(own), 0);
  std::vector<double> buffer(header_size + static_cast<std::size_t>(block) * (n + 2));
  const std::size_t codes_at = header_size;
  const std::size_t q_at = codes_at + static_cast<std::size_t>(block);

  for (int k = 0; k < blocks; ++k) {
    const int owner = k % ranks, rows = block_end(k) - block_begin(k);
    const auto codes = std::span<double>(buffer).subspan(codes_at, static_cast<std::size_t>(block));
    Eigen::Map<row_matrix> block_q(buffer.data() + q_at, block, n);
    Eigen::Map<Eigen::VectorXd> block_qb(buffer.data() + q_at + static_cast<std::size_t>(block) * n,
                                         block);
    if (me == owner) {
      const auto t0 = clock_type::now();
      std::fill(buffer.begin(), buffer.end(), 0.0);
      const int lo = local_start[static_cast<std::size_t>(k)];
      // The largest remainder any undecided row can have now: the other ranks' bounds and this
      // rank's rows from this block on (remainders only shrink as rows are removed).
      double largest = 0.0;
      for (int p = 0; p < ranks; ++p) {
        if (p != me) largest = std::max(largest, bound[static_cast<std::size_t>(p)]);
      }
      double later = 0.0;  // this rank's rows after this block
      for (int i = lo + rows; i < own; ++i) later = std::max(later, rem.row(i).norm());
      largest = std::max(largest, later);
      for (int i = lo; i < lo + rows; ++i) largest = std::max(largest, rem.row(i).norm());
      largest *= bound_slack;
      int accepted = 0;
      for (int i = lo; i < lo + rows && !fell_back; ++i) {
        const double nr = rem.row(i).norm();
        if (norm0[i] == 0.0 || nr <= options_.rank_tolerance * norm0[i] ||
            nr <= options_.degenerate_tolerance * scale) {
          codes[static_cast<std::size_t>(i - lo)] = code_dependent;
          dependent[static_cast<std::size_t>(i)] = 1;
          continue;
        }
        if (nr < waiting_ratio * largest) {
          // The serial sweep might let this row wait: its order is not ours to reproduce here.
          fell_back = true;
          break;
        }
        // Second pass against this block's accepted rows; earlier blocks were removed twice.
        for (int j = 0; j < accepted; ++j) {
          const double c = block_q.row(j).dot(rem.row(i));
          rem.row(i) -= c * block_q.row(j);
          beta[i] -= c * block_qb[j];
        }
        const double norm = rem.row(i).norm();
        block_q.row(accepted) = rem.row(i) / norm;
        block_qb[accepted] = beta[i] / norm;
        codes[static_cast<std::size_t>(i - lo)] = code_accepted;
        for (int l = i + 1; l < lo + rows; ++l) {
          const double c = block_q.row(accepted).dot(rem.row(l));
          rem.row(l) -= c * block_q.row(accepted);
          beta[l] -= c * block_qb[accepted];
        }
        ++accepted;
      }
      buffer[header_fallback] = fell_back ? 1.0 : 0.0;
      buffer[header_accepted] = accepted;
      buffer[header_bound] = later;
      stats_.block_seconds += seconds_since(t0);
    }
    broadcast(buffer, owner);
    if (buffer[header_fallback] != 0.0) {
      fell_back = true;
      return {};
    }
    bound[static_cast<std::size_t>(owner)] = buffer[header_bound];
    const int accepted = static_cast<int>(buffer[header_accepted]);
    q.middleRows(r, accepted) = block_q.topRows(accepted);
    qb.segment(r, accepted) = block_qb.head(accepted);
    r += accepted;
    // Remove the block from this rank's later rows, twice (block classical Gram-Schmidt with
    // reorthogonalisation: the serial sweep's second pass, done where the rows live).
    const int next = local_start[static_cast<std::size_t>(k) + 1];
    if (accepted > 0 && next < own) {
      const auto t0 = clock_type::now();
      auto later = rem.bottomRows(own - next);
      auto later_beta = beta.tail(own - next);
      const auto bq = block_q.topRows(accepted);
      const auto bqb = block_qb.head(accepted);
      for (int pass = 0; pass < 2; ++pass) {
        const Eigen::MatrixXd c = later * bq.transpose();
        later.noalias() -= c * bq;
        later_beta.noalias() -= c * bqb;
      }
      stats_.update_seconds += seconds_since(t0);
    }
  }

  // A dependent row's right-hand side remainder must vanish too, or the set is inconsistent
  // (the serial sweep's last loop, on the rank that owns the row).
  std::vector<double> local_codes(static_cast<std::size_t>(m), 0.0);
  const auto q_all = q.topRows(r);
  for (int i = 0; i < own; ++i) {
    if (!dependent[static_cast<std::size_t>(i)]) continue;
    const double rest = beta[i] - (q_all * rem.row(i).transpose()).dot(qb.head(r));
    local_codes[static_cast<std::size_t>(own_rows[static_cast<std::size_t>(i)])] =
        std::abs(rest) > options_.consistency_tolerance * b_scale ? code_inconsistent
                                                                  : code_redundant;
  }
  std::vector<double> codes(static_cast<std::size_t>(m) * static_cast<std::size_t>(ranks));
  allgather(local_codes, codes);

  acceleration_result out;
  out.rank = r;
  for (int i = 0; i < m; ++i) {
    double code = 0.0;
    for (int p = 0; p < ranks; ++p) {
      code = std::max(code, codes[static_cast<std::size_t>(p) * static_cast<std::size_t>(m) +
                                  static_cast<std::size_t>(i)]);
    }
    if (code == code_redundant) out.redundant.push_back(i);
    if (code == code_inconsistent) out.inconsistent.push_back(i);
  }
  if (!out.inconsistent.empty()) {
    out.status = solve_status::inconsistent;
    out.message = inconsistent_message(s, out.inconsistent);
    return out;
  }
  if (me != 0) return out;  // rank 0's acceleration is broadcast
  // Eq. 2.30 with g = L^-1 f = L^T a_f: a = L^-T (g + A_1^T (b_1 - A_1 g)).
  const Eigen::VectorXd g = mf.solve_lower(s.force);
  const Eigen::VectorXd y = g + q_all.transpose() * (qb.head(r) - q_all * g);
  out.acceleration = mf.solve_upper(y);
  set_constraint_force(s, mf.solve(s.force), out);
  return out;
}

}  // namespace kinevo::mechanics
