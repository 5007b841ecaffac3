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

from flask import jsonify
from flask_login import current_user

from floor import rotation, tables
from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import BadQuery, answer, api_role, error, json_body, query_int
from floor.models import IssuedRuling, Role, Table
from floor.posting import entry_json, log_event, table_json
from floor.rulings import stored
from rules import RulesError


#: ``GET /api/tables/<id>/events``: entries per page when the client names no limit, and at most.
LOG_PAGE, LOG_PAGE_MAX = 500, 1000
#: ``GET /api/tables/<id>/rulings``: rulings per page when the client names no limit, and at most.
RULINGS_PAGE, RULINGS_PAGE_MAX = 50, 200


def rulings_page(table: Table, before: int | None = None,
                 limit: int = RULINGS_PAGE) -> tuple[list[IssuedRuling], int | None]:
    """The table's issued rulings, newest first, with an id below ``before`` (all when None), at
    most ``limit`` of them, and the cursor of the next page (the id to pass as ``before``)."""
    query = db.select(IssuedRuling).where(IssuedRuling.table_id == table.id)
    if before is not None:
        query = query.where(IssuedRuling.id < before)
    issued = list(db.session.scalars(query.order_by(IssuedRuling.id.desc()).limit(limit + 1)))
    more = len(issued) > limit
    issued = issued[:limit]
    return issued, (issued[-1].id if more else None)


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
        table = tables.create_table(data.get("name", "Table"), setup, data.get("event_id"), current_user)
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
        limit = query_int("limit", LOG_PAGE, 1, LOG_PAGE_MAX) or LOG_PAGE
    except BadQuery as exc:
        return error(400, "Bad request", str(exc))
    entries, cursor = tables.log_page(table, after, limit)  # each entry checked against its seal
    return jsonify(version=table.version, events=[entry_json(e) for e in entries], next=cursor, limit=limit)


@bp.get("/tables/<int:table_id>/rulings")
@api_role(Role.dealer)
def list_rulings(table_id: int) -> Any:
    """The table's issued rulings a page at a time, newest first: ``?before=<id>&limit=<n>``; ``next`` cursor."""
    table = db.get_or_404(Table, table_id)
    try:
        before = query_int("before", None, 1, 2**63 - 1)
        limit = query_int("limit", RULINGS_PAGE, 1, RULINGS_PAGE_MAX) or RULINGS_PAGE
    except BadQuery as exc:
        return error(400, "Bad request", str(exc))
    rows, cursor = rulings_page(table, before, limit)
    return jsonify(table_id=table.id, rulings=[stored.to_json(r) for r in rows], next=cursor, limit=limit)


@bp.post("/tables/<int:table_id>/events")
@api_role(Role.dealer)
def post_event(table_id: int) -> Any:
    """Log one event: ``{"type": ..., ..., "expected_version": n}`` or ``{"event": {...}, "expected_version": n}``.

    Answers 201 with the entry (the canonical event the log stored) and the table; 202 for a
    dealer's report of false openers (nothing logged: a floor call waits for a floor person); 409
    for a stale ``expected_version``; 422 when the rules refuse the event; 403 for an event that is
    the floor's word (:func:`floor.posting.log_event`, which the dealer's tablet calls too).

    The answer is JSON only. The dealer's panel comes with a tap from the tablet's own endpoint,
    ``POST /dealer/tables/<id>/taps`` (:mod:`floor.dealer.taps`); a ``?panel=1`` here, which asked
    for it before, is ignored: the event is logged and answered as without it, so a tablet page
    loaded before the change keeps working (its script fetches the panel when an answer has none).
    """
    # read with the rotation check's question, in one statement: floor.rotation.table_to_tap
    table = rotation.table_to_tap(table_id, current_user._get_current_object())
    body, status = log_event(table, json_body())
    return answer(body, status)
