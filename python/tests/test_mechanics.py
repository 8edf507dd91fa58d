"""kinevo.load_model, Model.accel and kinevo.simulate."""
import csv
import math

import numpy as np
import pytest

import kinevo

G, L, M, THETA0 = 9.81, 1.0, 1.0, 0.1  # examples/pendulum.toml


def test_pendulum_at_rest_accelerates_along_the_tangent(example):
    model = kinevo.load_model(example("pendulum.toml"))
    assert model.coordinate_names == ["x", "y"]
    answer = model.accel()
    s, c = math.sin(THETA0), math.cos(THETA0)
    # At rest the rod force cancels the normal part of gravity: a = -g sin(theta) (cos, sin).
    np.testing.assert_allclose(answer.acceleration, [-G * s * c, -G * s * s], atol=1e-12)
    # f_c = A^T lambda with A = [2x, 2y]: lambda = -m g cos(theta) / (2 l).
    np.testing.assert_allclose(answer.multipliers, [-M * G * c / (2 * L)], atol=1e-12)
    assert answer.status == "ok" and answer.ok
    assert answer.to_dict()["solvers"]["gigsp"]["status"] == "ok"
    assert "gigsp" in answer.report()


def test_every_direct_solver_agrees_at_a_moving_state(example):
    model = kinevo.load_model(example("pendulum.toml"))
    q = np.array([0.6, -0.8])
    qd = np.array([0.8, 0.6])  # tangent, speed 1
    answers = [model.accel(q, qd, solver=name).acceleration for name in ("gigsp", "lm", "uk")]
    for a in answers[1:]:
        np.testing.assert_allclose(a, answers[0], atol=1e-12)
    # Centripetal part: a . q = -|qd|^2 for a particle on a circle of radius 1.
    assert answers[0] @ q == pytest.approx(-1.0, abs=1e-12)


def test_parameters_are_overridden_and_states_checked(example):
    model = kinevo.load_model(example("pendulum.toml"), set={"theta0": 0.2})
    assert model.q0[0] == pytest.approx(math.sin(0.2))
    with pytest.raises(ValueError, match="q"):
        model.accel(np.zeros(3))
    with pytest.raises(ValueError):
        kinevo.load_model(example("pendulum.toml"), set={"no_such_parameter": 1.0})


def test_simulation_gives_the_cli_rows(example, tmp_path, cli_json):
    path = example("pendulum.toml")
    run = kinevo.simulate(path, 0.5, 1e-3)
    assert run.completed and run.status == "completed"
    assert run.t.shape == (501,) and run.q.shape == (501, 2) and run.qd.shape == (501, 2)
    assert run.t[-1] == pytest.approx(0.5)
    out = tmp_path / "pendulum.csv"
    summary = cli_json("simulate", path, "--t-end", "0.5", "--dt", "1e-3", "--out", str(out))
    assert summary["steps"] == run.steps
    with open(out, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    last = rows[-1]
    np.testing.assert_allclose(run.q[-1], [float(last["x"]), float(last["y"])], rtol=1e-14)
    assert np.ptp(run.energy) < 1e-6
    assert "completed" in run.report()
    assert run.to_dict()["steps"] == run.steps


def test_a_bad_model_file_is_an_input_error_naming_it(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[model]\nname = 'x'\n[[coordinate]]\nname = 'q'\ninitial = 'nonsense('\n")
    with pytest.raises(kinevo.InputError, match="bad.toml"):
        kinevo.load_model(str(bad))


@pytest.mark.parametrize("solver", ["gigsp", "uk", "sl", "kv", "lm", "qtz", "projection"])
def test_accel_at_a_nan_state_is_non_finite_not_ok(example, solver):
    # Issue 31: accel(q=NaN) segfaulted with sl and answered "ok" with gigsp (the NaN
    # constraint row was dropped as degenerate). Every solver refuses the NaN system by name.
    model = kinevo.load_model(example("pendulum.toml"))
    answer = model.accel(q=np.array([math.nan, -1.0]), solver=solver)
    assert answer.status == "non_finite"
    assert not answer.ok
    assert "'rod'" in answer.message
