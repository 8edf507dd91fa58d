"""help(kinevo) reads well: every function, class, method and property has a docstring, no
signature or docstring names a C++ type, and the results' reprs show their key figures."""
import inspect
import pathlib
import pydoc
import re

import kinevo
from conftest import SOURCE

CXX_NAMES = re.compile(r"kinevo::|std::|Eigen::|mechanics::|pybind11::")


def public_members():
    """(qualified name, object) for the module's functions and classes and their members."""
    for name in sorted(dir(kinevo)):
        if name.startswith("_"):
            continue
        obj = getattr(kinevo, name)
        yield name, obj
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if not attr.startswith("_") or attr == "__repr__":
                    yield f"{name}.{attr}", value


def docstring_text(obj):
    """The docstring without pybind11's signature line (a function's first line)."""
    doc = (obj.fget.__doc__ if isinstance(obj, property) else getattr(obj, "__doc__", None)) or ""
    if callable(obj) and not inspect.isclass(obj):
        lines = doc.strip().splitlines()
        doc = "\n".join(lines[1:]) if lines and "(" in lines[0] else doc
    return doc.strip()


def test_every_public_name_has_a_docstring():
    missing = [
        name
        for name, obj in public_members()
        if not isinstance(obj, str) and not name.endswith("__repr__") and not docstring_text(obj)
    ]
    assert not missing, f"no docstring: {missing}"


def test_help_names_no_cxx_type():
    text = pydoc.render_doc(kinevo, renderer=pydoc.plaintext)
    assert not CXX_NAMES.search(text), CXX_NAMES.search(text).group(0)
    assert "-> kinevo.AccelResult" in pydoc.render_doc(kinevo.Model.accel)


def test_reprs_show_the_key_figures():
    examples = pathlib.Path(SOURCE) / "examples"
    r = kinevo.optimize(lambda x: (x * x).sum(axis=1), 2, lower=-1, upper=1, seed=1, generations=20)
    assert f"best_value {r.best_value:.10g}" in repr(r)
    assert "stop: generations" in repr(r)
    m = kinevo.load_model(examples / "pendulum.toml")
    assert repr(m) == "<kinevo.Model simple pendulum: 2 coordinates, 1 constraints>"
    a = m.accel()
    assert repr(a).startswith("<kinevo.AccelResult ok: rank 1, acceleration [")
    s = kinevo.simulate(m, 0.01, 1e-3)
    assert repr(s) == "<kinevo.SimulationResult completed: 11 records, t = 0 .. 0.01, 10 steps>"
    f = kinevo.synth_fourbar(examples / "grashof_table1.csv")
    assert "k = (0.745488, 0.072166, -0.318569)" in repr(f)
