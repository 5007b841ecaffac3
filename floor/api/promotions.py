"""The promotions of the JSON API (issue 32, contract part four): ``GET /api/promotions`` and
``POST /api/promotions/<id>/award``.

``GET`` (dealers too: the tablet may tell the table what the high hand pays) answers every pool:
``{id, pool, amount, qualifier}`` (``id`` and ``pool`` the drop's pool, ``high_hand`` or
``bad_beat``: one pool per promotion for the room; ``qualifier`` in words) with ``name``,
``dropped``, ``paid`` and ``awards`` beside, and ``problems`` when its figures are withheld
(``amount`` is then null). ``POST`` (floor and director) takes ``{player,
table, deal}`` (``player``: the name as seated, or ``{"id": n}``, the player's record): 201 with
the award (the whole pool paid; ``player`` the name and ``player_id`` the record, both as the
log's seat holds them); 422 with the reason when the log does not
support it (a hand never shown, one that does not qualify, a bad beat that won); 404 for an unknown
pool or table; 409 when the pool is withheld or another award of it was recorded at that moment.
Nothing is written unless the answer is 201 (:mod:`floor.promotions`).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_login import current_user

from floor import promotions
from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import api_role, body_whole, error, json_body, unknown_fields
from floor.models import Role, Table
from floor.seals import SealBroken
from floor.witness import RolledBack
from rules import RulesError, parse


def pool_json(pool: promotions.Pool) -> dict[str, Any]:
    return {"id": pool.pool, "pool": pool.pool, "name": pool.words, "amount": None if pool.problems else pool.amount,
            "qualifier": pool.qualifier, "dropped": pool.dropped, "paid": pool.paid,
            "awards": [promotions.to_json(a) for a in pool.awards], "problems": pool.problems}


@bp.get("/promotions")
@api_role(Role.dealer)
def list_promotions() -> Any:
    """Every pool the drops fund, what it holds now and the hand it pays."""
    return jsonify([pool_json(p) for p in promotions.pools().values()])


@bp.post("/promotions/<pool>/award")
@api_role(Role.floor)
def award_promotion(pool: str) -> Any:
    """Pay the pool whole for a hand the log holds at that table and deal."""
    data = json_body()
    refused = unknown_fields(data, {"player", "table", "deal"})
    if refused is not None:
        return refused
    try:  # the name as seated, or the record: {"id": n} (as a seat and a list take a player)
        name, number = parse.player(data.get("player"), None, "award")
    except RulesError as exc:
        return error(400, "Bad request", f"{exc}: the player as seated at the table")
    player: str | dict[str, int] = {"id": number} if number is not None else name
    try:
        table_id, deal = body_whole(data, "table"), body_whole(data, "deal")
    except ValueError as exc:
        return error(400, "Bad request", str(exc))
    if table_id is None or deal is None:
        return error(400, "Bad request", "give the 'table' (its id) and the 'deal' (its number) of the hand.")
    table = db.session.get(Table, table_id)
    if table is None:
        return error(404, "Not Found", f"There is no table {table_id}.")
    try:
        row = promotions.award(pool, player, table, deal, current_user)
    except LookupError as exc:
        return error(404, "Not Found", str(exc))
    except promotions.AwardRefused as exc:
        return error(422, "Refused by the rules", str(exc))
    except (promotions.PoolWithheld, promotions.AwardRace, SealBroken, RolledBack) as exc:
        return error(409, "Conflict", str(exc))
    except (RulesError, ValueError) as exc:
        return error(409, "Conflict", f"the log of {table.name} does not replay: {exc}")
    return jsonify(promotions.to_json(row)), 201
