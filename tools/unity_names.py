#!/usr/bin/env python3
"""Names that would collide when the test files of one test executable are compiled together
(the unity builds of cmake/compile_speed.cmake, KINEVO_UNITY_TESTS), whatever the order and
grouping of the files in the batches.

For each folder of tests/ built by kinevo_test_module (its *.cpp files and the *.hpp helpers
beside them) it reports:
  - a name defined at namespace scope in two files where one can see the other's (anonymous
    namespaces of the same enclosing namespace are one namespace in a unity batch, and an
    enclosing namespace's name is hidden or overloaded by an inner one), unless the inner one is
    in a namespace that only its own file opens;
  - a using-declaration in one file of a name that another file defines;
  - a local variable or parameter with the name of a namespace-scope variable, type alias or
    using-declaration of another file that it can see (-Wshadow with -Werror);
  - a using-directive at namespace scope outside a namespace that only its own file opens.

Exit status 1 when anything is reported. Needs Universal Ctags (Debian: universal-ctags).
  tools/unity_names.py [tests folder]
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

SKIP = {'TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST', 'INSTANTIATE_TEST_SUITE_P', 'TYPED_TEST_SUITE'}


def visible(scope):
    """The namespace path without its anonymous namespaces."""
    return tuple(p for p in scope.split('::') if p and not p.startswith('__anon')) if scope else ()


def overlap(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def show(path):
    return '::'.join(path) or 'global'


def check(folder):
    cpps = sorted(glob.glob(os.path.join(folder, '*.cpp')))
    files = cpps + sorted(glob.glob(os.path.join(folder, '*.hpp')))
    out = subprocess.run(['ctags', '--language-force=C++', '--c++-kinds=cdefgnstuvxpANUlz',
                          '--fields=+sKZnE', '--extras=-q', '--output-format=json', '-f', '-'] +
                         files, capture_output=True, text=True, check=True).stdout
    tags = [json.loads(line) for line in out.splitlines() if line.startswith('{')]
    namespaces = collections.defaultdict(set)  # namespace path -> files that open it
    for t in tags:
        if t.get('kind') == 'namespace':
            path = visible((t.get('scope', '') + '::' + t['name']).strip(':'))
            namespaces[path].add(os.path.basename(t['path']))

    def own(path, f):  # a named namespace that only file f opens
        return len(path) > 0 and namespaces.get(path) == {f}

    def private(a, b):  # b nested below a in a namespace of b's file alone
        return len(b[3]) > len(a[3]) and own(b[3], b[0])

    defs = collections.defaultdict(list)  # name -> [(file, line, kind, namespace)]
    uses = collections.defaultdict(list)  # using-declarations: name -> [(file, line, ns, target)]
    locals_ = collections.defaultdict(list)  # name -> [(file, line, enclosing namespace)]
    directives = []
    for t in tags:
        if t.get('_type') != 'tag':
            continue
        kind, name, f = t['kind'], t['name'], os.path.basename(t['path'])
        scope_kind, scope = t.get('scopeKind'), t.get('scope', '')
        if kind == 'namespace' or name.startswith('__anon'):
            continue
        if kind == 'using':
            if scope_kind in (None, 'namespace'):
                directives.append((f, t['line'], name, visible(scope)))
            continue
        if kind in ('local', 'parameter'):
            parts = visible(scope)
            ns = next((parts[:i] for i in range(len(parts), 0, -1) if parts[:i] in namespaces), ())
            locals_[name].append((f, t['line'], ns))
            continue
        if scope_kind not in (None, 'namespace') or kind in ('enumerator', 'macroparam'):
            continue
        if kind in ('function', 'prototype') and name in SKIP:
            continue
        if kind == 'alias':  # the same alias of the same namespace twice is legal
            m = re.search(r'namespace\s+(\w+)\s*=\s*([\w:]+)\s*;', t.get('pattern', ''))
            if m:
                name, kind = m.group(1), 'alias:' + m.group(2).lstrip(':')
        if kind == 'name':
            m = re.search(r'using\s+([\w:]+)\s*;', t.get('pattern', ''))
            uses[name].append((f, t['line'], visible(scope), m.group(1) if m else '?'))
            continue
        defs[name].append((f, t['line'], kind, visible(scope)))

    problems = []
    for name, found in sorted(defs.items()):
        real = [d for d in found if d[2] != 'prototype'] or found
        for i, a in enumerate(real):
            for b in real[i + 1:]:
                if a[2].startswith('alias:') and a[2] == b[2]:
                    continue
                if a[0] != b[0] and overlap(a[3], b[3]) and not private(a, b) and not private(b, a):
                    problems.append(f'{name} defined in {a[0]}:{a[1]} [{show(a[3])}] and '
                                    f'{b[0]}:{b[1]} [{show(b[3])}]')
        for (uf, ul, uns, target) in uses.get(name, []):
            for (df, dl, _, dns) in real:
                header = df.endswith('.hpp') and '::' in target and show(dns).endswith(
                    target.rsplit('::', 1)[0].lstrip(':'))
                if df != uf and overlap(uns, dns) and not header:
                    problems.append(f'using {target} in {uf}:{ul} [{show(uns)}] meets the '
                                    f'definition in {df}:{dl} [{show(dns)}]')
    variables = {n: [d for d in found if d[2] in ('variable', 'externvar', 'typedef')]
                 for n, found in defs.items()}  # GCC's -Wshadow also names type aliases
    for name, found in uses.items():  # using-declarations of variables (pi, deg, nan) too
        variables.setdefault(name, []).extend((f, l, 'name', ns) for (f, l, ns, _) in found)
    for name, found in sorted(variables.items()):
        for (lf, ll, lns) in locals_.get(name, []):
            for (vf, vl, _, vns) in found:
                if vf != lf and lns[:len(vns)] == vns:
                    problems.append(f'local {name} in {lf}:{ll} [{show(lns)}] shadows '
                                    f'{vf}:{vl} [{show(vns)}]')
                    break
    for (f, line, name, ns) in directives:
        if not own(ns, f):
            problems.append(f'using namespace {name} in {f}:{line} [{show(ns)}] reaches the '
                            f'files after it in a unity batch')
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'tests')
    total = 0
    for folder in sorted(glob.glob(os.path.join(root, '*', ''))):
        lists = os.path.join(folder, 'CMakeLists.txt')
        if not os.path.exists(lists) or 'kinevo_test_module' not in open(lists).read():
            continue
        for p in check(folder):
            print(f'{os.path.basename(os.path.dirname(folder))}: {p}')
            total += 1
    print(f'{total} unity-build name problem(s)')
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
