"""The JSON API of the contract, under ``/api/``.

Clients authenticate with ``Authorization: Bearer <token>``; the app's own pages call it with
their session and the CSRF token in ``X-CSRFToken``. Errors are JSON ``{"error", "message"}``:
401 without a login, 403 for a role that may not, 404, 409 for a stale ``expected_version``,
422 when the rules refuse an event (with the rules' own message). Nothing is written on an error.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from flask import Blueprint, abort, current_app, g, jsonify, request
from flask_login import current_user
from sqlalchemy import text

from floor import issuing, tables
from floor.extensions import csrf, db
from floor.models import FloorCall, LogEntry, Role, Table
from rules import CardError, RulesError, cards, hands, openers

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # checked by hand below: bearer clients need no token, session clients do

F = TypeVar("F", bound=Callable[..., Any])


def error(status: int, title: str, message: str, **extra: Any) -> Any:
    return jsonify(error=title, message=message, status=status, **extra), status


def api_role(minimum: Role) -> Callable[[F], F]:
    """Every API route but the health check names the least role that may call it."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                return error(401, "Unauthorized", "Log in, or send 'Authorization: Bearer <token>'.")
            if not current_user.may(minimum):
                return error(403, "Forbidden",
                             f"This needs the {minimum.name} role; {current_user.username} is a "
                             f"{current_user.role.name}.")
            if request.method not in ("GET", "HEAD", "OPTIONS") and not g.get("bearer"):
                csrf.protect()  # a session cookie alone could be ridden by another site's form
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


def json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="Send a JSON object (Content-Type: application/json).")
    return data


@bp.get("/health")
def health() -> Any:
    """The version, and whether the database answers (no login: for monitors)."""
    try:
        db.session.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:  # report, never raise: a monitor wants an answer
        current_app.logger.warning("health check: database did not answer: %s", exc)
        database = "unavailable"
    status = 200 if database == "ok" else 503
    return jsonify(status="ok" if status == 200 else "degraded", version=current_app.config["FLOOR_VERSION"],
                   database=database), status


@bp.post("/hands/evaluate")
@api_role(Role.dealer)
def evaluate_hand() -> Any:
    """Evaluate five cards: category, description, and whether they open."""
    data = json_body()
    wild = data.get("wild", "bug")
    minimum = data.get("minimum", "J")
    try:
        hand = cards.parse_cards(data.get("cards", ""), count=5)
        value = hands.evaluate(hand, wild=wild)
        opens = openers.qualifies(hand, wild=wild, minimum=minimum)
    except (CardError, RulesError, ValueError, TypeError) as exc:
        return error(422, "Unprocessable hand", str(exc))
    return jsonify(
        cards=[str(c) for c in hand], wild=wild, category=value.category, description=value.describe(),
        qualifies=opens, minimum=minimum,
    )


def table_json(table: Table, state: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "id": table.id,
        "name": table.name,
        "event_id": table.event_id,
        "version": table.version,
        "profile": table.profile_name,
        "setup": table.setup,
        "state": state if state is not None else tables.state_of(table),
    }


@bp.post("/tables")
@api_role(Role.director)
def create_table() -> Any:
    """Create a table from a setup (the contract's setup object, plus ``name`` and ``event_id``)."""
    data = json_body()
    setup = data.get("setup", {k: v for k, v in data.items() if k not in ("name", "event_id")})
    if not isinstance(setup, dict):
        return error(400, "Bad request", "'setup' must be a JSON object.")
    try:
        table = tables.create_table(str(data.get("name", "Table")), setup, data.get("event_id"))
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        return error(422, "Unprocessable setup", str(exc))
    return jsonify(table_json(table)), 201


@bp.get("/tables/<int:table_id>")
@api_role(Role.dealer)
def get_table(table_id: int) -> Any:
    """A table's setup, version and state."""
    return jsonify(table_json(db.get_or_404(Table, table_id)))


@bp.get("/tables/<int:table_id>/events")
@api_role(Role.dealer)
def list_events(table_id: int) -> Any:
    """The table's log, oldest first."""
    table = db.get_or_404(Table, table_id)
    return jsonify(version=table.version, events=[entry_json(e) for e in table.log])


def entry_json(entry: LogEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        # The rules number the log from 0: a void names this index ({"type": "void", "event": index}).
        "index": entry.seq - 1,
        "event": entry.payload,
        "logged_by": entry.logged_by.username if entry.logged_by else None,
        "logged_at": entry.logged_at.isoformat(timespec="seconds") + "Z",
    }


def call_json(call: FloorCall) -> dict[str, Any]:
    """A floor call as the API shows it (a dealer's report carries the rules' proposal)."""
    return {
        "id": call.id, "table_id": call.table_id, "issue": call.issue, "seat": call.seat,
        "called_by": call.called_by.username if call.called_by else None,
        "called_at": call.called_at.isoformat(timespec="seconds") + "Z",
        "open": call.is_open, "event": call.event, "version": call.version, "proposal": call.proposal,
        "ruling_id": call.ruling_id,
    }


@bp.post("/tables/<int:table_id>/events")
@api_role(Role.dealer)
def post_event(table_id: int) -> Any:
    """Log one event: ``{"type": ..., ..., "expected_version": n}`` or ``{"event": {...}, "expected_version": n}``."""
    table = db.get_or_404(Table, table_id)
    data = json_body()
    expected = data.get("expected_version")
    event = data["event"] if isinstance(data.get("event"), dict) else {
        k: v for k, v in data.items() if k != "expected_version"}
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        return error(400, "Bad request", "'expected_version' must be a whole number.")
    kind = event.get("type")
    if kind == "false_openers" and not current_user.may(Role.floor):
        # A dealer reports false openers; the floor rules. Nothing is logged until a floor person
        # confirms the call (202: accepted for the floor, not yet done).
        if expected is not None and expected != table.version:
            return error(409, "Conflict", str(tables.StaleVersion(expected, table.version)), version=table.version)
        try:
            call = issuing.report(table, event, current_user)
        except (RulesError, ValueError) as exc:
            db.session.rollback()
            return error(422, "Refused by the rules", str(exc), version=table.version)
        return jsonify(call=call_json(call), version=table.version,
                       message="Reported to the floor: nothing is logged until a floor person confirms it."), 202
    try:
        entry, state = tables.append(table, event, current_user, expected)
    except tables.NotYours as exc:
        return error(403, "Forbidden", str(exc))
    except tables.StaleVersion as exc:
        return error(409, "Conflict", str(exc), version=exc.current)
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        return error(422, "Refused by the rules", str(exc), version=table.version)
    return jsonify(entry=entry_json(entry), **table_json(table, state)), 201
from floor import api_rulings  # noqa: E402,F401  (registers /api/rulings on bp)
