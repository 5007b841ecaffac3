"""The floor overview keeps itself up to date: a small JSON answer the page polls.

``GET /floor/live`` answers ``{"stamp": ..., "calls": [{id, table, issue, seat}]}``. The stamp
changes whenever something the overview shows changes (a call opened or closed, a ruling issued or
confirmed, an event logged at any table); the page then reloads its live part, and a call it had
not seen before is announced (a banner, the row lit, the tab's title, a beep when sound is on:
``floor/static/floor-live.js``).

Polling, not server-sent events: a poll every few seconds is one small indexed query per floor
person, works behind any proxy and through the threaded development server, and needs no worker
held open per phone (the app is served by a few sync workers).
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask import jsonify
from sqlalchemy import func

from floor.banked.models import BankedCall
from floor.extensions import db
from floor.models import FloorCall, IssuedRuling, Table
from floor.players.models import ListEntry
from floor.rulings.issues import ISSUES

POLL_SECONDS = 3


def live_stamp() -> tuple[str, list[dict[str, Any]]]:
    """A short digest of what the overview shows, and the open calls of the jackpot and the banked
    tables (oldest first; a banked call's id is ``b<id>``, as its row on the page says)."""
    calls = list(db.session.scalars(db.select(FloorCall).where(FloorCall.closed_at.is_(None)).order_by(FloorCall.id)))
    banked = list(db.session.scalars(db.select(BankedCall).where(BankedCall.closed_at.is_(None))
                                     .order_by(BankedCall.id)))
    rulings = db.session.execute(db.select(func.max(IssuedRuling.id), func.count(IssuedRuling.confirmed_by_id))).one()
    tables = db.session.execute(db.select(func.count(Table.id), func.coalesce(func.sum(Table.version), 0))).one()
    listed = db.session.execute(db.select(func.count(ListEntry.id), func.count(ListEntry.called_at),
                                          func.count(ListEntry.removed_at))).one()  # the waiting lists beside the tables
    raw = f"{[c.id for c in calls]}|{[c.id for c in banked]}|{tuple(rulings)}|{tuple(tables)}|{tuple(listed)}"
    rows = [{"id": c.id, "table": c.table.label, "issue": c.issue, "seat": c.seat, "words": call_words(c)}
            for c in calls]
    rows += [{"id": f"b{c.id}", "table": c.table.name, "issue": c.issue, "seat": c.box,
              "words": f"{c.table.name}: {c.words}"} for c in banked]
    return hashlib.sha256(raw.encode()).hexdigest()[:16], rows


def call_words(call: FloorCall) -> str:
    """'Table 3 (Friday): wrong number of cards, seat 1' (the line a new call is announced with; by
    the table's label: every event numbers its tables from 1)."""
    text = f"{call.table.label}: {ISSUES.get(call.issue, call.issue).lower()}"
    return text + (f", seat {call.seat}" if call.seat is not None else "")


def register(bp: Any) -> None:
    """``GET /floor/live`` on the floor's blueprint, and ``live_stamp()`` for its templates (called
    only by the overview, so no other page pays for the query)."""
    bp.add_url_rule("/live", view_func=live, methods=["GET"])
    bp.context_processor(lambda: {"live_stamp": lambda: live_stamp()[0]})


def live() -> Any:
    """What the overview needs to know whether to reload itself, and which calls are open."""
    stamp, calls = live_stamp()
    return jsonify(stamp=stamp, poll_seconds=POLL_SECONDS, calls=calls)
