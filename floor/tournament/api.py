"""The tournament's JSON API (docs/contract.md, "Tournaments"), under ``/api/events``.

Roles per action (docs/contract.md, "The tournament desk"): ``GET`` for every role (the wall and
the dealers read the clock); the director creates events (their structure) and adds their tables; the floor (and
the director, whose role includes it) enters players, draws the seats, runs the clock, carries out
the balancing moves, records rebuys, add-ons and re-entries, busts players out, records recounts,
turns hand for hand on and off and settles deals: at a real desk the floor runs them. A role that may not gets 403 saying so; a move
the rules refuse gets 422 with the rules' words; nothing of the refused action is written on an
error (a desk action records first the bust-outs the log already holds, inside itself:
:func:`floor.tournament.eliminations.synced` says which actions and why).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, jsonify, request
from flask_login import current_user

from floor import tables
from floor.extensions import csrf, db
from floor.inputs import whole
from floor.jsonapi import api_role, body_text, error, json_body
from floor.models import Entry, Role, Tournament
from floor.tournament import desk, disqualification, floorwork, service
from rules import RulesError
from rules.jackpot.seating import MOST_SEATS

api = Blueprint("tournament_api", __name__, url_prefix="/api/events")
csrf.exempt(api)  # checked by hand in api_role: bearer clients need no token, session clients do


def refused(exc: Exception) -> Any:
    return error(422, "Unprocessable Entity", str(exc))


@api.post("")
@api_role(Role.director)
def create() -> Any:
    """Create an event run as a tournament: {name, structure, profile}."""
    body = json_body()
    try:
        t = service.create(body_text(body, "name"), body.get("structure"), body_text(body, "profile") or "cardroom")
    except RulesError as exc:
        return refused(exc)
    return jsonify(id=t.event_id, name=t.event.name, profile=t.event.profile, structure=t.structure), 201


@api.get("/<int:event_id>")
@api_role(Role.dealer)
def show(event_id: int) -> Any:
    """The event: its structure, tables and entries."""
    t = service.get(event_id)
    return jsonify(id=t.event_id, name=t.event.name, profile=t.event.profile, structure=t.structure,
                   tables=[{"id": x.id, "name": x.name, "seats": x.setup.get("capacity")} for x in service.event_tables(t)],
                   entries=[{"player": e.player, "player_id": e.player_id, "out": e.is_out, "rebuys": e.rebuys,
                             "add_ons": e.add_ons, "reentries": e.reentries}
                            for e in t.entries])


@api.post("/<int:event_id>/entries")
@api_role(Role.floor)
def add_entry(event_id: int) -> Any:
    """Enter a player: {player} (a name, or the record: {"id": n}). After the draw the player is
    seated at once (a late entry). A banned player is refused (422) with the reason."""
    t = service.get(event_id)
    data = json_body()
    player = data["player"] if isinstance(data.get("player"), dict) else body_text(data, "player")
    try:
        entry, seated = desk.add_entry(t, player, current_user)
    except (RulesError, tables.StaleVersion) as exc:
        db.session.rollback()
        return refused(exc)
    where = {"table": seated[0].id, "table_name": seated[0].name, "seat": seated[1]} if seated else None
    return jsonify(player=entry.player, player_id=entry.player_id, seated=where, entries=len(t.entries)), 201


@api.post("/<int:event_id>/tables")
@api_role(Role.director)
def add_table(event_id: int) -> Any:
    """Add a table to the event: {name, seats}."""
    t = service.get(event_id)
    body = json_body()
    try:
        seats = whole(body.get("seats", 8), "seats", 2, MOST_SEATS)
        table = service.add_table(t, body_text(body, "name"), seats)
    except (RulesError, ValueError, TypeError) as exc:
        return refused(exc)
    return jsonify(id=table.id, name=table.name, seats=seats), 201


@api.post("/<int:event_id>/draw")
@api_role(Role.floor)
def draw(event_id: int) -> Any:
    """Random seats for every entry (a cryptographic random source), spread evenly."""
    t = service.get(event_id)
    try:
        result = service.draw_seats(t)
    except RulesError as exc:
        return refused(exc)
    names = {x.id: x.name for x in service.event_tables(t)}
    seats = [{"player": p, "table": k, "table_name": names[k], "seat": s}
             for p, (k, s) in sorted(result.items(), key=lambda kv: (kv[1], kv[0]))]
    return jsonify(seats=seats)


@api.get("/<int:event_id>/clock")
@api_role(Role.dealer)
def clock(event_id: int) -> Any:
    """The clock and the event's figures (level, time left, players left, average stack, prize pool)."""
    return jsonify(service.summary(service.get(event_id)))


@api.post("/<int:event_id>/clock")
@api_role(Role.floor)
def move_clock(event_id: int) -> Any:
    """{action: start|pause|resume|advance|back}."""
    t = service.get(event_id)
    try:
        service.move_clock(t, body_text(json_body(), "action"), current_user)
    except RulesError as exc:
        return refused(exc)
    return jsonify(service.summary(t))


@api.get("/<int:event_id>/balance")
@api_role(Role.dealer)
def balance(event_id: int) -> Any:
    """The balancing plan: {moves, break_table, final_redraw, reason}."""
    return jsonify(floorwork.plan(service.get(event_id)).to_dict())


@api.post("/<int:event_id>/balance")
@api_role(Role.floor)
def carry_out(event_id: int) -> Any:
    """Carry out moves {moves: [{player, from_table, from_seat, to_table, to_seat}]}, in order;
    stops at the first the tables refuse (those before it stay done)."""
    t = service.get(event_id)
    moves = json_body().get("moves")
    if not isinstance(moves, list) or not moves:
        return error(400, "Bad Request", "Send {moves: [{player, from_table, from_seat, to_table, to_seat}, ...]}.")
    done = []
    for move in moves:
        try:
            done.append(floorwork.carry_out(t, move, current_user))
        except (RulesError, tables.StaleVersion) as exc:
            return error(422, "Unprocessable Entity", str(exc), done=done, plan=floorwork.plan(t).to_dict())
    return jsonify(done=done, plan=floorwork.plan(t).to_dict())


@api.post("/<int:event_id>/buys")
@api_role(Role.floor)
def buy(event_id: int) -> Any:
    """A rebuy or an add-on: {player, kind: rebuy|add_on}."""
    t = service.get(event_id)
    body = json_body()
    entry = service.entry_named(t, body_text(body, "player"))
    if entry is None:
        return error(404, "Not Found", f"{body.get('player')!r} has not entered this event")
    try:
        done = floorwork.buy(t, entry, body_text(body, "kind"), current_user)
    except (RulesError, tables.StaleVersion) as exc:
        return refused(exc)
    return jsonify(done=done, prize_pool=service.pool(t)), 201


@api.get("/<int:event_id>/results")
@api_role(Role.dealer)
def results(event_id: int) -> Any:
    """[{place, player, prize}] best first; players still in have place and prize null."""
    t = service.get(event_id)
    return jsonify(service.results(t))


@api.get("/<int:event_id>/chips")
@api_role(Role.dealer)
def chips(event_id: int) -> Any:
    """[{player, table, seat, stack}] across all the event's tables, biggest first."""
    return jsonify(service.chip_counts(service.get(event_id)))


# --------------------------------------------------------------------------- the desk (issue 21)


@api.post("/<int:event_id>/eliminate")
@api_role(Role.floor)
def eliminate(event_id: int) -> Any:
    """A manual bust-out {player, reason?, disqualified?}: a player who leaves or is disqualified; the
    place at once. ``disqualified: true`` (a reason required) keeps the player out of the event: no
    rebuy, add-on or entry while it stands (422 naming who, when and why); the undo lifts it."""
    disqualified = json_body().get("disqualified", False)
    if not isinstance(disqualified, bool):
        return error(400, "Bad Request", "disqualified is true or false")
    return _player_at_desk(event_id, lambda t, player, reason, user: desk.eliminate(t, player, reason, user,
                                                                                     disqualified=disqualified))


@api.post("/<int:event_id>/reinstate")
@api_role(Role.floor)
def reinstate(event_id: int) -> Any:
    """Undo the latest manual bust-out {player, reason?} while nobody has been busted since: the
    player back in the seat left with the chips, the place given back (issue 33)."""
    return _player_at_desk(event_id, desk.reinstate)


@api.post("/<int:event_id>/disqualify")
@api_role(Role.floor)
def disqualify(event_id: int) -> Any:
    """Disqualify a player already out {player, reason}: no rebuy, add-on or entry in the event while
    it stands; the place stays (docs/tournament.md, "Disqualification")."""
    return _player_at_desk(event_id, disqualification.disqualify)


@api.post("/<int:event_id>/lift_disqualification")
@api_role(Role.floor)
def lift_disqualification(event_id: int) -> Any:
    """Lift a disqualification that stands {player, reason}: the player may buy in again as anyone."""
    return _player_at_desk(event_id, disqualification.lift_disqualification)


def _player_at_desk(event_id: int, act: Callable[[Tournament, str, str, Any], Entry]) -> Any:
    """One desk action on a player {player, reason?}: 201 with the player's results row, or the refusal."""
    t = service.get(event_id)
    body = json_body()
    try:
        entry = act(t, body_text(body, "player"), body_text(body, "reason"), current_user)
    except (RulesError, tables.StaleVersion) as exc:
        return refused(exc)
    row = next(r for r in service.results(t) if r["player"] == entry.player)
    return jsonify(row), 201


@api.post("/<int:event_id>/counts")
@api_role(Role.floor)
def counts(event_id: int) -> Any:
    """A recount by the staff {player, stack, reason}: a difference is logged on the player's table
    as a floor correction against the house (who, why)."""
    t = service.get(event_id)
    body = json_body()
    try:
        done = desk.recount(t, body_text(body, "player"), body.get("stack"), body_text(body, "reason"),
                            current_user)
    except (RulesError, tables.StaleVersion) as exc:
        return refused(exc)
    return jsonify(done), 201


@api.post("/<int:event_id>/hand_for_hand")
@api_role(Role.floor)
def hand_for_hand(event_id: int) -> Any:
    """{on: bool}: hand for hand on (the clock paused; tables deal together) or off."""
    t = service.get(event_id)
    on = json_body().get("on")
    if not isinstance(on, bool):
        return error(400, "Bad Request", "Send {on: true} or {on: false}.")
    try:
        desk.set_hand_for_hand(t, on, current_user)
    except RulesError as exc:
        return refused(exc)
    return jsonify(on=service.hand_for_hand_on(t), clock=service.summary(t))  # as it stands after the action's sync


@api.get("/<int:event_id>/chop")
@api_role(Role.floor)
def chop(event_id: int) -> Any:
    """?method=chip|icm&bounties=kept|shared: [{player, stack, prize, bounty, bounties_won}] for the players
    left; the prizes sum to what is left to pay, the bounties to those not yet won (docs/money.md)."""
    t = service.get(event_id)
    try:
        return jsonify(desk.offer(t, request.args.get("method", "icm"), request.args.get("bounties", "kept")))
    except RulesError as exc:
        return refused(exc)


@api.post("/<int:event_id>/chop")
@api_role(Role.floor)
def settle(event_id: int) -> Any:
    """{method: chip|icm|custom, agreed: [player, ...], prizes?: {player: amount}, bounties?: kept|shared|
    {player: amount}, seen?: {player: stack}}: every player left agrees (``seen``: the chips on the sheet
    they signed; refused if they changed since)."""
    t = service.get(event_id)
    body = json_body()
    try:
        rows = desk.settle(t, body_text(body, "method"), body.get("agreed"), body.get("prizes"), current_user,
                           bounties=body.get("bounties"), seen=body.get("seen"))
    except RulesError as exc:
        return refused(exc)
    return jsonify(rows), 201


@api.post("/<int:event_id>/color_up")
@api_role(Role.floor)
def color_up(event_id: int) -> Any:
    """Run the chip race the structure's ``color_up`` has due now, at every table (between deals)."""
    t = service.get(event_id)
    try:
        report = desk.color_up(t, current_user)
    except (RulesError, tables.StaleVersion) as exc:
        return refused(exc)
    return jsonify(report), 201


@api.get("/<int:event_id>/bounties")
@api_role(Role.dealer)
def bounties(event_id: int) -> Any:
    """[{player, winner, amount, table, table_id, hand}]: each bounty paid and the hand that paid it."""
    return jsonify(service.bounty_rows(service.get(event_id)))
