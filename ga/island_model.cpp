#include "ga/island_model.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "ga/island.hpp"
#include "ga/mpi_environment.hpp"
#include "ga/random_stream.hpp"
#include "ga/worker_pool.hpp"
#include "io/atomic_file.hpp"
#include "io/csv_table.hpp"

namespace kinevo::ga {

namespace {

constexpr const char* checkpoint_magic = "kinevo-ga-checkpoint";
// 2: xoshiro256++ generator states (4 words) instead of Mersenne twister states (312 words).
constexpr int checkpoint_version = 2;
// Random topology draws come from a stream of their own, tagged apart from island streams.
constexpr std::uint64_t migration_stream_tag = std::uint64_t{1} << 63;

// Fixed head of an island's packet at a synchronisation point.
struct packet_head {
  double best_value;
  std::int32_t failed;  // this island's rank caught an exception
  std::int32_t stop;    // interrupt or wall time seen by this island's rank
};

std::string hex(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::string fingerprint(const ga_options& g, const island_options& o, int n,
                        const std::string& problem_name) {
  std::ostringstream s;
  s << "problem=" << problem_name << " n=" << n << " population=" << g.population
    << " genes=" << to_string(g.genes) << " bits=" << g.bits_per_variable
    << " selection=" << to_string(g.selection) << " tournament=" << g.tournament_size
    << " rank_pressure=" << hex(g.rank_pressure) << " crossover=" << to_string(g.crossover)
    << " crossover_rate=" << hex(g.crossover_rate) << " points=" << g.crossover_points
    << " uniform_swap=" << hex(g.uniform_swap) << " sbx_eta=" << hex(g.sbx_eta)
    << " blx_alpha=" << hex(g.blx_alpha) << " mutation=" << to_string(g.mutation)
    << " bit_rate=" << hex(g.bit_mutation_rate) << " gene_rate=" << hex(g.gene_mutation_rate)
    << " polynomial_eta=" << hex(g.polynomial_eta) << " gaussian_sigma=" << hex(g.gaussian_sigma)
    << " elites=" << g.elites << " islands=" << o.islands << " topology=" << to_string(o.links)
    << " migration_interval=" << o.migration_interval << " migrants=" << o.migrants
    << " seed=" << o.seed;
  return s.str();
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
  throw std::invalid_argument("unknown topology '" + name +
                              "'; use one of: ring, fully_connected, random, unconnected");
}

transport parse_transport(const std::string& name) {
  for (auto t : {transport::automatic, transport::threads, transport::mpi}) {
    if (name == to_string(t)) return t;
  }
  throw std::invalid_argument("unknown transport '" + name +
                              "'; use one of: automatic, threads, mpi");
}

void island_options::validate(const ga_options& ga) const {
  if (islands < 1) throw std::invalid_argument("islands must be at least 1");
  if (migration_interval < 1) throw std::invalid_argument("migration interval must be at least 1");
  if (migrants < 0 || migrants > ga.population - ga.elites) {
    throw std::invalid_argument("migrants must be in [0, population - elites] = [0, " +
                                std::to_string(ga.population - ga.elites) + "]");
  }
  if (threads < 0) throw std::invalid_argument("threads must be >= 0 (0: automatic)");
}

struct island_model::impl {
  ga_options ga;
  island_options opt;
  bool use_mpi = false;
  int rank = 0;
  int ranks = 1;
  int first = 0;  // first island of this process
  int local = 0;  // islands of this process
  std::vector<island> islands;
  std::unique_ptr<worker_pool> pool;
  std::vector<std::vector<generation_record>> history;

  // State of the current (or last) run, enough to checkpoint it.
  int n = 0;
  std::string problem_name;
  search_box box;
  std::uint64_t run_index = 0;
  long long generation = 0;
  double stall_reference = 0.0;
  long long last_improvement = 0;
  bool started = false;

  std::vector<std::byte> send, recv;
  std::vector<int> migration_source;
  std::vector<std::byte> migration_buffer;
  std::vector<std::pair<double, std::pair<int, int>>> migration_candidates;
  std::vector<int> counts, displs;

  int sync_interval() const { return opt.islands == 1 ? 1 : opt.migration_interval; }
  long long evals_per_generation() const {
    return static_cast<long long>(opt.islands) * (ga.population - ga.elites);
  }
  long long initial_evals() const { return static_cast<long long>(opt.islands) * ga.population; }

  void prepare(const problem& p, const search_box& b) {
    const int dim = p.dimension();
    if (dim < 1) throw std::invalid_argument("problem '" + p.name() + "' has dimension < 1");
    b.validate(dim);
    if (dim != n || islands.empty()) {
      islands.assign(static_cast<std::size_t>(local), island{});
      for (auto& isl : islands) isl.configure(ga, dim);
      n = dim;
    }
    problem_name = p.name();
    box = b;
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

  // Gathers every island's packet (island order) into recv; returns the packet size.
  int exchange(int migrants_now, int stop_bits, const std::string& error) {
    const int ind = islands.empty() ? 0 : islands[0].individual_bytes();
    const int size = static_cast<int>(sizeof(packet_head)) + n * static_cast<int>(sizeof(double)) +
                     migrants_now * ind;
    send.resize(static_cast<std::size_t>(size) * local);
    recv.resize(static_cast<std::size_t>(size) * opt.islands);
    for (int li = 0; li < local; ++li) {
      std::byte* dst = send.data() + static_cast<std::size_t>(li) * size;
      packet_head h{islands[li].best_value(), error.empty() ? 0 : 1, stop_bits};
      std::memcpy(dst, &h, sizeof h);
      std::memcpy(dst + sizeof h, islands[li].best_x().data(), n * sizeof(double));
      if (error.empty() && migrants_now > 0) {
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
            double f = 0.0;
            std::memcpy(&f, emigrants(j) + static_cast<std::size_t>(e) * ind, sizeof f);
            all.push_back({f, {j, e}});
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

  // Collective under MPI: the whole state reaches rank 0, which writes it atomically.
  void write_checkpoint(const std::filesystem::path& path) {
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
    io::write_atomically(path, [&](std::ostream& os) {
      os << checkpoint_magic << ' ' << checkpoint_version << '\n';
      os << "fingerprint " << fingerprint(ga, opt, n, problem_name) << '\n';
      os << "run_index " << run_index << '\n';
      os << "generation " << generation << '\n';
      os << "stall " << hex(stall_reference) << ' ' << last_improvement << '\n';
      os << "lower";
      for (int j = 0; j < n; ++j) os << ' ' << hex(box.lower[j]);
      os << "\nupper";
      for (int j = 0; j < n; ++j) os << ' ' << hex(box.upper[j]);
      os << '\n' << all << "end\n";
    });
  }

  run_result evolve(const problem& p, const termination& limits, const run_settings& settings,
                    std::chrono::steady_clock::time_point t0, bool resumed);
};

run_result island_model::impl::evolve(const problem& p, const termination& limits,
                                      const run_settings& settings,
                                      std::chrono::steady_clock::time_point t0, bool resumed) {
  const int k = opt.islands;
  const long long per_gen = evals_per_generation();
  const long long gen_limit =
      limits.max_generations > 0 ? limits.max_generations : std::numeric_limits<long long>::max();
  long long eval_gen_limit = std::numeric_limits<long long>::max();
  if (limits.max_evaluations > 0) {
    eval_gen_limit = std::max(0LL, (limits.max_evaluations - initial_evals()) / per_gen);
  }
  const int interval = sync_interval();
  const bool checkpoints = !settings.checkpoint_file.empty() && settings.checkpoint_every > 0;

  run_result result;
  std::string error;
  bool first_sync = true;
  for (;;) {
    // Synchronisation point: gather, migrate, decide.
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
    const int size = exchange(migrating ? opt.migrants : 0,
                              (interrupted ? 1 : 0) | (out_of_time ? 2 : 0), error);
    bool any_failed = false;
    int any_stop = 0;  // OR of every rank's bits: all ranks decide alike
    int best = 0;
    for (int i = 0; i < k; ++i) {
      const packet_head h = head(i, size);
      any_failed |= h.failed != 0;
      any_stop |= h.stop;
      if (h.best_value < head(best, size).best_value) best = i;
    }
    if (any_failed) {
      throw std::runtime_error(error.empty() ? "the GA failed on another MPI rank (see its message)"
                                             : error);
    }
    if (migrating) migrate(opt.migrants, size, generation / opt.migration_interval);
    result.best_island = best;
    result.best_value = head(best, size).best_value;
    result.best_x.resize(n);
    std::memcpy(result.best_x.data(),
                recv.data() + static_cast<std::size_t>(best) * size + sizeof(packet_head),
                n * sizeof(double));
    if (first_sync && !resumed) {
      stall_reference = result.best_value;
      last_improvement = generation;
    } else if (result.best_value < stall_reference - limits.stall_tolerance) {
      stall_reference = result.best_value;
      last_improvement = generation;
    }
    first_sync = false;
    result.generations = generation;
    result.evaluations = initial_evals() + generation * per_gen;

    bool stop = true;
    if (result.best_value <= limits.target_value) {
      result.reason = stop_reason::target;
    } else if (any_stop & 1) {
      result.reason = stop_reason::interrupted;
    } else if (any_stop & 2) {
      result.reason = stop_reason::wall_time;
    } else if (limits.stall_generations > 0 &&
               generation - last_improvement >= limits.stall_generations) {
      result.reason = stop_reason::stall;
    } else if (generation >= gen_limit) {
      result.reason = stop_reason::generations;
    } else if (generation >= eval_gen_limit) {
      result.reason = stop_reason::evaluations;
    } else {
      stop = false;
    }
    if (checkpoints && (generation % settings.checkpoint_every == 0 ||
                        (stop && result.reason == stop_reason::interrupted))) {
      write_checkpoint(settings.checkpoint_file);
    }
    if (settings.on_sync) {
      settings.on_sync(sync_report{generation, result.evaluations, result.best_value, &limits});
    }
    if (stop) break;

    // Epoch: every island evolves alone up to the next synchronisation point.
    long long next = (generation / interval + 1) * interval;
    next = std::min({next, gen_limit, eval_gen_limit});
    if (checkpoints) {
      next =
          std::min(next, (generation / settings.checkpoint_every + 1) * settings.checkpoint_every);
    }
    const long long from = generation;
    try {
      for_islands([&](int li) {
        for (long long g = from + 1; g <= next; ++g) {
          islands[li].step(p);
          if (settings.record_history) history[li].push_back(islands[li].statistics(first + li, g));
        }
      });
    } catch (const std::exception& e) {
      if (!use_mpi) throw;
      error = e.what();  // tell the other ranks at the next exchange instead of deadlocking
    }
    generation = next;
  }

  if (settings.record_history) {
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
      all.resize(static_cast<std::size_t>(per) * k);
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
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
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
      throw std::invalid_argument(
          "transport mpi needs the program to be started by mpiexec; use threads or automatic");
    }
    m.use_mpi = mpi_environment::size() > 1;
  } else if (islands.via == transport::automatic) {
    // With fewer islands than ranks every rank computes all islands itself (same result).
    m.use_mpi = mpi_up && islands.islands >= mpi_environment::size();
  }
  if (m.use_mpi) {
    m.rank = mpi_environment::rank();
    m.ranks = mpi_environment::size();
    if (islands.islands < m.ranks) {
      throw std::invalid_argument(
          "transport mpi needs at least one island per rank: " + std::to_string(islands.islands) +
          " islands on " + std::to_string(m.ranks) + " ranks");
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
  if (threads > 1) m.pool = std::make_unique<worker_pool>(threads);
}

island_model::~island_model() = default;
island_model::island_model(island_model&&) noexcept = default;
island_model& island_model::operator=(island_model&&) noexcept = default;

run_result island_model::run(const problem& p, const search_box& box, const termination& limits,
                             const run_settings& settings) {
  const auto t0 = std::chrono::steady_clock::now();
  limits.validate();
  auto& m = *impl_;
  m.prepare(p, box);
  if (settings.start_point != nullptr && settings.start_point->size() != m.n) {
    throw std::invalid_argument("start point has size " +
                                std::to_string(settings.start_point->size()) +
                                ", the problem has dimension " + std::to_string(m.n));
  }
  m.run_index = settings.run_index;
  m.generation = 0;
  m.started = true;
  m.history.resize(static_cast<std::size_t>(m.local));
  for (auto& h : m.history) h.clear();
  std::string error;
  try {
    m.for_islands([&](int li) {
      m.islands[li].start(p, box, m.opt.seed, m.first + li, settings.run_index,
                          settings.start_point);
      if (settings.record_history) {
        m.history[li].push_back(m.islands[li].statistics(m.first + li, 0));
      }
    });
  } catch (const std::exception& e) {
    if (!m.use_mpi) throw;
    error = e.what();
  }
  if (m.use_mpi) {
    int failed = error.empty() ? 0 : 1;
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed) {
      throw std::runtime_error(error.empty() ? "the GA failed on another MPI rank (see its message)"
                                             : error);
    }
  }
  return m.evolve(p, limits, settings, t0, false);
}

run_result island_model::resume(const problem& p, const std::filesystem::path& checkpoint,
                                const termination& limits, const run_settings& settings) {
  const auto t0 = std::chrono::steady_clock::now();
  limits.validate();
  auto& m = *impl_;
  const std::string where = checkpoint.string();
  std::ifstream in(checkpoint);
  if (!in) throw io::input_error(where + ": cannot open the checkpoint file");
  std::string line;
  int line_no = 0;
  const auto next_line = [&](const char* what) {
    if (!std::getline(in, line)) {
      throw io::input_error(where + ":" + std::to_string(line_no + 1) + ": missing " + what);
    }
    ++line_no;
    return std::istringstream(line);
  };
  const auto fail = [&](const std::string& msg) {
    throw io::input_error(where + ":" + std::to_string(line_no) + ": " + msg);
  };
  {
    auto s = next_line("header");
    std::string magic;
    int version = 0;
    s >> magic >> version;
    if (magic != checkpoint_magic || version != checkpoint_version) {
      fail("not a kinevo GA checkpoint (version " + std::to_string(checkpoint_version) + ")");
    }
  }
  std::string fp;
  {
    auto s = next_line("fingerprint");
    std::string key;
    s >> key;
    std::getline(s, fp);
    if (!fp.empty() && fp[0] == ' ') fp.erase(0, 1);
    if (key != "fingerprint") fail("expected 'fingerprint'");
  }
  const std::string ours = fingerprint(m.ga, m.opt, p.dimension(), p.name());
  if (fp != ours) {
    fail("the checkpoint was written with other settings; resume with the same options.\n  file: " +
         fp + "\n  now:  " + ours);
  }
  const auto read_key = [&](const char* key) {
    auto s = next_line(key);
    std::string k;
    s >> k;
    if (k != key) fail(std::string("expected '") + key + "', found '" + k + "'");
    return s;
  };
  const auto read_hex = [&](std::istringstream& s) {
    std::string tok;
    if (!(s >> tok)) fail("missing number");
    char* end = nullptr;
    const double v = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end != '\0') fail("'" + tok + "' is not a number");
    return v;
  };
  std::uint64_t run_index = 0;
  long long generation = 0;
  double stall_ref = 0.0;
  long long last_impr = 0;
  {
    auto s = read_key("run_index");
    if (!(s >> run_index)) fail("unreadable run index");
  }
  {
    auto s = read_key("generation");
    if (!(s >> generation) || generation < 0) fail("unreadable generation");
  }
  {
    auto s = read_key("stall");
    stall_ref = read_hex(s);
    if (!(s >> last_impr)) fail("unreadable stall generation");
  }
  const int n = p.dimension();
  search_box b{Eigen::VectorXd(n), Eigen::VectorXd(n)};
  {
    auto s = read_key("lower");
    for (int j = 0; j < n; ++j) b.lower[j] = read_hex(s);
  }
  {
    auto s = read_key("upper");
    for (int j = 0; j < n; ++j) b.upper[j] = read_hex(s);
  }
  m.prepare(p, b);
  for (auto& isl : m.islands) isl.set_box(b);
  // Island sections: "island i" then that island's lines, up to the next section or "end".
  std::string section;
  int current = -1;
  int section_line = 0;
  int loaded = 0;
  const auto flush = [&] {
    if (current < 0) return;
    const int li = current - m.first;
    if (li >= 0 && li < m.local) {
      std::istringstream s(section);
      try {
        m.islands[li].load(s);
      } catch (const std::exception& e) {
        throw io::input_error(where + ":" + std::to_string(section_line) + ": island " +
                              std::to_string(current) + ": " + e.what());
      }
      ++loaded;
    }
    section.clear();
  };
  bool ended = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("island ", 0) == 0) {
      flush();
      current = std::atoi(line.c_str() + 7);
      section_line = line_no;
    } else if (line == "end") {
      flush();
      ended = true;
      break;
    } else {
      section += line;
      section += '\n';
    }
  }
  if (!ended) fail("the file is truncated (no 'end' line)");
  if (loaded != m.local) fail("the file lacks some islands");
  m.run_index = run_index;
  m.generation = generation;
  m.started = true;
  m.history.resize(static_cast<std::size_t>(m.local));
  for (auto& h : m.history) h.clear();
  m.stall_reference = stall_ref;
  m.last_improvement = last_impr;
  return m.evolve(p, limits, settings, t0, true);
}

void island_model::save_checkpoint(const std::filesystem::path& path) const {
  if (!impl_->started) throw std::logic_error("save_checkpoint before any run");
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
