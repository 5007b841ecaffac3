"""What an idle tablet polls: ``GET /dealer/tables/<id>/live`` → ``{"version": n, "call": id | null}``.

The table's version moves with every logged event; the call is the latest open floor call at the
table (:func:`floor.dealer.panel.open_call`). When either differs from what the panel shows
(``data-version``, ``data-call``), the tablet reloads its panel: so the "floor called" banner
clears within seconds of the floor person answering or dismissing the call, which logs nothing
at the table. Two small indexed reads, where the full state (``GET /api/tables/<id>``) replays
the log.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from floor.extensions import db
from floor.models import FloorCall, Table


def latest_call_id(table_id: int) -> int | None:
    return db.session.scalars(db.select(FloorCall.id).where(
        FloorCall.table_id == table_id, FloorCall.closed_at.is_(None)).order_by(FloorCall.id.desc())).first()


def live(table_id: int) -> Any:
    table = db.get_or_404(Table, table_id)
    return jsonify(version=table.version, call=latest_call_id(table.id))


def register(bp: Any) -> None:
    bp.add_url_rule("/tables/<int:table_id>/live", view_func=live, methods=["GET"])
