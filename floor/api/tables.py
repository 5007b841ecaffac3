"""Tables in the JSON API: create one, read it, log an event, and read its day a page at a time.

- ``POST /api/tables`` (director): a table from the contract's setup, plus ``name`` and ``event_id``.
- ``GET /api/tables/<id>`` (dealer): its setup, version and state. The state does not grow with
  the day: the log and the rulings have their own pages below. Nor does it grow with a pot carried
  over many deals: ``state.rulings`` holds the rulings of the deal on the table (between deals, of
  the deal just finished), ``state.rulings_in_pot`` counts the pot's rulings so far, and
  ``rulings_url`` is the page that lists them all.
- ``POST /api/tables/<id>/events`` (dealer): log one event (see :func:`post_event`); JSON only,
  ``?panel=1`` is ignored (the tablet's tap, with its panel, is ``POST /dealer/tables/<id>/taps``).
- ``GET /api/tables/<id>/events?after=<seq>&limit=<n>`` (dealer): the log, oldest first, the
  entries after ``seq`` (default 0: from the start), at most ``limit`` (default 500, at most
  1000); ``next`` is the ``after`` of the following page, or null on the last one.
- ``GET /api/tables/<id>/rulings?before=<id>&limit=<n>`` (dealer): the table's issued rulings,
  newest first, those with an id below ``before`` (default: from the newest), at most ``limit``
  (default 50, at most 200); ``next`` is the ``before`` of the following page, or null.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for
from flask_login import current_user

from floor import tables
from floor.api.common import BadQuery, api_role, bp, error, json_body, problem, query_int
from floor.extensions import db
from floor.models import FloorCall, LogEntry, Role, Table
from floor.rulings import issuing, stored
from rules import RulesError


def table_json(table: Table, state: dict[str, Any] | None = None, version: int | None = None) -> dict[str, Any]:
    """The table as the API shows it. ``version`` is that of the state carried: after an append it is
    the new entry's (the table row, read again after the commit, may already be further on when
    another device logged in between)."""
    return {
        "id": table.id,
        "name": table.name,
        "event_id": table.event_id,
        "version": table.version if version is None else version,
        "profile": table.profile_name,
        "setup": table.setup,
        "state": state if state is not None else tables.state_of(table),
        # every ruling of the table, newest first (the state carries the current deal's only)
        "rulings_url": url_for("api.list_rulings", table_id=table.id),
    }


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


@bp.post("/tables")
@api_role(Role.director)
def create_table() -> Any:
    """Create a table from a setup (the contract's setup object, plus ``name`` and ``event_id``)."""
    data = json_body()
    setup = data.get("setup", {k: v for k, v in data.items() if k not in ("name", "event_id")})
    if not isinstance(setup, dict):
        return error(400, "Bad request", "'setup' must be a JSON object.")
    if not isinstance(data.get("name", "Table"), str):
        return error(400, "Bad request", "'name' must be text.")
    try:
        table = tables.create_table(data.get("name", "Table"), setup, data.get("event_id"))
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
    """The table's log a page at a time, oldest first: ``?after=<seq>&limit=<n>``; ``next`` cursor."""
    table = db.get_or_404(Table, table_id)
    try:
        after = query_int("after", 0, 0, 2**63 - 1) or 0
        limit = query_int("limit", tables.LOG_PAGE, 1, tables.LOG_PAGE_MAX) or tables.LOG_PAGE
    except BadQuery as exc:
        return error(400, "Bad request", str(exc))
    entries, cursor = tables.log_page(table, after, limit)
    return jsonify(version=table.version, events=[entry_json(e) for e in entries], next=cursor, limit=limit)


@bp.get("/tables/<int:table_id>/rulings")
@api_role(Role.dealer)
def list_rulings(table_id: int) -> Any:
    """The table's issued rulings a page at a time, newest first: ``?before=<id>&limit=<n>``; ``next`` cursor."""
    table = db.get_or_404(Table, table_id)
    try:
        before = query_int("before", None, 1, 2**63 - 1)
        limit = query_int("limit", tables.RULINGS_PAGE, 1, tables.RULINGS_PAGE_MAX) or tables.RULINGS_PAGE
    except BadQuery as exc:
        return error(400, "Bad request", str(exc))
    rows, cursor = tables.rulings_page(table, before, limit)
    return jsonify(table_id=table.id, rulings=[stored.to_json(r) for r in rows], next=cursor, limit=limit)


@bp.post("/tables/<int:table_id>/events")
@api_role(Role.dealer)
def post_event(table_id: int) -> Any:
    """Log one event: ``{"type": ..., ..., "expected_version": n}`` or ``{"event": {...}, "expected_version": n}``.

    Answers 201 with the entry (the canonical event the log stored) and the table; 202 for a
    dealer's report of false openers (nothing logged: a floor call waits for a floor person); 409
    for a stale ``expected_version``; 422 when the rules refuse the event; 403 for an event that is
    the floor's word (:func:`log_event`, which the dealer's tablet calls too).

    The answer is JSON only. The dealer's panel comes with a tap from the tablet's own endpoint,
    ``POST /dealer/tables/<id>/taps`` (:mod:`floor.dealer.taps`); a ``?panel=1`` here, which asked
    for it before, is ignored: the event is logged and answered as without it, so a tablet page
    loaded before the change keeps working (its script fetches the panel when an answer has none).
    """
    table = db.get_or_404(Table, table_id)
    body, status = log_event(table, json_body())
    return jsonify(body), status


def log_event(table: Table, data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Log one posted event at ``table`` as ``current_user``: the answer's body and status.

    The one implementation of a posted event, for the JSON API (:func:`post_event`) and the dealer's
    tablet (``POST /dealer/tables/<id>/taps``, which adds its panel): the body is the event alone or
    ``{"event": {...}}``, with ``expected_version``. Who may log it is checked per event type:
    a dealer's false openers is a report for the floor (202, nothing logged); the floor's word
    from a dealer is 403 (:class:`floor.tables.NotYours`); a stale version 409; the rules' refusal
    422 with their message, which names the rule.
    """
    expected = data.get("expected_version")
    event = data["event"] if isinstance(data.get("event"), dict) else {
        k: v for k, v in data.items() if k != "expected_version"}
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        return problem(400, "Bad request", "'expected_version' must be a whole number.")
    kind = event.get("type")
    user = current_user._get_current_object()  # the User itself: the proxy costs a lookup per use
    if kind == "false_openers" and not user.may(Role.floor):
        # A dealer reports false openers; the floor rules. Nothing is logged until a floor person
        # confirms the call (202: accepted for the floor, not yet done).
        if expected is not None and expected != table.version:
            return stale(tables.StaleVersion(expected, table.version))
        try:
            call = issuing.report(table, event, user)
        except (RulesError, ValueError) as exc:
            db.session.rollback()
            return problem(422, "Refused by the rules", str(exc), version=table.version)
        return {"call": call_json(call), "version": table.version,
                "message": "Reported to the floor: nothing is logged until a floor person confirms it."}, 202
    try:
        entry, state = tables.append(table, event, user, expected, fresh=True)
    except tables.NotYours as exc:
        return problem(403, "Forbidden", str(exc))
    except tables.StaleVersion as exc:
        return stale(exc)
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        return problem(422, "Refused by the rules", str(exc), version=table.version)
    # The version answered is that of the state carried (issue 20). A hook may have logged after
    # this event (the tournament clears a busted player's seat): then the table is answered as it
    # is now, its state and version read together.
    now = (state.to_dict(), entry.seq) if table.version == entry.seq else (None, None)
    return {"entry": entry_json(entry), **table_json(table, *now)}, 201


def stale(exc: tables.StaleVersion) -> tuple[dict[str, Any], int]:
    """409: someone else logged first."""
    return problem(409, "Conflict", str(exc), version=exc.current)
