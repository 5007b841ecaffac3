"""Waiting lists in the JSON API (issue 31; floor and director; decisions: docs/players.md).

- ``POST /api/lists`` {game, stakes, interest?}: a new list, 201.
- ``GET /api/lists``: every list with the players waiting, first come first
  (``[{id, game, stakes, interest, players: [{player_id, name, since, called_at}]}]``).
- ``POST /api/lists/<id>/join`` {player}, ``/call`` {player}, ``/seat`` {player, table, seat, chips}
  (the ``sit`` logged at that table), ``/remove`` {player, reason: left | no_show | seated_elsewhere}.
  ``player`` is a name or ``{"id": n}``.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_login import current_user

from floor import tables
from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import api_role, error, json_body
from floor.models import Role, Table
from floor.players import cashfloor, lists
from floor.players.models import WaitingList
from rules import RulesError


def _refused(exc: Exception) -> Any:
    db.session.rollback()
    if isinstance(exc, tables.NotYours):
        return error(403, "Forbidden", str(exc))
    if isinstance(exc, tables.StaleVersion):
        return error(409, "Conflict", str(exc))
    return error(422, "Refused", str(exc))


@bp.post("/lists")
@api_role(Role.floor)
def create_list() -> Any:
    data = json_body()
    try:
        wl = lists.create(data.get("game"), data.get("stakes"), data.get("interest", False),
                          current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        return _refused(exc)
    return jsonify(lists.to_json(wl)), 201


@bp.get("/lists")
@api_role(Role.floor)
def all_lists() -> Any:
    rows = db.session.scalars(db.select(WaitingList).order_by(WaitingList.interest, WaitingList.game, WaitingList.id))
    return jsonify([lists.to_json(wl) for wl in rows])


@bp.post("/lists/<int:list_id>/<any(join, call, seat, remove):action>")
@api_role(Role.floor)
def list_action(list_id: int, action: str) -> Any:
    """join, call, seat or remove a player: the list as it is after it."""
    wl = db.get_or_404(WaitingList, list_id)
    data = json_body()
    user = current_user._get_current_object()
    player = data.get("player")
    try:
        if action == "join":
            lists.join(wl, player, user)
        elif action == "call":
            lists.call(wl, player, user)
        elif action == "remove":
            lists.remove(wl, player, data.get("reason"), user)
        else:
            table_id = data.get("table")
            known = isinstance(table_id, int) and not isinstance(table_id, bool) and 0 < table_id < 2**63
            table = db.session.get(Table, table_id) if known else None
            if table is None:
                return error(422, "Refused", f"seat: there is no table {table_id!r}")
            lists.seat(wl, player, table, data.get("seat"), data.get("chips"), user)
        db.session.commit()
    except (RulesError, ValueError, tables.NotYours, tables.StaleVersion) as exc:
        return _refused(exc)
    return jsonify(lists.to_json(wl))


def _table_named(value: Any, what: str) -> Table:
    known = isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63
    table = db.session.get(Table, value) if known else None
    if table is None:
        raise RulesError(f"{what}: there is no table {value!r}")
    return table


@bp.post("/tables/<int:table_id>/feeds")
@api_role(Role.floor)
def feeds(table_id: int) -> Any:
    """{table}: this table becomes a must-move game for that main game ({table: null}: no longer)."""
    table = db.get_or_404(Table, table_id)
    data = json_body()
    try:
        main = None if data.get("table") is None else _table_named(data.get("table"), "feeds")
        cashfloor.set_feeds(table, main, current_user._get_current_object())
        db.session.commit()
    except (RulesError, tables.NotYours) as exc:
        return _refused(exc)
    return jsonify({"table": table.id, "feeds": main.id if main else None})


@bp.get("/tables/<int:table_id>/seat_changes")
@api_role(Role.floor)
def seat_changes(table_id: int) -> Any:
    """The table's seat-change requests still waiting, oldest first."""
    table = db.get_or_404(Table, table_id)
    return jsonify([cashfloor.seat_change_json(r) for r in cashfloor.pending(table)])


@bp.post("/tables/<int:table_id>/seat_changes")
@api_role(Role.floor)
def ask_seat_change(table_id: int) -> Any:
    """{player, seat?}: a seated player asks for that seat, or any other; honoured in order when a seat opens."""
    table = db.get_or_404(Table, table_id)
    data = json_body()
    try:
        request = cashfloor.ask_seat_change(table, data.get("player"), data.get("seat"), current_user._get_current_object())
        db.session.commit()
    except (RulesError, ValueError, tables.NotYours) as exc:
        return _refused(exc)
    return jsonify(cashfloor.seat_change_json(request)), 201


@bp.post("/tables/<int:table_id>/seat_changes/<int:request_id>/cancel")
@api_role(Role.floor)
def cancel_seat_change(table_id: int, request_id: int) -> Any:
    """The player no longer wants another seat: the request, still waiting, ends ``cancelled``."""
    table = db.get_or_404(Table, table_id)
    try:
        request = cashfloor.cancel_seat_change(table, request_id, current_user._get_current_object())
        db.session.commit()
    except RulesError as exc:
        return _refused(exc)
    return jsonify(cashfloor.seat_change_json(request))
