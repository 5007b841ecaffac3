"""The dealer's tablet: pick a table, log the deal."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from floor.auth import require_role
from floor.extensions import db
from floor.models import Role, Table

bp = Blueprint("dealer", __name__, url_prefix="/dealer")
bp.before_request(require_role(Role.dealer))


@bp.get("/")
def index() -> Any:
    """The tables a dealer can pick."""
    tables = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    return render_template("dealer/index.html", tables=tables)
