"""The floor person's pages: the tables at a glance, disputes, rulings."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_login import current_user
from flask_wtf import FlaskForm

from floor import tables as table_log
from floor.auth import require_role
from floor.extensions import db
from floor.dealer import ISSUES
from floor.models import FloorCall, Role, Ruling, Table, utcnow
from rules import RulesError

bp = Blueprint("disputes", __name__, url_prefix="/floor")
bp.before_request(require_role(Role.floor))


def glance(table: Table) -> dict[str, Any]:
    """One table's line on the floor page: where the deal stands and what waits for the floor.

    A table is marked when the engine waits on a floor matter: a reopen offer after false openers
    (F3), or a showdown in progress (where openers must be proved). Open calls from the dealers'
    tablets are listed above the tables (:func:`index`).
    """
    try:
        state = table_log.state_of(table)
    except (RulesError, ValueError) as exc:  # a log the current rules refuse: say so, never crash
        current_app.logger.warning("table %s: the log does not replay: %s", table.id, exc)
        return {"table": table, "state": None, "flags": ["the log does not replay: call the director"]}
    flags = []
    offer = state.get("reopen")
    if offer:
        flags.append("reopen offer pending: seats " + ", ".join(str(s) for s in offer.get("eligible", [])))
    if state.get("phase") == "showdown":
        flags.append("showdown in progress")
    return {"table": table, "state": state, "flags": flags}


@bp.get("/")
def index() -> Any:
    """The tables at a glance and the latest rulings."""
    tables = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    rulings = db.session.scalars(db.select(Ruling).order_by(Ruling.id.desc()).limit(50)).all()
    calls = db.session.scalars(db.select(FloorCall).where(FloorCall.closed_at.is_(None)).order_by(FloorCall.id)).all()
    return render_template("disputes/index.html", lines=[glance(t) for t in tables], rulings=rulings,
                           calls=calls, issues=ISSUES, form=DismissForm())


class DismissForm(FlaskForm):
    """Close a call without a ruling (the CSRF token is all it carries)."""


@bp.post("/calls/<int:call_id>/dismiss")
def dismiss_call(call_id: int) -> Any:
    """Close a dealer's call that needed no ruling."""
    call = db.get_or_404(FloorCall, call_id)
    if not DismissForm().validate_on_submit():
        abort(400, description="The form expired; reload the floor page and try again.")
    if call.is_open:
        call.closed_at, call.closed_by = utcnow(), current_user
        db.session.commit()
        flash(f"Call from {call.table.name} dismissed.", "info")
    return redirect(url_for("disputes.index"))
