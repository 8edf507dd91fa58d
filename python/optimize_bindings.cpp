// kinevo.optimize (the island-model GA on a Python objective) and kinevo.optimize_problem (on a
// TOML problem file). Both bind keyword options onto optimization::optimize_options under the
// names of `kinevo optimize`'s config-file keys, so that the same seed and settings give the
// same run as the command line.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/core/to_vector.hpp"
#include "kinevo/ga/constraint_handling.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/optimization/run_driver.hpp"
#include "python/bindings.hpp"

namespace kinevo::python {

namespace {

namespace opt = kinevo::optimization;

// ---- the objective -------------------------------------------------------------------------

// A Python callable as a ga::problem. Batch: objective(X) with X of shape (count, dim), one
// candidate a row, returns `count` values. Otherwise objective(x) with x of shape (dim,)
// returns one value. Islands on threads call evaluate concurrently: each call takes the GIL.
class python_objective final : public ga::problem {
 public:
  python_objective(py::object function, Eigen::VectorXd lower, Eigen::VectorXd upper, bool batch,
                   std::string name)
      : function_(std::move(function)),
        lower_(std::move(lower)),
        upper_(std::move(upper)),
        batch_(batch),
        name_(std::move(name)) {}

  int dimension() const override { return static_cast<int>(lower_.size()); }
  Eigen::VectorXd lower_bounds() const override { return lower_; }
  Eigen::VectorXd upper_bounds() const override { return upper_; }
  std::string name() const override { return name_; }

  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    py::gil_scoped_acquire gil;
    if (batch_) {
      evaluate_batch(x, values);
    } else {
      for (Eigen::Index c = 0; c < x.cols(); ++c) values[c] = evaluate_one(x.col(c));
    }
  }

 private:
  void evaluate_batch(const Eigen::Ref<const Eigen::MatrixXd>& x,
                      Eigen::Ref<Eigen::VectorXd> values) const {
    py::array_t<double> population({x.cols(), x.rows()});
    auto rows = population.mutable_unchecked<2>();
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
      for (Eigen::Index j = 0; j < x.rows(); ++j) rows(c, j) = x(j, c);
    }
    const auto fitness = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(
        function_(population));
    if (!fitness || fitness.size() != x.cols()) {
      throw py::value_error("the objective (batch=True) must return one number per row of its (" +
                            std::to_string(x.cols()) + ", " + std::to_string(x.rows()) +
                            ") argument");
    }
    const double* f = fitness.data();
    for (Eigen::Index c = 0; c < x.cols(); ++c) values[c] = f[c];
  }

  double evaluate_one(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    py::array_t<double> point(x.size());
    auto p = point.mutable_unchecked<1>();
    for (Eigen::Index j = 0; j < x.size(); ++j) p(j) = x[j];
    return function_(point).cast<double>();
  }

  py::object function_;
  Eigen::VectorXd lower_, upper_;
  bool batch_;
  std::string name_;
};

// ---- options -------------------------------------------------------------------------------

using option_setter = std::function<void(opt::optimize_options&, const py::handle&)>;

// One number for every variable, or one per variable (a list or a numpy array).
std::vector<double> as_vector(const py::handle& v) {
  if (py::isinstance<py::float_>(v) || py::isinstance<py::int_>(v)) return {v.cast<double>()};
  return v.cast<std::vector<double>>();
}

template <class T>
option_setter set(T opt::optimize_options::*field) {
  return [field](opt::optimize_options& o, const py::handle& v) { o.*field = v.cast<T>(); };
}

// An enumerated option from its name, through the library's parser (which names the choices).
template <class Parse>
option_setter named(
    Parse parse,
    std::function<void(opt::optimize_options&, decltype(parse(std::string())))> assign) {
  return [parse, assign](opt::optimize_options& o, const py::handle& v) {
    assign(o, parse(v.cast<std::string>()));
  };
}

// Keyword -> field; the keyword is the config-file key of `kinevo optimize` (docs/ga.md).
const std::map<std::string, option_setter>& option_setters() {
  using O = opt::optimize_options;
  static const std::map<std::string, option_setter> table = {
      {"dim", set(&O::dim)},
      {"lower", [](O& o, const py::handle& v) { o.lower = as_vector(v); }},
      {"upper", [](O& o, const py::handle& v) { o.upper = as_vector(v); }},
      {"seed", set(&O::seed)},
      {"preset", named(opt::parse_preset, [](O& o, opt::preset p) { o.which = p; })},
      {"gaucsd", set(&O::gaucsd)},
      {"population", [](O& o, const py::handle& v) { o.ga.population = v.cast<int>(); }},
      {"encoding", named(ga::parse_encoding, [](O& o, ga::encoding e) { o.ga.genes = e; })},
      {"bits", [](O& o, const py::handle& v) { o.ga.bits_per_variable = v.cast<int>(); }},
      {"selection",
       named(ga::parse_selection, [](O& o, ga::selection_method s) { o.ga.selection = s; })},
      {"tournament_size", [](O& o, const py::handle& v) { o.ga.tournament_size = v.cast<int>(); }},
      {"crossover",
       named(ga::parse_crossover, [](O& o, ga::crossover_method c) { o.ga.crossover = c; })},
      {"crossover_rate", [](O& o, const py::handle& v) { o.ga.crossover_rate = v.cast<double>(); }},
      {"mutation",
       named(ga::parse_mutation, [](O& o, ga::mutation_method c) { o.ga.mutation = c; })},
      {"gene_mutation_rate",
       [](O& o, const py::handle& v) { o.ga.gene_mutation_rate = v.cast<double>(); }},
      {"bit_mutation_rate",
       [](O& o, const py::handle& v) { o.ga.bit_mutation_rate = v.cast<double>(); }},
      {"elites", [](O& o, const py::handle& v) { o.ga.elites = v.cast<int>(); }},
      {"generation_model",
       named(ga::parse_generation_model, [](O& o, ga::generation_model g) { o.ga.model = g; })},
      {"parents", [](O& o, const py::handle& v) { o.ga.parents = v.cast<int>(); }},
      {"offspring", [](O& o, const py::handle& v) { o.ga.offspring = v.cast<int>(); }},
      {"replaced", [](O& o, const py::handle& v) { o.ga.replaced = v.cast<int>(); }},
      {"pcx_sigma_zeta", [](O& o, const py::handle& v) { o.ga.pcx_sigma_zeta = v.cast<double>(); }},
      {"pcx_sigma_eta", [](O& o, const py::handle& v) { o.ga.pcx_sigma_eta = v.cast<double>(); }},
      {"metric", named(ga::parse_metric_model, [](O& o, ga::metric_model m) { o.ga.metric = m; })},
      {"metric_interval", [](O& o, const py::handle& v) { o.ga.metric_interval = v.cast<int>(); }},
      {"metric_rate", [](O& o, const py::handle& v) { o.ga.metric_rate = v.cast<double>(); }},
      {"metric_carry", [](O& o, const py::handle& v) { o.ga.metric_carry = v.cast<bool>(); }},
      {"metric_lazy", [](O& o, const py::handle& v) { o.ga.metric_lazy = v.cast<int>(); }},
      {"metric_root",
       named(ga::parse_metric_root, [](O& o, ga::metric_root r) { o.ga.metric_root_kind = r; })},
      {"constraints", named(ga::parse_constraint_handling,
                            [](O& o, ga::constraint_handling c) { o.ga.constraints = c; })},
      {"equality_tolerance", set(&O::equality_tolerance)},
      {"inequality_tolerance", set(&O::inequality_tolerance)},
      {"allow_infeasible", set(&O::allow_infeasible)},
      {"islands", [](O& o, const py::handle& v) { o.islands.islands = v.cast<int>(); }},
      {"topology", named(ga::parse_topology, [](O& o, ga::topology t) { o.islands.links = t; })},
      {"migration_interval",
       [](O& o, const py::handle& v) { o.islands.migration_interval = v.cast<int>(); }},
      {"migrants", [](O& o, const py::handle& v) { o.islands.migrants = v.cast<int>(); }},
      {"threads", [](O& o, const py::handle& v) { o.islands.threads = v.cast<int>(); }},
      {"generations",
       [](O& o, const py::handle& v) { o.limits.max_generations = v.cast<long long>(); }},
      {"max_evals",
       [](O& o, const py::handle& v) { o.limits.max_evaluations = v.cast<long long>(); }},
      {"target", [](O& o, const py::handle& v) { o.limits.target_value = v.cast<double>(); }},
      {"stall_generations",
       [](O& o, const py::handle& v) { o.limits.stall_generations = v.cast<long long>(); }},
      {"stall_tolerance",
       [](O& o, const py::handle& v) { o.limits.stall_tolerance = v.cast<double>(); }},
      {"max_seconds", [](O& o, const py::handle& v) { o.limits.max_seconds = v.cast<double>(); }},
      {"range_runs", [](O& o, const py::handle& v) { o.range.runs = v.cast<int>(); }},
      {"shrink", [](O& o, const py::handle& v) { o.range.shrink = v.cast<double>(); }},
      {"move_factor", [](O& o, const py::handle& v) { o.range.move_factor = v.cast<double>(); }},
      {"move_floor", [](O& o, const py::handle& v) { o.range.move_floor = v.cast<double>(); }},
      {"first_run_budget",
       [](O& o, const py::handle& v) { o.range.first_run_budget = v.cast<double>(); }},
      {"rotate", [](O& o, const py::handle& v) { o.range.rotate = v.cast<bool>(); }},
  };
  return table;
}

std::string known_options() {
  std::string names;
  for (const auto& [key, setter] : option_setters()) names += (names.empty() ? "" : ", ") + key;
  return names;
}

// The keywords onto the options; each one set counts as given (the run plan's policies, e.g.
// the binary encoding's defaults, change only the others, as on the command line).
opt::optimize_options bind_options(const py::kwargs& kwargs) {
  opt::optimize_options o;
  o.islands.via = ga::transport::threads;  // MPI is never initialised inside Python
  for (const auto& [key, value] : kwargs) {
    const auto name = key.cast<std::string>();
    const auto found = option_setters().find(name);
    if (found == option_setters().end()) {
      throw py::type_error("unknown option '" + name + "'; the options are: " + known_options());
    }
    if (value.is_none()) continue;
    try {
      found->second(o, value);
    } catch (const py::cast_error&) {
      throw py::type_error("option '" + name + "' has the wrong type");
    } catch (const io::option_error& e) {
      throw io::option_error(name, e.requirement());  // the keyword's name, said once
    } catch (const std::invalid_argument& e) {
      throw io::option_error(name, e.what());
    }
    o.given.insert(name);
  }
  return o;
}

// ---- running -------------------------------------------------------------------------------

opt::optimization_run run_objective(const py::object& objective, const py::object& dim, bool batch,
                                    const std::string& name, const py::kwargs& kw) {
  opt::optimize_options o = bind_options(kw);
  if (o.lower.empty() || o.upper.empty()) {
    throw io::option_error(o.lower.empty() ? "lower" : "upper",
                           "is required with a Python objective: one value or one per variable");
  }
  if (!dim.is_none()) {
    o.dim = dim.cast<int>();
  } else if (o.lower.size() > 1 || o.upper.size() > 1) {
    o.dim = static_cast<int>(std::max(o.lower.size(), o.upper.size()));
  } else {
    throw io::option_error("dim", "is required when lower and upper are single numbers");
  }
  if (o.dim < 1) throw io::option_error("dim", "must be >= 1");
  // The box is the objective's own; the run checks sizes and lower < upper (make_box).
  const auto box_side = [&](const std::vector<double>& v) {
    return v.size() == 1 ? Eigen::VectorXd::Constant(o.dim, v[0])
                         : Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(
                               v.data(), static_cast<Eigen::Index>(v.size())));
  };
  if ((o.lower.size() != 1 && static_cast<int>(o.lower.size()) != o.dim) ||
      (o.upper.size() != 1 && static_cast<int>(o.upper.size()) != o.dim)) {
    throw io::option_error(
        "lower", "and upper need one value or one per variable (" + std::to_string(o.dim) + ")");
  }
  const python_objective problem(objective, box_side(o.lower), box_side(o.upper), batch, name);
  py::gil_scoped_release release;
  return opt::run_optimization(o, problem);
}

opt::optimization_run run_problem_file(const std::filesystem::path& path, const py::kwargs& kw) {
  opt::optimize_options o = bind_options(kw);
  if (o.is_given("dim")) {
    throw io::option_error("dim", "contradicts a problem file: the file has its own variables");
  }
  o.problem_file = path.string();
  py::gil_scoped_release release;
  return opt::run_optimization(o);
}

}  // namespace

void add_optimization(py::module_& m) {
  py::class_<opt::optimization_run>(m, "OptimizationResult",
                                    "What a GA run found: the best point and value, the runs, "
                                    "the stop reason; reports itself like `kinevo optimize`")
      .def_property_readonly(
          "best_x", [](const opt::optimization_run& r) { return r.result.best_x; },
          "The best point found (numpy array, dim)")
      .def_property_readonly(
          "best_value", [](const opt::optimization_run& r) { return r.result.best_value; },
          "The objective at best_x")
      .def_property_readonly(
          "best_violation", [](const opt::optimization_run& r) { return r.result.best_violation; },
          "Total constraint violation at best_x (0: feasible; problem files)")
      .def_property_readonly(
          "evaluations", [](const opt::optimization_run& r) { return r.result.evaluations; },
          "Objective evaluations over all islands and runs")
      .def_readonly("generations", &opt::optimization_run::generations,
                    "Generations completed (over the range runs)")
      .def_readonly("function", &opt::optimization_run::function,
                    "The objective's name (the test function, the problem file or the name= given)")
      .def_readonly("dim", &opt::optimization_run::dim, "Number of variables")
      .def_readonly("seed", &opt::optimization_run::seed, "Master seed of the run")
      .def_readonly("islands", &opt::optimization_run::islands, "Number of islands")
      .def_readonly("seconds", &opt::optimization_run::seconds, "Wall time of the run in seconds")
      .def_property_readonly(
          "stop_reason", [](const opt::optimization_run& r) { return ga::to_string(r.reason); },
          "The limit that ended the run: generations, evaluations, target, stall, wall_time or "
          "interrupted")
      .def_property_readonly(
          "feasible", [](const opt::optimization_run& r) { return !r.infeasible(); },
          "False when a problem file's constraints are violated at best_x")
      .def_readonly("summary", &opt::optimization_run::summary,
                    "How the run ended (kinevo.Summary): interrupted, infeasible or ok")
      .def("report", &opt::optimization_run::full_report, "The text `kinevo optimize` prints")
      .def("brief_report", &opt::optimization_run::brief_report,
           "One line: evaluations, generations, stop reason, time (str)")
      .def(
          "to_json", [](const opt::optimization_run& r) { return r.to_json().dump(); },
          "The JSON object of `kinevo optimize --json`, as a string")
      .def(
          "to_dict", [](const opt::optimization_run& r) { return to_python(r.to_json()); },
          "to_json() as a dict")
      .def("__repr__", [](const opt::optimization_run& r) {
        std::string brief = r.brief_report();
        if (!brief.empty() && brief.back() == '\n') brief.pop_back();
        return fmt::format("<kinevo.OptimizationResult best_value {:.10g} at [{:.6g}], {}>",
                           r.result.best_value, fmt::join(to_vector(r.result.best_x), ", "), brief);
      });

  m.def("optimize", &run_objective, py::arg("objective"), py::arg("dim") = py::none(),
        py::kw_only(), py::arg("batch") = true, py::arg("name") = "python",
        "Minimise objective over a box with the island-model GA.\n\n"
        "batch=True: objective(X) gets the population, X of shape (count, dim), and returns\n"
        "count values; batch=False: objective(x), x of shape (dim,), returns one value.\n"
        "Keyword options are `kinevo optimize`'s config keys: seed, islands, population,\n"
        "generations, max_evals, lower and upper (required: one value or one per\n"
        "variable), crossover, mutation, ...\n"
        "The native work runs without the GIL; the objective is called with it.");
  m.def("optimize_problem", &run_problem_file, py::arg("path"),
        "Minimise a TOML problem file (str or pathlib.Path; docs/model-files.md) with the\n"
        "island-model GA; the keyword options are those of kinevo.optimize.");
  m.def("optimize_options", &known_options, "The keyword options of optimize, comma-separated");
}

}  // namespace kinevo::python
