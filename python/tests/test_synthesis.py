"""kinevo.synth_fourbar, synth_rssr, synth_dyad and chebyshev_points against `kinevo synth`."""
import pathlib

import pytest

import kinevo
from conftest import without_timings


def test_fourbar_gives_the_cli_report(example, cli_json):
    table = example("grashof_table1.csv")
    cli = cli_json("synth", "fourbar", "--table", table, "--crank", "input")
    result = kinevo.synth_fourbar(table, crank="input")
    assert result.status == "ok"
    mine = without_timings(result.to_dict())
    theirs = without_timings(cli)
    assert {k: theirs[k] for k in mine} == mine
    assert "k" in result.report() or "k1" in result.report()


def test_rssr_gives_the_cli_report(example, cli_json):
    table = example("rssr_19.csv")
    cli = cli_json("synth", "rssr", "--table", table)
    result = kinevo.synth_rssr(table)
    mine = without_timings(result.to_dict())
    theirs = without_timings(cli)
    assert {k: theirs[k] for k in mine} == mine
    # The source's 19-point example is not buildable (transmission angle down to 1.3 deg):
    # the warnings are an attribute too, the same list as the CLI's JSON.
    assert result.warnings and result.warnings == theirs["warnings"]


def test_dyad_and_files(example, tmp_path):
    result = kinevo.synth_dyad(example("dyad_17.csv"), starts=20, seed=2)
    written = result.save(str(tmp_path / "dyad"))
    assert written and all(pathlib.Path(p).exists() for p in written)
    assert result.to_dict()


def test_chebyshev_points():
    points = kinevo.chebyshev_points(0.0, 2.0, 3)["points"]
    assert len(points) == 3 and points[1] == pytest.approx(1.0)


def test_bad_input_names_the_option_or_file(tmp_path):
    with pytest.raises(ValueError, match="crank"):
        kinevo.synth_fourbar("x.csv", crank="sideways")
    with pytest.raises(kinevo.InputError, match="missing.csv"):
        kinevo.synth_fourbar(str(tmp_path / "missing.csv"))


def test_undetermined_tables_give_a_failed_result(tmp_path):
    """Points that do not determine k are a failed result (summary), not an exception."""
    flat = tmp_path / "flat.csv"
    flat.write_text("psi_deg,phi_deg\n10,20\n20,20\n30,20\n40,20\n")
    result = kinevo.synth_fourbar(str(flat))
    assert not result.summary.usable and result.summary.exit_status == 1
    assert result.status == "rank_deficient"
    assert "rank deficient" in result.status_message
    assert result.to_dict()["status"] == "rank_deficient"
    assert result.save(str(tmp_path / "none")) == []
    three = tmp_path / "three.csv"
    three.write_text("psi_deg,phi_deg\n10,20\n20,20\n30,20\n")
    exact = kinevo.synth_fourbar(str(three), exact=True)
    assert exact.status == "singular" and "singular Freudenstein" in exact.status_message


def test_path_from_numpy_points_gives_the_cli_result(example, cli_json):
    """Case 2 of examples/path as a numpy array: the same problem as the file, the same design."""
    import numpy as np

    points = np.array([[3, 3, 30], [2.759, 3.363, 45], [2.372, 3.663, 60],
                       [1.890, 3.862, 75], [1.355, 3.943, 90]], dtype=float)
    result = kinevo.synth_path(points, link_type="grashof", fixed_frame=True,
                               link_bounds=(0, 50), coupler_bounds=(-50, 50), evaluations=5000,
                               seed=1)
    cli = cli_json("synth", "path", example("path/case2_five_points_timing.csv"), "--seed", "1")
    assert result.feasible and result.status == "ok"
    assert result.objective == pytest.approx(cli["objective"], rel=1e-12)
    assert result.objective <= 1.2840007437e-06  # the best published objective of the case
    mine = result.to_dict()
    assert mine["linkage"] == pytest.approx(cli["linkage"], rel=1e-12)
    with pytest.raises(Exception, match="shape"):
        kinevo.synth_path(np.zeros((4, 4)))


def test_summary_is_the_cli_outcome(example):
    """Every synthesis result embeds the one outcome model: the status word, the termination
    and the exit status `kinevo synth` gives it."""
    table = example("grashof_table1.csv")
    ok = kinevo.synth_fourbar(table, crank="input")
    assert ok.summary.status == ok.status == "ok"
    assert ok.summary.usable and ok.summary.exit_status == 0
    bad = kinevo.synth_fourbar(table, crank="input", output="rocker", coupler="crank")
    assert bad.summary.status == "infeasible" == bad.to_dict()["status"]
    assert bad.summary.termination == "infeasible" and bad.summary.exit_status == 1
    assert bad.summary.message == bad.status_message != ""
    assert bad.summary.to_dict()["exit_status"] == 1
    assert kinevo.synth_rssr(example("rssr_19.csv")).summary.termination == "ok"
