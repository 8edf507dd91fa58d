"""python/kinevo.pyi (installed beside the module) names exactly the module's functions,
classes, members and parameters, so that an editor's completion and a type checker see the
module as it is."""
import ast
import inspect
import pathlib
import re

import kinevo
from conftest import SOURCE

STUB = pathlib.Path(SOURCE) / "python" / "kinevo.pyi"


def stub_tree():
    return ast.parse(STUB.read_text())


def runtime_parameters(function):
    """Parameter names of a pybind11 function, from the signature line of its docstring."""
    first = function.__doc__.strip().splitlines()[0]
    inside = first[first.index("(") + 1 : first.rindex(")")]
    names = []
    depth = 0
    current = ""
    for c in inside:
        depth += c in "[("
        depth -= c in "])"
        if c == "," and depth == 0:
            names.append(current)
            current = ""
        else:
            current += c
    names.append(current)
    out = []
    for n in names:
        n = n.strip()
        if not n or n == "*":
            continue
        name = re.match(r"\**(\w+)", n).group(1)
        if name != "self":
            out.append(name)
    return out


def stub_parameters(node):
    a = node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    if a.kwarg:
        names.append(a.kwarg.arg)
    return [n for n in names if n != "self"]


def test_stub_names_every_public_function_and_class():
    tree = stub_tree()
    stub_names = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    module_names = {n for n in dir(kinevo) if not n.startswith("_")}
    assert stub_names == module_names


def test_stub_members_and_parameters_match_the_module():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            assert stub_parameters(node) == runtime_parameters(getattr(kinevo, node.name)), node.name
        if isinstance(node, ast.ClassDef) and node.name != "InputError":
            cls = getattr(kinevo, node.name)
            members = {m.name: m for m in node.body if isinstance(m, ast.FunctionDef)}
            init = members.pop("__init__", None)
            if init is not None:  # a class made from Python (kinevo.Simulator)
                assert stub_parameters(init) == runtime_parameters(cls.__init__), node.name
            runtime = {n for n in vars(cls) if not n.startswith("_")}
            assert set(members) == runtime, node.name
            for name, m in members.items():
                value = vars(cls)[name]
                if isinstance(value, property):
                    continue
                assert stub_parameters(m) == runtime_parameters(value), f"{node.name}.{name}"


def test_stub_is_installed_beside_the_module():
    text = (pathlib.Path(SOURCE) / "python" / "CMakeLists.txt").read_text()
    assert "kinevo.pyi" in text
