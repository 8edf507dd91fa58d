"""docs/examples/python_tour.py runs to the end (the documentation's example stays true)."""
import subprocess
import sys

from conftest import SOURCE


def test_the_tour_runs():
    done = subprocess.run([sys.executable, str(SOURCE / "docs" / "examples" / "python_tour.py")],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "best x:" in done.stdout and "x crosses zero" in done.stdout
