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

// One blocked sweep's data on this rank: its own rows (blocks me, me + ranks, ...), their
// remainders A_own L^-T under the accepted rows, and the accepted rows of every rank.
struct sweep_state {
  int me = 0, ranks = 1, m = 0, n = 0, block = 1, blocks = 0;
  std::vector<int> own_rows;
  // local_start[k]: the position of block k's first row among the own rows (for own blocks).
  std::vector<int> local_start;
  int own = 0;
  mass_factor mf;
  row_matrix rem;
  Eigen::VectorXd beta, norm0;
  double own_largest = 0.0;
  std::vector<double> bound;  // largest remainder, per rank
  double scale = 0.0;
  row_matrix q;  // every accepted row, from every rank
  Eigen::VectorXd qb;
  int r = 0;
  std::vector<char> dependent;

  int block_begin(int k) const { return k * block; }
  int block_end(int k) const { return std::min(m, (k + 1) * block); }
};

// Stage 1: which rows this rank owns, in row order.
void plan_rows(sweep_state& st) {
  st.blocks = st.m == 0 ? 0 : (st.m + st.block - 1) / st.block;
  st.local_start.assign(static_cast<std::size_t>(st.blocks) + 1, 0);
  for (int k = 0; k < st.blocks; ++k) {
    st.local_start[static_cast<std::size_t>(k)] = static_cast<int>(st.own_rows.size());
    if (k % st.ranks != st.me) continue;
    for (int i = st.block_begin(k); i < st.block_end(k); ++i) st.own_rows.push_back(i);
  }
  st.local_start[static_cast<std::size_t>(st.blocks)] = static_cast<int>(st.own_rows.size());
  st.own = static_cast<int>(st.own_rows.size());
}

// Stage 2: the products of eq. 2.30 for the own rows only, A_own L^-T. True when this rank
// wants the serial route (too few rows, M not positive definite, the sparse path applies, or
// a non-finite product).
bool prepare_rows(const constrained_system& s, const direct_solver_options& o, int min_rows,
                  sweep_state& st) {
  const bool positive = st.mf.compute(s);
  bool serial_here =
      st.m == 0 || st.m < min_rows || !positive || (o.allow_sparse && sparse_gram::applicable(s));
  st.beta.resize(st.own);
  st.norm0.resize(st.own);
  if (serial_here) return true;
  Eigen::MatrixXd a_own(st.own, st.n);
  for (int i = 0; i < st.own; ++i) {
    a_own.row(i) = s.jacobian.row(st.own_rows[static_cast<std::size_t>(i)]);
    st.beta[i] = s.rhs[st.own_rows[static_cast<std::size_t>(i)]];
  }
  st.rem = st.mf.right_solve_upper(a_own);
  st.norm0 = st.rem.rowwise().norm();
  st.own_largest = st.own > 0 ? st.norm0.maxCoeff() : 0.0;
  return !st.rem.allFinite();
}

// A block broadcast's parts (layout above).
struct block_message {
  std::span<double> codes;
  Eigen::Map<row_matrix> q;
  Eigen::Map<Eigen::VectorXd> qb;

  block_message(std::vector<double>& buffer, int block, int n)
      : codes(std::span<double>(buffer).subspan(header_size, static_cast<std::size_t>(block))),
        q(buffer.data() + header_size + static_cast<std::size_t>(block), block, n),
        qb(buffer.data() + header_size + static_cast<std::size_t>(block) * (n + 1), block) {}
};

// Stage 3, on the block's owner: decides its rows in the serial sweep's order (dependent, or
// accepted with a second pass against the block's accepted rows) into the broadcast buffer.
// Sets fell_back when a row might have had to wait in the serial sweep.
void decide_block(sweep_state& st, int k, const direct_solver_options& o,
                  std::vector<double>& buffer, bool& fell_back) {
  std::fill(buffer.begin(), buffer.end(), 0.0);
  block_message msg(buffer, st.block, st.n);
  const int lo = st.local_start[static_cast<std::size_t>(k)];
  const int rows = st.block_end(k) - st.block_begin(k);
  // The largest remainder any undecided row can have now: the other ranks' bounds and this
  // rank's rows from this block on (remainders only shrink as rows are removed).
  double largest = 0.0;
  for (int p = 0; p < st.ranks; ++p) {
    if (p != st.me) largest = std::max(largest, st.bound[static_cast<std::size_t>(p)]);
  }
  double later = 0.0;  // this rank's rows after this block
  for (int i = lo + rows; i < st.own; ++i) later = std::max(later, st.rem.row(i).norm());
  largest = std::max(largest, later);
  for (int i = lo; i < lo + rows; ++i) largest = std::max(largest, st.rem.row(i).norm());
  largest *= bound_slack;
  int accepted = 0;
  for (int i = lo; i < lo + rows && !fell_back; ++i) {
    const double nr = st.rem.row(i).norm();
    if (st.norm0[i] == 0.0 || nr <= o.rank_tolerance * st.norm0[i] ||
        nr <= o.degenerate_tolerance * st.scale) {
      msg.codes[static_cast<std::size_t>(i - lo)] = code_dependent;
      st.dependent[static_cast<std::size_t>(i)] = 1;
      continue;
    }
    if (nr < waiting_ratio * largest) {
      // The serial sweep might let this row wait: its order is not ours to reproduce here.
      fell_back = true;
      break;
    }
    // Second pass against this block's accepted rows; earlier blocks were removed twice.
    for (int j = 0; j < accepted; ++j) {
      const double c = msg.q.row(j).dot(st.rem.row(i));
      st.rem.row(i) -= c * msg.q.row(j);
      st.beta[i] -= c * msg.qb[j];
    }
    const double norm = st.rem.row(i).norm();
    msg.q.row(accepted) = st.rem.row(i) / norm;
    msg.qb[accepted] = st.beta[i] / norm;
    msg.codes[static_cast<std::size_t>(i - lo)] = code_accepted;
    for (int l = i + 1; l < lo + rows; ++l) {
      const double c = msg.q.row(accepted).dot(st.rem.row(l));
      st.rem.row(l) -= c * msg.q.row(accepted);
      st.beta[l] -= c * msg.qb[accepted];
    }
    ++accepted;
  }
  buffer[header_fallback] = fell_back ? 1.0 : 0.0;
  buffer[header_accepted] = accepted;
  buffer[header_bound] = later;
}

// Stage 4, on every rank: keeps the block's accepted rows and removes them from this rank's
// later rows, twice (block classical Gram-Schmidt with reorthogonalisation: the serial sweep's
// second pass, done where the rows live). True when rows were removed.
bool take_block(sweep_state& st, int k, int accepted, const block_message& msg) {
  st.q.middleRows(st.r, accepted) = msg.q.topRows(accepted);
  st.qb.segment(st.r, accepted) = msg.qb.head(accepted);
  st.r += accepted;
  const int next = st.local_start[static_cast<std::size_t>(k) + 1];
  if (accepted == 0 || next >= st.own) return false;
  auto later = st.rem.bottomRows(st.own - next);
  auto later_beta = st.beta.tail(st.own - next);
  const auto bq = msg.q.topRows(accepted);
  const auto bqb = msg.qb.head(accepted);
  for (int pass = 0; pass < 2; ++pass) {
    const Eigen::MatrixXd c = later * bq.transpose();
    later.noalias() -= c * bq;
    later_beta.noalias() -= c * bqb;
  }
  return true;
}

// Stage 5: a dependent row's right-hand side remainder must vanish too, or the set is
// inconsistent (the serial sweep's last loop, on the rank that owns the row). One code per row
// of A (0 for rows of other ranks and accepted ones).
std::vector<double> classify_dependent(const constrained_system& s, const sweep_state& st,
                                       const direct_solver_options& o) {
  const double b_scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
  std::vector<double> local_codes(static_cast<std::size_t>(st.m), 0.0);
  const auto q_all = st.q.topRows(st.r);
  for (int i = 0; i < st.own; ++i) {
    if (!st.dependent[static_cast<std::size_t>(i)]) continue;
    const double rest = st.beta[i] - (q_all * st.rem.row(i).transpose()).dot(st.qb.head(st.r));
    local_codes[static_cast<std::size_t>(st.own_rows[static_cast<std::size_t>(i)])] =
        std::abs(rest) > o.consistency_tolerance * b_scale ? code_inconsistent : code_redundant;
  }
  return local_codes;
}

// Stage 6: every rank's codes into the result's redundant and inconsistent rows.
acceleration_result classified(const std::vector<double>& codes, int m, int ranks, int rank) {
  acceleration_result out;
  out.rank = rank;
  for (int i = 0; i < m; ++i) {
    double code = 0.0;
    for (int p = 0; p < ranks; ++p) {
      code = std::max(code, codes[static_cast<std::size_t>(p) * static_cast<std::size_t>(m) +
                                  static_cast<std::size_t>(i)]);
    }
    if (code == code_redundant) out.redundant.push_back(i);
    if (code == code_inconsistent) out.inconsistent.push_back(i);
  }
  return out;
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
  sweep_state st;
  st.me = collective_->rank();
  st.ranks = collective_->size();
  st.m = s.constraints();
  st.n = s.coordinates();
  st.block = distribution_.block_rows;
  plan_rows(st);
  const bool serial_here = prepare_rows(s, options_, distribution_.min_rows, st);
  // One collective decides the route and gives every rank the others' largest row norms.
  const std::array<double, 2> mine{serial_here ? 1.0 : 0.0, st.own_largest};
  std::vector<double> all(2 * static_cast<std::size_t>(st.ranks));
  allgather(mine, all);
  st.bound.resize(static_cast<std::size_t>(st.ranks));
  for (int p = 0; p < st.ranks; ++p) {
    if (all[2 * static_cast<std::size_t>(p)] != 0.0) stats_.serial_route = true;
    st.bound[static_cast<std::size_t>(p)] = all[2 * static_cast<std::size_t>(p) + 1];
    st.scale = std::max(st.scale, st.bound[static_cast<std::size_t>(p)]);
  }
  if (stats_.serial_route) return {};

  st.q.resize(st.m, st.n);
  st.qb.resize(st.m);
  st.dependent.assign(static_cast<std::size_t>(st.own), 0);
  std::vector<double> buffer(header_size + static_cast<std::size_t>(st.block) * (st.n + 2));
  const block_message msg(buffer, st.block, st.n);
  for (int k = 0; k < st.blocks; ++k) {
    const int owner = k % st.ranks;
    if (st.me == owner) {
      const auto t0 = clock_type::now();
      decide_block(st, k, options_, buffer, fell_back);
      stats_.block_seconds += seconds_since(t0);
    }
    broadcast(buffer, owner);
    if (buffer[header_fallback] != 0.0) {
      fell_back = true;
      return {};
    }
    st.bound[static_cast<std::size_t>(owner)] = buffer[header_bound];
    const auto t0 = clock_type::now();
    if (take_block(st, k, static_cast<int>(buffer[header_accepted]), msg)) {
      stats_.update_seconds += seconds_since(t0);
    }
  }

  std::vector<double> codes(static_cast<std::size_t>(st.m) * static_cast<std::size_t>(st.ranks));
  allgather(classify_dependent(s, st, options_), codes);
  acceleration_result out = classified(codes, st.m, st.ranks, st.r);
  if (!out.inconsistent.empty()) {
    out.status = solve_status::inconsistent;
    out.message = inconsistent_message(s, out.inconsistent);
    return out;
  }
  if (st.me != 0) return out;  // rank 0's acceleration is broadcast
  // Eq. 2.30 with g = L^-1 f = L^T a_f: a = L^-T (g + A_1^T (b_1 - A_1 g)).
  const auto q_all = st.q.topRows(st.r);
  const Eigen::VectorXd g = st.mf.solve_lower(s.force);
  const Eigen::VectorXd y = g + q_all.transpose() * (st.qb.head(st.r) - q_all * g);
  out.acceleration = st.mf.solve_upper(y);
  set_constraint_force(s, st.mf.solve(s.force), out);
  return out;
}

}  // namespace kinevo::mechanics
