"""Players in the JSON API (issue 31; the decisions: docs/players.md).

- ``POST /api/players`` (floor) {name, card?, note?}: a new record, 201.
- ``GET /api/players?q=`` (dealer): players whose name contains ``q`` or whose card number
  begins with it (at most 20, by name); the tablet's and the desk's picker read it.
- ``GET /api/players/<id>`` (dealer): the record and the player's night (:mod:`floor.players.night`).
- ``POST /api/players/<id>/ban`` (director) {reason, until?}: ``until`` a date or a date and time
  in the room's zone (ISO 8601; an offset is honoured); ``DELETE`` lifts the ban.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import jsonify, request
from flask_login import current_user
from sqlalchemy.exc import IntegrityError

from floor.api.common import bp
from floor.extensions import db
from floor.jsonapi import api_role, error, json_body, unknown_fields
from floor.localtime import zone
from floor.models import Role
from floor.players import night, service
from floor.players.models import Player
from rules import RulesError


def _ban_end(value: Any) -> datetime | None:
    """``until`` as stored (UTC, naive): a date alone ends the ban as that day begins (00:00, the
    room's time); a time without an offset is the room's."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError("'until' is a date (2026-12-31) or a date and time (2026-12-31T18:00)")
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"'until': {value!r:.40} is not a date (2026-12-31) or a date and time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone())
    return moment.astimezone(UTC).replace(tzinfo=None)


@bp.post("/players")
@api_role(Role.floor)
def create_player() -> Any:
    """A new player record: {name, card?, note?}."""
    data = json_body()
    bad = unknown_fields(data, {"name", "card", "note"})
    if bad is not None:
        return bad
    try:
        player = service.create(data.get("name"), data.get("card"), data.get("note") or "", current_user)
        db.session.commit()
    except RulesError as exc:
        db.session.rollback()
        return error(422, "Unprocessable player", str(exc))
    except IntegrityError:  # the same card number, created at once from two devices
        db.session.rollback()
        return error(409, "Conflict", f"player: card {data.get('card')} is already another player's")
    return jsonify(service.to_json(player)), 201


@bp.get("/players")
@api_role(Role.dealer)
def find_players() -> Any:
    """Players by name or card number: ``?q=``."""
    return jsonify([service.to_json(p) for p in service.find(request.args.get("q", ""))])


@bp.get("/players/<int:player_id>")
@api_role(Role.dealer)
def show_player(player_id: int) -> Any:
    """The record and the player's night."""
    player = db.get_or_404(Player, player_id)
    return jsonify({**service.to_json(player), "night": night.night(player)})


@bp.route("/players/<int:player_id>/ban", methods=["POST", "DELETE"])
@api_role(Role.director)
def ban_player(player_id: int) -> Any:
    """Ban (POST {reason, until?}) or lift the ban (DELETE): the director's."""
    player = db.get_or_404(Player, player_id)
    user = current_user._get_current_object()
    if request.method == "DELETE":
        service.lift(player, user)
    else:
        data = json_body()
        bad = unknown_fields(data, {"reason", "until"})
        if bad is not None:
            return bad
        try:
            service.ban(player, data.get("reason"), _ban_end(data.get("until")), user)
        except (RulesError, ValueError) as exc:
            db.session.rollback()
            return error(422, "Unprocessable ban", str(exc))
    db.session.commit()
    return jsonify(service.to_json(player))
