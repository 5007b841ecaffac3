"""The dealer's tablet: pick a table, log the deal.

The table page (``/dealer/tables/<id>``) shows the table as the rules engine sees it and offers, as
buttons, only the actions in the state's ``legal`` list (:mod:`floor.dealer.panel`). A tap is one
request: the page posts the event to the tablet's own endpoint (``POST /dealer/tables/<id>/taps``
with ``expected_version`` and the ``X-CSRFToken`` header, :mod:`floor.dealer.taps`) and swaps in the
panel that comes back in the same answer. A refusal (422) shows the engine's own message by the
buttons; a stale version (409) says that another device logged first and shows the panel the answer
carries. An idle tablet polls ``GET /dealer/tables/<id>/live`` and, when the version or the floor
call moved, reloads the panel from ``/dealer/tables/<id>/panel``.

Calling the floor (``/dealer/tables/<id>/call-floor``, a small form: issue and seat) stores a
:class:`~floor.models.FloorCall`: the floor's overview lists it with the link to its dispute
(``/rulings/new?table=<id>&issue=<issue>&seat=<n>``), and the table page shows a "floor called"
banner until a ruling for the table answers it or a floor person dismisses it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField

try:  # WTForms 3.3 deprecates (value, label) tuples as choices
    from wtforms.fields.choices import SelectChoice
except ImportError:  # pragma: no cover - WTForms before 3.3
    SelectChoice = None

from floor import tables
from floor.auth.access import require_role
from floor.dealer.panel import panel_context, render_panel
from floor.dealer.taps import JSON_VIEWS
from floor.extensions import db
from floor.inputs import ascii_int
from floor.models import FloorCall, Role, Table
from floor.rulings.issues import ISSUES

bp = Blueprint("dealer", __name__, url_prefix="/dealer")
dealer_pages = require_role(Role.dealer)


@bp.before_request
def dealer_only() -> Any:
    """Every view of the tablet needs the dealer role at least. The tap checks it itself, as the
    API does, to answer in JSON (:mod:`floor.dealer.taps`)."""
    return None if request.endpoint in JSON_VIEWS else dealer_pages()


def choices(pairs: list[tuple[Any, str]]) -> list[Any]:
    """Form choices in the spelling the installed WTForms prefers."""
    return [SelectChoice(value, label) if SelectChoice else (value, label) for value, label in pairs]


class CallFloorForm(FlaskForm):
    issue = RadioField("What happened", choices=choices(list(ISSUES.items())), default="false_openers")
    seat = SelectField("Seat concerned", coerce=ascii_int)


@bp.get("/")
def index() -> Any:
    """The tables a dealer can pick."""
    tables_ = db.session.scalars(db.select(Table).order_by(Table.event_id, Table.name)).all()
    return render_template("dealer/index.html", tables=tables_)


@bp.get("/tables/<int:table_id>")
def table_page(table_id: int) -> Any:
    """The dealer's tablet page for one table: the state, and the actions allowed now."""
    table = db.get_or_404(Table, table_id)
    return render_template("dealer/table.html", **panel_context(table))


@bp.get("/tables/<int:table_id>/panel")
def panel(table_id: int) -> Any:
    """The table panel as an HTML fragment in JSON, for the page to swap in after a tap or a poll."""
    table = db.get_or_404(Table, table_id)
    return jsonify(version=table.version, html=render_panel(table))


def seat_choices(table: Table) -> list[Any]:
    seats = tables.table_state(table).seats
    return choices([(int(s), f"Seat {s} · {x.player}") for s, x in seats.items()])


@bp.route("/tables/<int:table_id>/call-floor", methods=["GET", "POST"])
def call_floor(table_id: int) -> Any:
    """Call the floor person to this table for an issue and a seat."""
    table = db.get_or_404(Table, table_id)
    form = CallFloorForm()
    form.seat.choices = seat_choices(table)
    if request.method == "GET":
        state = tables.table_state(table)
        default = state.opener or state.to_act
        if default is not None:
            form.seat.data = int(default)
        if request.args.get("issue") in ISSUES:
            form.issue.data = request.args["issue"]
    if form.validate_on_submit():
        label = ISSUES[form.issue.data]
        db.session.add(FloorCall(table_id=table.id, issue=form.issue.data, seat=form.seat.data,
                                 called_by=current_user))
        db.session.commit()
        current_app.logger.info("floor called to table %s (%s): %s, seat %s, by %s", table.id, table.name,
                                form.issue.data, form.seat.data, current_user.username)
        flash(f"Floor called to {table.name}: {label.lower()}, seat {form.seat.data}.", "info")
        return redirect(url_for("dealer.table_page", table_id=table.id))
    status = 400 if form.is_submitted() else 200
    return render_template("dealer/call_floor.html", table=table, form=form), status
