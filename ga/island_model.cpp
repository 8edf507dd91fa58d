#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/population_carry.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "kinevo/core/thread_pool.hpp"
#include "kinevo/ga/detail/checkpoint_file.hpp"
#include "kinevo/ga/detail/island.hpp"
#include "kinevo/ga/detail/memory_budget.hpp"
#include "kinevo/ga/detail/random_stream.hpp"
#include "kinevo/ga/evaluation_error.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

namespace {

// Random topology draws come from a stream of their own, tagged apart from island streams.
constexpr std::uint64_t migration_stream_tag = std::uint64_t{1} << 63;

// Fixed head of an island's packet at a synchronisation point.
struct packet_head {
  double best_value;
  double best_violation;
  std::int32_t failed;  // this island's rank caught an exception
  std::int32_t stop;    // interrupt or wall time seen by this island's rank
};

std::string fingerprint(const ga_options& g, const island_options& o, int n,
                        const std::string& problem_name) {
  std::ostringstream s;
  s << "problem=" << problem_name << " n=" << n << " population=" << g.population
    << " genes=" << to_string(g.genes) << " bits=" << g.bits_per_variable
    << " selection=" << to_string(g.selection) << " tournament=" << g.tournament_size
    << " rank_pressure=" << hex_float(g.rank_pressure) << " crossover=" << to_string(g.crossover)
    << " crossover_rate=" << hex_float(g.crossover_rate) << " points=" << g.crossover_points
    << " uniform_swap=" << hex_float(g.uniform_swap) << " sbx_eta=" << hex_float(g.sbx_eta)
    << " blx_alpha=" << hex_float(g.blx_alpha) << " mutation=" << to_string(g.mutation)
    << " bit_rate=" << hex_float(g.bit_mutation_rate)
    << " gene_rate=" << hex_float(g.gene_mutation_rate)
    << " polynomial_eta=" << hex_float(g.polynomial_eta)
    << " gaussian_sigma=" << hex_float(g.gaussian_sigma) << " de_weight=" << hex_float(g.de_weight)
    << " constraints=" << to_string(g.constraints) << " epsilon=" << hex_float(g.epsilon.quantile)
    << ',' << hex_float(g.epsilon.exponent) << ',' << hex_float(g.epsilon.until)
    << " elites=" << g.elites << " islands=" << o.islands << " topology=" << to_string(o.links)
    << " migration_interval=" << o.migration_interval << " migrants=" << o.migrants
    << " seed=" << o.seed;
  // Only for g3, so that the fingerprints of generational runs stay what they were. The family
  // steps per generation: a checkpoint from when a g3 generation was one step is refused.
  if (g.steady_state()) {
    s << " model=" << to_string(g.model) << " family_steps=" << g.family_steps()
      << " parents=" << g.parents << " offspring=" << g.offspring << " replaced=" << g.replaced
      << " pcx=" << hex_float(g.pcx_sigma_zeta) << ',' << hex_float(g.pcx_sigma_eta)
      << " undx=" << hex_float(g.undx_sigma_xi) << ',' << hex_float(g.undx_sigma_eta)
      << " spx=" << hex_float(g.spx_epsilon);
  }
  // Only when learned, so that the fingerprints of isotropic runs stay what they were.
  if (g.metric == metric_model::learned) {
    s << " metric=" << to_string(g.metric) << ',' << g.metric_interval << ','
      << hex_float(g.metric_rate);
    // Appended only when set, so that the fingerprints of earlier learned runs stay.
    if (g.metric_carry || g.metric_lazy != 1) {
      s << ',' << g.metric_carry << ',' << g.metric_lazy;
    }
    if (g.metric_root_kind != metric_root::symmetric)
      s << ",root=" << to_string(g.metric_root_kind);
  }
  return s.str();
}

// The box is not part of the fingerprint (range runs move it on purpose), but a resume that
// names its box must get that box, bit for bit (e.g. a different --lower is refused).
void check_same_box(const checkpoint_contents& c, const search_box& box,
                    const std::filesystem::path& path) {
  const int n = static_cast<int>(c.box.lower.size());
  if (box.lower.size() != n || box.upper.size() != n) {
    throw io::input_error(checkpoint_where(path, c.fingerprint_line) + "the checkpoint's box has " +
                          std::to_string(n) + " variables, the run's " +
                          std::to_string(box.lower.size()));
  }
  for (int j = 0; j < n; ++j) {
    // The lower and upper lines follow fingerprint, run_index, generation and stall.
    for (const auto& [name, line, ours, theirs] :
         {std::tuple{"lower", 4, box.lower[j], c.box.lower[j]},
          std::tuple{"upper", 5, box.upper[j], c.box.upper[j]}}) {
      if (std::memcmp(&ours, &theirs, sizeof ours) != 0) {
        throw io::input_error(checkpoint_where(path, c.fingerprint_line + line) + name +
                              " bound of variable " + std::to_string(j) + " is " +
                              hex_float(theirs) + " in the checkpoint but " + hex_float(ours) +
                              " in this run; resume with the same bounds");
      }
    }
  }
}

}  // namespace

std::string to_string(topology t) {
  switch (t) {
    case topology::ring:
      return "ring";
    case topology::fully_connected:
      return "fully_connected";
    case topology::random:
      return "random";
    case topology::unconnected:
      return "unconnected";
  }
  return "?";
}

std::string to_string(transport t) {
  switch (t) {
    case transport::automatic:
      return "automatic";
    case transport::threads:
      return "threads";
    case transport::mpi:
      return "mpi";
  }
  return "?";
}

topology parse_topology(const std::string& name) {
  for (auto t :
       {topology::ring, topology::fully_connected, topology::random, topology::unconnected}) {
    if (name == to_string(t)) return t;
  }
  throw io::option_error(
      "topology",
      "'" + name + "' is unknown; use one of: ring, fully_connected, random, unconnected");
}

transport parse_transport(const std::string& name) {
  for (auto t : {transport::automatic, transport::threads, transport::mpi}) {
    if (name == to_string(t)) return t;
  }
  throw io::option_error("transport",
                         "'" + name + "' is unknown; use one of: automatic, threads, mpi");
}

void require_island_count(int islands) {
  io::require_integer("islands", islands, 1);
}

void island_options::validate(const ga_options& ga) const {
  require_island_count(islands);
  io::require_integer("migration_interval", migration_interval, 1);
  // migrants <= population - elites: emigrants replace the worst, never an elite.
  io::require_integer("migrants", migrants, 0, std::max(0, ga.population - ga.elites));
  io::require_integer("threads", threads, 0);  // 0: automatic
}

struct island_model::impl {
  ga_options ga;
  island_options opt;
  bool use_mpi = false;
  // Under mpiexec with fewer islands than ranks, every rank evolves all islands itself; the
  // ranks still agree on interrupts and wall time (one MPI_Allreduce per synchronisation).
  bool replicated = false;
  int rank = 0;
  int ranks = 1;
  int first = 0;  // first island of this process
  int local = 0;  // islands of this process
  std::vector<island> islands;
  // What each local island threw in the current stage (null: nothing). An island that throws
  // stops; the others go on, so that the failure reported is the lowest island's whatever the
  // thread count or the distribution over ranks.
  std::vector<std::exception_ptr> island_errors;
  std::unique_ptr<core::thread_pool> pool;
  std::vector<std::vector<generation_record>> history;

  // State of the current (or last) run, enough to checkpoint it.
  int n = 0;
  std::string problem_name;
  bool reports_violation = false;
  search_box box;
  std::uint64_t run_index = 0;
  long long generation = 0;
  double stall_reference = 0.0;
  double stall_violation = 0.0;  // violation of the stall reference (constrained problems)
  long long last_improvement = 0;
  bool started = false;

  std::vector<std::byte> send, recv;
  std::vector<int> migration_source;
  std::vector<std::byte> migration_buffer;
  // (violation, value) and (island, position) of every emigrant (fully connected topology).
  std::vector<std::pair<std::pair<double, double>, std::pair<int, int>>> migration_candidates;
  std::vector<int> counts, displs;

  // Generation bounds of one run, derived from its termination limits.
  struct run_bounds {
    long long generations = std::numeric_limits<long long>::max();
    long long by_evaluations = std::numeric_limits<long long>::max();
    bool checkpoints = false;
    // Fraction of the run done after generation g (epsilon level); 1 without limits.
    double progress(long long g) const {
      const long long total = std::min(generations, by_evaluations);
      if (total == std::numeric_limits<long long>::max() || total <= 0) return 1.0;
      return std::min(1.0, static_cast<double>(g) / static_cast<double>(total));
    }
  };

  // What a synchronisation point established (identical on every rank).
  struct sync_outcome {
    int packet_size = 0;
    int stop_bits = 0;  // 1: interrupt, 2: wall time, OR over all ranks
    int best = 0;       // island with the best value
  };

  int sync_interval() const { return opt.islands == 1 ? 1 : opt.migration_interval; }
  long long evals_per_generation() const {
    return static_cast<long long>(opt.islands) * ga.offspring_per_generation();
  }
  long long initial_evals() const { return static_cast<long long>(opt.islands) * ga.population; }

  void prepare(const problem& p, const search_box& b) {
    const int dim = p.dimension();
    if (dim < 1) throw io::option_error("dimension", "of problem '" + p.name() + "' must be >= 1");
    b.validate(dim);
    if (dim != n || islands.empty()) {
      require_memory(ga, opt, local, dim);  // refuse before allocating, naming the settings
      islands.assign(static_cast<std::size_t>(local), island{});
      for (auto& isl : islands) isl.configure(ga, dim);
      n = dim;
    }
    problem_name = p.name();
    reports_violation = p.reports_violation();
    box = b;
  }

  void reset_history() {
    history.resize(static_cast<std::size_t>(local));
    for (auto& h : history) h.clear();
  }

  // Runs `task(local island)` over the local islands on the worker threads.
  template <typename F>
  void for_islands(F&& task) {
    if (!pool) {  // one thread: no std::function, nothing allocated per epoch
      for (int li = 0; li < local; ++li) task(li);
      return;
    }
    // The worker body captures one pointer, which std::function stores without allocating.
    struct context {
      F* task;
      int threads;
      int local;
    } ctx{&task, pool->size(), local};
    const std::function<void(int)> body = [c = &ctx](int t) {
      for (int li = t; li < c->local; li += c->threads) (*c->task)(li);
    };
    pool->run(body);
  }

  // Runs task over the local islands, catching per island; returns the lowest local island
  // that threw, or -1.
  template <typename F>
  int for_islands_catching(F&& task) {
    island_errors.assign(static_cast<std::size_t>(local), nullptr);
    for_islands([&](int li) {
      try {
        task(li);
      } catch (...) {
        island_errors[li] = std::current_exception();
      }
    });
    for (int li = 0; li < local; ++li) {
      if (island_errors[li]) return li;
    }
    return -1;
  }

  bool island_failed(int li) const {
    return static_cast<std::size_t>(li) < island_errors.size() && island_errors[li] != nullptr;
  }

  // The message of island i's failure, the same on every rank (its owner broadcasts it).
  std::string agreed_failure(int i);

  // Gathers every island's packet (island order) into recv; returns the packet size.
  int exchange(int migrants_now, int stop_bits) {
    const int ind = islands.empty() ? 0 : islands[0].individual_bytes();
    const int size = static_cast<int>(sizeof(packet_head)) + n * static_cast<int>(sizeof(double)) +
                     migrants_now * ind;
    send.resize(static_cast<std::size_t>(size) * local);
    recv.resize(static_cast<std::size_t>(size) * opt.islands);
    for (int li = 0; li < local; ++li) {
      std::byte* dst = send.data() + static_cast<std::size_t>(li) * size;
      packet_head h{islands[li].best_value(), islands[li].best_violation(),
                    island_failed(li) ? 1 : 0, stop_bits};
      std::memcpy(dst, &h, sizeof h);
      std::memcpy(dst + sizeof h, islands[li].best_x().data(), n * sizeof(double));
      if (!island_failed(li) && migrants_now > 0) {
        islands[li].pack_emigrants(
            migrants_now, std::span<std::byte>(dst + sizeof h + n * sizeof(double),
                                               static_cast<std::size_t>(migrants_now) * ind));
      }
    }
    if (use_mpi) {
      counts.resize(ranks);
      displs.resize(ranks);
      for (int r = 0; r < ranks; ++r) {
        const auto [f, c] = block(r);
        counts[r] = c * size;
        displs[r] = f * size;
      }
      MPI_Allgatherv(send.data(), local * size, MPI_BYTE, recv.data(), counts.data(), displs.data(),
                     MPI_BYTE, MPI_COMM_WORLD);
    } else {
      std::copy(send.begin(), send.end(), recv.begin());
    }
    return size;
  }

  std::pair<int, int> block(int r) const {
    const int k = opt.islands;
    const int f = static_cast<int>(static_cast<long long>(k) * r / ranks);
    const int e = static_cast<int>(static_cast<long long>(k) * (r + 1) / ranks);
    return {f, e - f};
  }

  const packet_head head(int i, int size) const {
    packet_head h;
    std::memcpy(&h, recv.data() + static_cast<std::size_t>(i) * size, sizeof h);
    return h;
  }

  void migrate(int m, int size, long long migration_number) {
    if (m == 0 || opt.islands < 2 || opt.links == topology::unconnected) return;
    const int k = opt.islands;
    const int ind = islands[0].individual_bytes();
    const bool constrained = reports_violation;
    const auto emigrants = [&](int i) {
      return recv.data() + static_cast<std::size_t>(i) * size + sizeof(packet_head) +
             n * sizeof(double);
    };
    auto& source = migration_source;  // members: no allocation per migration
    source.resize(k);
    if (opt.links == topology::ring) {
      for (int i = 0; i < k; ++i) source[i] = (i + k - 1) % k;
    } else if (opt.links == topology::random) {
      random_stream rs(
          opt.seed, migration_stream_tag | static_cast<std::uint64_t>(migration_number), run_index);
      for (int i = 0; i < k; ++i) {
        int j = rs.below(k - 1);
        source[i] = j >= i ? j + 1 : j;
      }
    }
    auto& incoming = migration_buffer;
    incoming.resize(static_cast<std::size_t>(m) * ind);
    for (int li = 0; li < local; ++li) {
      const int i = first + li;
      if (opt.links == topology::fully_connected) {
        // The best m of all other islands' emigrants; ties by island, then position.
        auto& all = migration_candidates;
        all.clear();
        for (int j = 0; j < k; ++j) {
          if (j == i) continue;
          for (int e = 0; e < m; ++e) {
            // Packed as value, then the violation when the problem reports one.
            const std::byte* em = emigrants(j) + static_cast<std::size_t>(e) * ind;
            double f = 0.0;
            double v = 0.0;
            std::memcpy(&f, em, sizeof f);
            if (constrained) std::memcpy(&v, em + sizeof f, sizeof v);
            all.push_back({{v, f}, {j, e}});
          }
        }
        std::partial_sort(all.begin(), all.begin() + m, all.end());
        for (int e = 0; e < m; ++e) {
          std::memcpy(
              incoming.data() + static_cast<std::size_t>(e) * ind,
              emigrants(all[e].second.first) + static_cast<std::size_t>(all[e].second.second) * ind,
              ind);
        }
      } else {
        std::memcpy(incoming.data(), emigrants(source[i]), static_cast<std::size_t>(m) * ind);
      }
      islands[li].take_immigrants(incoming, m);
    }
  }

  std::string serialize_local() const {
    std::ostringstream os;
    for (int li = 0; li < local; ++li) {
      os << "island " << first + li << '\n';
      islands[li].save(os);
    }
    return os.str();
  }

  // Collective under MPI: every island's state reaches rank 0, which writes it atomically.
  void write_checkpoint(const std::filesystem::path& path);

  // The stages of a run, in order (evolve calls them; each is collective under MPI).
  run_bounds bounds_of(const termination& limits, const run_settings& settings) const;
  sync_outcome synchronise(bool migrating, int own_stop_bits, bool agree_on_stop);
  void take_best(const sync_outcome& s, run_result& result) const;
  void track_stall(const termination& limits, const run_result& best, bool restart);
  static bool decide_stop(const run_result& result, int stop_bits, const termination& limits,
                          const run_bounds& bounds, long long stalled, stop_reason& reason);
  long long next_sync(const run_bounds& bounds, const run_settings& settings) const;
  void run_epoch(const problem& p, long long to, const run_bounds& bounds,
                 const run_settings& settings);
  void gather_history(run_result& result);

  run_result evolve(const problem& p, const termination& limits, const run_settings& settings,
                    std::chrono::steady_clock::time_point t0, bool resumed);

  // The stages of resume.
  void check_fingerprint(const checkpoint_contents& c, const problem& p,
                         const std::filesystem::path& path) const;
  void load_islands(const checkpoint_contents& c, const std::filesystem::path& path);
  void check_counters(const checkpoint_contents& c, const std::filesystem::path& path) const;
};

void island_model::impl::write_checkpoint(const std::filesystem::path& path) {
  std::string mine = serialize_local();
  std::string all;
  if (use_mpi) {
    int len = static_cast<int>(mine.size());
    std::vector<int> lens(ranks), offs(ranks);
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < ranks; ++r) offs[r] = total, total += lens[r];
    if (rank == 0) all.resize(static_cast<std::size_t>(total));
    MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
  } else {
    all = std::move(mine);
  }
  if (rank != 0) return;
  checkpoint_contents c;
  c.fingerprint = fingerprint(ga, opt, n, problem_name);
  c.run_index = run_index;
  c.generation = generation;
  c.stall_reference = stall_reference;
  c.stall_violation = stall_violation;
  c.last_improvement = last_improvement;
  c.box = box;
  // The gathered sections are already in island order: split them back by their headers.
  std::istringstream in(all);
  std::string line;
  checkpoint_island* current = nullptr;
  while (std::getline(in, line)) {
    if (line.rfind("island ", 0) == 0) {
      current = &c.islands[std::atoi(line.c_str() + 7)];
    } else if (current != nullptr) {
      current->text += line;
      current->text += '\n';
    }
  }
  write_checkpoint_file(path, c);
}

island_model::impl::run_bounds island_model::impl::bounds_of(const termination& limits,
                                                             const run_settings& settings) const {
  run_bounds b;
  if (limits.max_generations > 0) b.generations = limits.max_generations;
  if (limits.max_evaluations > 0) {
    b.by_evaluations =
        std::max(0LL, (limits.max_evaluations - initial_evals()) / evals_per_generation());
  }
  b.checkpoints = !settings.checkpoint_file.empty() && settings.checkpoint_every > 0;
  return b;
}

std::string island_model::impl::agreed_failure(int i) {
  std::string message;
  const int li = i - first;
  if (li >= 0 && li < local && island_failed(li)) {
    try {
      std::rethrow_exception(island_errors[li]);
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "island " + std::to_string(i) + " failed";
    }
  }
  if (use_mpi) {
    int owner = 0;
    while (owner + 1 < ranks && block(owner + 1).first <= i) ++owner;
    int length = static_cast<int>(message.size());
    MPI_Bcast(&length, 1, MPI_INT, owner, MPI_COMM_WORLD);
    message.resize(static_cast<std::size_t>(length));
    MPI_Bcast(message.data(), length, MPI_CHAR, owner, MPI_COMM_WORLD);
  }
  return message;
}

island_model::impl::sync_outcome island_model::impl::synchronise(bool migrating, int own_stop_bits,
                                                                 bool agree_on_stop) {
  sync_outcome s;
  s.packet_size = exchange(migrating ? opt.migrants : 0, own_stop_bits);
  int first_failed = -1;
  for (int i = 0; i < opt.islands; ++i) {
    const packet_head h = head(i, s.packet_size);
    if (h.failed != 0 && first_failed < 0) first_failed = i;
    s.stop_bits |= h.stop;  // OR of every rank's bits: all ranks decide alike
    const packet_head b = head(s.best, s.packet_size);
    if (precedes(h.best_value, h.best_violation, b.best_value, b.best_violation, 0.0)) s.best = i;
  }
  if (replicated && agree_on_stop) {
    // Ranks that each evolve every island exchange nothing else: agree on the stop bits here, so
    // that a signal seen by one rank stops all of them at this generation. Only runs that can
    // stop for a reason seen by one rank alone (interrupt, wall time) pay for it.
    MPI_Allreduce(MPI_IN_PLACE, &s.stop_bits, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
  }
  // Every rank throws the same message: that of the lowest island that failed.
  if (first_failed >= 0) throw evaluation_error(agreed_failure(first_failed));
  if (migrating) {
    migrate(opt.migrants, s.packet_size, generation / opt.migration_interval);
  }
  return s;
}

void island_model::impl::take_best(const sync_outcome& s, run_result& result) const {
  result.best_island = s.best;
  result.best_value = head(s.best, s.packet_size).best_value;
  result.best_violation = head(s.best, s.packet_size).best_violation;
  result.best_x.resize(n);
  std::memcpy(result.best_x.data(),
              recv.data() + static_cast<std::size_t>(s.best) * s.packet_size + sizeof(packet_head),
              n * sizeof(double));
  result.generations = generation;
  result.evaluations = initial_evals() + generation * evals_per_generation();
}

void island_model::impl::track_stall(const termination& limits, const run_result& best,
                                     bool restart) {
  // Progress is a smaller violation, or (at the same violation, e.g. feasible) a value better by
  // more than the tolerance.
  const bool less_violated = best.best_violation < stall_violation;
  const bool better_value = best.best_violation == stall_violation &&
                            best.best_value < stall_reference - limits.stall_tolerance;
  if (restart || less_violated || better_value) {
    stall_reference = best.best_value;
    stall_violation = best.best_violation;
    last_improvement = generation;
  }
}

bool island_model::impl::decide_stop(const run_result& result, int stop_bits,
                                     const termination& limits, const run_bounds& bounds,
                                     long long stalled, stop_reason& reason) {
  const long long g = result.generations;
  if (result.best_value <= limits.target_value && result.best_violation == 0.0) {
    reason = stop_reason::target;
  } else if (stop_bits & 1) {
    reason = stop_reason::interrupted;
  } else if (stop_bits & 2) {
    reason = stop_reason::wall_time;
  } else if (limits.stall_generations > 0 && stalled >= limits.stall_generations) {
    reason = stop_reason::stall;
  } else if (g >= bounds.generations) {
    reason = stop_reason::generations;
  } else if (g >= bounds.by_evaluations) {
    reason = stop_reason::evaluations;
  } else {
    return false;
  }
  return true;
}

long long island_model::impl::next_sync(const run_bounds& bounds,
                                        const run_settings& settings) const {
  const int interval = sync_interval();
  long long next = (generation / interval + 1) * interval;
  next = std::min({next, bounds.generations, bounds.by_evaluations});
  if (bounds.checkpoints) {
    next = std::min(next, (generation / settings.checkpoint_every + 1) * settings.checkpoint_every);
  }
  return next;
}

void island_model::impl::run_epoch(const problem& p, long long to, const run_bounds& bounds,
                                   const run_settings& settings) {
  const long long from = generation;
  const int failed = for_islands_catching([&](int li) {
    for (long long g = from + 1; g <= to; ++g) {
      islands[li].set_progress(bounds.progress(g - 1));
      islands[li].step(p);
      if (settings.record_history) history[li].push_back(islands[li].statistics(first + li, g));
    }
  });
  // Under MPI the other ranks hear of it at the next exchange (throwing now would deadlock
  // them); alone, the lowest failed island's exception goes to the caller as it was thrown.
  if (failed >= 0 && !use_mpi) std::rethrow_exception(island_errors[failed]);
  generation = to;
}

void island_model::impl::gather_history(run_result& result) {
  // Island-major, every island the same number of records.
  constexpr int fields = 7;
  std::vector<double> mine;
  for (int li = 0; li < local; ++li) {
    for (const auto& r : history[li]) {
      mine.insert(mine.end(),
                  {static_cast<double>(r.island), static_cast<double>(r.generation),
                   static_cast<double>(r.evaluations), r.best, r.mean, r.spread, r.diversity});
    }
  }
  std::vector<double> all;
  if (use_mpi) {
    const int per_island = local > 0 ? static_cast<int>(history[0].size()) * fields : 0;
    int per = per_island;
    MPI_Allreduce(MPI_IN_PLACE, &per, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    std::vector<int> cnt(ranks), off(ranks);
    for (int r = 0; r < ranks; ++r) {
      const auto [f, c] = block(r);
      cnt[r] = c * per;
      off[r] = f * per;
    }
    all.resize(static_cast<std::size_t>(per) * opt.islands);
    MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), cnt.data(),
                   off.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  } else {
    all = std::move(mine);
  }
  result.history.reserve(all.size() / fields);
  for (std::size_t q = 0; q + fields <= all.size(); q += fields) {
    generation_record r;
    r.island = static_cast<int>(all[q]);
    r.generation = static_cast<long long>(all[q + 1]);
    r.evaluations = static_cast<long long>(all[q + 2]);
    r.best = all[q + 3];
    r.mean = all[q + 4];
    r.spread = all[q + 5];
    r.diversity = all[q + 6];
    result.history.push_back(r);
  }
}

// One run from the current state: at every synchronisation point gather, migrate, take the
// best, decide whether to stop, checkpoint, report; between them every island evolves alone.
run_result island_model::impl::evolve(const problem& p, const termination& limits,
                                      const run_settings& settings,
                                      std::chrono::steady_clock::time_point t0, bool resumed) {
  const run_bounds bounds = bounds_of(limits, settings);
  run_result result;
  island_errors.assign(static_cast<std::size_t>(local), nullptr);
  for (bool first_sync = true;; first_sync = false) {
    const bool migrating = !first_sync && opt.islands > 1 && opt.migrants > 0 &&
                           opt.links != topology::unconnected &&
                           generation % opt.migration_interval == 0;
    const bool interrupted = limits.interrupt != nullptr && limits.interrupt->load();
    // The clock only when there is a wall-time limit: with one island this runs every
    // generation, and short runs (20 individuals) felt the clock read.
    const bool out_of_time =
        limits.max_seconds > 0.0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >=
            limits.max_seconds;
    const sync_outcome s = synchronise(migrating, (interrupted ? 1 : 0) | (out_of_time ? 2 : 0),
                                       limits.interrupt != nullptr || limits.max_seconds > 0.0);
    take_best(s, result);
    track_stall(limits, result, first_sync && !resumed);
    const bool stop = decide_stop(result, s.stop_bits, limits, bounds,
                                  generation - last_improvement, result.reason);
    if (bounds.checkpoints && (generation % settings.checkpoint_every == 0 ||
                               (stop && result.reason == stop_reason::interrupted))) {
      write_checkpoint(settings.checkpoint_file);
    }
    if (settings.on_sync) {
      settings.on_sync(sync_report{generation, result.evaluations, result.best_value,
                                   result.best_violation, &limits});
    }
    if (stop) break;
    run_epoch(p, next_sync(bounds, settings), bounds, settings);
  }
  if (settings.record_history) gather_history(result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

void island_model::impl::check_fingerprint(const checkpoint_contents& c, const problem& p,
                                           const std::filesystem::path& path) const {
  const std::string ours = fingerprint(ga, opt, p.dimension(), p.name());
  if (c.fingerprint != ours) {
    throw io::input_error(checkpoint_where(path, c.fingerprint_line) +
                          "the checkpoint was written with other settings; resume with the same "
                          "options.\n  file: " +
                          c.fingerprint + "\n  now:  " + ours);
  }
}

void island_model::impl::load_islands(const checkpoint_contents& c,
                                      const std::filesystem::path& path) {
  for (int li = 0; li < local; ++li) {
    const auto it = c.islands.find(first + li);
    if (it == c.islands.end()) {
      throw io::input_error(checkpoint_where(path, 1) + "the file lacks island " +
                            std::to_string(first + li));
    }
    std::istringstream s(it->second.text);
    try {
      islands[li].load(s);
    } catch (const std::exception& e) {
      throw io::input_error(checkpoint_where(path, it->second.line) + "island " +
                            std::to_string(it->first) + ": " + e.what());
    }
  }
  if (static_cast<int>(c.islands.size()) != opt.islands) {
    throw io::input_error(checkpoint_where(path, 1) + "the file has " +
                          std::to_string(c.islands.size()) + " island sections for " +
                          std::to_string(opt.islands) + " islands");
  }
}

void island_model::impl::check_counters(const checkpoint_contents& c,
                                        const std::filesystem::path& path) const {
  // Each island evaluated its initial population and its offspring per generation: the
  // generation count must agree with every island's own evaluation count.
  const long long expected =
      ga.population + c.generation * static_cast<long long>(ga.offspring_per_generation());
  for (int li = 0; li < local; ++li) {
    if (islands[li].evaluations() != expected) {
      throw io::input_error(
          checkpoint_where(path, c.islands.at(first + li).line) + "island " +
          std::to_string(first + li) + " made " + std::to_string(islands[li].evaluations()) +
          " evaluations, which does not fit generation " + std::to_string(c.generation) +
          " (expected " + std::to_string(expected) + ")");
    }
  }
}

island_model::island_model(const ga_options& ga, const island_options& islands)
    : impl_(std::make_unique<impl>()) {
  ga.validate();
  islands.validate(ga);
  auto& m = *impl_;
  m.ga = ga;
  m.opt = islands;
  const bool mpi_up = mpi_environment::active() && mpi_environment::size() > 1;
  if (islands.via == transport::mpi) {
    if (!mpi_environment::active()) {
      throw io::option_error(
          "transport", "mpi needs the program to be started by mpiexec; use threads or automatic");
    }
    m.use_mpi = mpi_environment::size() > 1;
  } else if (islands.via == transport::automatic) {
    // With fewer islands than ranks every rank computes all islands itself (same result).
    m.use_mpi = mpi_up && islands.islands >= mpi_environment::size();
    m.replicated = mpi_up && !m.use_mpi;
  }
  if (m.use_mpi) {
    m.rank = mpi_environment::rank();
    m.ranks = mpi_environment::size();
    if (islands.islands < m.ranks) {
      throw io::option_error("transport", "mpi needs at least one island per rank: " +
                                              std::to_string(islands.islands) + " islands on " +
                                              std::to_string(m.ranks) + " ranks");
    }
  } else {
    m.rank = mpi_environment::active() ? mpi_environment::rank() : 0;
    m.ranks = 1;
  }
  const auto [f, c] = m.use_mpi ? m.block(m.rank) : std::pair<int, int>{0, islands.islands};
  m.first = f;
  m.local = c;
  const int hw = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int threads = std::min(m.local, islands.threads > 0 ? islands.threads : hw);
  if (threads > 1) {
    m.pool = std::make_unique<core::thread_pool>(threads, "worker thread",
                                                 "use fewer --threads or --islands");
  }
}

island_model::~island_model() = default;
island_model::island_model(island_model&&) noexcept = default;
island_model& island_model::operator=(island_model&&) noexcept = default;

namespace {

// A carry's points must have the problem's dimension; only real genes can be moved.
void check_carry(const population_carry& c, int n, const ga_options& ga) {
  if (c.mode == carry_mode::off) return;
  if (ga.genes != encoding::real) throw io::option_error("carry", "needs real genes");
  if (c.from.size() != n || c.to.size() != n) {
    throw io::option_error("carry",
                           "points must have the problem's dimension " + std::to_string(n));
  }
}

}  // namespace

run_result island_model::run(const problem& p, const search_box& box, const termination& limits,
                             const run_settings& settings) {
  const auto t0 = std::chrono::steady_clock::now();
  limits.validate();
  auto& m = *impl_;
  m.prepare(p, box);
  if (settings.start_point != nullptr && settings.start_point->size() != m.n) {
    throw io::option_error("start", "point has size " +
                                        std::to_string(settings.start_point->size()) +
                                        ", the problem has dimension " + std::to_string(m.n));
  }
  if (settings.initial_box != nullptr) {
    const search_box& ib = *settings.initial_box;
    ib.validate(m.n);
    if ((ib.lower.array() < box.lower.array()).any() ||
        (ib.upper.array() > box.upper.array()).any()) {
      throw io::option_error("initial_box", "must lie inside the search box");
    }
  }
  if (settings.carry != nullptr) check_carry(*settings.carry, m.n, m.ga);
  m.run_index = settings.run_index;
  m.generation = 0;
  m.started = true;
  m.reset_history();
  const int failed = m.for_islands_catching([&](int li) {
    m.islands[li].start(p, box, m.opt.seed, m.first + li, settings.run_index, settings.start_point,
                        settings.initial_box, settings.carry);
    if (settings.record_history) {
      m.history[li].push_back(m.islands[li].statistics(m.first + li, 0));
    }
  });
  if (failed >= 0 && !m.use_mpi) std::rethrow_exception(m.island_errors[failed]);
  if (m.use_mpi) {
    // Every rank reports the lowest island that failed, with its owner's message.
    int first_failed = failed >= 0 ? m.first + failed : std::numeric_limits<int>::max();
    MPI_Allreduce(MPI_IN_PLACE, &first_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first_failed != std::numeric_limits<int>::max()) {
      throw evaluation_error(m.agreed_failure(first_failed));
    }
  }
  return m.evolve(p, limits, settings, t0, false);
}

run_result island_model::resume(const problem& p, const std::filesystem::path& checkpoint,
                                const termination& limits, const run_settings& settings) {
  return resume_checked(p, nullptr, checkpoint, limits, settings);
}

run_result island_model::resume(const problem& p, const search_box& box,
                                const std::filesystem::path& checkpoint, const termination& limits,
                                const run_settings& settings) {
  return resume_checked(p, &box, checkpoint, limits, settings);
}

// Stages: read and verify the file, check it belongs to these options, problem and box, load
// the islands, check the counters agree, evolve on.
run_result island_model::resume_checked(const problem& p, const search_box* expected_box,
                                        const std::filesystem::path& checkpoint,
                                        const termination& limits, const run_settings& settings) {
  const auto t0 = std::chrono::steady_clock::now();
  limits.validate();
  auto& m = *impl_;
  const checkpoint_contents c = read_checkpoint_file(checkpoint, p.dimension());
  m.check_fingerprint(c, p, checkpoint);
  if (expected_box != nullptr) check_same_box(c, *expected_box, checkpoint);
  try {
    m.prepare(p, c.box);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(checkpoint_where(checkpoint, c.fingerprint_line) + e.what());
  }
  for (auto& isl : m.islands) {
    isl.set_box(c.box);
    isl.attach(p);
  }
  m.load_islands(c, checkpoint);
  m.check_counters(c, checkpoint);
  m.run_index = c.run_index;
  m.generation = c.generation;
  m.started = true;
  m.reset_history();
  m.stall_reference = c.stall_reference;
  m.stall_violation = c.stall_violation;
  m.last_improvement = c.last_improvement;
  return m.evolve(p, limits, settings, t0, true);
}

void island_model::save_checkpoint(const std::filesystem::path& path) const {
  // A caller's defect (checkpointing a model that never ran), named as the call it is.
  if (!impl_->started)
    throw io::option_error("save_checkpoint", "needs a run (run or resume) first");
  impl_->write_checkpoint(path);
}

const ga_options& island_model::ga() const {
  return impl_->ga;
}
const island_options& island_model::islands() const {
  return impl_->opt;
}
int island_model::local_islands() const {
  return impl_->local;
}
bool island_model::is_root() const {
  return impl_->rank == 0;
}

}  // namespace kinevo::ga
