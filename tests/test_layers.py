"""Services and blueprints (issue 34): a feature package of ``floor/`` is its models, its services
and its blueprint's views; any module of ``floor/`` may import a service, but a blueprint's views
are imported by their own package alone (its ``init_app`` registers them). docs/architecture.md,
"Services and blueprints" is the rule in words; this module holds it against the imports.

The imports are read from the source as :mod:`tests.test_structure` reads them (``ast``: at the top
of a module and inside functions, relative ones too; not under ``if TYPE_CHECKING:``).

A module of a feature package is a service when :data:`SERVICES` names it or its package is one of
:data:`SERVICE_PACKAGES`; every other module of a package is its blueprint's views. A new module is
therefore views until someone decides it is a service and writes it down here and in the doc.
"""

from __future__ import annotations

import ast
import pathlib
import re
from collections.abc import Mapping

from tests.test_structure import ROOT, _imports, import_graph, import_graph_of_node, modules

#: Packages of ``floor/`` with no blueprint: every module in them is a service.
SERVICE_PACKAGES = {
    "floor.players": "the cash floor's players, lists, must-move games and the board's reading",
    "floor.witness": "the room's witness",
}

#: The services that live in a blueprint's package beside its views, each with what it holds.
SERVICES = {
    "floor.auth.access": "who is logged in, and the role checks of every page and route",
    "floor.banked.log": "a banked table's log and state: the one place that appends",
    "floor.banked.models": "the banked game's rows",
    "floor.banked.tablet": "a banked round's log in words",
    "floor.prints.diagrams": "the decision tree drawn for a printed summary",
    "floor.prints.stored": "a summary's PDF, made once and kept",
    "floor.rulings.issues": "the issues a table calls the floor for, in the dealer's words",
    "floor.rulings.issuing": "resolving, storing and applying a ruling; a dealer's report",
    "floor.rulings.printed": "a ruling's PDF, made once and kept",
    "floor.rulings.search": "finding issued rulings",
    "floor.rulings.stored": "reading a stored ruling, the rules it cites",
    "floor.tournament.desk": "the tournament desk's actions",
    "floor.tournament.disqualification": "disqualifying a player already out, and lifting a disqualification",
    "floor.tournament.eliminations": "bust-outs recorded from the log; the sync each desk action runs",
    "floor.tournament.floorwork": "the tournament's hooks on the table log, balancing, buy-ins",
    "floor.tournament.models": "the tournament desk's rows",
    "floor.tournament.service": "a tournament's structure, clock, draw, results",
}

DOC = ROOT / "docs" / "architecture.md"
RULE = 'a blueprint\'s views are imported by their own package alone (docs/architecture.md, "Services and blueprints")'
#: A route is registered by these: ``Blueprint(...)``, ``@bp.get(...)`` and its kin, ``bp.add_url_rule(...)``.
ROUTE_DECORATORS = {"route", "get", "post", "put", "patch", "delete"}


def feature_package(name: str, mods: Mapping[str, pathlib.Path]) -> str | None:
    """The package of ``floor/`` a module belongs to (``floor.dealer`` for ``floor.dealer.taps`` and for
    ``floor.dealer`` itself); None for a module of ``floor/``'s own (``floor.tables``, ``floor``)."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] != "floor":
        return None
    package = ".".join(parts[:2])
    return package if mods.get(package, pathlib.Path()).name == "__init__.py" else None


def is_views(name: str, mods: Mapping[str, pathlib.Path]) -> bool:
    """A module of a blueprint's package that is not one of its services."""
    package = feature_package(name, mods)
    if package is None or package in SERVICE_PACKAGES:
        return False
    return name not in SERVICES


def crossings(mods: Mapping[str, pathlib.Path]) -> list[str]:
    """Every import of a views module from outside its package, and of a views module by a service,
    in words: the importer, the imported, the rule. The app factory (``floor``) imports each part's
    package to call its ``init_app``: that is how a blueprint is registered, and it is allowed."""
    graph = import_graph(mods)
    found = []
    for importer, imported in sorted((a, b) for a, targets in graph.items() for b in targets):
        if not importer.startswith("floor") or not is_views(imported, mods):
            continue
        package = feature_package(imported, mods)
        own = feature_package(importer, mods) == package
        if importer == "floor" and imported == package:
            continue  # create_app: package.init_app(app)
        if not own:
            found.append(f"{importer} imports {imported}, a view of the {package} blueprint: {RULE}; "
                         "move what it needs to a service (or name the module a service, if it is one)")
        elif not is_views(importer, mods) and importer != package:
            found.append(f"{importer} (a service) imports {imported}, a view of its own blueprint: a service "
                         "serves the views, never the other way round")
    return found


def loaded_with_their_services(mods: Mapping[str, pathlib.Path]) -> list[str]:
    """Packages whose ``__init__`` imports one of their views at its top level while a module outside
    the package imports one of their services: importing the service would load the views too."""
    graph = import_graph(mods)
    wanted = sorted({b_package for a, targets in graph.items() for b in targets
                     if a.startswith("floor") and not is_views(b, mods)
                     and (b_package := feature_package(b, mods)) not in (None, feature_package(a, mods))})
    found = []
    for package in wanted:
        tree = ast.parse(mods[package].read_text(encoding="utf-8"))
        top = {m for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
               for m in import_graph_of_node(node, package, mods) if m.startswith(package + ".") and is_views(m, mods)}
        if top:
            found.append(f"{package.replace('.', '/')}/__init__.py imports {', '.join(sorted(top))} at its top: "
                         "importing its services loads its views; import them in init_app")
    return found


def registers_routes(path: pathlib.Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "Blueprint":
                return True
            if isinstance(func, ast.Attribute) and func.attr in ("add_url_rule", "Blueprint"):
                return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                if isinstance(target, ast.Attribute) and target.attr in ROUTE_DECORATORS \
                        and isinstance(target.value, ast.Name):
                    return True
    return False


MODULES = {name: path for name, path in modules().items() if name.startswith("floor")}


def test_no_module_imports_another_packages_views():
    found = crossings(MODULES)
    assert not found, "\n".join(found)


def test_a_package_whose_services_are_imported_loads_its_views_in_init_app_only():
    found = loaded_with_their_services(MODULES)
    assert not found, "\n".join(found)


def test_the_services_exist_and_register_no_route():
    missing = sorted(set(SERVICES) - set(MODULES))
    assert not missing, f"named services that are not modules: {missing}"
    routed = sorted(n for n in MODULES if not is_views(n, MODULES) and feature_package(n, MODULES)
                    and registers_routes(MODULES[n]))
    assert not routed, f"services that register routes (they are views): {routed}"


def test_the_doc_names_every_service():
    """The written rule and the one checked here are the same list."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Services and blueprints", 1)[1].split("\n## ", 1)[0]
    paths = re.findall(r"`(floor/[\w/]+(?:\.py|/))`", section)
    named = {m.replace("/", ".").removesuffix(".py").rstrip(".") for m in paths}
    assert set(SERVICES) | set(SERVICE_PACKAGES) <= named, sorted(set(SERVICES) | set(SERVICE_PACKAGES) - named)


def test_the_check_finds_a_view_imported_across_packages(tmp_path):
    """A view importing another package's view, a service importing its own package's view (inside a
    function), and a package face loading its views while another module wants its service."""
    floor = tmp_path / "floor"
    for package in ("dealer", "api", "rulings"):
        (floor / package).mkdir(parents=True)
    (floor / "__init__.py").write_text("def create_app():\n    from floor import api, dealer, rulings\n")
    (floor / "api" / "__init__.py").write_text("")
    (floor / "api" / "tables.py").write_text("def log_event(): ...\n")
    (floor / "dealer" / "__init__.py").write_text("")
    (floor / "dealer" / "taps.py").write_text("from floor.api.tables import log_event\n")
    (floor / "dealer" / "panel.py").write_text("from . import taps\n")  # own package: fine
    (floor / "rulings" / "__init__.py").write_text("from floor.rulings import views\n")
    (floor / "rulings" / "views.py").write_text("def picker(): ...\n")
    (floor / "rulings" / "issuing.py").write_text(  # a service: SERVICES names floor.rulings.issuing
        "def f():\n    from floor.rulings.views import picker\n")
    (floor / "tables.py").write_text("from floor.rulings import issuing\n")
    mods = modules(tmp_path, ["floor"])
    found = crossings(mods)
    assert found[0].startswith("floor.dealer.taps imports floor.api.tables, a view of the floor.api blueprint: "
                               "a blueprint's views are imported by their own package alone")
    assert found[1].startswith("floor.rulings.issuing (a service) imports floor.rulings.views")
    assert len(found) == 2
    assert loaded_with_their_services(mods) == [
        "floor/rulings/__init__.py imports floor.rulings.views at its top: importing its services loads its "
        "views; import them in init_app"]
    assert registers_routes(_write(tmp_path / "r.py", "bp = Blueprint('x', __name__)\n"))
    assert registers_routes(_write(tmp_path / "s.py", "@bp.get('/')\ndef index(): ...\n"))
    assert not registers_routes(_write(tmp_path / "t.py", "@cached\ndef index(): ...\n"))


def _write(path: pathlib.Path, text: str) -> pathlib.Path:
    path.write_text(text)
    return path


def test_imports_inside_functions_are_read():
    """A deferred import is a dependency too: banked's summary once took the prints' view that way."""
    tree = ast.parse("def f():\n    from floor.prints.views import tree_diagrams\n")
    assert [n.module for n in _imports(tree) if isinstance(n, ast.ImportFrom)] == ["floor.prints.views"]
