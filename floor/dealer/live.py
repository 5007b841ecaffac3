"""What an idle tablet polls: ``GET /dealer/tables/<id>/live`` → ``{"version": n, "call": id | null}``.

The table's version moves with every logged event; the call is the latest open floor call at the
table (:func:`floor.dealer.panel.open_call`). When either differs from what the panel shows
(``data-version``, ``data-call``), the tablet reloads its panel: so the "floor called" banner
clears within seconds of the floor person answering or dismissing the call, which logs nothing
at the table. One indexed read of both (the call as a subquery of the table's row), where the full
state (``GET /api/tables/<id>``) replays the log; every tablet of the room asks this every few
seconds.
"""

from __future__ import annotations

from typing import Any

from flask import abort, jsonify

from floor.extensions import db
from floor.models import FloorCall, Table


def live(table_id: int) -> Any:
    """The table's version and its latest open floor call, in one read."""
    call = (db.select(FloorCall.id).where(FloorCall.table_id == Table.id, FloorCall.closed_at.is_(None))
            .order_by(FloorCall.id.desc()).limit(1).scalar_subquery())
    row = db.session.execute(db.select(Table.version, call).where(Table.id == table_id)).first()
    if row is None:
        abort(404)
    version, call_id = row
    return jsonify(version=version, call=call_id)


def register(bp: Any) -> None:
    bp.add_url_rule("/tables/<int:table_id>/live", view_func=live, methods=["GET"])
