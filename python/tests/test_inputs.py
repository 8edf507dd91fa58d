"""Every function that takes a file also takes a pathlib.Path; simulate takes a loaded Model;
the synthesis functions take their table as rows (numpy array or sequence), checked as a file's
rows are; Model.system and Model.phi give the equations of motion at a state."""
import pathlib

import numpy as np
import pytest

import kinevo
from conftest import SOURCE, without_timings

EXAMPLES = pathlib.Path(SOURCE) / "examples"


def table_rows(name):
    """The numbers of an examples/ CSV table (comment lines and header skipped)."""
    lines = [l for l in (EXAMPLES / name).read_text().splitlines() if l and not l.startswith("#")]
    return np.array([[float(c) for c in l.split(",")] for l in lines[1:]])


def test_load_model_and_simulate_take_a_path_or_a_model():
    path = EXAMPLES / "pendulum.toml"
    model = kinevo.load_model(path)
    assert model.name == kinevo.load_model(str(path)).name
    from_path = kinevo.simulate(path, 0.01, 1e-3)
    from_model = kinevo.simulate(model, 0.01, 1e-3)
    from_str = kinevo.simulate(str(path), 0.01, 1e-3)
    assert np.array_equal(from_path.q, from_model.q)
    assert np.array_equal(from_path.q, from_str.q)
    # A loaded model keeps its own parameters: set= and kinematic= belong to load_model.
    with pytest.raises(ValueError, match="load_model"):
        kinevo.simulate(model, 0.01, 1e-3, set={"l": 2.0})
    longer = kinevo.load_model(path, set={"l": 2.0})
    assert kinevo.simulate(longer, 0.01, 1e-3).q[0, 1] == pytest.approx(-2.0 * np.cos(0.1))


def test_optimize_problem_and_save_take_a_path(tmp_path):
    problem = EXAMPLES / "problem_constrained.toml"
    a = kinevo.optimize_problem(problem, seed=1, generations=20)
    b = kinevo.optimize_problem(str(problem), seed=1, generations=20)
    assert a.best_value == b.best_value
    result = kinevo.synth_fourbar(EXAMPLES / "grashof_table1.csv")
    written = result.save(tmp_path / "fourbar")
    assert written and all(pathlib.Path(w).exists() for w in written)


@pytest.mark.parametrize(
    "function, table, columns",
    [
        (kinevo.synth_fourbar, "grashof_table1.csv", slice(0, 2)),
        (kinevo.synth_rssr, "rssr_19.csv", slice(0, 2)),
        (kinevo.synth_dyad, "dyad_17.csv", slice(1, 4)),  # j, x, y, theta: x, y, theta
    ],
)
def test_synthesis_takes_rows_as_a_file(function, table, columns):
    rows = table_rows(table)[:, columns]
    from_file = without_timings(function(EXAMPLES / table).to_dict())
    from_array = without_timings(function(rows).to_dict())
    from_lists = without_timings(function(rows.tolist()).to_dict())
    for d in (from_file, from_array, from_lists):
        d.pop("table", None)
        d.pop("source", None)
        d.pop("poses", None)
    assert from_array == from_file
    assert from_lists == from_file


def test_rows_are_checked_like_a_file():
    # Rows are lines 2, 3, ... of a table named "table" (or "poses").
    with pytest.raises(kinevo.InputError, match=r"^table:3: column 'phi': 'nan' is not a finite"):
        kinevo.synth_fourbar([[10, 20], [20, float("nan")], [30, 40], [40, 50]])
    with pytest.raises(kinevo.InputError, match=r"^table:2: 1 point\(s\)"):
        kinevo.synth_fourbar([[10, 20]])
    with pytest.raises(TypeError, match=r"shape \(n, 3\) \(x,y,theta\)"):
        kinevo.synth_dyad(np.zeros((5, 2)))
    with pytest.raises(TypeError, match="file path"):
        kinevo.synth_rssr([["a", "b"]])
    with pytest.raises(kinevo.InputError, match="no such file"):
        kinevo.synth_fourbar(pathlib.Path("missing.csv"))


def test_system_and_phi_are_the_pendulum_closed_form():
    # Cartesian pendulum (examples/pendulum.toml): M = m I, f = (0, -m g), one row
    # A = (2x, 2y), b = -2 (x'^2 + y'^2), Phi = x^2 + y^2 - l^2.
    model = kinevo.load_model(EXAMPLES / "pendulum.toml")
    p = model.parameters
    m, g, l = p["m"], p["g"], p["l"]
    q = np.array([0.3, -0.8])
    qd = np.array([0.5, 0.25])
    M, f, A, b = model.system(q, qd, 0.0)
    assert np.allclose(M, m * np.eye(2), rtol=0, atol=1e-15)
    assert np.allclose(f, [0.0, -m * g], rtol=0, atol=1e-12)
    assert np.allclose(A, [[2 * q[0], 2 * q[1]]], rtol=0, atol=1e-15)
    assert np.allclose(b, [-2 * (qd[0] ** 2 + qd[1] ** 2)], rtol=0, atol=1e-14)
    assert model.phi(q, 0.0) == pytest.approx([q[0] ** 2 + q[1] ** 2 - l**2], abs=1e-15)
    assert model.phi(model.q0) == pytest.approx([0.0], abs=1e-12)
    with pytest.raises(ValueError, match="one value per coordinate"):
        model.phi([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="one value per coordinate"):
        model.system(q, [1.0], 0.0)
