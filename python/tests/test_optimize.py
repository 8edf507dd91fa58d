"""kinevo.optimize on Python objectives and kinevo.optimize_problem on problem files."""
import threading

import numpy as np
import pytest

import kinevo


def sphere(population):
    """The sphere function, the whole population (count x dim) at once."""
    return (population**2).sum(axis=1)


# On 2 variables numpy's row sum and Eigen's column squaredNorm add the same two squares, so the
# Python objective returns the built-in function's values bit for bit.
SETTINGS = dict(seed=7, islands=2, population=20, generations=40)


def test_batch_objective_gives_the_cli_result_on_the_same_function(cli_json):
    cli = cli_json("optimize", "--function", "sphere", "--dim", "2", "--seed", "7",
                   "--islands", "2", "--population", "20", "--generations", "40")
    run = kinevo.optimize(sphere, 2, lower=-5.12, upper=5.12, **SETTINGS)
    assert run.best_x.tolist() == cli["best_x"]
    assert run.best_value == cli["best_value"]
    assert run.evaluations == cli["evaluations"]
    assert run.to_dict()["best_x"] == cli["best_x"]


def test_one_point_at_a_time_gives_the_batch_result():
    batch = kinevo.optimize(sphere, 2, lower=-5.12, upper=5.12, **SETTINGS)
    single = kinevo.optimize(lambda x: float(x @ x), 2, lower=[-5.12, -5.12],
                             upper=[5.12, 5.12], batch=False, **SETTINGS)
    assert single.best_x.tolist() == batch.best_x.tolist()
    assert single.best_value == batch.best_value


def test_islands_on_threads_call_the_objective_with_the_gil_and_repeat_exactly():
    callers = set()

    def objective(population):
        callers.add(threading.get_ident())
        return np.abs(population - 0.25).sum(axis=1)

    runs = [kinevo.optimize(objective, 3, lower=-1, upper=1, seed=3, islands=4, threads=2,
                            population=16, generations=30) for _ in range(2)]
    assert runs[0].best_x.tolist() == runs[1].best_x.tolist()
    assert runs[0].best_value < 0.3
    assert callers  # called from the islands' threads, each call holding the GIL
    assert "best" in runs[0].report()


def test_the_objective_s_exception_reaches_the_caller():
    def broken(population):
        raise ZeroDivisionError("objective broke")

    with pytest.raises(ZeroDivisionError, match="objective broke"):
        kinevo.optimize(broken, 2, lower=-1, upper=1, generations=5)


def test_wrong_count_of_values_names_the_shape():
    with pytest.raises(ValueError, match="one number per row"):
        kinevo.optimize(lambda p: np.zeros(3), 2, lower=-1, upper=1, population=10,
                        generations=2)


def test_options_are_checked_by_name():
    with pytest.raises(TypeError, match="unknown option 'populaton'"):
        kinevo.optimize(sphere, 2, lower=-1, upper=1, populaton=10)
    with pytest.raises(ValueError, match="crossover"):
        kinevo.optimize(sphere, 2, lower=-1, upper=1, crossover="nonsense")
    with pytest.raises(ValueError, match="lower"):
        kinevo.optimize(sphere, 2, upper=1)
    with pytest.raises(ValueError, match="population"):
        kinevo.optimize(sphere, 2, lower=-1, upper=1, population=-4)


def double_sum(population):
    """Schwefel's double sum, sum_i (x_1 + ... + x_i)^2, the whole population at once."""
    return (np.cumsum(population, axis=1)**2).sum(axis=1)


def test_the_learned_metric_preset_gives_the_cli_result(cli_json):
    cli = cli_json("optimize", "--function", "double_sum", "--dim", "6", "--seed", "3",
                   "--preset", "g3-pcx-metric", "--max-evals", "6000", "--lower", "-65.536",
                   "--upper", "65.536")
    run = kinevo.optimize(double_sum, 6, lower=-65.536, upper=65.536, seed=3,
                          preset="g3-pcx-metric", max_evals=6000)
    assert run.evaluations == cli["evaluations"]
    assert run.best_value == pytest.approx(cli["best_value"], rel=1e-9, abs=1e-300)
    with pytest.raises(ValueError, match="metric"):
        kinevo.optimize(double_sum, 6, lower=-1, upper=1, metric="learned")


def test_a_carried_lazy_metric_in_range_runs_gives_the_cli_result(cli_json):
    cli = cli_json("optimize", "--function", "double_sum", "--dim", "6", "--seed", "3",
                   "--preset", "g3-pcx-metric", "--metric-carry", "--metric-lazy", "3",
                   "--range-runs", "3", "--max-evals", "2000", "--lower", "-65.536",
                   "--upper", "65.536")
    run = kinevo.optimize(double_sum, 6, lower=-65.536, upper=65.536, seed=3,
                          preset="g3-pcx-metric", metric_carry=True, metric_lazy=3,
                          range_runs=3, max_evals=2000)
    assert run.evaluations == cli["evaluations"]
    assert run.best_value == pytest.approx(cli["best_value"], rel=1e-9, abs=1e-300)
    with pytest.raises(ValueError, match="metric_lazy"):
        kinevo.optimize(double_sum, 6, lower=-1, upper=1, metric_lazy=2)


def test_the_cholesky_root_gives_the_cli_result(cli_json):
    cli = cli_json("optimize", "--function", "double_sum", "--dim", "6", "--seed", "3",
                   "--preset", "g3-pcx-metric", "--metric-root", "cholesky",
                   "--max-evals", "6000", "--lower", "-65.536", "--upper", "65.536")
    run = kinevo.optimize(double_sum, 6, lower=-65.536, upper=65.536, seed=3,
                          preset="g3-pcx-metric", metric_root="cholesky", max_evals=6000)
    assert run.evaluations == cli["evaluations"]
    assert run.best_value == pytest.approx(cli["best_value"], rel=1e-9, abs=1e-300)
    with pytest.raises(ValueError, match="metric_root"):
        kinevo.optimize(double_sum, 6, lower=-1, upper=1, metric_root="cholesky")
    with pytest.raises(ValueError, match="metric_root"):
        kinevo.optimize(double_sum, 6, lower=-1, upper=1, preset="g3-pcx-metric",
                        metric_root="qr")


def test_problem_file_gives_the_cli_result(cli_json, example):
    path = example("problem_constrained.toml")
    cli = cli_json("optimize", "--problem", path, "--seed", "3", "--generations", "60")
    run = kinevo.optimize_problem(path, seed=3, generations=60)
    assert run.best_x.tolist() == cli["best_x"]
    assert run.best_value == cli["best_value"]
    assert run.feasible == cli["feasible"]
    assert run.to_dict()["variables"] == ["x1", "x2"]
    assert "x1" in run.report()


def test_a_missing_problem_file_is_an_input_error():
    with pytest.raises(kinevo.InputError, match="no_such_problem.toml"):
        kinevo.optimize_problem("no_such_problem.toml")
