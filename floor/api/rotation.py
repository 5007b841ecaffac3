"""Dealer rotation in the JSON API (issue 31; floor and director; decisions: docs/players.md,
"Dealer rotation").

- ``POST /api/rotation`` {dealers: [user], tables: [id], minutes}: a push schedule from now
  (``dealers``: any active accounts, a floor person who deals a down too),
  replacing the one in force, 201. ``POST /api/rotation/end``: the room no longer rotates.
- ``GET /api/rotation``: ``[{dealer, table, from, until}]``, this round and the next (also for
  dealers: each reads where they go next).
- ``POST /api/rotation/assign`` {dealer, table}: the floor moves a dealer by hand, until the round ends.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_login import current_user

from floor import rotation
from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import api_role, error, json_body
from floor.models import Role, Table
from rules import RulesError


@bp.post("/rotation")
@api_role(Role.floor)
def make_rotation() -> Any:
    data = json_body()
    try:
        rotation.make(data.get("dealers"), data.get("tables"), data.get("minutes"), current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return error(422, "Refused", str(exc))
    return jsonify([s.to_json() for s in rotation.slots()]), 201


@bp.post("/rotation/end")
@api_role(Role.floor)
def end_rotation() -> Any:
    running = rotation.in_force()
    if running is not None:
        rotation.end(running)
        db.session.commit()
    return jsonify([])


@bp.get("/rotation")
@api_role(Role.dealer)
def get_rotation() -> Any:
    return jsonify([s.to_json() for s in rotation.slots()])


@bp.post("/rotation/assign")
@api_role(Role.floor)
def assign_dealer() -> Any:
    data = json_body()
    table_id = data.get("table")
    known = isinstance(table_id, int) and not isinstance(table_id, bool) and 0 < table_id < 2**63
    table = db.session.get(Table, table_id) if known else None
    if table is None:
        return error(422, "Refused", f"assign: there is no table {table_id!r}")
    try:
        rotation.assign(data.get("dealer"), table, current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return error(422, "Refused", str(exc))
    return jsonify([s.to_json() for s in rotation.slots()])
