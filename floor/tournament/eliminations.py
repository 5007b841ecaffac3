"""Who is out of a tournament, as the tables' logs say: bust-outs recorded from the log, the busted
seats cleared, hand for hand ended at the bubble and the final table's seats drawn when due.

Two ways in:

* the table log's hook (:func:`floor.tournament.floorwork.after_append`) once a pot is won;
* :func:`sync_eliminations`, for a log written without that hook (a day's log replayed, a hook that
  failed), which every desk action runs inside itself: :func:`synced`.

The sync lives here, below the desk's actions and beside nothing that acts, so that each action
(:mod:`floor.tournament.desk`, :mod:`floor.tournament.floorwork`) calls it itself, and a page and
the JSON API get it alike by calling the action (issue 34: before, the routes called it, 23 calls
in three modules, and a new route could forget it). This module imports the service and the desk's
rows only: the desk and the floorwork import it, never the other way round.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from flask import current_app

from floor import tables
from floor.extensions import db
from floor.models import Entry, Table, Tournament, User, utcnow
from floor.tournament import models as desk_models
from floor.tournament import service
from floor.tournament.models import DeskKind
from rules import RulesError, jackpot
from rules.tournament import Plan, TableSeats, draw_final, suggest

# --------------------------------------------------------------------------- the order of going out


def next_out_order(t: Tournament) -> int:
    """The order number of the next bust-out (players out in one hand share one: the caller decides)."""
    return (db.session.scalar(db.select(db.func.max(Entry.out_order)).where(Entry.tournament_id == t.id)) or 0) + 1


def hand_round(t: Tournament, table: Table, deal_no: int) -> tuple[int, int] | None:
    """(switch id, the hand-for-hand hand number at ``table`` for its deal ``deal_no``), or None
    when hand for hand is off."""
    switch = service.hand_for_hand_switch(t)
    if switch is None:
        return None
    start = int(switch.data["start"].get(str(table.id), 0))
    return switch.id, deal_no - start


# --------------------------------------------------------------------------- recording bust-outs


def _busted_players(state: jackpot.TableState) -> dict[str, int]:
    """Players at the table with no chips and no claim: name (casefolded) -> seat."""
    return {x.player.casefold(): int(s) for s, x in state.seats.items() if x.stack == 0 and x.put == 0}


def lock_the_event(t: Tournament) -> None:
    """Write-lock the event's row for the rest of the transaction (a row lock on PostgreSQL, the
    database's write lock on SQLite): two desk actions or bust-outs on one event, in two server
    processes at once, are done one after the other, the second seeing what the first wrote."""
    db.session.execute(db.update(Tournament).where(Tournament.id == t.id).values(id=Tournament.id))


def record_eliminations(t: Tournament, table: Table, state: jackpot.TableState) -> list[Entry]:
    """Mark out the entries with no chips and no claim at ``table`` (its state between pots)."""
    busted = _busted_players(state)
    if not any(e.player.casefold() in busted for e in service.live_entries(t)):
        return []
    # Two tables can bust players at the same moment in two server processes, and the desk's actions
    # sync the same table as its dealer's tap does: write-lock the tournament's row first (a row
    # lock on PostgreSQL, the database's write lock on SQLite), then read the entries again, so a
    # place is never shared by players out in different hands nor an entry put out twice.
    lock_the_event(t)
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
    order = next_out_order(t)
    round_ = hand_round(t, table, state.deal_no)
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
    """Each busted player's bounty to the hand's winner (:mod:`floor.tournament.floorwork` says how)."""
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


# --------------------------------------------------------------------------- what a bust-out brings about


#: Why hand for hand ended by itself (the desk's record says it; an undone bust-out reads it).
BUBBLE_BURST = "the bubble burst"


def places_paid(t: Tournament) -> int:
    return sum(1 for p in service.payout_table(t) if p["prize"] > 0)


def hand_for_hand_off(t: Tournament, switch: desk_models.DeskAction | None, user: User | None,
                      reason: str | None = None) -> None:
    """Record hand for hand off (the clock runs again if turning it on paused it); the caller commits."""
    c = service.clock(t)
    if switch is not None and switch.data.get("paused_clock") and c.started and not c.running:
        service.add_clock_move(t, "resume", user)
    desk_models.record(t, DeskKind.HAND_FOR_HAND, user, on=False, reason=reason)


def end_hand_for_hand_at_the_bubble(t: Tournament, user: User | None) -> None:
    """Hand for hand ends by itself once the bubble bursts (no more players left than places paid)
    and the hand in play is over at every table (players out in it at other tables still share)."""
    switch = service.hand_for_hand_switch(t)
    if switch is not None and len(service.live_entries(t)) <= places_paid(t) and all(
            _hand_over(x) for x in service.event_tables(t)):
        hand_for_hand_off(t, switch, user, reason=BUBBLE_BURST)
        db.session.commit()


def _hand_over(table: Table) -> bool:
    """Whether the table's hand in play is over; not known (so not over) while its record is broken."""
    try:
        return tables.table_state(table).phase == "between_deals"
    except tables.BROKEN_RECORD:
        return False


def planned(t: Tournament) -> tuple[Plan, list[TableSeats], dict[str, int] | None]:
    """The balancing plan with the final table's draw as kept (None when none is kept for the
    players still in), and the tables' seats it was made from. It writes nothing."""
    views = service.seat_views(t)
    players_in = {p for v in views for p in v.seats.values()}
    final = t.final_seats
    if final is not None and not players_in <= set(final):
        final = None  # someone came back in (a rebuy): draw again
    elif final is not None:
        final = {p: s for p, s in final.items() if p in players_in}  # a player out since keeps no seat
    return suggest(views, final_seats=final), views, final


def draw_final_when_due(t: Tournament) -> None:
    """Draw the final table's seats once, when the plan says the redraw is due and no draw is kept
    for the players still in: after a bust-out, and at the desk's actions (a move, a rebuy). A draw
    kept for fewer players than are in now (a bust-out undone, a rebuy) who no longer fit the final
    table is dropped: it is not the final table yet, and entries close at it
    (:func:`floor.tournament.service.check_late_registration`)."""
    result, views, final = planned(t)
    if final is not None or not any(v.count for v in views):
        return
    players = sorted(p for v in views for p in v.seats.values())
    final_table = next(v for v in views if v.count)
    capacity = views[0].capacity if views[0].count else final_table.capacity
    if result.final_redraw:
        t.final_seats = draw_final(players, capacity, service.RANDOM)
        db.session.commit()
    elif t.final_seats is not None and len(players) > capacity:
        t.final_seats = None
        db.session.commit()


# --------------------------------------------------------------------------- the desk's sync


def sync_eliminations(t: Tournament) -> None:
    """Look at every table between pots (what the log's hook does for each tap; this catches a log
    written without it, e.g. a replay of a day's log, or a hook that failed), then end hand for hand
    at the bubble and draw the final table's seats when they fall due. It writes, so no page's GET
    runs it (tests/test_tournament_reads.py); every desk action does, inside itself (:func:`synced`)."""
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
    end_hand_for_hand_at_the_bubble(t, None)  # a hand over at the last table may end it
    draw_final_when_due(t)


P = ParamSpec("P")
R = TypeVar("R")


def synced(*, after: bool) -> Callable[[Callable[Concatenate[Tournament, P], R]],
                                       Callable[Concatenate[Tournament, P], R]]:
    """Make a desk action (its first argument the tournament) run :func:`sync_eliminations` itself:
    **before** it acts, always, and **after** it acted when ``after`` says its own change may leave a
    bust-out or the final table's draw due. The HTML pages and the JSON API call the action and get
    both; no route calls the sync (issue 34).

    Before, so that the action acts on the record as the log stands: a late entry's seat, a re-entry
    (a player the cards busted is out, not "already entered"), the close of entries at the final
    table's draw, a manual bust-out or a recount (a player the cards busted is out already: their
    bounty is the winner's, never busted by hand or given chips), a rebuy (the bust paid first), a
    move, hand for hand's bubble, the chip race, a deal (a busted player is placed, never dealt in).

    After (``after=True``): balancing moves, rebuys and add-ons, manual bust-outs and their undoing,
    recounts, hand for hand, the chip race. Not after an entry (one more player: no bust-out nor
    draw can follow) nor a deal (the event is over).

    Only after an action that was done: one refused (it raises) writes nothing of its own, and what
    the sync before it recorded is what the log already held. Not run by the clock, the structure,
    the tables or the draw: they change neither who is in nor their chips (the draw seats the
    entries before any hand is logged); nor by a page's GET. The dealers' taps and the floor's
    rulings are recorded by the log's hook (:func:`floor.tournament.floorwork.after_append`).

    >>> @synced(after=True)
    ... def tally(t, player):
    ...     return player
    >>> tally.synced_after, tally.__name__
    (True, 'tally')
    """
    def wrap(act: Callable[Concatenate[Tournament, P], R]) -> Callable[Concatenate[Tournament, P], R]:
        @functools.wraps(act)
        def run(t: Tournament, /, *args: P.args, **kwargs: P.kwargs) -> R:
            sync_eliminations(t)
            done = act(t, *args, **kwargs)
            if after:
                sync_eliminations(t)
            return done

        run.synced_after = after  # type: ignore[attr-defined]  # read by the tests of the desk's actions
        return run

    return wrap
