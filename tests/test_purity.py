"""rules/ is pure Python: it imports nothing of Flask, SQLAlchemy, WeasyPrint or floor/ (and NumPy
only where the banked game's house numbers take every hand at once)."""

from __future__ import annotations

import ast
import functools
import pathlib
import subprocess
import sys

import pytest

import rules

RULES = pathlib.Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = ("flask", "flask_sqlalchemy", "flask_wtf", "flask_login", "sqlalchemy", "weasyprint", "floor", "wtforms")


def imported_roots(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_rules_module_names_the_web_or_database_layer():
    offenders = {p.name: sorted(imported_roots(p) & set(FORBIDDEN)) for p in RULES.rglob("*.py")}
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_importing_every_rules_module_loads_none_of_them():
    modules = sorted(".".join(p.relative_to(RULES.parent).with_suffix("").parts).removesuffix(".__init__")
                     for p in RULES.rglob("*.py") if p.name != "__main__.py")
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_numpy_only_in_the_banked_games_house_numbers():
    """NumPy serves the two modules that take every hand at once (issue 15); the rest of rules/, and
    the banked package the app imports, stay plain Python."""
    users = sorted(p.relative_to(RULES).as_posix() for p in RULES.rglob("*.py") if "numpy" in imported_roots(p))
    assert users == ["banked/allhands.py", "banked/house.py"]
    code = "import sys, rules.banked, rules.banked.strategy; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=RULES.parent)
    assert out.stdout.strip() == "False"


def test_rules_and_the_app_are_typed_strictly():
    """rules/ is a small typed library: mypy --strict finds nothing. floor/ too (issue 34), with the
    relaxations pyproject.toml names for the libraries that ship no types (WTForms, Flask-Login...)
    and for alembic's generated scripts; one run, so the two are read together."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(RULES),
                             str(RULES.parent / "floor")], capture_output=True, text=True, cwd=RULES.parent)
    assert result.returncode == 0, result.stdout + result.stderr


TESTS = RULES.parent / "tests"
APP_ROOTS = ("floor", "flask", "werkzeug", "flask_sqlalchemy", "sqlalchemy", "pypdf", "playwright")
#: The rules' own tests (issue 10): they never start Flask, and collecting them must not load it.
RULES_TESTS = {
    "test_cards", "test_hands", "test_odds", "test_openers", "test_profiles", "test_catalogue", "test_jackpot",
    "test_jackpot_irregularities", "test_rulings_tree", "test_rulings_at_the_table", "test_engine_properties",
    "test_proof_of_openers", "test_proof_real_deals", "test_purity",
}


def rules_test_modules() -> list[pathlib.Path]:
    """The test modules that name nothing of the app (directly or through a helper of tests/)."""
    @functools.cache
    def imported(path: pathlib.Path) -> tuple[str, ...]:
        """The modules ``path`` imports by absolute name (each file parsed once: the helpers of
        tests/ are read for every test module that imports them)."""
        names: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.append(node.module)
        return tuple(names)

    def roots(path: pathlib.Path, seen: frozenset[str] = frozenset()) -> set[str]:
        out = set()
        for name in imported(path):
            out.add(name.split(".")[0])
            helper = TESTS / (name.split(".")[1] + ".py") if name.startswith("tests.") else None
            if helper is not None and helper.exists() and helper.stem not in seen:
                out |= roots(helper, seen | {helper.stem})
        return out

    return sorted(p for p in TESTS.glob("test_*.py") if not roots(p) & set(APP_ROOTS))


@pytest.mark.slow
def test_collecting_the_rules_tests_loads_no_flask():
    """``pytest tests/test_hands.py`` (and every other rules test) never imports Flask: neither the
    test modules, their helpers, nor ``tests/conftest.py`` (which imports the app only inside the
    fixtures that build one)."""
    files = rules_test_modules()
    assert RULES_TESTS <= {p.stem for p in files}
    code = (
        "import sys, pytest\n"
        f"rc = pytest.main(['--collect-only', '-q', '-p', 'no:cacheprovider', *{[str(p) for p in files]!r}])\n"
        f"print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in {APP_ROOTS!r}))\n"
        "sys.exit(rc)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=RULES.parent)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "LOADED []", result.stdout[-2000:]


def test_ls_rules_shows_the_architecture():
    """Issue 23: a newcomer sees the parts of the game in ``ls rules``: each folder is a package
    that says what it holds, and only the few modules every part shares stay at the top."""
    folders = sorted(p.name for p in RULES.iterdir() if p.is_dir() and not p.name.startswith("__"))
    assert folders == ["banked", "hands", "jackpot", "reports", "rulings", "tournament"]
    for folder in folders:
        init = RULES / folder / "__init__.py"
        assert init.exists() and ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), folder
    shared = sorted(p.stem for p in RULES.glob("*.py") if p.stem != "__init__")
    # house (issue 32): the rake and the time collection, values of a profile the engine and the reports read;
    # memo (issue 34): a pure function's answers kept by their plain data (profiles reads a mapping once)
    assert shared == ["bounds", "cards", "catalogue", "house", "memo", "openers", "parse", "profiles", "registry",
                      "words"]
    assert all(f":mod:`rules.{name}`" in rules.__doc__ for name in folders + shared)
