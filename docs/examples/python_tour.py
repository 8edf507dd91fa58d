"""A tour of the Python module `kinevo`, in notebook-style cells (plain Python, no Jupyter).

Run it after ./setup.sh from the repository root:
    PYTHONPATH=build/python /usr/bin/python3 docs/examples/python_tour.py
Each "# %%" cell can also be pasted into an interactive session or a notebook.
"""
# %% Setup: the module and the repository's examples.
import pathlib

import numpy as np

import kinevo

examples = pathlib.Path(__file__).resolve().parents[2] / "examples"
print("kinevo", kinevo.__version__)

# %% 1. The island-model GA on a Python objective.
# Batch mode: the objective receives the whole population, one candidate a row, and returns one
# value per row, so numpy evaluates it in a few vectorised operations.


def rastrigin(population):
    return (population**2 - 10 * np.cos(2 * np.pi * population)).sum(axis=1) + 10 * population.shape[1]


run = kinevo.optimize(rastrigin, 5, lower=-5.12, upper=5.12, seed=1, islands=4,
                      population=50, generations=200)
print(run.brief_report())
print("best x:", np.round(run.best_x, 4))

# The keyword options are the config keys of `kinevo optimize` (docs/ga.md):
print("options:", kinevo.optimize_options())

# %% 2. A problem file with constraints (docs/model-files.md), as `kinevo optimize --problem`.
# Files are a str or a pathlib.Path.
constrained = kinevo.optimize_problem(examples / "problem_constrained.toml", seed=1,
                                      generations=200)
print(constrained.report())
summary = constrained.to_dict()  # the object `kinevo optimize --json` prints
print("feasible:", summary["feasible"], "objective:", summary["objective"])

# %% 3. A model: accelerations and multipliers at a state.
pendulum = kinevo.load_model(examples / "pendulum.toml")
print(pendulum)
answer = pendulum.accel(solver="gigsp")  # at the initial state, t = 0
print(answer)
print("q'' =", answer.acceleration, " lambda =", answer.multipliers)
print(answer.report())
# The equations of motion at a state: M q'' = f + A^T lambda, A q'' = b; and Phi(q, t).
M, f, A, b = pendulum.system(pendulum.q0, pendulum.qd0, 0.0)
print("M =", M.tolist(), " f =", f, " A =", A, " b =", b, " Phi =", pendulum.phi(pendulum.q0))

# %% 4. Forward dynamics: arrays of t, q, q' (one row per record) and the report.
motion = kinevo.simulate(pendulum, t_end=2.0, dt=1e-3)  # a loaded Model, or a file
print(motion)
print(motion.report())
x = motion.q[:, 0]
crossings = motion.t[1:][np.diff(np.sign(x)) != 0]
print("x crosses zero at t =", np.round(crossings, 3), "(half period ~1.003 s)")
print("largest energy change:", np.ptp(motion.energy))

# Stepped (as MuJoCo's mj_step loop): the same run, its state read and set between steps.
sim = kinevo.Simulator(pendulum, t_end=2.0, dt=1e-3)
while sim.t < 0.5 and sim.step():
    pass
print(sim, " q =", sim.q, " q' =", sim.qd, " q'' =", sim.acceleration)
t, q, qd = sim.state
sim.set_state(q, 0.5 * qd)  # on from the same t with half the velocity
sim.step(100)
print("after set_state:", sim, " energy =", round(sim.energy, 6))

# %% 5. Linkage synthesis from a table (docs/synthesis.md).
fourbar = kinevo.synth_fourbar(examples / "grashof_table1.csv", crank="input")
print(fourbar.report())
# The table may also be rows of numbers (psi, phi in degrees), checked as a file's rows are.
table = np.array([[140, 80], [130, 74], [120, 67], [110, 60], [100, 52]])
print(kinevo.synth_fourbar(table))
rssr = kinevo.synth_rssr(examples / "rssr_19.csv")
print(rssr.brief_report())
