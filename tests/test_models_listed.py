"""Every model is findable (issue 34): docs/models.md lists each table with its model and the
module that declares it, and nothing there is stale."""

from __future__ import annotations

import re
from pathlib import Path

from floor.extensions import db

DOC = Path(__file__).resolve().parent.parent / "docs" / "models.md"
ROW = re.compile(r"^\| `(?P<table>[a-z_]+)` \| `(?P<model>\w+)` \| `(?P<module>[\w/]+\.py)` \|", re.M)


def listed() -> dict[str, tuple[str, str]]:
    return {m["table"]: (m["model"], m["module"]) for m in ROW.finditer(DOC.read_text(encoding="utf-8"))}


def mapped(app) -> dict[str, tuple[str, str]]:
    with app.app_context():
        return {m.class_.__tablename__: (m.class_.__name__, m.class_.__module__.replace(".", "/") + ".py")
                for m in db.Model.registry.mappers}


def test_every_model_is_listed_with_its_module(app):
    assert mapped(app) == listed()
