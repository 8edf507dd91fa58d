// kinevo.load_model, Model.accel and kinevo.simulate: a model file's accelerations at a state
// and its forward dynamics, as numpy arrays beside the library's reports (those of `kinevo
// accel` and `kinevo simulate`).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <Eigen/QR>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "kinevo/gauss/ga_solver_options.hpp"
#include "kinevo/gauss/register_ga_solver.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/solver_comparison.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "python/bindings.hpp"
#include "python/simulation_types.hpp"

namespace kinevo::python {

namespace {

namespace mech = kinevo::mechanics;

mech::model_options model_options_of(const std::map<std::string, double>& set, bool kinematic) {
  mech::model_options o;
  o.kinematic = kinematic;
  for (const auto& [name, value] : set) o.overrides.push_back({name, value});
  return o;
}

mech::model load(const std::filesystem::path& path, const std::map<std::string, double>& set,
                 bool kinematic) {
  const auto options = model_options_of(set, kinematic);
  py::gil_scoped_release release;
  return mech::load_model(path, options);
}

// One solver's answer at one state: the comparison `kinevo accel` reports, of that solver
// alone, and the multipliers lambda of f_c = A^T lambda (seed 003, eq. 2.18), the least-squares
// solution when rows of A are redundant.
struct accel_answer {
  mech::solver_comparison comparison;
  Eigen::VectorXd multipliers;

  const mech::acceleration_result& result() const { return comparison.answers.front().result; }
};

Eigen::VectorXd as_state(const std::optional<Eigen::VectorXd>& given,
                         const Eigen::VectorXd& initial, const char* name) {
  if (!given) return initial;
  if (given->size() != initial.size()) {
    throw io::option_error(
        name, "must have one value per coordinate (" + std::to_string(initial.size()) + ")");
  }
  return *given;
}

accel_answer accel(const mech::model& m, const std::optional<Eigen::VectorXd>& q,
                   const std::optional<Eigen::VectorXd>& qd, double t, const std::string& solver,
                   const mech::solver_options& solver_options) {
  mech::model at = m;  // the comparison solves at the model's initial state: set it
  at.set_initial_state(as_state(q, m.initial_positions(), "q"),
                       as_state(qd, m.initial_velocities(), "qd"));
  mech::solver_comparison_options o;
  o.t = t;
  o.solvers = {solver};
  o.solver = solver_options;
  py::gil_scoped_release release;
  accel_answer a{mech::compare_solvers(at, o), {}};
  const auto& r = a.result();
  if (r.constraint_force.size() == at.coordinates() && at.constraints() > 0) {
    const auto system = at.evaluate(at.initial_positions(), at.initial_velocities(), t);
    a.multipliers = Eigen::ColPivHouseholderQR<Eigen::MatrixXd>(system.jacobian.transpose())
                        .solve(r.constraint_force);
  }
  return a;
}

// The records' columns as (records x n) arrays.
Eigen::MatrixXd stacked(const mech::simulation_result& r,
                        const Eigen::VectorXd mech::step_record::*field) {
  const auto rows = static_cast<Eigen::Index>(r.records.size());
  const Eigen::Index n = rows > 0 ? (r.records.front().*field).size() : 0;
  Eigen::MatrixXd out(rows, n);
  for (Eigen::Index i = 0; i < rows; ++i)
    out.row(i) = r.records[static_cast<std::size_t>(i)].*field;
  return out;
}

Eigen::VectorXd column(const mech::simulation_result& r, double mech::step_record::*field) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(r.records.size()));
  for (std::size_t i = 0; i < r.records.size(); ++i)
    out[static_cast<Eigen::Index>(i)] = r.records[i].*field;
  return out;
}

simulation_run simulate(const model_argument& model, double t_end, double dt,
                        const std::string& solver, const std::string& integrator,
                        const std::optional<std::string>& stabilization,
                        const std::string& formulation, int record_every,
                        const std::map<std::string, double>& set, bool kinematic,
                        bool allow_unconverged) {
  mech::simulation_options s;
  s.t_end = t_end;
  s.dt = dt;
  s.record_every = record_every;
  s.allow_unconverged = allow_unconverged;
  s.integrator = mech::parse_integrator(integrator);
  s.formulation.kind = mech::parse_formulation(formulation);
  s.stabilization = stabilization ? mech::parse_stabilization(*stabilization)
                                  : mech::default_stabilization(s.formulation.kind);
  s.validate();
  const mech::model m = model_of(model, set, kinematic);
  py::gil_scoped_release release;
  auto the_solver = mech::make_solver(solver);
  return {mech::simulate(m, *the_solver, s), m.coordinate_names()};
}

}  // namespace

mech::solver_options solver_options_of(int islands, unsigned long long seed,
                                       const std::string& preset) {
  mech::solver_options o;
  gauss::ga_solver_options& ga = gauss::ga_solver_options_of(o);
  ga.islands = islands;
  ga.seed = seed;
  ga.preset = preset;
  return o;
}

// A model argument: a file (str or pathlib.Path), loaded with `set` and `kinematic`, or a Model
// already loaded (then `set` and `kinematic` are its own: giving them is a mistake).
mech::model model_of(const model_argument& model, const std::map<std::string, double>& set,
                     bool kinematic) {
  if (const auto* loaded = std::get_if<mech::model>(&model)) {
    if (!set.empty() || kinematic) {
      throw io::option_error("set",
                             "and kinematic apply to a model file; pass them to "
                             "load_model(path, set=..., kinematic=...) instead");
    }
    return *loaded;
  }
  const auto options = model_options_of(set, kinematic);
  py::gil_scoped_release release;
  return mech::load_model(std::get<std::filesystem::path>(model), options);
}

namespace {

// kinevo.AccelResult: one solver's accelerations, with the CLI's report.
void add_accel_result(py::module_& m) {
  py::class_<accel_answer>(m, "AccelResult", "One solver's accelerations at one state")
      .def_property_readonly(
          "acceleration", [](const accel_answer& a) { return a.result().acceleration; },
          "q'', the constrained accelerations (numpy array, one per coordinate)")
      .def_property_readonly(
          "constraint_force", [](const accel_answer& a) { return a.result().constraint_force; },
          "f_c = A^T lambda, the constraint forces on the coordinates (numpy array)")
      .def_readonly("multipliers", &accel_answer::multipliers,
                    "lambda of f_c = A^T lambda (numpy array, one per constraint row; least "
                    "squares when rows are redundant)")
      .def_property_readonly(
          "status",
          [](const accel_answer& a) { return std::string(status_name(a.result().status)); },
          "The solve's status: ok, least_squares, inconsistent, singular or not_converged")
      .def_property_readonly(
          "rank", [](const accel_answer& a) { return a.result().rank; },
          "Rank of the constraint matrix A the solver found")
      .def_property_readonly(
          "message", [](const accel_answer& a) { return a.result().message; },
          "The solver's message ('' when none)")
      .def_property_readonly(
          "ok", [](const accel_answer& a) { return a.comparison.ok(); },
          "True when the solve gave the constrained acceleration (as `kinevo accel` exit 0)")
      .def_property_readonly(
          "summary", [](const accel_answer& a) { return a.comparison.summary; },
          "How the solve ended (kinevo.Summary, as `kinevo accel`'s exit status)")
      .def(
          "report", [](const accel_answer& a) { return a.comparison.full_report(); },
          "The table `kinevo accel` prints for this solver (str)")
      .def(
          "to_json", [](const accel_answer& a) { return a.comparison.to_json().dump(); },
          "The JSON object of `kinevo accel --json` (str)")
      .def(
          "to_dict", [](const accel_answer& a) { return to_python(a.comparison.to_json()); },
          "to_json() as a dict")
      .def("__repr__", [](const accel_answer& a) {
        const auto& r = a.result();
        return fmt::format("<kinevo.AccelResult {}: rank {}, acceleration [{:.6g}]>",
                           status_name(r.status), r.rank, fmt::join(r.acceleration, ", "));
      });
}

// kinevo.SimulationResult: the records as numpy arrays, status and report.
void add_simulation_result(py::module_& m) {
  py::class_<simulation_run>(m, "SimulationResult", "A simulated motion: records and report")
      .def_property_readonly(
          "t", [](const simulation_run& s) { return column(s.result, &mech::step_record::t); },
          "Times of the records (numpy array, records)")
      .def_property_readonly(
          "q", [](const simulation_run& s) { return stacked(s.result, &mech::step_record::q); },
          "Positions per record (numpy array, records x coordinates)")
      .def_property_readonly(
          "qd", [](const simulation_run& s) { return stacked(s.result, &mech::step_record::qd); },
          "Velocities per record (numpy array, records x coordinates)")
      .def_property_readonly(
          "qdd", [](const simulation_run& s) { return stacked(s.result, &mech::step_record::qdd); },
          "Accelerations per record (numpy array, records x coordinates)")
      .def_property_readonly(
          "constraint_force",
          [](const simulation_run& s) {
            return stacked(s.result, &mech::step_record::constraint_force);
          },
          "Constraint forces f_c per record (numpy array, records x coordinates)")
      .def_property_readonly(
          "position_violation",
          [](const simulation_run& s) {
            return column(s.result, &mech::step_record::position_violation);
          },
          "max |Phi| per record (numpy array)")
      .def_property_readonly(
          "energy",
          [](const simulation_run& s) { return column(s.result, &mech::step_record::energy); },
          "Total energy per record (numpy array; NaN when the model defines none)")
      .def_readonly("coordinate_names", &simulation_run::coordinates,
                    "Names of the columns of q, qd and qdd (list of str)")
      .def_property_readonly(
          "completed", [](const simulation_run& s) { return s.result.completed; },
          "True when the run reached t_end")
      .def_property_readonly(
          "status", [](const simulation_run& s) { return s.result.status(); },
          "completed, diverged, interrupted or failed")
      .def_property_readonly(
          "message", [](const simulation_run& s) { return s.result.message; },
          "Why the run stopped early ('' when completed)")
      .def_property_readonly(
          "summary", [](const simulation_run& s) { return s.result.summary(); },
          "How the run ended (kinevo.Summary, as `kinevo simulate`'s exit status)")
      .def_property_readonly(
          "steps", [](const simulation_run& s) { return s.result.steps; },
          "Integration steps taken")
      .def(
          "report", [](const simulation_run& s) { return s.result.full_report(); },
          "The report `kinevo simulate` prints (str)")
      .def(
          "to_json", [](const simulation_run& s) { return s.result.to_json().dump(); },
          "The JSON object of `kinevo simulate --json` (str)")
      .def(
          "to_dict", [](const simulation_run& s) { return to_python(s.result.to_json()); },
          "to_json() as a dict")
      .def("__repr__", [](const simulation_run& s) {
        const auto& r = s.result;
        return fmt::format("<kinevo.SimulationResult {}: {} records, t = {:g} .. {:g}, {} steps>",
                           r.status(), r.records.size(),
                           r.records.empty() ? 0.0 : r.records.front().t,
                           r.records.empty() ? 0.0 : r.records.back().t, r.steps);
      });
}

// kinevo.Model: a loaded model file, its accelerations and equations at a state.
void add_model(py::module_& m) {
  py::class_<mech::model>(m, "Model", "A loaded model file (docs/model-files.md)")
      .def_property_readonly("name", &mech::model::name, "The model's name (its [model] name)")
      .def_property_readonly("coordinate_names", &mech::model::coordinate_names,
                             "Names of the coordinates q, in order (list of str)")
      .def_property_readonly("constraint_names", &mech::model::constraint_names,
                             "Names of the constraint rows, holonomic ones first (list of str)")
      .def_property_readonly("q0", &mech::model::initial_positions,
                             "Initial positions q(0) of the file (numpy array, one per coordinate)")
      .def_property_readonly("qd0", &mech::model::initial_velocities,
                             "Initial velocities q'(0) of the file (numpy array)")
      .def_property_readonly("parameters", &mech::model::parameters,
                             "Parameter values after set= overrides (dict name -> float)")
      .def(
          "accel",
          [](const mech::model& self, const std::optional<Eigen::VectorXd>& q,
             const std::optional<Eigen::VectorXd>& qd, double t, const std::string& solver,
             int islands, unsigned long long seed, const std::string& preset) {
            return accel(self, q, qd, t, solver, solver_options_of(islands, seed, preset));
          },
          py::arg("q") = py::none(), py::arg("qd") = py::none(), py::arg("t") = 0.0, py::kw_only(),
          py::arg("solver") = "gigsp", py::arg("islands") = 1, py::arg("seed") = 1,
          py::arg("preset") = "default",
          "Constrained accelerations at (q, qd, t) (default: the initial state) by one solver: "
          "gigsp, lm, uk, sl, kv, qtz, projection or ga")
      .def(
          "system",
          [](const mech::model& self, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
             double t) {
            (void)as_state(q, self.initial_positions(), "q");
            (void)as_state(qd, self.initial_velocities(), "qd");
            const mech::constrained_system c = self.evaluate(q, qd, t);
            return py::make_tuple(c.mass, c.force, c.jacobian, c.rhs);
          },
          py::arg("q"), py::arg("qd"), py::arg("t") = 0.0,
          "The equations of motion at (q, qd, t) as numpy arrays (M, f, A, b): M q'' = f + A^T "
          "lambda with A q'' = b (M n x n, f n, A m x n, b m; holonomic rows first)")
      .def(
          "phi",
          [](const mech::model& self, const Eigen::VectorXd& q, double t) {
            (void)as_state(q, self.initial_positions(), "q");
            return self.position_violation(q, t);
          },
          py::arg("q"), py::arg("t") = 0.0,
          "Phi(q, t), the holonomic constraints' values (zero on the constraints)")
      .def("__repr__", [](const mech::model& self) {
        return "<kinevo.Model " + self.name() + ": " + std::to_string(self.coordinates()) +
               " coordinates, " + std::to_string(self.constraints()) + " constraints>";
      });
}

}  // namespace

void add_mechanics(py::module_& m) {
  gauss::register_ga_solver();  // solver="ga" (Gauss' principle by the island GA)

  // The result classes first: a signature names a class registered before it (help() would
  // show the C++ type otherwise).
  add_accel_result(m);
  add_simulation_result(m);
  add_model(m);

  m.def("load_model", &load, py::arg("path"), py::kw_only(),
        py::arg("set") = std::map<std::string, double>{}, py::arg("kinematic") = false,
        "Load a TOML model file (str or pathlib.Path); set={'name': value} overrides "
        "parameters");
  m.def("simulate", &simulate, py::arg("model"), py::arg("t_end") = 1.0, py::arg("dt") = 1e-3,
        py::kw_only(), py::arg("solver") = "gigsp", py::arg("integrator") = "rk4",
        py::arg("stabilization") = py::none(), py::arg("formulation") = "full",
        py::arg("record_every") = 1, py::arg("set") = std::map<std::string, double>{},
        py::arg("kinematic") = false, py::arg("allow_unconverged") = false,
        "Forward dynamics of a model (a file as str or pathlib.Path, or a loaded Model), as "
        "`kinevo simulate`; a run that stops early is a result with completed False and the "
        "reason in message");
}

}  // namespace kinevo::python
