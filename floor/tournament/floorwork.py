"""The tournament at the tables: the level's stakes written into each deal, eliminations recorded
when a pot is won, the balancing plan and the floor carrying out its moves, rebuys and add-ons.

Two hooks of :mod:`floor.tables` (the one place that appends) tie the tournament to the hand log:

* :func:`amend_deal`: a ``deal`` at a tournament's table carries the stakes of the level in
  force when they differ from the table's (the event says ``ante``, ``small_bet``, ``big_bet``), so
  a replay of the log never needs the clock.
* :func:`after_append`: once an event that wins a pot is committed, every entry at that table with
  no chips and no claim is out, at once: the time, the table, the hand (its deal's log number) and
  the chips the player began that hand with (to place two players out in one hand); and once any
  hand is over (a pot won or passed out), hand for hand ends if the bubble has burst
  (:func:`floor.tournament.eliminations.record_eliminations`; a log written without this hook is
  caught by the desk's next action: :func:`floor.tournament.eliminations.synced`).

A busted player leaves the seat at once (issue 20): once the player is out, a ``leave`` clears the
seat, so the seating list and the tablet show no "0" stack nor a rebuy menu at the table. Where
rebuys are allowed, a player who rebuys is sat back in the seat left when it is still free (as a
card room keeps the seat during the rebuy period), else where the balance needs one; a re-entry is
a new entry and gets a new random seat (:func:`floor.tournament.desk.add_entry`).

Bounties: the player's bounty goes to whoever won the pot that busted them; where the hand paid
several players (a split pot, side pots), to the one who won the most chips in it, shared equally
when they won as much (the odd unit to the lower seat). A bounty nobody won (a manual bust-out)
goes to the champion with their own.

Hand for hand: players out in the same hand-for-hand hand at different tables share one place
group (:class:`rules.tournament.Bust` ``shared``): they tie, as the project's house rule.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from floor import tables
from floor.extensions import db
from floor.inputs import BadNumber, whole
from floor.models import Entry, LogEntry, Role, Table, Tournament, User
from floor.tournament import desk, eliminations, service
from rules import IllegalAction, RulesError, jackpot
from rules.jackpot.seating import MOST_SEATS
from rules.tournament import Plan, late_seat

STAKES = ("ante", "small_bet", "big_bet")


#: What the desk alone does at a tournament's table (issue 31), by event type: whoever sits there,
#: with what chips, and who leaves, is the tournament's record (entries, the draw, late entries and
#: re-entries, balancing and moves, rebuys in their levels, the add-on, bust-outs).
DESK_ONLY = {
    "sit": "seats its players (the draw, late entries, re-entries, balancing)",
    "add_chips": "sells its rebuys and add-on, in the levels the structure allows them",
    "leave": "takes its players off (bust-outs, moves, balancing)",
}


def desk_only(table: Table, event: dict[str, Any], user: User | None) -> None:
    """Refuse a posted ``sit``, ``add_chips`` or ``leave`` at a tournament's table, naming the desk
    (a check of :data:`floor.tables.POSTED_CHECKS`): from a dealer 403 (not theirs); from the floor
    or a director 422, since the desk's own pages do it with the tournament's record kept (a sit
    typed at a table makes chips no entry bought: issue 31's "Intruder" with 99,999)."""
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in DESK_ONLY or table.event_id is None:
        return
    t = service.of_table(table)
    if t is None:
        return
    message = (f"{kind.replace('_', ' ')}: {table.name} is a table of the tournament {t.event.name}, "
               f"seated by the tournament desk only: the desk {DESK_ONLY[kind]}")
    if user is not None and not user.may(Role.floor):
        raise tables.NotYours(message + "; call the floor")
    raise IllegalAction(message + ": use the tournament desk's page or its API (/api/events/...)")


def amend_deal(table: Table, event: dict[str, Any]) -> dict[str, Any]:
    """Write the level in force into a ``deal`` (only what differs from the table's stakes); refuse
    a deal during a break."""
    if event.get("type") != "deal" or table.event_id is None:
        return event
    t = service.of_table(table)
    if t is None:
        return event
    service.check_not_on_break(t)
    desk.check_hand_for_hand(t, table)  # refuses the deal while another table plays the hand before
    if any(event.get(k) is not None for k in STAKES):
        return event
    level = service.clock(t).stakes  # before the start: the first level
    stakes = tables.table_state(table).stakes  # typed: no plain-data copy of the table on a deal's tap
    change = {k: v for k, v in level.stakes.items() if stakes[k] != v}
    return {**event, **change} if change else event


def after_append(table: Table, entry: LogEntry, state: jackpot.TableState) -> None:
    """Record eliminations once a pot is won; once a hand is over, however it ended (a pot won, or
    nobody opened and the antes stay for the next deal), end hand for hand if the bubble has burst
    (never failing the dealer's tap: it is logged already)."""
    if table.event_id is None or state.phase != "between_deals":
        return
    try:
        t = service.of_table(table)
        if t is not None:
            out = eliminations.record_eliminations(t, table, state) if state.new_pot else []
            eliminations.end_hand_for_hand_at_the_bubble(t, None)  # a hand over at the last table may end it
            if out:  # fewer players: the final table's redraw may fall due now
                eliminations.draw_final_when_due(t)
    except Exception:  # the event is committed; an elimination missed here is found by the desk's next action
        db.session.rollback()
        current_app.logger.exception("tournament: recording eliminations at table %s failed", table.id)


# --------------------------------------------------------------------------- balancing


def plan(t: Tournament) -> Plan:
    """The balancing plan now. It writes nothing (the floor's page polls it with GETs): eliminations
    are recorded when the log changes (:func:`after_append`, and every desk action:
    :func:`floor.tournament.eliminations.synced`), and the final table's redraw is drawn there
    (:func:`floor.tournament.eliminations.draw_final_when_due`); until it is, the plan says that it is due."""
    return eliminations.planned(t)[0]


def _table(t: Tournament, key: Any, what: str) -> Table:
    try:
        key = whole(key, f"move: {what}", 1)
    except BadNumber:
        raise IllegalAction(f"move: {what} is a table id, not {key!r:.40}") from None
    table = db.session.get(Table, key)
    if table is None or table.event_id != t.event_id:
        raise IllegalAction(f"move: table {key} is not a table of this event")
    return table


@eliminations.synced(after=True)
def carry_out(t: Tournament, move: dict[str, Any], user: User | None) -> str:
    """Carry out one move {player, from_table, from_seat, to_table, to_seat}: a move between tables
    is one transaction (:func:`floor.tables.move_player`), a change of seat at one table is
    ``move_seat``. A busted player's seat at the target is cleared first. Returns what was done."""
    desk.check_not_over(t, "move")
    if not isinstance(move, dict):
        raise IllegalAction("move: {player, from_table, from_seat, to_table, to_seat}")
    source, target = _table(t, move.get("from_table"), "from_table"), _table(t, move.get("to_table"), "to_table")
    try:
        from_seat, to_seat = (whole(move[k], f"move: {k}", 1, MOST_SEATS) for k in ("from_seat", "to_seat"))
    except (KeyError, BadNumber):
        raise IllegalAction("move: from_seat and to_seat are seat numbers") from None
    here = tables.table_state(source).seats.get(from_seat)
    player = str(move.get("player", ""))
    if here is None or here.player.casefold() != player.casefold():
        raise IllegalAction(f"move: {player or 'the player'} is not in seat {from_seat} at {source.name} "
                            "(the tables changed: look at the suggestions again)")
    entry = service.entry_named(t, player)
    if entry is None or entry.is_out:
        raise IllegalAction(f"move: {player} is not a player still in this event")
    if source.id != target.id and here.put:
        # leaving a table gives up a claim on its carried pot (rules.jackpot.seating): wait for the pot to be won
        raise IllegalAction(f"move: {here.player} has {here.put} chips in the pot carried at {source.name}; "
                            "move them once that pot is won")
    service.clear_seat(target, to_seat, user)
    if source.id == target.id:
        tables.append(source, {"type": "move_seat", "seat": from_seat, "to": to_seat}, user)
    else:
        tables.move_player(source, from_seat, target, to_seat, user)
    return f"{here.player} moved from {source.name} seat {from_seat} to {target.name} seat {to_seat}"


# --------------------------------------------------------------------------- rebuys and add-ons


@eliminations.synced(after=True)
def buy(t: Tournament, entry: Entry, kind: str, user: User | None) -> str:
    """A rebuy or an add-on, as the structure allows it now; the chips go to the player's stack
    (``add_chips``; a busted player who rebuys is back in, seated again where the balance needs them).
    After a deal nothing is bought: the money was shared out."""
    desk.check_not_over(t, kind.replace("_", "-"))
    service.check_not_disqualified(t, entry, kind.replace("_", "-") if kind in ("rebuy", "add_on") else "buy")
    s = service.structure(t)
    c = service.clock(t)
    level = s.playing_number(c.index) or (s.playing_number(c.index - 1) if c.index else 1) or 1
    if kind == "rebuy":
        if s.rebuy is None:
            raise IllegalAction("rebuy: this event has no rebuys")
        if level > s.rebuy.until_level:
            raise IllegalAction(f"rebuy: rebuys ended with level {s.rebuy.until_level}")
        if s.rebuy.max and entry.rebuys >= s.rebuy.max:
            raise IllegalAction(f"rebuy: {entry.player} has had the {s.rebuy.max} rebuys allowed")
        chips = s.rebuy.chips
    elif kind == "add_on":
        if s.add_on is None:
            raise IllegalAction("add-on: this event has no add-on")
        if level != s.add_on.at_level:
            raise IllegalAction(f"add-on: only during level {s.add_on.at_level} or the break after it")
        if entry.add_ons or entry.is_out:
            raise IllegalAction(f"add-on: one per player still in ({entry.player})")
        chips = s.add_on.chips
    else:
        raise IllegalAction("buy: rebuy or add_on")
    where = desk.find_seat(t, entry.player)
    seat_back: tuple[int | None, int | None] = (None, None)
    if kind == "rebuy":
        stack = where[2].stack if where else 0
        if stack > s.starting_chips:
            raise IllegalAction(f"rebuy: {entry.player} has {stack} chips, more than the {s.starting_chips} to start")
        entry.rebuys += 1
        seat_back = (entry.out_table_id, entry.out_seat)
        entry.back_in()
    else:
        entry.add_ons += 1
    if where is None:
        table, seat = _seat_to_rebuy(t, seat_back)
        tables.append(table, {"type": "sit", "seat": seat, "player": entry.player, "player_id": entry.player_id,
                          "chips": chips}, user)
        return f"{entry.player}: {kind.replace('_', '-')} of {chips}, seated at {table.name} seat {seat}"
    tables.append(where[0], {"type": "add_chips", "seat": where[1], "amount": chips}, user)
    return f"{entry.player}: {kind.replace('_', '-')} of {chips} at {where[0].name} seat {where[1]}"


def _seat_to_rebuy(t: Tournament, left: tuple[int | None, int | None]) -> tuple[Table, int]:
    """The seat a busted player who rebuys sits in: the one left (``left``: table id, seat), when
    it is still free and its table still plays (a table the balance broke is not opened again for
    one player); else where the balance needs a player."""
    key, seat = left
    views = service.seat_views(t)
    if key is not None and seat is not None and any(v.key == key and v.count for v in views):
        table = db.session.get(Table, key)
        if table is not None:
            state = tables.table_state(table)
            if seat not in state.seats and seat <= state.capacity:
                return table, seat
    key, seat = late_seat(views, service.RANDOM)
    table = db.session.get(Table, key)
    assert table is not None
    service.clear_seat(table, seat, None)
    return table, seat
