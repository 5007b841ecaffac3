"""rules/ is pure Python: it imports nothing of Flask, SQLAlchemy, WeasyPrint or floor/."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

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
    modules = [f"rules.{p.stem}" for p in RULES.glob("*.py") if p.stem != "__init__"]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_rules_are_typed_strictly():
    """rules/ is a small typed library: mypy --strict finds nothing (STACK.md style note 7)."""
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(RULES)],
                            capture_output=True, text=True, cwd=RULES.parent)
    assert result.returncode == 0, result.stdout + result.stderr
