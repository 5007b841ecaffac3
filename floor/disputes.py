"""The floor person's pages: the tables at a glance, disputes, rulings."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from floor.auth import require_role
from floor.extensions import db
from floor.models import Role, Ruling, Table

bp = Blueprint("disputes", __name__, url_prefix="/floor")
bp.before_request(require_role(Role.floor))


@bp.get("/")
def index() -> Any:
    """The tables at a glance and the latest rulings."""
    tables = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    rulings = db.session.scalars(db.select(Ruling).order_by(Ruling.id.desc()).limit(50)).all()
    return render_template("disputes/index.html", tables=tables, rulings=rulings)
