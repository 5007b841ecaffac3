"""The director's pages: events, tables and seating, house rules, users."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from floor.auth import require_role
from floor.extensions import db
from floor.models import Event, HouseProfile, Role, Table, User

bp = Blueprint("director", __name__, url_prefix="/director")
bp.before_request(require_role(Role.director))


@bp.get("/")
def index() -> Any:
    """Events with their tables, house profiles and users."""
    events = db.session.scalars(db.select(Event).order_by(Event.id)).all()
    loose = db.session.scalars(db.select(Table).where(Table.event_id.is_(None))).all()
    house = db.session.scalars(db.select(HouseProfile).order_by(HouseProfile.name)).all()
    users = db.session.scalars(db.select(User).order_by(User.role_name, User.username)).all()
    return render_template("director/index.html", events=events, loose=loose, house=house, users=users)
