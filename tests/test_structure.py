"""The shape of the code (issue 10): no import cycles in ``floor/`` and ``rules/``, no module over
600 lines, and no class of the app named like a class of the rules.

The import graph is read from the source (``ast``), not by importing anything, so that a cycle
Python happens to tolerate at run time (a deferred import inside a function, a package that
imports a module which imports the package) still fails here. What counts as an edge:

- every ``import`` and ``from ... import`` of a module of ``floor/`` or ``rules/``, at the top of a
  module or inside a function or class (a deferred import is still a dependency: ``floor.cli`` and
  ``floor.demo`` used to import each other that way);
- ``from package import name`` is an edge to ``package.name`` when that is a module, else to
  ``package`` (its ``__init__``);
- not an import under ``if TYPE_CHECKING:`` (it never runs: it is for the type checker), and not
  the parent package that Python initialises before a submodule (that is the interpreter's order
  of loading, not a dependency the code names).
"""

from __future__ import annotations

import ast
import functools
import pathlib
from collections.abc import Iterable, Iterator, Mapping

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("floor", "rules")
MAX_LINES = 600


def modules(root: pathlib.Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, pathlib.Path]:
    """Dotted module name -> source file, for every ``.py`` of the packages (``__init__`` as the package)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, wherever it stands, but under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if _type_checking_block(node):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(node)


def _known(name: str, known: Mapping[str, object]) -> str | None:
    """The longest prefix of a dotted name that is one of our modules."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def import_graph(mods: Mapping[str, pathlib.Path]) -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (see the module docstring for what counts)."""
    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        is_package = path.name == "__init__.py"
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [_known(alias.name, mods) for alias in node.names]
            else:
                base = node.module or ""
                if node.level:  # relative: from the module's own package upwards
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = package[: len(package) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}" if base else alias.name
                    targets.append(full if full in mods else _known(base, mods))
            graph[name] |= {t for t in targets if t is not None and t != name}
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _path(graph: Mapping[str, Iterable[str]], component: list[str]) -> str:
    """One cycle through a component, for the failure message: a -> b -> a."""
    members = set(component)
    start = component[0]
    trail, seen = [start], {start}
    while True:
        following = sorted(w for w in graph[trail[-1]] if w in members)
        nxt = next((w for w in following if w == start), None) if len(trail) > 1 else None
        if nxt is None:
            nxt = next((w for w in following if w not in seen), following[0])
        trail.append(nxt)
        if nxt in seen:
            return " -> ".join(trail[trail.index(nxt):])
        seen.add(nxt)


MODULES = modules()


@functools.cache
def graph() -> dict[str, set[str]]:
    """The import graph of every module, read once per test process, when a test first asks (not
    while the module is collected: every worker collects it, and ``tests/test_layers.py`` imports
    it; parsing every file cost each worker about 0.8 s of CPU before its first test)."""
    return import_graph(MODULES)


def test_the_import_graph_of_floor_and_rules_has_no_cycle():
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(_path(graph(), c) for c in found)


def test_the_graph_is_read_from_the_source():
    """The reader sees what the code names: top-level, deferred and relative imports."""
    edges = graph()
    assert "floor.tables" in edges["floor.api.tables"]
    assert "rules.jackpot" in edges["floor.tables"]
    assert "floor.demo" in edges["floor.cli"] and "floor.accounts" in edges["floor.demo"]
    assert {"floor.api", "floor.dealer", "floor.rulings"} <= edges["floor"]  # imported inside create_app
    assert not any(m.startswith("floor") for m in set().union(*(edges[m] for m in edges if m.startswith("rules"))))


def test_the_cycle_finder_finds_cycles(tmp_path):
    """A deferred import back, a package importing its own module and a relative import are read."""
    pkg = tmp_path / "demo_pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from demo_pkg.sub import views\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "views.py").write_text("from .. import helpers\n")
    (pkg / "helpers.py").write_text("def f():\n    from demo_pkg.sub import views\n")
    (pkg / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import demo_pkg.helpers\n")
    mods = modules(tmp_path, ["demo_pkg"])
    graph = import_graph(mods)
    assert graph["demo_pkg"] == {"demo_pkg.sub.views"}
    assert graph["demo_pkg.typed"] == set()
    assert cycles(graph) == [["demo_pkg.helpers", "demo_pkg.sub.views"]]
    assert _path(graph, cycles(graph)[0]) == "demo_pkg.helpers -> demo_pkg.sub.views -> demo_pkg.helpers"


def read_back_while_initialising(mods: Mapping[str, pathlib.Path],
                                 graph: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """Packages whose ``__init__`` imports, at its top level, one of its own modules that leads back
    to the package by ``from package import ...``: package -> the chain back to it.

    Python runs a package's ``__init__`` before any of its modules, so such a module reads the
    package half made (floor.tournament -> floor.tournament.api -> floor.tournament.floorwork ->
    floor.tournament, issue 23). The cycle test above maps ``from package import module`` to the
    module only (a deferred import inside an app factory is harmless), so it cannot see this one:
    here ``from package import ...`` is also an edge to the package itself.
    """
    packages = {n for n, p in mods.items() if p.name == "__init__.py"}
    back: dict[str, set[str]] = {n: set(graph.get(n, ())) for n in mods}
    top: dict[str, set[str]] = {n: set() for n in packages}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module in packages \
                    and node.module != name:
                back[name].add(node.module)
        if name in packages:
            for node in tree.body:
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    one = import_graph_of_node(node, name, mods)
                    top[name] |= {m for m in one if m.startswith(name + ".")}
    found: dict[str, list[str]] = {}
    for package, own in sorted(top.items()):
        trail: dict[str, str | None] = {m: None for m in own}
        todo = sorted(own)
        while todo and package not in found:
            v = todo.pop()
            for w in sorted(back[v]):
                if w == package:
                    chain = [v]
                    while trail[chain[-1]] is not None:
                        chain.append(trail[chain[-1]])  # type: ignore[arg-type]
                    found[package] = [package, *reversed(chain), package]
                    break
                if w not in trail and w.startswith(package + "."):
                    trail[w] = v
                    todo.append(w)
    return found


def import_graph_of_node(node: ast.Import | ast.ImportFrom, name: str, mods: Mapping[str, pathlib.Path]) -> set[str]:
    """The modules of ours one top-level import statement of ``name`` names (as :func:`import_graph`)."""
    if isinstance(node, ast.Import):
        return {k for k in (_known(a.name, mods) for a in node.names) if k}
    base = node.module or ""
    if node.level:
        package = name.split(".")
        base = ".".join(package[: len(package) - (node.level - 1)] + ([base] if base else []))
    out = set()
    for alias in node.names:
        full = f"{base}.{alias.name}" if base else alias.name
        k = full if full in mods else _known(base, mods)
        if k:
            out.add(k)
    return out


def test_no_package_imports_its_own_modules_that_read_it_back_half_made():
    """floor.tournament, floor.director, floor.rulings and floor.banked once did (issue 23): each
    now registers its modules from ``init_app``, once the package is whole."""
    found = read_back_while_initialising(MODULES, graph())
    assert found == {}, "\n".join(" -> ".join(c) for c in found.values())


def test_the_read_back_check_finds_a_package_read_back(tmp_path):
    """The tournament's old shape: the package imports its api, the api imports a sibling through
    the package (``from pkg import work``) and the sibling reads the package back."""
    pkg = tmp_path / "demo_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from demo_pkg.api import bp\n")
    (pkg / "api.py").write_text("from demo_pkg import work\nbp = 1\n")
    (pkg / "work.py").write_text("from demo_pkg import service\n")
    (pkg / "service.py").write_text("")
    mods = modules(tmp_path, ["demo_pkg"])
    graph = import_graph(mods)
    assert cycles(graph) == []  # the cycle test alone does not see it
    assert read_back_while_initialising(mods, graph) == {"demo_pkg": ["demo_pkg", "demo_pkg.api", "demo_pkg"]}
    (pkg / "__init__.py").write_text("def init_app():\n    from demo_pkg.api import bp\n")  # deferred: fine
    assert read_back_while_initialising(modules(tmp_path, ["demo_pkg"]), graph) == {}


@pytest.mark.parametrize("package", ["floor", "rules"])
def test_no_module_is_over_600_lines(package):
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()
             if name.split(".")[0] == package}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def _classes(package: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        if name.split(".")[0] == package:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    out.setdefault(node.name, set()).add(name)
    return out


def test_no_class_of_the_app_is_named_like_a_class_of_the_rules():
    """``IssuedRuling`` (the stored record) is not ``rules.rulings.Ruling`` (the tree's value) nor
    ``rules.jackpot.events.Ruling`` (the log's event); ``CardRoomEvent`` is not ``rules.jackpot.events.Event``."""
    app, rules = _classes("floor"), _classes("rules")
    assert {name: sorted(app[name] | rules[name]) for name in app.keys() & rules.keys()} == {}


def test_the_floor_persons_pages_are_not_called_disputes():
    """``rules.jackpot.disputes`` is what a table's log answers for a dispute; the app has no module of that name."""
    assert not [name for name in MODULES if name.startswith("floor") and name.split(".")[-1] == "disputes"]


def redefined(source: str) -> list[str]:
    """The names a module (or a class) defines twice with ``def`` or ``class``: the later one
    silently replaces the first, and every caller of the first now calls the second. A property's
    setter (``@name.setter``) is not a redefinition."""
    found: list[str] = []

    def scan(body: list[ast.stmt], where: str) -> None:
        seen: set[str] = set()
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                setter = any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter")
                             for d in node.decorator_list)
                if node.name in seen and not setter:
                    found.append(f"{where}{node.name}")
                seen.add(node.name)
                if isinstance(node, ast.ClassDef):
                    scan(node.body, f"{where}{node.name}.")

    scan(ast.parse(source).body, "")
    return found


def test_no_module_defines_a_name_twice():
    """A second ``def _between_deals`` in floor/tournament/desk.py once replaced the first, and the
    desk's counts and bust-outs answered 500: nothing but their own tests would have said why."""
    twice = {str(path.relative_to(ROOT)): names for package in ("rules", "floor", "night", "bench")
             for path in (ROOT / package).rglob("*.py") if (names := redefined(path.read_text()))}
    assert twice == {}


def test_the_redefinition_check_finds_one():
    assert redefined("def a(): pass\nclass B:\n    @property\n    def x(self): pass\n    @x.setter\n"
                     "    def x(self, v): pass\n    def y(self): pass\n    def y(self): pass\ndef a(): pass\n") \
        == ["B.y", "a"]
