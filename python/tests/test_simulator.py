"""kinevo.Simulator: a simulation stepped from Python (step, state, set_state) that is the
same run as kinevo.simulate, refuses bad states with a ValueError naming them, and reports a
run that stops early."""
import math
import pathlib

import numpy as np
import pytest

import kinevo


def test_built_from_a_path_a_str_or_a_model(example):
    path = example("double_pendulum.toml")
    for model in (path, pathlib.Path(path), kinevo.load_model(path)):
        sim = kinevo.Simulator(model, t_end=0.1, dt=0.01)
        assert sim.t == 0.0
        assert sim.coordinate_names == kinevo.load_model(path).coordinate_names
        np.testing.assert_array_equal(sim.q, kinevo.load_model(path).q0)
        assert sim.running and sim.status == "running"
        assert "running" in repr(sim) and "t = 0" in repr(sim)


def test_steps_agree_with_simulate_at_the_grid_points(example):
    path = example("double_pendulum.toml")
    for integrator in ("rk4", "dopri"):
        whole = kinevo.simulate(path, t_end=0.2, dt=0.01, integrator=integrator)
        sim = kinevo.Simulator(path, t_end=0.2, dt=0.01, integrator=integrator)
        ts, qs, qds, qdds = [sim.t], [sim.q], [sim.qd], [sim.acceleration]
        while sim.step():
            ts.append(sim.t)
            qs.append(sim.q)
            qds.append(sim.qd)
            qdds.append(sim.acceleration)
        ts.append(sim.t)
        qs.append(sim.q)
        qds.append(sim.qd)
        qdds.append(sim.acceleration)
        assert sim.completed and sim.status == "completed"
        # Bit for bit: the same loop.
        np.testing.assert_array_equal(np.array(ts[: len(whole.t)]), whole.t)
        np.testing.assert_array_equal(np.array(qs[: len(whole.t)]), whole.q)
        np.testing.assert_array_equal(np.array(qds[: len(whole.t)]), whole.qd)
        np.testing.assert_array_equal(np.array(qdds[: len(whole.t)]), whole.qdd)
        assert sim.result.steps == whole.steps


def test_step_n_and_the_state(example):
    sim = kinevo.Simulator(example("pendulum.toml"), t_end=1.0, dt=0.01)
    assert sim.step(10)
    t, q, qd = sim.state
    assert math.isclose(t, 0.1)
    np.testing.assert_array_equal(q, sim.q)
    np.testing.assert_array_equal(qd, sim.qd)
    # Copies: a later step does not change them, nor does writing to them change the run.
    q[0] = 123.0
    sim.step()
    assert sim.q[0] != 123.0
    assert np.isfinite(sim.energy)
    assert sim.position_violation >= 0.0
    assert sim.constraint_force.shape == sim.q.shape


def test_q_view_and_qd_view_follow_the_run_without_copies(example):
    sim = kinevo.Simulator(example("double_pendulum.toml"), t_end=0.2, dt=0.01)
    q_view, qd_view = sim.q_view, sim.qd_view
    assert not q_view.flags.writeable and not qd_view.flags.writeable
    with pytest.raises(ValueError):
        q_view[0] = 1.0
    before = q_view.copy()
    sim.step(3)
    # The same arrays now show the state after the steps, as sim.q and sim.qd do.
    np.testing.assert_array_equal(q_view, sim.q)
    np.testing.assert_array_equal(qd_view, sim.qd)
    assert not np.array_equal(q_view, before)
    q, qd = sim.q, sim.qd * 0.5
    sim.set_state(q, qd)
    np.testing.assert_array_equal(qd_view, qd)
    # The view keeps the simulator alive.
    del sim
    assert np.isfinite(q_view).all()


def test_set_state_restarts_from_the_given_state(example):
    path = example("double_pendulum.toml")
    sim = kinevo.Simulator(path, t_end=0.2, dt=0.01)
    sim.step(5)
    q, qd = sim.q, sim.qd * 1.5
    sim.set_state(q, qd)  # at the current time
    assert math.isclose(sim.t, 0.05)
    np.testing.assert_array_equal(sim.qd, qd)
    sim.step(3)
    again = kinevo.Simulator(path, t_end=0.2, dt=0.01)
    again.set_state(q, qd, t=0.05)
    again.step(3)
    np.testing.assert_array_equal(again.q, sim.q)


def test_bad_states_are_value_errors_naming_them(example):
    sim = kinevo.Simulator(example("double_pendulum.toml"), t_end=0.1, dt=0.01)
    q, qd = sim.q, sim.qd
    with pytest.raises(ValueError, match="q"):
        sim.set_state(np.zeros(q.size + 1), qd)
    bad = qd.copy()
    bad[0] = float("nan")
    with pytest.raises(ValueError, match="finite"):
        sim.set_state(q, bad)
    with pytest.raises(ValueError, match="t_end"):
        sim.set_state(q, qd, t=0.5)
    with pytest.raises(ValueError, match="n"):
        sim.step(0)
    with pytest.raises(ValueError):
        kinevo.Simulator(example("double_pendulum.toml"), dt=-1.0)
    with pytest.raises(ValueError, match="integrator"):
        kinevo.Simulator(example("double_pendulum.toml"), integrator="euler")
    # The simulator is unchanged by refused input.
    np.testing.assert_array_equal(sim.q, q)
    assert sim.step()


def test_a_diverging_run_warns_and_reports_it(tmp_path):
    stiff = tmp_path / "stiff.toml"
    stiff.write_text(
        '[[coordinate]]\nname = "x"\ninitial = 0.0\nvelocity = 1.0\nmass = 1.0\n'
        'force = "-1e8*x"\n'
    )
    sim = kinevo.Simulator(stiff, t_end=0.02)
    with pytest.warns(RuntimeWarning, match="diverged"):
        while sim.step():
            pass
    assert not sim.running and not sim.completed
    assert sim.status == "diverged"
    assert "diverged" in sim.message


def test_formulation_options_as_on_the_command_line(example):
    path = example("slider_crank.toml")
    sim = kinevo.Simulator(path, t_end=0.05, dt=0.01, formulation="qtz-reduced")
    while sim.step():
        pass
    assert sim.completed, sim.message
    whole = kinevo.simulate(path, t_end=0.05, dt=0.01, formulation="qtz-reduced")
    np.testing.assert_array_equal(sim.q, whole.q[-1])
    # A formulation integrated by IDA refuses an integrator given explicitly, as the CLI does.
    with pytest.raises(ValueError, match="integrator|dopri"):
        kinevo.Simulator(path, formulation="qtz-reduced", integrator="dopri")


def test_records_kept_on_request(example):
    sim = kinevo.Simulator(example("pendulum.toml"), t_end=0.1, dt=0.01, keep_records=True)
    while sim.step():
        pass
    assert len(sim.result.t) == 11
    streaming = kinevo.Simulator(example("pendulum.toml"), t_end=0.1, dt=0.01)
    streaming.step(3)
    assert len(streaming.result.t) == 0


def test_docstrings_without_cpp_types():
    assert kinevo.Simulator.__doc__
    for name in ("step", "set_state", "t", "q", "qd", "state", "acceleration", "result"):
        doc = getattr(kinevo.Simulator, name).__doc__
        assert doc, name
        assert "kinevo::" not in doc and "Eigen" not in doc and "std::" not in doc, name
    assert "kinevo::" not in kinevo.Simulator.__init__.__doc__
