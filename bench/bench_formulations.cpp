// Yoo, Kim and Kim's Table 1 on this machine ("A hybrid scheme using LU decomposition and
// projection matrix for dynamic analysis of constrained multibody systems", section 6): the CPU
// time of each formulation (mechanics/dynamics/formulation.hpp) over one run, its ratio to LU
// partitioning, the largest relative energy deviation, the largest position violation and how
// the run ended; one Markdown table per model:
//   Yoo's parallelogram in relative angles (examples/yoo_parallelogram.toml), RK4, dt = 1e-4, 2 s
//   the same from three bodies (examples/parallelogram_bodies.toml),      RK4, dt = 1e-4, 2 s
//   the 50-link pendulum chain (mechanics/model/chain_model.hpp),               RK4, dt = 1e-3, 1 s
// Rows: every formulation of formulation_names() (the ones this build does not have say "not
// available"), `full` with GIGSP and with Lagrange multipliers (no stabilization: today's
// default; and LM with projection), and `reuse` with either compensation. CPU time: median of
// three runs without diagnostics (process CPU time); the accuracy columns come from one more run
// with diagnostics. Run by hand from the repository root:
// Then the reuse trade-off (exact inverse every k = 1, 2, 5, 10 steps against exact GIGSP) on
// the double pendulum, the slider-crank and the bodies parallelogram (RK4, dt = 1e-3 or
// --tradeoff-dt, 2 s) and
// on the chain.
//   build/bench/bench_formulations [--runs N] [--model yoo|bodies|chain|double_pendulum|...]
//                                  [--tradeoff-dt DT] [--tradeoff-only]
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <exception>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

using namespace kinevo::mechanics;

struct bench_model {
  std::string key, title;
  model m;
  double dt, t_end;
};

struct variant {
  std::string formulation;  // a formulation_names() entry
  std::string solver;       // the --solver (used by `full`)
  stabilization_kind stabilization = stabilization_kind::none;
};

struct outcome {
  bool available = true;
  std::string status;  // "ok", "not available", "diverged at t = ...", ...
  double cpu = std::nan("");
  double energy = std::nan("");
  double violation = std::nan("");
  long long exact_inverses = 0;
};

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

std::vector<variant> variants() {
  std::vector<variant> v{{"full", "gigsp", stabilization_kind::none},
                         {"full", "lm", stabilization_kind::none},
                         {"full", "lm", stabilization_kind::projection}};
  for (const std::string& name : formulation_names()) {
    if (name == "full") continue;
    if (name == "reuse") {
      v.push_back({name, "gigsp", stabilization_kind::baumgarte});
      v.push_back({name, "gigsp", stabilization_kind::projection});
    } else {
      v.push_back({name, "gigsp", stabilization_kind::none});
    }
  }
  return v;
}

simulation_options options_for(const bench_model& b, const variant& v, bool diagnostics) {
  simulation_options o;
  o.integrator = integrator_kind::rk4;
  o.t_end = b.t_end;
  o.dt = b.dt;
  o.stabilization = v.stabilization;
  o.formulation.kind = parse_formulation(v.formulation);
  o.diagnostics = diagnostics;
  return o;
}

std::string how_it_ended(const simulation_result& r) {
  if (r.completed) return "ok";
  std::string why = r.message;
  if (why.size() > 90) why = why.substr(0, 87) + "...";
  return fmt::format("{} ({})", stop_name(r.stop), why);
}

outcome measure(const bench_model& b, const variant& v, int runs) {
  outcome out;
  auto solver = make_solver(v.solver);
  const step_callback keep_nothing = [](const step_record&) { return true; };
  try {
    const simulation_result r = simulate(b.m, *solver, options_for(b, v, true), keep_nothing);
    out.status = how_it_ended(r);
    out.energy = r.max_energy_deviation();
    out.violation = r.max_position_violation;
    out.exact_inverses = r.formulation.exact_inverses;
    std::vector<double> times;
    for (int k = 0; k < runs; ++k) {
      const double t0 = cpu_seconds();
      (void)simulate(b.m, *solver, options_for(b, v, false), keep_nothing);
      times.push_back(cpu_seconds() - t0);
    }
    std::sort(times.begin(), times.end());
    out.cpu = times[times.size() / 2];
  } catch (const kinevo::io::input_error& e) {
    const std::string what = e.what();
    out.available = false;
    out.status = what.find("not available") != std::string::npos
                     ? "not available"
                     : fmt::format("refused ({})", what.substr(0, 90));
  } catch (const std::exception& e) {
    out.available = false;
    out.status = fmt::format("error ({})", std::string(e.what()).substr(0, 90));
  }
  return out;
}

std::string label(const variant& v) {
  if (v.formulation == "full") {
    return fmt::format("full, {}{}", v.solver,
                       v.stabilization == stabilization_kind::none
                           ? ""
                           : fmt::format(", {}", to_string(v.stabilization)));
  }
  if (v.formulation == "reuse") return fmt::format("reuse, {}", to_string(v.stabilization));
  if (v.formulation == "partitioning") return "partitioning (LU)";
  return v.formulation;
}

std::string number(double x, const char* format = "{:.3g}") {
  return std::isfinite(x) ? fmt::format(fmt::runtime(format), x) : std::string("-");
}

void table(const bench_model& b, int runs) {
  const std::vector<variant> vs = variants();
  std::vector<outcome> results;
  for (const variant& v : vs) results.push_back(measure(b, v, runs));
  double lu = std::nan("");
  for (std::size_t i = 0; i < vs.size(); ++i) {
    if (vs[i].formulation == "partitioning" && results[i].available) lu = results[i].cpu;
  }
  const constrained_system s = b.m.evaluate(b.m.initial_positions(), b.m.initial_velocities(), 0.0);
  fmt::print("\n### {} (n = {}, m = {}; RK4, dt = {:g}, {:g} s)\n\n", b.title, s.coordinates(),
             s.constraints(), b.dt, b.t_end);
  fmt::print(
      "| formulation | CPU s (median of {}) | ratio to LU | max rel. energy deviation | "
      "max position violation | exact inverses | status |\n|---|---|---|---|---|---|---|\n",
      runs);
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const outcome& o = results[i];
    if (!o.available) {
      fmt::print("| {} | - | - | - | - | - | {} |\n", label(vs[i]), o.status);
      continue;
    }
    fmt::print("| {} | {} | {} | {} | {} | {} | {} |\n", label(vs[i]), number(o.cpu, "{:.3f}"),
               number(o.cpu / lu, "{:.2f}"), number(o.energy), number(o.violation),
               vs[i].formulation == "reuse" ? std::to_string(o.exact_inverses) : "-", o.status);
  }
}

// The reuse trade-off (generalized-inverse dissertation (GIGSP), section 4.3.3): an exact
// inverse every k steps against exact GIGSP every solve, with the same compensation. The error
// column is max |a - a_gigsp| / max |a| at the records (GIGSP solved at the same state).
void reuse_tradeoff(const bench_model& b, int runs) {
  fmt::print("\n### reuse: exact inverse every k steps, {} (RK4, dt = {:g}, {:g} s)\n\n", b.title,
             b.dt, b.t_end);
  fmt::print(
      "| compensation | k | CPU s (median of {}) | ratio to exact GIGSP | max rel. acceleration "
      "error | max rel. energy deviation | max position violation | status |\n"
      "|---|---|---|---|---|---|---|---|\n",
      runs);
  const step_callback keep_nothing = [](const step_record&) { return true; };
  for (const stabilization_kind stab :
       {stabilization_kind::baumgarte, stabilization_kind::projection}) {
    double exact_cpu = std::nan("");
    for (const int k : {0, 1, 2, 5, 10}) {  // 0: full formulation with GIGSP
      variant v{k == 0 ? "full" : "reuse", "gigsp", stab};
      simulation_options o = options_for(b, v, true);
      if (k > 0) o.formulation.reuse_exact_every = k;
      auto solver = make_solver("gigsp");
      auto reference = make_solver("gigsp");
      double largest = 0.0;
      const step_callback track = [&](const step_record& r) {
        largest = std::max(largest, r.qdd.cwiseAbs().maxCoeff());
        return true;
      };
      const simulation_result r = simulate(b.m, *solver, o, track, reference.get());
      std::vector<double> times;
      o.diagnostics = false;
      for (int i = 0; i < runs; ++i) {
        const double t0 = cpu_seconds();
        (void)simulate(b.m, *solver, o, keep_nothing);
        times.push_back(cpu_seconds() - t0);
      }
      std::sort(times.begin(), times.end());
      const double cpu = times[times.size() / 2];
      if (k == 0) exact_cpu = cpu;
      fmt::print("| {} | {} | {:.3f} | {:.2f} | {} | {} | {} | {} |\n", to_string(stab),
                 k == 0 ? std::string("exact") : std::to_string(k), cpu, cpu / exact_cpu,
                 number(r.max_reference_difference / largest), number(r.max_energy_deviation()),
                 number(r.max_position_violation), how_it_ended(r));
    }
  }
}

std::string cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 3;
  std::string only;
  bool tradeoff_only = false;
  double tradeoff_dt = 1e-3;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--tradeoff-only") tradeoff_only = true;
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    if (k == "--model") only = argv[i + 1];
    if (k == "--tradeoff-dt") tradeoff_dt = std::atof(argv[i + 1]);
  }
  std::vector<bench_model> models;
  if (only.empty() || only == "yoo") {
    models.push_back({"yoo", "Yoo's parallelogram, relative angles",
                      load_model("examples/yoo_parallelogram.toml"), 1e-4, 2.0});
  }
  if (only.empty() || only == "bodies") {
    models.push_back({"bodies", "Yoo's parallelogram, three bodies",
                      load_model("examples/parallelogram_bodies.toml"), 1e-4, 2.0});
  }
  if (only.empty() || only == "chain") {
    chain_options c;
    c.links = 50;
    models.push_back({"chain", "50-link pendulum chain",
                      load_model_from_string(chain_model_text(c), "chain50.toml"), 1e-3, 1.0});
  }
  fmt::print("Formulations on {} (one thread; CPU time of the whole run, records not kept)\n",
             cpu_name());
  if (!tradeoff_only) {
    for (const bench_model& b : models) table(b, runs);
  }
  std::vector<bench_model> small;
  for (const std::string f : {"double_pendulum", "slider_crank", "parallelogram_bodies"}) {
    if (only.empty() || only == f) {
      small.push_back({f, f, load_model("examples/" + f + ".toml"), tradeoff_dt, 2.0});
    }
  }
  for (const bench_model& b : small) reuse_tradeoff(b, runs);
  for (const bench_model& b : models) {
    if (b.key == "chain") reuse_tradeoff(b, runs);
  }
  return 0;
}
