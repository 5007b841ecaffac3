"""The tournament at the tables: the level's stakes written into each deal, eliminations recorded
when a pot is won, the balancing plan and the floor carrying out its moves, rebuys and add-ons.

Two hooks of :mod:`floor.tables` (the one place that appends) tie the tournament to the hand log:

* :func:`amend_deal`: a ``deal`` at a tournament's table carries the stakes of the level in
  force when they differ from the table's (the event says ``ante``, ``small_bet``, ``big_bet``), so
  a replay of the log never needs the clock.
* :func:`after_append`: once an event that wins a pot is committed, every entry at that table with
  no chips and no claim is out, at once: the time, the table, the hand (its deal's log number) and
  the chips the player began that hand with (to place two players out in one hand).

A busted player leaves the seat at once (issue 20): once the player is out, a ``leave`` clears the
seat, so the seating list and the tablet show no "0" stack nor a rebuy menu at the table. Where
rebuys are allowed, a player who rebuys is sat back in the seat left when it is still free (as a
card room keeps the seat during the rebuy period), else where the balance needs one; a re-entry is
a new entry and gets a new random seat (:func:`floor.tournament.service.add_entry`).

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
from floor.models import Entry, LogEntry, Role, Table, Tournament, User, utcnow
from floor.tournament import desk, service
from floor.tournament import models as desk_models
from floor.tournament.models import DeskKind
from rules import IllegalAction, RulesError, jackpot
from rules.jackpot.seating import MOST_SEATS
from rules.tournament import Plan, TableSeats, draw_final, late_seat, suggest

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
    """Record eliminations once a pot is won (never failing the dealer's tap: it is logged already)."""
    if table.event_id is None or not state.new_pot:
        return
    try:
        t = service.of_table(table)
        if t is not None:
            out = record_eliminations(t, table, state)
            desk.end_hand_for_hand_at_the_bubble(t, None)  # a hand over at the last table may end it
            if out:  # fewer players: the final table's redraw may fall due now
                draw_final_when_due(t)
    except Exception:  # the event is committed; an elimination missed here is found by the desk's next action
        db.session.rollback()
        current_app.logger.exception("tournament: recording eliminations at table %s failed", table.id)


def _busted_players(state: jackpot.TableState) -> dict[str, int]:
    """Players at the table with no chips and no claim: name (casefolded) -> seat."""
    return {x.player.casefold(): int(s) for s, x in state.seats.items() if x.stack == 0 and x.put == 0}


def record_eliminations(t: Tournament, table: Table, state: jackpot.TableState) -> list[Entry]:
    """Mark out the entries with no chips and no claim at ``table`` (its state between pots)."""
    busted = _busted_players(state)
    if not any(e.player.casefold() in busted for e in service.live_entries(t)):
        return []
    # Two tables can bust players at the same moment in two server processes, and the floor's pages
    # sync the same table as its dealer's tap does: write-lock the tournament's row first (a row
    # lock on PostgreSQL, the database's write lock on SQLite), then read the entries again, so a
    # place is never shared by players out in different hands nor an entry put out twice.
    db.session.execute(db.update(Tournament).where(Tournament.id == t.id).values(id=Tournament.id))
    db.session.expire_all()
    out = [e for e in service.live_entries(t) if e.player.casefold() in busted]
    if not out:
        db.session.commit()
        return []
    events = tables.events_of(table)
    deals = [i for i, e in enumerate(events) if e.get("type") == "deal"]
    hand = deals[-1] + 1 if deals else 0  # the log's seq of the hand's deal
    before = jackpot.replay_state(table.setup, events[:deals[-1]]) if deals else state
    start = {x.player.casefold(): x.stack for x in before.seats.values()}
    order = desk.next_out_order(t)
    round_ = desk.hand_round(t, table, state.deal_no)
    if round_ is not None:  # out in the same hand-for-hand hand as players at other tables: one group
        for a in desk_models.actions(t, DeskKind.ELIMINATE):
            if a.data.get("switch") == round_[0] and a.data.get("hand_for_hand_round") == round_[1] \
                    and a.data.get("table") != table.id:
                order = int(a.data["out_order"])
    now = utcnow()
    for e in out:
        e.out_order, e.out_at, e.out_table_id, e.out_hand = order, now, table.id, hand
        e.out_chips = start.get(e.player.casefold(), 0)
        e.out_seat = busted[e.player.casefold()]
        if round_ is not None:
            desk_models.record(t, DeskKind.ELIMINATE, None, player=e.player, table=table.id, hand=hand,
                               switch=round_[0], hand_for_hand_round=round_[1], out_order=order)
    _pay_bounties(t, table, state, out, hand)
    db.session.commit()
    leave_busted(t, table)
    return out  # the bubble is the caller's to check, once (after_append, sync_eliminations)


def _pay_bounties(t: Tournament, table: Table, state: jackpot.TableState, out: list[Entry], hand: int) -> None:
    """Each busted player's bounty to the hand's winner (see the module's docstring)."""
    bounty = service.structure(t).bounty
    awards = {int(seat): amount for seat, amount in state.awards.items() if amount}
    if not bounty or not awards:
        return
    best = max(awards.values())
    winners = [(state.seats[seat].player, state.seats[seat].player_id)
               for seat in sorted(awards) if awards[seat] == best and seat in state.seats]
    for e in out:
        each, odd = divmod(bounty, len(winners))
        for i, (w, w_id) in enumerate(winners):
            db.session.add(desk_models.Bounty(tournament_id=t.id, player=e.player, winner=w,
                                              player_id=e.player_id, winner_id=w_id,
                                              amount=each + (1 if i < odd else 0), table_id=table.id, hand=hand))


def leave_busted(t: Tournament, table: Table) -> None:
    """Clear the seats of players out of the event (no chips, no claim) at ``table``: ``leave``."""
    live = {e.player.casefold() for e in service.live_entries(t)}
    state = tables.table_state(table)
    if state.phase != "between_deals":
        return
    for seat, x in sorted(state.seats.items()):
        if x.stack == 0 and x.put == 0 and x.player.casefold() not in live:
            tables.append(table, {"type": "leave", "seat": int(seat)}, None)


def sync_eliminations(t: Tournament) -> None:
    """Look at every table between pots (what :func:`after_append` does for each tap; this catches a
    log written without it, e.g. a replay of a day's log, or a hook that failed), then draw the final
    table's seats when they fall due. It writes, so a page's GET never calls it
    (tests/test_tournament_reads.py).

    Which paths call it, and why (issue 34). Every POST of the desk that changes who is in the event
    or their chips, on its page and in its JSON API alike:

    * **before** it acts, so that it acts on the record as the log stands: a late entry's seat, a
      re-entry (a player the cards busted is out, not "already entered"), the close of entries at
      the final table's draw, a manual bust-out or a recount (a player the cards busted is out
      already: their bounty is the winner's, never busted by hand or given chips), a rebuy (the
      bust paid first), a move, hand for hand's bubble, the chip race, a deal (a busted player is
      placed, never dealt in);
    * **after** it acted, when the action may leave a bust-out or the final table's draw due:
      balancing moves, rebuys and add-ons, manual bust-outs and their undoing, recounts, hand for
      hand, the chip race. Not after an entry (one more player: no bust-out nor draw can follow)
      nor a deal (the event is over).

    A refused API request writes nothing of its own; what it recorded first is what the log already
    held. Not called by the clock, the structure, the tables or the draw: they change neither who is
    in nor their chips (the draw seats the entries before any hand is logged). The dealers' taps and
    the floor's rulings are recorded by the log's hook (:func:`after_append`)."""
    for table in service.event_tables(t):
        try:
            state = tables.table_state(table)
        except tables.BROKEN_RECORD:  # nobody is placed from a broken record; the others are synced
            continue
        if state.new_pot and table.version:
            try:
                record_eliminations(t, table, state)
                leave_busted(t, table)  # seats of players already out (a log written without the hook)
            except (tables.StaleVersion, RulesError) as exc:
                # another request (the floor's page polls while a move is made) cleared the seat
                # first: the table moved on, and the next look sees it as it is
                db.session.rollback()
                current_app.logger.info("table %s: a busted seat was cleared by another request (%s)", table.id, exc)
    desk.end_hand_for_hand_at_the_bubble(t, None)  # a hand over at the last table may end it
    draw_final_when_due(t)


# --------------------------------------------------------------------------- balancing


def _planned(t: Tournament) -> tuple[Plan, list[TableSeats], dict[str, int] | None]:
    """The plan with the final table's draw as kept (None when none is kept for the players still
    in), and the tables' seats it was made from."""
    views = service.seat_views(t)
    players_in = {p for v in views for p in v.seats.values()}
    final = t.final_seats
    if final is not None and not players_in <= set(final):
        final = None  # someone came back in (a rebuy): draw again
    elif final is not None:
        final = {p: s for p, s in final.items() if p in players_in}  # a player out since keeps no seat
    return suggest(views, final_seats=final), views, final


def plan(t: Tournament) -> Plan:
    """The balancing plan now. It writes nothing (the floor's page polls it with GETs): eliminations
    are recorded when the log changes (:func:`after_append`, the desk's :func:`sync_eliminations`),
    and the final table's redraw is drawn there (:func:`draw_final_when_due`); until it is, the plan
    says that it is due."""
    return _planned(t)[0]


def draw_final_when_due(t: Tournament) -> None:
    """Draw the final table's seats once, when the plan says the redraw is due and no draw is kept
    for the players still in: after a bust-out, and at the desk's actions (a move, a rebuy)."""
    result, views, final = _planned(t)
    if result.final_redraw and final is None:
        players = sorted(p for v in views for p in v.seats.values())
        final_table = next(v for v in views if v.count)
        t.final_seats = draw_final(players, views[0].capacity if views[0].count else final_table.capacity,
                                   service.RANDOM)
        db.session.commit()


def _table(t: Tournament, key: Any, what: str) -> Table:
    try:
        key = whole(key, f"move: {what}", 1)
    except BadNumber:
        raise IllegalAction(f"move: {what} is a table id, not {key!r:.40}") from None
    table = db.session.get(Table, key)
    if table is None or table.event_id != t.event_id:
        raise IllegalAction(f"move: table {key} is not a table of this event")
    return table


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


def buy(t: Tournament, entry: Entry, kind: str, user: User | None) -> str:
    """A rebuy or an add-on, as the structure allows it now; the chips go to the player's stack
    (``add_chips``; a busted player who rebuys is back in, seated again where the balance needs them).
    After a deal nothing is bought: the money was shared out."""
    desk.check_not_over(t, kind.replace("_", "-"))
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
        entry.out_order = entry.out_at = entry.out_table_id = entry.out_hand = entry.out_chips = None
        entry.out_seat = None
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
    it is still free; else where the balance needs a player."""
    key, seat = left
    if key is not None and seat is not None:
        table = db.session.get(Table, key)
        if table is not None and table.event_id == t.event_id:
            state = tables.table_state(table)
            if seat not in state.seats and seat <= state.capacity:
                return table, seat
    key, seat = late_seat(service.seat_views(t), service.RANDOM)
    table = db.session.get(Table, key)
    assert table is not None
    service.clear_seat(table, seat, None)
    return table, seat
