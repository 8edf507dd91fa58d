// kinevo optimize: the island-model GA on a built-in test function. Parses options, builds a
// ga::island_model, runs it (optionally as range runs), prints/writes the results. Numerical
// work lives in ga/.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "cli/command.hpp"
#include "ga/island_model.hpp"
#include "ga/range_runs.hpp"
#include "ga/test_functions.hpp"
#include "io/csv_table.hpp"
#include "io/progress.hpp"
#include "io/svg_plot.hpp"
#include "symbolic/optimization_problem.hpp"

namespace kinevo::cli {

namespace {

std::atomic<bool> g_interrupted{false};
extern "C" void on_sigint(int) {
  g_interrupted.store(true);
}

// Wraps a problem with a busy wait per evaluated candidate, to measure parallel scaling on an
// objective of known cost (hidden option --cost-us).
class costly_problem : public ga::problem {
 public:
  costly_problem(const ga::problem& inner, double micros) : inner_(inner), micros_(micros) {}
  int dimension() const override { return inner_.dimension(); }
  Eigen::VectorXd lower_bounds() const override { return inner_.lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return inner_.upper_bounds(); }
  std::string name() const override { return inner_.name(); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration<double, std::micro>(micros_ * x.cols());
    inner_.evaluate(x, values);
    while (std::chrono::steady_clock::now() < until) {
    }
  }

 private:
  const ga::problem& inner_;
  double micros_;
};

struct optimize_args {
  std::string function = "rastrigin";
  std::string problem_file;  // --problem: a TOML problem file instead of a test function
  int dim = 10;
  std::vector<double> lower, upper;
  std::uint64_t seed = 1;
  // GA
  int population = 100;
  std::string encoding = "real";
  int bits = 16;
  std::string selection = "tournament";
  int tournament_size = 3;
  double rank_pressure = 1.8;
  std::string crossover = "sbx";
  double crossover_rate = 0.9;
  int crossover_points = 2;
  double uniform_swap = 0.5;
  double sbx_eta = 20.0;
  double blx_alpha = 0.5;
  std::string mutation = "polynomial";
  double bit_mutation_rate = 0.001;
  double gene_mutation_rate = -1.0;
  double polynomial_eta = 20.0;
  double gaussian_sigma = 0.1;
  int elites = 1;
  bool gaucsd = false;
  // islands
  int islands = 1;
  std::string topology = "ring";
  int migration_interval = 20;
  int migrants = 2;
  std::string transport = "automatic";
  int threads = 0;
  // termination
  long long generations = 1000;
  long long max_evals = 0;
  double target = -std::numeric_limits<double>::infinity();
  long long stall_generations = 0;
  double stall_tolerance = 0.0;
  double max_seconds = 0.0;
  // range runs
  int range_runs = 1;
  double shrink = 0.2;
  double move_factor = 0.0;
  double move_floor = 0.1;
  double first_run_budget = 1.0;
  bool rotate = false;
  std::string preset = "plain";
  // files and output
  std::string log, plot, table, checkpoint, resume;
  long long checkpoint_every = 0;
  bool json = false;
  bool quiet = false;
  double cost_us = 0.0;
  bool print_hex = false;
  std::string config;
};

// CLI11 (2.1) reads config files for the main app only, so the subcommand applies its TOML file
// itself: every key is a long option name (with '-' or '_'); the command line wins over the file.
void apply_config(CLI::App& sub, const std::string& path) {
  // A directory opens as an empty stream and would read as a config with no keys: refuse it.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw io::input_error(fmt::format("--config {}: is a directory, not a TOML file", path));
  }
  if (!std::filesystem::exists(path, ec)) {
    throw io::input_error(fmt::format("--config {}: cannot read the config file: no such file",
                                      path));
  }
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_file(path);
  } catch (const CLI::Error& e) {
    throw io::input_error(fmt::format("{}: cannot read the config file: {}", path, e.what()));
  }
  for (const auto& item : items) {
    if (!item.parents.empty() && !(item.parents.size() == 1 && item.parents[0] == "optimize")) {
      throw io::input_error(
          fmt::format("{}: section [{}] is not known; put the options at the top "
                      "or under [optimize]",
                      path, item.parents[0]));
    }
    std::string name = item.name;
    std::replace(name.begin(), name.end(), '_', '-');
    CLI::Option* opt = sub.get_option_no_throw("--" + name);
    if (opt == nullptr || name == "config") {
      throw io::input_error(fmt::format(
          "{}: unknown option '{}'; keys are long option names of 'kinevo optimize' without '--'",
          path, item.name));
    }
    if (opt->count() > 0) continue;
    try {
      opt->add_result(item.inputs);
      opt->run_callback();
    } catch (const CLI::Error& e) {
      throw io::input_error(fmt::format("{}: option '{}': {}", path, item.name, e.what()));
    }
  }
}

ga::ga_options ga_from(const optimize_args& a, const CLI::App& sub) {
  const auto given = [&](const char* name) { return sub.count(name) > 0; };
  ga::ga_options o = a.gaucsd ? ga::gaucsd_options() : ga::ga_options{};
  if (!a.gaucsd || given("--population")) o.population = a.population;
  if (!a.gaucsd || given("--encoding")) o.genes = ga::parse_encoding(a.encoding);
  if (!a.gaucsd || given("--bits")) o.bits_per_variable = a.bits;
  const bool real = o.genes == ga::encoding::real;
  if (given("--bits") && real) {
    throw io::input_error("--bits applies to binary or gray genes; add --encoding binary or gray");
  }
  if (!a.gaucsd || given("--selection")) o.selection = ga::parse_selection(a.selection);
  o.tournament_size = a.tournament_size;
  o.rank_pressure = a.rank_pressure;
  // Binary genes default to two-point crossover and bit mutation unless told otherwise.
  if (given("--crossover")) {
    o.crossover = ga::parse_crossover(a.crossover);
  } else if (!a.gaucsd) {
    o.crossover = real ? ga::crossover_method::sbx : ga::crossover_method::n_point;
  }
  if (!a.gaucsd || given("--crossover-rate")) {
    o.crossover_rate = given("--crossover-rate") || real ? a.crossover_rate : 0.6;
  }
  o.crossover_points = a.crossover_points;
  o.uniform_swap = a.uniform_swap;
  o.sbx_eta = a.sbx_eta;
  o.blx_alpha = a.blx_alpha;
  if (given("--mutation")) {
    o.mutation = ga::parse_mutation(a.mutation);
  } else if (!a.gaucsd) {
    o.mutation = real ? ga::mutation_method::polynomial : ga::mutation_method::bit_flip;
  }
  if (!a.gaucsd || given("--bit-mutation-rate")) o.bit_mutation_rate = a.bit_mutation_rate;
  o.gene_mutation_rate = a.gene_mutation_rate;
  o.polynomial_eta = a.polynomial_eta;
  o.gaussian_sigma = a.gaussian_sigma;
  if (!a.gaucsd || given("--elites")) o.elites = a.elites;
  if (real && given("--bit-mutation-rate")) {
    throw io::input_error(
        "--bit-mutation-rate applies to binary or gray genes; use --gene-mutation-rate");
  }
  if (!real && given("--gene-mutation-rate")) {
    throw io::input_error("--gene-mutation-rate applies to real genes; use --bit-mutation-rate");
  }
  return o;
}

Eigen::VectorXd bound(const std::vector<double>& v, const Eigen::VectorXd& fallback,
                      const char* name) {
  if (v.empty()) return fallback;
  const auto n = fallback.size();
  if (v.size() == 1) return Eigen::VectorXd::Constant(n, v[0]);
  if (static_cast<Eigen::Index>(v.size()) != n) {
    throw io::input_error(fmt::format("{} has {} values for dimension {}; give one value or {}",
                                      name, v.size(), n, n));
  }
  return Eigen::Map<const Eigen::VectorXd>(v.data(), n);
}

std::vector<double> to_vector(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

// --preset tuned: the configuration measured against pagmo2 (docs/ga.md): population 30 and 80
// rotated trust-region range runs, the first with 20 times the budget. --max-evals and
// --generations are then totals, shared out over the runs; explicit options still win.
optimize_args apply_preset(const optimize_args& in, const CLI::App& sub) {
  const auto given = [&](const char* name) { return sub.count(name) > 0; };
  if (in.preset == "plain") return in;
  if (in.preset != "tuned") {
    throw io::input_error("unknown --preset '" + in.preset + "'; use plain or tuned");
  }
  if (in.gaucsd || (given("--encoding") && in.encoding != "real")) {
    throw io::input_error("--preset tuned is real-coded; drop --gaucsd/--encoding");
  }
  optimize_args a = in;
  if (!given("--population")) a.population = 30;
  if (!given("--range-runs")) a.range_runs = 80;
  if (!given("--shrink")) a.shrink = 0.5;
  if (!given("--move-factor")) a.move_factor = 4.0;
  if (!given("--first-run-budget")) a.first_run_budget = 20.0;
  if (!given("--rotate")) a.rotate = true;
  if (!given("--max-evals") && !given("--generations")) a.max_evals = 100000;
  const double shares = a.range_runs - 1 + a.first_run_budget;
  const auto per_run = [&](long long total) {
    return total > 0 ? std::max(1LL, static_cast<long long>(static_cast<double>(total) / shares))
                     : total;
  };
  a.max_evals = per_run(a.max_evals);
  a.generations = given("--generations") ? per_run(a.generations) : 0;
  return a;
}

int run_optimize(const optimize_args& a_in, const CLI::App& sub) {
  const auto given = [&](const char* name) { return sub.count(name) > 0; };
  optimize_args a = apply_preset(a_in, sub);
  // Contradictions first, each with what to do instead.
  if (!a.resume.empty() && a.range_runs > 1) {
    throw io::input_error("--resume continues one run; it cannot be combined with --range-runs");
  }
  if (a.checkpoint_every > 0 && a.checkpoint.empty()) {
    throw io::input_error("--checkpoint-every needs --checkpoint FILE");
  }
  if (!a.checkpoint.empty() && a.range_runs > 1) {
    throw io::input_error("--checkpoint saves one run; it cannot be combined with --range-runs");
  }
  for (const char* o :
       {"--shrink", "--move-factor", "--move-floor", "--first-run-budget", "--rotate"}) {
    if (given(o) && a.range_runs <= 1) {
      throw io::input_error(fmt::format("{} needs --range-runs N (N >= 2)", o));
    }
  }
  if (!(a.cost_us >= 0.0)) throw io::input_error("--cost-us must be >= 0");

  if (!a.problem_file.empty() && (given("--function") || given("--dim"))) {
    throw io::input_error(
        "--problem takes its variables from the file; drop --function and --dim");
  }
  std::unique_ptr<ga::problem> base;
  const symbolic::expression_problem* expression = nullptr;
  if (!a.problem_file.empty()) {
    auto loaded = symbolic::load_optimization_problem(a.problem_file);
    expression = loaded.get();
    a.function = loaded->name();
    a.dim = loaded->dimension();
    base = std::move(loaded);
  } else {
    try {
      base = ga::make_test_function(a.function, a.dim);
    } catch (const std::invalid_argument& e) {
      throw io::input_error(std::string("--function/--dim: ") + e.what());
    }
  }
  std::optional<costly_problem> costly;
  if (a.cost_us > 0.0) costly.emplace(*base, a.cost_us);
  const ga::problem& p = costly ? static_cast<const ga::problem&>(*costly) : *base;

  ga::search_box box{bound(a.lower, p.lower_bounds(), "--lower"),
                     bound(a.upper, p.upper_bounds(), "--upper")};
  ga::ga_options go;
  ga::island_options io_opts;
  ga::termination limits;
  std::unique_ptr<ga::island_model> model;
  try {
    box.validate(p.dimension());
    go = ga_from(a, sub);
    io_opts.islands = a.islands;
    io_opts.links = ga::parse_topology(a.topology);
    io_opts.migration_interval = a.migration_interval;
    io_opts.migrants = a.migrants;
    io_opts.via = ga::parse_transport(a.transport);
    io_opts.threads = a.threads;
    io_opts.seed = a.seed;
    limits.max_generations = a.generations;
    limits.max_evaluations = a.max_evals;
    limits.target_value = a.target;
    limits.stall_generations = a.stall_generations;
    limits.stall_tolerance = a.stall_tolerance;
    limits.max_seconds = a.max_seconds;
    limits.interrupt = &g_interrupted;
    limits.validate();
    model = std::make_unique<ga::island_model>(go, io_opts);
  } catch (const std::invalid_argument& e) {
    throw io::input_error(e.what());
  }
  const bool root = model->is_root();

  std::signal(SIGINT, on_sigint);
  io::progress_line progress("optimize", a.quiet || a.json || !root);
  ga::run_settings settings;
  settings.record_history = !a.log.empty() || !a.plot.empty();
  settings.checkpoint_file = a.checkpoint;
  settings.checkpoint_every = a.checkpoint_every;
  int run_number = 0;
  settings.on_sync = [&](const ga::sync_report& s) {
    if (!progress.visible()) return;
    double fraction = -1.0;
    if (a.generations > 0) fraction = static_cast<double>(s.generation) / a.generations;
    if (a.max_evals > 0) {
      fraction = std::max(fraction, static_cast<double>(s.evaluations) / a.max_evals);
    }
    if (a.range_runs > 1) fraction = (run_number + std::min(1.0, fraction)) / a.range_runs;
    progress.update(std::min(1.0, fraction),
                    fmt::format("run {} gen {} evals {} best {:.6g}", run_number + 1, s.generation,
                                s.evaluations, s.best_value));
  };

  ga::range_run_result rr;
  ga::run_result single;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    if (!a.resume.empty()) {
      single = model->resume(p, a.resume, limits, settings);
    } else if (a.range_runs > 1) {
      ga::range_run_options ro;
      ro.runs = a.range_runs;
      ro.shrink = a.shrink;
      ro.move_factor = a.move_factor;
      ro.move_floor = a.move_floor;
      ro.first_run_budget = a.first_run_budget;
      ro.rotate = a.rotate;
      ro.clip_lower = box.lower;
      ro.clip_upper = box.upper;
      rr = ga::run_range_runs(
          *model, p, box, limits, ro,
          [&](ga::range_run_step& step) {
            run_number = step.next_run;
            return true;
          },
          settings);
    } else {
      single = model->run(p, box, limits, settings);
    }
  } catch (const std::invalid_argument& e) {
    throw io::input_error(e.what());
  }
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (a.range_runs <= 1) {
    rr.best_x = single.best_x;
    rr.best_value = single.best_value;
    rr.evaluations = single.evaluations;
    rr.runs.push_back(
        {0, box.centre(), box.radii(), Eigen::MatrixXd::Identity(a.dim, a.dim), single});
  }
  const ga::run_result& last = rr.runs.back().result;
  const bool interrupted = last.reason == ga::stop_reason::interrupted;
  std::string checkpoint_written;
  if (interrupted && a.range_runs <= 1) {
    // Ctrl-C: the generation was finished; save the state so --resume can continue exactly.
    checkpoint_written = a.checkpoint.empty() ? "kinevo_optimize.checkpoint" : a.checkpoint;
    if (a.checkpoint.empty() || a.checkpoint_every <= 0) model->save_checkpoint(checkpoint_written);
  }
  if (!root) return interrupted ? exit_interrupted : exit_ok;

  long long generations = 0;
  for (const auto& r : rr.runs) generations += r.result.generations;

  if (!a.log.empty() || !a.plot.empty()) {
    io::csv_writer log(
        {"run", "island", "generation", "evaluations", "best", "mean", "spread", "diversity"});
    std::vector<io::chart_series> series;
    long long offset = 0;
    for (const auto& r : rr.runs) {
      std::vector<double> gx, gy;
      for (const auto& h : r.result.history) {
        log.add_row({static_cast<double>(r.run), static_cast<double>(h.island),
                     static_cast<double>(h.generation), static_cast<double>(h.evaluations), h.best,
                     h.mean, h.spread, h.diversity});
        const auto g = static_cast<std::size_t>(h.generation - r.result.history.front().generation);
        if (g >= gy.size()) {
          gx.resize(g + 1, static_cast<double>(offset + h.generation));
          gy.resize(g + 1, h.best);
        }
        gy[g] = std::min(gy[g], h.best);
      }
      series.push_back({fmt::format("run {}", r.run + 1), gx, gy, "", false});
      offset += r.result.generations + 1;
    }
    if (!a.log.empty()) log.save(a.log);
    if (!a.plot.empty()) {
      io::chart_options co;
      co.title = fmt::format("kinevo optimize: {} (n = {})", a.function, a.dim);
      co.x_label = "generation";
      co.y_label = "best value (all islands)";
      co.log_y = true;
      io::save_line_chart(a.plot, series, co);
    }
  }
  if (!a.table.empty()) {
    std::vector<std::string> cols{"run", "evaluations", "generations", "best_value"};
    for (int j = 0; j < a.dim; ++j) cols.push_back(fmt::format("centre_{}", j));
    for (int j = 0; j < a.dim; ++j) cols.push_back(fmt::format("radius_{}", j));
    for (int j = 0; j < a.dim; ++j) cols.push_back(fmt::format("x_{}", j));
    io::csv_writer t(cols);
    for (const auto& r : rr.runs) {
      std::vector<double> row{static_cast<double>(r.run + 1),
                              static_cast<double>(r.result.evaluations),
                              static_cast<double>(r.result.generations), r.result.best_value};
      for (auto* v : {&r.centre, &r.radii, &r.result.best_x}) {
        row.insert(row.end(), v->data(), v->data() + v->size());
      }
      t.add_row(row);
    }
    t.save(a.table);
  }

  if (a.print_hex) {
    // Exact digits for the threads-versus-MPI comparison tests (hidden option).
    fmt::print("{} {} {}\n", fmt::format("{:a}", rr.best_value), rr.evaluations, generations);
    for (const double v : to_vector(rr.best_x)) fmt::print("{:a}\n", v);
  } else if (a.json) {
    nlohmann::json j;
    j["function"] = a.function;
    j["dim"] = a.dim;
    if (expression != nullptr) {
      const Eigen::VectorXd x = rr.best_x;
      j["problem"] = a.problem_file;
      j["variables"] = expression->variable_names();
      j["objective"] = expression->objective(x);
      j["max_violation"] = expression->max_violation(x);
      j["constraint_values"] = to_vector(expression->constraint_values(x));
    }
    j["seed"] = a.seed;
    j["islands"] = a.islands;
    j["best_value"] = rr.best_value;
    j["best_x"] = to_vector(rr.best_x);
    j["evaluations"] = rr.evaluations;
    j["generations"] = generations;
    j["stop_reason"] = ga::to_string(last.reason);
    j["seconds"] = seconds;
    if (a.range_runs > 1) {
      nlohmann::json runs = nlohmann::json::array();
      for (const auto& r : rr.runs) {
        runs.push_back({{"run", r.run + 1},
                        {"best_value", r.result.best_value},
                        {"best_x", to_vector(r.result.best_x)},
                        {"radii", to_vector(r.radii)},
                        {"evaluations", r.result.evaluations}});
      }
      j["runs"] = runs;
    }
    if (!checkpoint_written.empty()) j["checkpoint"] = checkpoint_written;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    if (a.range_runs > 1) {
      for (const auto& r : rr.runs) {
        fmt::print("run {:>2}  radius {:<10.4g} best {:.10g}\n", r.run + 1, r.radii.maxCoeff(),
                   r.result.best_value);
      }
    }
    if (expression != nullptr) {
      const Eigen::VectorXd x = rr.best_x;
      for (int k = 0; k < a.dim; ++k) {
        fmt::print("{:<12}{:.17g}\n", expression->variable_names()[static_cast<std::size_t>(k)], x[k]);
      }
      fmt::print("objective   {:.17g}  (largest constraint violation {:.3g})\n",
                 expression->objective(x), expression->max_violation(x));
    }
    fmt::print("best value  {:.17g}\n", rr.best_value);
    fmt::print("best x      [{:.17g}]\n", fmt::join(to_vector(rr.best_x), ", "));
    fmt::print("evaluations {}  generations {}  stop: {}  ({:.3f} s)\n", rr.evaluations,
               generations, ga::to_string(last.reason), seconds);
  }
  if (interrupted) {
    fmt::print(stderr,
               "kinevo optimize: interrupted; state saved to {} (continue with --resume {})\n",
               checkpoint_written, checkpoint_written);
    return exit_interrupted;
  }
  return exit_ok;
}

const command_registration registration(
    50, "optimize", "Minimise a built-in test function or a problem file with the island-model GA",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<optimize_args>();
      sub.add_option("--config", a->config,
                     "Read options from a TOML file (keys are the long option names)");
      sub.add_option("--function", a->function,
                     "sphere, rosenbrock, rastrigin, ackley, griewank, schwefel, quadratic")
          ->capture_default_str();
      sub.add_option("--problem", a->problem_file,
                     "TOML problem file: variables with bounds, objective, g <= 0 / h = 0 "
                     "constraints (docs/model-files.md)")
          ->check(CLI::ExistingFile);
      sub.add_option("--dim", a->dim, "Number of variables")->capture_default_str();
      sub.add_option("--lower", a->lower, "Lower bound(s): one value or one per variable");
      sub.add_option("--upper", a->upper, "Upper bound(s): one value or one per variable");
      add_seed_option(sub, "--seed", a->seed, "Master seed");
      sub.add_option("--population", a->population, "Individuals per island")
          ->capture_default_str();
      sub.add_option("--encoding", a->encoding, "real, binary or gray")->capture_default_str();
      sub.add_option("--bits", a->bits, "Bits per variable (binary/gray)")->capture_default_str();
      sub.add_option("--selection", a->selection, "sus, tournament or rank")->capture_default_str();
      sub.add_option("--tournament-size", a->tournament_size)->capture_default_str();
      sub.add_option("--rank-pressure", a->rank_pressure, "Linear ranking pressure in [1, 2]")
          ->capture_default_str();
      sub.add_option("--crossover", a->crossover,
                     "n_point, uniform, sbx, blx (default: sbx for real, n_point for binary/gray)");
      sub.add_option("--crossover-rate", a->crossover_rate, "Probability a pair is crossed")
          ->capture_default_str();
      sub.add_option("--crossover-points", a->crossover_points, "n of n-point crossover")
          ->capture_default_str();
      sub.add_option("--uniform-swap", a->uniform_swap)->capture_default_str();
      sub.add_option("--sbx-eta", a->sbx_eta)->capture_default_str();
      sub.add_option("--blx-alpha", a->blx_alpha)->capture_default_str();
      sub.add_option("--mutation", a->mutation,
                     "bit_flip, polynomial, gaussian (default: polynomial for real, bit_flip "
                     "for binary/gray)");
      sub.add_option("--bit-mutation-rate", a->bit_mutation_rate)->capture_default_str();
      sub.add_option("--gene-mutation-rate", a->gene_mutation_rate,
                     "Per-gene rate for real genes (negative: 1/dim)")
          ->capture_default_str();
      sub.add_option("--polynomial-eta", a->polynomial_eta)->capture_default_str();
      sub.add_option("--gaussian-sigma", a->gaussian_sigma, "Fraction of the box width")
          ->capture_default_str();
      sub.add_option("--elites", a->elites)->capture_default_str();
      sub.add_flag("--gaucsd", a->gaucsd,
                   "GAucsd settings of the generalized-inverse dissertation: 16-bit binary, "
                   "SUS, two-point crossover 0.6, bit mutation 0.001");
      sub.add_option("--islands", a->islands)->capture_default_str();
      sub.add_option("--topology", a->topology, "ring, fully_connected, random, unconnected")
          ->capture_default_str();
      sub.add_option("--migration-interval", a->migration_interval)->capture_default_str();
      sub.add_option("--migrants", a->migrants)->capture_default_str();
      sub.add_option("--transport", a->transport, "automatic, threads or mpi")
          ->capture_default_str();
      sub.add_option("--threads", a->threads, "Threads per process (0: automatic)")
          ->capture_default_str();
      sub.add_option("--generations", a->generations, "Generation limit (0: none)")
          ->capture_default_str();
      sub.add_option("--max-evals", a->max_evals, "Evaluation limit over all islands (0: none)")
          ->capture_default_str();
      sub.add_option("--target", a->target, "Stop when the best value is <= this");
      sub.add_option("--stall-generations", a->stall_generations,
                     "Stop after this many generations without improvement (0: off)")
          ->capture_default_str();
      sub.add_option("--stall-tolerance", a->stall_tolerance)->capture_default_str();
      sub.add_option("--max-seconds", a->max_seconds, "Wall-time limit (0: none)")
          ->capture_default_str();
      sub.add_option("--range-runs", a->range_runs,
                     "Successive runs re-centred on the best and shrunk")
          ->capture_default_str();
      sub.add_option("--shrink", a->shrink, "Radius factor between range runs")
          ->capture_default_str();
      sub.add_option("--move-factor", a->move_factor,
                     "Range runs: next radii = factor x move of the best (trust region; 0: off)")
          ->capture_default_str();
      sub.add_option("--move-floor", a->move_floor,
                     "Range runs: smallest radius as a fraction of the largest")
          ->capture_default_str();
      sub.add_option("--first-run-budget", a->first_run_budget,
                     "Range runs: limits of the first (global) run as a multiple of the others")
          ->capture_default_str();
      sub.add_option("--preset", a->preset,
                     "plain (one GA run) or tuned (rotated trust-region range runs; "
                     "--max-evals/--generations are then totals, default 1e5 evaluations)")
          ->capture_default_str();
      sub.add_flag("--rotate", a->rotate,
                   "Range runs: align the boxes with the recent moves of the best (needs "
                   "--move-factor)");
      sub.add_option("--log", a->log, "CSV log per generation and island");
      sub.add_option("--plot", a->plot, "SVG chart of the best value per generation");
      sub.add_option("--table", a->table, "CSV table of every (range) run's best");
      sub.add_option("--checkpoint", a->checkpoint, "Checkpoint file (whole state)");
      sub.add_option("--checkpoint-every", a->checkpoint_every, "Generations between checkpoints");
      sub.add_option("--resume", a->resume, "Continue from a checkpoint file");
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("--quiet", a->quiet, "No progress line, no text output");
      sub.add_option("--cost-us", a->cost_us, "Busy-wait per evaluation (benchmarking)")->group("");
      sub.add_flag("--print-hex", a->print_hex, "Print the best point in hex floats (tests)")
          ->group("");
      return [a, &sub] {
        if (!a->config.empty()) apply_config(sub, a->config);
        return run_optimize(*a, sub);
      };
    });

}  // namespace

}  // namespace kinevo::cli
