"""Logging a posted event at a table, and the JSON shapes of a table, a log entry and a floor call.

The one implementation of a posted event (:func:`log_event`), for the JSON API's
``POST /api/tables/<id>/events`` (:mod:`floor.api.tables`) and the dealer's tablet's tap
(``POST /dealer/tables/<id>/taps``, :mod:`floor.dealer.taps`, which adds its panel to the answer).
It answers with a body and a status, never a response: each caller sends it as it sends its answers.
The log itself is written by :mod:`floor.tables` (the one place that appends).
"""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask_login import current_user
from sqlalchemy.exc import IntegrityError

from floor import tables, tapids
from floor.extensions import db
from floor.jsonapi import problem
from floor.localtime import utc_text
from floor.models import FloorCall, LogEntry, Role, Table
from floor.rulings import issuing
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
        "logged_at": utc_text(entry.logged_at),
    }


def call_json(call: FloorCall) -> dict[str, Any]:
    """A floor call as the API shows it (a dealer's report carries the rules' proposal)."""
    return {
        "id": call.id, "table_id": call.table_id, "issue": call.issue, "seat": call.seat,
        "called_by": call.called_by.username if call.called_by else None,
        "called_at": utc_text(call.called_at),
        "open": call.is_open, "event": call.event, "version": call.version, "proposal": call.proposal,
        "ruling_id": call.ruling_id,
    }


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
    event = tapids.strip(data["event"] if isinstance(data.get("event"), dict) else {
        k: v for k, v in data.items() if k not in ("expected_version", "events")})
    # several events as one tap (a deal thrown in: the passes of every seat still to speak),
    # logged together or not at all
    several = data.get("events")
    if several is not None and (not isinstance(several, list) or not all(isinstance(e, dict) for e in several)):
        return problem(400, "Bad request", "'events' must be a list of events (JSON objects).")
    if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
        return problem(400, "Bad request", "'expected_version' must be a whole number.")
    try:
        tap_id = tapids.read(data)
    except ValueError as exc:
        return problem(400, "Bad request", str(exc))
    # a tap sent again (DESIGN part four): answered with what it did the first time, whatever the
    # table's version is now, before any other check
    again = sent_before(table, tap_id)
    if again is not None:
        return again
    kind = event.get("type")
    user = current_user._get_current_object()  # the User itself: the proxy costs a lookup per use
    if several is not None:
        return log_several(table, [tapids.strip(e) for e in several], user, expected, tap_id)
    if kind == "false_openers" and not user.may(Role.floor):
        # A dealer reports false openers; the floor rules. Nothing is logged until a floor person
        # confirms the call (202: accepted for the floor, not yet done).
        if expected is not None and expected != table.version:
            return stale(tables.StaleVersion(expected, table.version))
        try:
            call = issuing.report(table, event, user, tap_id=tap_id)
        except IntegrityError:  # the same tap, posted twice at once: the other post made the call
            db.session.rollback()
            return sent_before(table, tap_id) or problem(409, "Conflict", "the report was not saved: tap again.")
        except (RulesError, ValueError) as exc:
            db.session.rollback()
            return problem(422, "Refused by the rules", str(exc), version=table.version)
        return {"call": call_json(call), "version": table.version,
                "message": "Reported to the floor: nothing is logged until a floor person confirms it."}, 202
    return appended(table, [event], user, expected, tap_id)


def log_several(table: Table, events: list[dict[str, Any]], user: Any, expected: int | None,
                tap_id: str | None) -> tuple[dict[str, Any], int]:
    """Log ``events`` as one tap (:func:`floor.tables.append_all`): 201 with the last entry and all of
    them, or the first refusal, and nothing logged. The floor's word is not logged this way."""
    if any(e.get("type") in tables.FLOOR_EVENTS or e.get("type") == "false_openers" for e in events):
        return problem(400, "Bad request", "the floor's word (a ruling, false openers) is logged one event at a time.")
    return appended(table, events, user, expected, tap_id)


def appended(table: Table, events: list[dict[str, Any]], user: Any, expected: int | None,
             tap_id: str | None) -> tuple[dict[str, Any], int]:
    """Log ``events`` (one or more, all or none) and answer: 201 with the (last) entry, and each of
    them when several; 403, 409 or 422 as :func:`log_event` says."""
    try:
        for event in events:
            tables.check_posted(table, event, user)
        logged = tables.append_all(table, events, user, expected, fresh=True, tap_id=tap_id)
    except tables.NotYours as exc:
        return problem(403, "Forbidden", str(exc))
    except tables.StaleVersion as exc:
        # the same tap posted twice at once: the other post logged it (the log's unique tap id)
        return sent_before(table, tap_id) or stale(exc)
    except (RulesError, ValueError) as exc:
        db.session.rollback()
        return problem(422, "Refused by the rules", str(exc), version=table.version)
    entry, state = logged[-1]
    # The version answered is that of the state carried (issue 20). A hook may have logged after
    # this event (the tournament clears a busted player's seat): then the table is answered as it
    # is now, its state and version read together.
    now = (state.to_dict(), entry.seq) if table.version == entry.seq else (None, None)
    several = {"entries": [entry_json(e) for e, _ in logged]} if len(logged) > 1 else {}
    return {"entry": entry_json(entry), **several, **table_json(table, *now)}, 201


def sent_before(table: Table, tap_id: str | None) -> tuple[dict[str, Any], int] | None:
    """The answer to a tap sent again (:mod:`floor.tapids`): 200 with the entry it logged the first
    time and the table as it is now, or with the report it made for the floor; None for a new tap."""
    entry = tapids.find(LogEntry, table.id, tap_id)
    if entry is not None:
        return {"entry": entry_json(entry), **table_json(table), "repeated": True,
                "message": f"Logged once, as entry {entry.seq}: this tap was sent again and is not logged twice."}, 200
    call = tapids.find(FloorCall, table.id, tap_id)
    if call is not None:
        return {"call": call_json(call), "version": table.version, "repeated": True,
                "message": "Reported to the floor once: this tap was sent again and is not reported twice."}, 200
    return None


def stale(exc: tables.StaleVersion) -> tuple[dict[str, Any], int]:
    """409: someone else logged first."""
    return problem(409, "Conflict", str(exc), version=exc.current)
