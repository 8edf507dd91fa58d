"""Shared fixtures: the repository (for examples/), the kinevo CLI (for comparisons)."""
import json
import os
import pathlib
import subprocess

import pytest

SOURCE = pathlib.Path(os.environ.get("KINEVO_SOURCE", pathlib.Path(__file__).resolve().parents[2]))
CLI = os.environ.get("KINEVO_CLI", str(SOURCE / "build" / "kinevo"))


@pytest.fixture
def example():
    """Path of a file in examples/."""
    return lambda name: str(SOURCE / "examples" / name)


@pytest.fixture
def cli_json():
    """Runs `kinevo ARGS --json` and returns its JSON object (exit status 0 or 1)."""

    def run(*args):
        done = subprocess.run([CLI, *args, "--json"], capture_output=True, text=True, check=False)
        assert done.returncode in (0, 1), done.stderr
        return json.loads(done.stdout)

    return run


def without_timings(value):
    """A JSON value without its wall-clock entries (they differ between runs)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if "seconds" not in k}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value
