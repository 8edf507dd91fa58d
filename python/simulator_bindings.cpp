// kinevo.Simulator: a simulation stepped from Python (as MuJoCo's mj_step loop), with its
// state read and set between steps; the library's simulator (mechanics/dynamics/simulator.hpp),
// the loop `kinevo simulate` and kinevo.simulate run to the end.
#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <Eigen/Core>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/dynamics/simulator.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "python/bindings.hpp"
#include "python/simulation_types.hpp"

namespace kinevo::python {

namespace {

// The options of `kinevo simulate` under their Python names (the option without its dashes,
// - as _); None for the solver, integrator and stabilization means not given, as on the
// command line (a formulation with its own solver, stabilization or integrator refuses a
// choice given explicitly).
struct stepping_options {
  std::optional<std::string> solver, integrator, stabilization;
  std::string formulation = "full";
  mechanics::simulation_options sim;
  bool keep_records = false;
  mechanics::solver_options solver_options;
};

mechanics::simulation_options simulation_options_of(const stepping_options& s) {
  mechanics::simulation_options o = s.sim;
  o.integrator = mechanics::parse_integrator(s.integrator.value_or("rk4"));
  o.formulation.kind = mechanics::parse_formulation(s.formulation);
  const std::string conflict =
      mechanics::formulation_conflict(o.formulation.kind, s.solver.has_value(),
                                      s.stabilization.has_value(), s.integrator.has_value());
  if (!conflict.empty()) throw io::option_error("formulation", conflict);
  o.stabilization = s.stabilization ? mechanics::parse_stabilization(*s.stabilization)
                                    : mechanics::default_stabilization(o.formulation.kind);
  o.validate();
  return o;
}

// The model, the solver and the simulator that refers to both, kept together on the heap.
struct python_simulator {
  mechanics::model model;
  std::unique_ptr<mechanics::acceleration_solver> solver;
  std::string formulation;
  std::unique_ptr<mechanics::simulator> sim;
  bool warned = false;
  // The storage behind q_view and qd_view: sized once (set_state keeps the sizes), refreshed
  // after every step and set_state, so a view stays valid as long as the simulator lives.
  Eigen::VectorXd q_live, qd_live;

  void refresh() {
    q_live = sim->q();
    qd_live = sim->qd();
  }

  const mechanics::step_record& last() const { return sim->last(); }
};

std::unique_ptr<python_simulator> make_simulator(const model_argument& model,
                                                 const stepping_options& s,
                                                 const std::map<std::string, double>& set,
                                                 bool kinematic) {
  const mechanics::simulation_options o = simulation_options_of(s);
  auto p = std::make_unique<python_simulator>(python_simulator{
      model_of(model, set, kinematic), nullptr, s.formulation, nullptr, false, {}, {}});
  py::gil_scoped_release release;
  p->solver = mechanics::make_solver(s.solver.value_or("gigsp"), s.solver_options);
  // Without records kept, each record is handed to a callback that keeps nothing: memory does
  // not grow with the run's length.
  mechanics::step_callback keep_none;
  if (!s.keep_records) keep_none = [](const mechanics::step_record&) { return true; };
  p->sim = std::make_unique<mechanics::simulator>(p->model, *p->solver, o, keep_none);
  p->refresh();
  return p;
}

// A run that stopped early is not silent: a RuntimeWarning with its message, once.
void warn_if_failed(python_simulator& p) {
  const mechanics::simulation_result r = p.sim->result();
  if (p.sim->running() || r.completed || p.warned) return;
  p.warned = true;
  const std::string message =
      fmt::format("kinevo.Simulator: the run {}: {}", r.status(), r.message);
  if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) != 0) throw py::error_already_set();
}

bool step(python_simulator& p, long long n) {
  if (n < 1) throw io::option_error("n", "must be >= 1");
  bool more = false;
  {
    py::gil_scoped_release release;
    more = p.sim->step(n);
  }
  p.refresh();
  warn_if_failed(p);
  return more;
}

void set_state(python_simulator& p, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
               std::optional<double> t) {
  const double at = t.value_or(p.sim->t());
  py::gil_scoped_release release;
  p.sim->set_state(q, qd, at);
  p.refresh();
  p.warned = false;
}

std::string repr(const python_simulator& p) {
  const mechanics::simulation_result r = p.sim->result();
  const mechanics::simulation_options& o = p.sim->options();
  return fmt::format("<kinevo.Simulator {}: t = {:.6g} of {:g}, dt {:g}, {} {} {}, {}>",
                     p.model.name(), p.sim->t(), o.t_end, o.dt, r.solver, p.formulation,
                     r.integrator_name(), p.sim->running() ? "running" : r.status());
}

// A read-only numpy array over v, kept alive by (and following) the simulator `owner`.
py::array live_view(const Eigen::VectorXd& v, const py::object& owner) {
  py::array a(py::dtype::of<double>(), {v.size()}, {static_cast<py::ssize_t>(sizeof(double))},
              v.data(), owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

using simulator_class = py::class_<python_simulator>;

void add_construction(simulator_class& c) {
  c.def(py::init([](const model_argument& model, double t_end, double dt,
                    const std::optional<std::string>& solver,
                    const std::optional<std::string>& integrator,
                    const std::optional<std::string>& stabilization, const std::string& formulation,
                    double rtol, double atol, double dt_min, double alpha, double beta,
                    double gamma, int exact_every, bool allow_unconverged, bool keep_records,
                    int record_every, const std::map<std::string, double>& set, bool kinematic,
                    int islands, unsigned long long seed, const std::string& preset) {
          stepping_options s{solver, integrator, stabilization, formulation, {}, keep_records, {}};
          s.sim.t_end = t_end;
          s.sim.dt = dt;
          s.sim.rtol = rtol;
          s.sim.atol = atol;
          s.sim.dt_min = dt_min;
          s.sim.baumgarte_alpha = alpha;
          s.sim.baumgarte_beta = beta;
          s.sim.baumgarte_gamma = gamma;
          s.sim.formulation.reuse_exact_every = exact_every;
          s.sim.allow_unconverged = allow_unconverged;
          s.sim.record_every = record_every;
          s.solver_options = solver_options_of(islands, seed, preset);
          return make_simulator(model, s, set, kinematic);
        }),
        py::arg("model"), py::kw_only(), py::arg("t_end") = 1.0, py::arg("dt") = 1e-3,
        py::arg("solver") = py::none(), py::arg("integrator") = py::none(),
        py::arg("stabilization") = py::none(), py::arg("formulation") = "full",
        py::arg("rtol") = 1e-9, py::arg("atol") = 1e-12, py::arg("dt_min") = 1e-12,
        py::arg("alpha") = 5.0, py::arg("beta") = 5.0, py::arg("gamma") = 5.0,
        py::arg("exact_every") = mechanics::formulation_options{}.reuse_exact_every,
        py::arg("allow_unconverged") = false, py::arg("keep_records") = false,
        py::arg("record_every") = 1, py::arg("set") = std::map<std::string, double>{},
        py::arg("kinematic") = false, py::arg("islands") = 1, py::arg("seed") = 1,
        py::arg("preset") = "default",
        "A run of a model (a file as str or pathlib.Path, or a loaded Model) from its "
        "initial state over 0 .. t_end, with the options of `kinevo simulate` (solver: "
        "gigsp, lm, uk, sl, kv, qtz, projection or ga, default gigsp, ga with islands, seed and "
        "preset; integrator: rk4 or "
        "dopri; stabilization: none, baumgarte or projection; formulation: full, "
        "partitioning, projection, hybrid, qtz-reduced, qtz-orthogonal, qtz-state or reuse). "
        "The state at t = 0 is solved on construction. keep_records=True keeps every "
        "record_every-th record in result, as kinevo.simulate; otherwise none are kept.");
}

void add_stepping(simulator_class& c) {
  c.def("step", &step, py::arg("n") = 1,
        "Advance n intervals dt (to the next grid times t_start + k dt). True while the run "
        "goes on; False once it is over: completed at t_end, or stopped early (diverged, "
        "a solve that failed), which also issues a RuntimeWarning with the reason (status "
        "and message say it too)")
      .def("set_state", &set_state, py::arg("q"), py::arg("qd"), py::arg("t") = py::none(),
           "Start again from positions q and velocities qd at time t (default: the current "
           "time), up to the same t_end: the formulation restarts from that state and result "
           "counts from there. A ValueError names q, qd or t when a size is wrong, a value is "
           "NaN or infinite, or t is not before t_end");
  c.def("__repr__", &repr);
}

// The state at the current time and its latest record.
void add_state_properties(simulator_class& c) {
  c.def_property_readonly(
       "t", [](const python_simulator& p) { return p.sim->t(); }, "The current time (float)")
      .def_property_readonly(
          "q", [](const python_simulator& p) { return p.sim->q(); },
          "Positions at t (numpy array, a copy: later steps do not change it)")
      .def_property_readonly(
          "qd", [](const python_simulator& p) { return p.sim->qd(); },
          "Velocities at t (numpy array, a copy)")
      .def_property_readonly(
          "state",
          [](const python_simulator& p) {
            return py::make_tuple(p.sim->t(), p.sim->q(), p.sim->qd());
          },
          "(t, q, qd) at the current time (copies)")
      .def_property_readonly(
          "q_view",
          [](const py::object& self) {
            return live_view(self.cast<const python_simulator&>().q_live, self);
          },
          "Positions at t as a read-only numpy view (as MuJoCo's data.qpos): the same array "
          "shows the positions after every later step or set_state, without a copy; .copy() "
          "keeps a value")
      .def_property_readonly(
          "qd_view",
          [](const py::object& self) {
            return live_view(self.cast<const python_simulator&>().qd_live, self);
          },
          "Velocities at t as a read-only numpy view that follows the run (as q_view)")
      .def_property_readonly(
          "acceleration", [](const python_simulator& p) { return p.last().qdd; },
          "q'' at t, the constrained accelerations (numpy array, a copy)")
      .def_property_readonly(
          "constraint_force", [](const python_simulator& p) { return p.last().constraint_force; },
          "Constraint forces f_c at t (numpy array, a copy)")
      .def_property_readonly(
          "position_violation",
          [](const python_simulator& p) { return p.last().position_violation; },
          "max |Phi| at t (float)")
      .def_property_readonly(
          "velocity_violation",
          [](const python_simulator& p) { return p.last().velocity_violation; },
          "max |velocity-level violation| at t (float)")
      .def_property_readonly(
          "energy", [](const python_simulator& p) { return p.last().energy; },
          "Total energy at t (float; NaN when the model defines none)");
}

// How the run goes: over or not, why, and its result so far.
void add_run_properties(simulator_class& c) {
  c.def_property_readonly(
       "running", [](const python_simulator& p) { return p.sim->running(); },
       "True until the run is over (completed at t_end or stopped early)")
      .def_property_readonly(
          "completed", [](const python_simulator& p) { return p.sim->result().completed; },
          "True when the run reached t_end")
      .def_property_readonly(
          "status",
          [](const python_simulator& p) {
            return p.sim->running() ? std::string("running") : p.sim->result().status();
          },
          "running, completed, diverged, interrupted or failed")
      .def_property_readonly(
          "message", [](const python_simulator& p) { return p.sim->result().message; },
          "Why the run stopped early ('' otherwise)")
      .def_property_readonly(
          "coordinate_names", [](const python_simulator& p) { return p.model.coordinate_names(); },
          "Names of the entries of q, qd and acceleration (list of str)")
      .def_property_readonly(
          "model", [](const python_simulator& p) { return p.model; },
          "The simulated model (a copy of the Model)")
      .def_property_readonly(
          "result",
          [](const python_simulator& p) {
            return simulation_run{p.sim->result(), p.model.coordinate_names()};
          },
          "The run so far as a SimulationResult (report(), to_dict(); its records only with "
          "keep_records=True)");
}
}  // namespace

void add_simulator(py::module_& m) {
  simulator_class c(
      m, "Simulator",
      "A simulation stepped by the caller (as MuJoCo's mj_step loop): step(), the state t, q, "
      "qd between steps, set_state(). The same run as kinevo.simulate and `kinevo simulate` "
      "with the same options, whose records are this simulator's states at t_start + k dt");
  add_construction(c);
  add_stepping(c);
  add_state_properties(c);
  add_run_properties(c);
}

}  // namespace kinevo::python
