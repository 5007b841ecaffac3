"""A tournament as the app keeps it: creating it, its clock, entries, tables and the draw, and
what the wall, the API and the results read (players left, chips, prize pool, places, prizes).

The rules decide (:mod:`rules.tournament`); this module reads the database, passes plain values
and writes what was decided. Randomness is ``secrets.SystemRandom()`` (a cryptographic source).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import abort

from floor import tables
from floor.extensions import db
from floor.house_profiles import resolve_profile
from floor.localtime import local, utc_text, zone
from floor.models import CardRoomEvent, ClockMove, Entry, Table, Tournament, User, utcnow
from floor.sealed import check_tournament
from floor.tournament import models as desk_models
from floor.tournament.models import DeskKind, disqualifications
from rules import IllegalAction
from rules.tournament import (Bust, Clock, Level, Move, Structure, TableSeats, check_move, deal_bounties, draw,
                              late_registration_open, next_break_seconds, parse_structure, pay, places,
                              prize_pool, prizes, read_clock)

#: The random source of every draw (the seats, the button, late entries, the final table).
RANDOM = secrets.SystemRandom()


def get(event_id: int) -> Tournament:
    """The tournament of event ``event_id``, or 404; :class:`floor.seals.SealBroken` (409, naming
    the row) when its record does not match its seals: nothing of it is served (issue 30)."""
    t = db.session.scalars(db.select(Tournament).where(Tournament.event_id == event_id)).first()
    if t is None:
        abort(404, description=f"Event {event_id} is not a tournament.")
    check_tournament(t)
    return t


def of_table(table: Table) -> Tournament | None:
    """The tournament a table belongs to (checked as :func:`get` checks it), or None."""
    if table.event_id is None:
        return None
    t = db.session.scalars(db.select(Tournament).where(Tournament.event_id == table.event_id)).first()
    if t is not None:
        check_tournament(t)
    return t


def structure(t: Tournament) -> Structure:
    return parse_structure(t.structure)


def create(name: str, structure_data: Any, profile: str = "cardroom") -> Tournament:
    """A new event run as a tournament (the structure is checked first; raises StructureError)."""
    parsed = parse_structure(structure_data)
    name = (name or "").strip()
    if not name:
        raise IllegalAction("event: a name is needed")
    profile = (profile or "cardroom").strip()
    resolve_profile(profile)  # raises RulesError naming the profiles there are
    event = CardRoomEvent(name=name[:120], profile=profile)
    t = Tournament(event=event, structure=_jsonable(parsed.to_dict()))
    db.session.add_all([event, t])
    db.session.commit()
    return t


def set_structure(t: Tournament, structure_data: Any) -> None:
    """Replace the structure (checked first). The clock keeps its moves: a level's new length or
    stakes apply at once, as a director editing the clock mid-event expects."""
    t.structure = _jsonable(parse_structure(structure_data).to_dict())
    db.session.commit()


def _jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return tables.jsonable(data)


# --------------------------------------------------------------------------- the clock


def moves(t: Tournament) -> list[Move]:
    return [Move(m.action, m.at) for m in t.clock_moves]


def clock(t: Tournament, now: datetime | None = None) -> Clock:
    """The clock now: computed from the recorded moves (it survives a restart; browsers agree)."""
    return read_clock(structure(t), moves(t), now or utcnow())


def break_words(t: Tournament) -> str | None:
    """When play resumes, while the tournament's clock stands on a break: the room's time of day
    when the clock runs, else how much of the break is left once the director resumes it; None
    when not on a break."""
    at = utcnow()
    c = clock(t, at)
    if not c.on_break:
        return None
    minutes = -(-c.seconds_left // 60)
    if c.running:
        return f"play resumes at {local(at + timedelta(seconds=c.seconds_left), '%H:%M')} ({minutes} min from now)"
    return f"the clock is paused; play resumes {minutes} min after the director resumes it"


def check_not_on_break(t: Tournament) -> None:
    """Refuse a deal during a break, saying when play resumes (issue 31)."""
    words = break_words(t)
    if words is not None:
        raise IllegalAction(f"deal: the tournament is on a break; {words}")


def move_clock(t: Tournament, action: str, user: User | None, now: datetime | None = None) -> Clock:
    """Record a move of the clock (the rules refuse one it cannot make, saying why)."""
    at = now or utcnow()
    if the_deal(t) is not None:  # the deal ended the event: nothing is played any more
        raise IllegalAction(f"clock: the event ended with a deal; the clock cannot {action or 'move'} any more")
    check_move(structure(t), moves(t), Move(action, at))
    db.session.add(ClockMove(tournament=t, action=action, at=at, by=user))
    db.session.commit()
    return clock(t, at)


def add_clock_move(t: Tournament, action: str, user: User | None) -> None:
    """Add a move the desk makes itself (hand for hand pauses and resumes, a deal stops the clock)
    to the session, at this module's "now" like every move; the caller commits."""
    db.session.add(ClockMove(tournament=t, action=action, at=utcnow(), by=user))


# --------------------------------------------------------------------------- tables, entries, the draw


def event_tables(t: Tournament) -> list[Table]:
    """The event's tables in its order (the first is the final table)."""
    return list(db.session.scalars(db.select(Table).where(Table.event_id == t.event_id).order_by(Table.id)))


def add_table(t: Tournament, name: str, seats: int) -> Table:
    """A table for the event, empty until the draw (stakes of the first level; the clock's level
    reaches it at its first deal)."""
    level = structure(t).stakes_at(0)
    setup = {"profile": t.event.profile, **level.stakes, "button": 1, "capacity": seats, "seats": []}
    return tables.create_table(name or f"Table {len(event_tables(t)) + 1}", setup, event_id=t.event_id)


def live_entries(t: Tournament) -> list[Entry]:
    return [e for e in t.entries if not e.is_out]


def entry_named(t: Tournament, player: str) -> Entry | None:
    folded = player.strip().casefold()
    return next((e for e in t.entries if e.player.casefold() == folded), None)


def check_late_registration(t: Tournament, what: str = "entry") -> None:
    """Entries (and re-entries) are refused once the structure's late registration has ended,
    naming the cutoff; and once the final table is drawn, or a deal has ended the event."""
    s = structure(t)
    if not late_registration_open(s, clock(t)):
        raise IllegalAction(f"{what}: late registration closed at the end of level {s.late_registration_levels}")
    if t.final_seats is not None:
        raise IllegalAction(f"{what}: the final table is drawn; entries are closed")
    if the_deal(t) is not None:
        raise IllegalAction(f"{what}: a deal has ended the event")


def check_not_disqualified(t: Tournament, entry: Entry, what: str) -> None:
    """A player the desk disqualified from ``t`` stays out of it: no rebuy, add-on, re-entry nor new
    entry, refused naming who disqualified them, when and why, until the desk lifts it (undoes the
    bust-out that made it, or lifts the disqualification: docs/tournament.md, "Disqualification")."""
    action = disqualifications(t).get(entry.player.casefold())
    if action is None:
        return
    by = action.by.username if action.by is not None else "the desk"
    raise IllegalAction(f"{what}: {entry.player} was disqualified from {t.event.name} by {by} at {local(action.at)}"
                        f"{f' ({action.reason})' if action.reason else ''}; a disqualified player may not rebuy, "
                        "add on or enter this event again (the desk may lift it)")


def clear_seat(table: Table, seat: int, user: User | None) -> None:
    """Free a seat held by a busted player (no chips, no claim): ``leave``, between deals."""
    x = tables.table_state(table).seats.get(seat)
    if x is not None and x.stack == 0 and x.put == 0:
        tables.append(table, {"type": "leave", "seat": seat}, user)


def draw_seats(t: Tournament) -> dict[str, tuple[int, int]]:
    """The random draw: every entry a seat, spread evenly; the button drawn at each table. Written
    into the tables' setups, so it can be made again until the first hand is logged anywhere."""
    event_tables_ = event_tables(t)
    if any(table.version for table in event_tables_):
        raise IllegalAction("draw: hands are logged already; late entries are seated by the balance instead")
    names = [e.player for e in t.entries]
    if not names:
        raise IllegalAction("draw: nobody has entered yet")
    ids = {e.player: e.player_id for e in t.entries}
    views = [TableSeats(table.id, int(table.setup.get("capacity", 8))) for table in event_tables_]
    result = draw(names, views, RANDOM)
    chips = structure(t).starting_chips
    for table in event_tables_:
        seated = sorted((seat, player) for player, (key, seat) in result.items() if key == table.id)
        setup = dict(table.setup)
        setup["seats"] = [{"seat": seat, "player": player, "player_id": ids[player], "stack": chips}
                          for seat, player in seated]
        setup["button"] = RANDOM.choice([s for s, _ in seated]) if seated else 1
        table.setup = setup
    t.drawn_at = utcnow()
    t.final_seats = None
    db.session.commit()
    return result


# --------------------------------------------------------------------------- reading the tables


@dataclass(frozen=True)
class Seated:
    player: str
    table: Table
    seat: int
    stack: int
    put: int


def seated(t: Tournament) -> tuple[list[Seated], int]:
    """Every entry still in, where they sit, and the chips on the event's tables (stacks and pots)."""
    live = {e.player.casefold() for e in live_entries(t)}
    out: list[Seated] = []
    chips = 0
    for table in event_tables(t):
        state = tables.table_state(table)  # typed: a wall's poll reads every table, never copies one
        chips += state.pot
        for seat, x in sorted(state.seats.items()):
            chips += x.stack
            if x.player.casefold() in live:
                out.append(Seated(x.player, table, int(seat), x.stack, x.put))
    return out, chips


def seat_views(t: Tournament) -> list[TableSeats]:
    """The tables as the rules see them: the entries still in, by seat (a busted player's seat is empty)."""
    people, _ = seated(t)
    views = []
    for table in event_tables(t):
        state = tables.table_state(table)
        here = {p.seat: p.player for p in people if p.table.id == table.id}
        views.append(TableSeats(table.id, state.capacity, here, state.button))
    return views


def chip_counts(t: Tournament) -> list[dict[str, Any]]:
    """``GET /api/events/<id>/chips``: every player in, biggest stack first."""
    people, _ = seated(t)
    return [{"player": p.player, "table": p.table.id, "table_name": p.table.name, "seat": p.seat,
             "stack": p.stack} for p in sorted(people, key=lambda p: (-p.stack, p.player.casefold()))]


def buy_ins(t: Tournament) -> int:
    """Every buy-in paid: the entries and their re-entries (the standard payout table counts these)."""
    return len(t.entries) + sum(e.reentries for e in t.entries)


def pool(t: Tournament) -> int:
    """The prize pool: buy-ins and rebuys less their bounties (a rebuy in a bounty event buys a new
    bounty: each bust pays one), add-ons (the bounties are paid apart, :func:`bounty_rows`)."""
    s = structure(t)
    return prize_pool(s.buy_in - s.bounty, buy_ins(t), s.rebuy.price - s.bounty if s.rebuy else 0,
                      sum(e.rebuys for e in t.entries), s.add_on.price if s.add_on else 0,
                      sum(e.add_ons for e in t.entries))


def payout_table(t: Tournament) -> list[dict[str, int]]:
    """The payout ladder now: [{place, prize}] for the places paid (the clock shows it)."""
    s = structure(t)
    percents = s.payout_percents(buy_ins(t))
    players = len(t.entries)
    return [{"place": i + 1, "prize": p} for i, p in
            enumerate(pay(pool(t), percents, paid_places=min(len(percents), players)))]


def _local(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).astimezone(zone()).isoformat(timespec="seconds")


def summary(t: Tournament, now: datetime | None = None) -> dict[str, Any]:
    """``GET /api/events/<id>/clock``: the clock and the event's figures, as the wall shows them."""
    c = clock(t, now)
    left = len(live_entries(t))
    chips: int | None = 0
    average: int | None = 0
    withheld = None
    if t.drawn_at is None:
        average = structure(t).starting_chips if left else 0
    else:
        try:
            _, chips = seated(t)
            average = round(chips / left) if left else 0
        except tables.BROKEN_RECORD as exc:
            # one table's broken record withholds the chip figures, never the clock: the wall and
            # the director's pause and resume keep working while the director puts the record right
            chips = average = None
            withheld = f"the chip figures are withheld: {exc}"
    nxt = c.next_item
    at = now or utcnow()
    s = structure(t)
    chips_in_play = chips if t.drawn_at is not None else s.starting_chips * left
    deal = the_deal(t)
    # average_stack and chips_in_play are null while a table's record is broken (withheld says why)
    return {
        "event": t.event_id, "name": t.event.name, **c.to_dict(),
        "next": None if nxt is None else (
            {"break": False, "minutes": nxt.minutes, **nxt.stakes} if isinstance(nxt, Level)
            else {"break": True, "minutes": nxt.minutes}),
        "entries": buy_ins(t), "players_left": left, "average_stack": average, "prize_pool": pool(t),
        "drawn": t.drawn_at is not None,
        # issue 21: the time of day in the room's zone, when this level ends (null while the clock
        # stands: a paused clock ends nothing), the next break's countdown, the ladder, the chips
        "now": _local(at),
        "level_ends_at": _local(at + timedelta(seconds=c.seconds_left)) if c.running and not c.finished else None,
        "next_break_seconds": next_break_seconds(s, c) if deal is None else None,
        "payouts": payout_table(t), "chips_in_play": chips_in_play,
        "late_registration_open": late_registration_open(s, c) and t.final_seats is None and deal is None,
        "late_registration_levels": s.late_registration_levels,
        "bounty": s.bounty, "hand_for_hand": hand_for_hand_on(t), "withheld": withheld,
        # after a deal the event is over: nothing is in play, whatever the clock last showed
        "ended": None if deal is None else {"by": "deal", "method": deal.data.get("method"), "at": _local(deal.at)},
    }


def hand_for_hand_switch(t: Tournament) -> desk_models.DeskAction | None:
    """The desk action that turned hand for hand on, while it is on (the last switch of it at the
    desk says); None while it is off."""
    switch = desk_models.latest(t, DeskKind.HAND_FOR_HAND)
    return switch if switch is not None and switch.data.get("on") else None


def hand_for_hand_on(t: Tournament) -> bool:
    """Whether hand for hand is on."""
    return hand_for_hand_switch(t) is not None


def the_deal(t: Tournament) -> desk_models.DeskAction | None:
    """The deal settled among the players left, if any (it ends the event)."""
    return desk_models.latest(t, DeskKind.DEAL)


def unclaimed_bounties(t: Tournament) -> int:
    """The bounties paid in that nobody has won and that are on nobody's head: those of players the
    floor busted out (a manual bust-out pays no eliminator). Every buy-in and rebuy paid one bounty."""
    s = structure(t)
    if not s.bounty:
        return 0
    collected = s.bounty * (buy_ins(t) + sum(e.rebuys for e in t.entries))
    won = sum(b.amount for b in desk_models.bounties(t))
    return collected - won - s.bounty * len(live_entries(t))


def results(t: Tournament) -> list[dict[str, Any]]:
    """``GET /api/events/<id>/results``: places and prizes decided so far, best first, then the
    players still in (place null). ``bounties``: what the player collected for eliminating others
    (each traced to a hand: :func:`bounty_rows`) and, once the event is over, what the end paid:
    played out, the players left keep their own and the champion takes those nobody won; after a
    deal, the players in it are placed by their chips at the deal (equal stacks share the place),
    paid the prizes agreed and the bounties the deal gives (rules.tournament.chop.deal_bounties:
    never the chip leader's alone). ``disqualified``: the desk disqualified the player (a card room's
    "DQ"); the place and its prize stand (docs/tournament.md, "Disqualification")."""
    s = structure(t)
    players = [e.player for e in t.entries]
    groups: dict[int, list[Entry]] = {}
    for e in t.entries:
        if e.out_order is not None:
            groups.setdefault(e.out_order, []).append(e)
    # out in the same hand-for-hand hand at different tables: one group that shares (Bust.shared)
    tables_of: dict[int, set[int]] = {}
    for a in desk_models.actions(t, DeskKind.ELIMINATE):
        if a.data.get("hand_for_hand_round") is not None:
            tables_of.setdefault(int(a.data["out_order"]), set()).add(int(a.data["table"]))
    shared = {o for o, where in tables_of.items() if len(where) > 1}
    busts = [Bust(tuple((e.player, e.out_chips or 0) for e in sorted(g, key=lambda e: e.id)), shared=o in shared)
             for o, g in sorted(groups.items())]
    deal = the_deal(t)
    agreed: dict[str, int] = {}
    if deal is not None:
        agreed = {p: int(v) for p, v in deal.data["prizes"].items()}
        stacks = deal.data["stacks"]
        busts.append(Bust(tuple((p, int(stacks[p])) for p in sorted(agreed, key=lambda p: -int(stacks[p])))))
    placed = places(players, busts)
    paid = prizes(players, placed, s.payout_percents(buy_ins(t)), pool(t))
    paid.update(agreed)
    won: dict[str, int] = {}
    for b in desk_models.bounties(t):
        won[b.winner] = won.get(b.winner, 0) + b.amount
    by_name = {e.player: e for e in t.entries}
    disqualified = disqualifications(t)
    standing = [p for p in players if p in placed and not by_name[p].is_out]
    if deal is not None:
        for p, amount in deal_bounties_of(t, deal).items():
            won[p] = won.get(p, 0) + amount
    elif s.bounty and standing:  # played out: the champion keeps its own and takes those nobody won
        champion = min(standing, key=lambda p: placed[p])
        won[champion] = won.get(champion, 0) + s.bounty + unclaimed_bounties(t)
    rows = []
    for player in sorted(players, key=lambda p: (placed.get(p, 10**9), p.casefold())):
        e = by_name[player]
        rows.append({"place": placed.get(player), "player": player, "player_id": e.player_id,
                     "prize": paid.get(player, 0) if player in placed else None,
                     "bounties": won.get(player, 0),
                     "out_at": utc_text(e.out_at),
                     "table": e.out_table.name if e.out_table else None,
                     "hand": e.out_hand, "deal": player in agreed,
                     "disqualified": player.casefold() in disqualified,  # "DQ": the place stands, prize and all
                     "rebuys": e.rebuys, "add_ons": e.add_ons, "reentries": e.reentries})
    return rows


def deal_bounties_of(t: Tournament, deal: desk_models.DeskAction) -> dict[str, int]:
    """What the deal paid each player in it in bounties, as recorded with it; a deal recorded before
    deals recorded their bounties is read by the default rule (``kept``) from its chips."""
    recorded = deal.data.get("bounties")
    if recorded is not None:
        return {p: int(v) for p, v in recorded.items()}
    stacks = {p: int(v) for p, v in deal.data["stacks"].items()}
    return deal_bounties(stacks, structure(t).bounty, unclaimed_bounties(t))


def bounty_rows(t: Tournament) -> list[dict[str, Any]]:
    """Every bounty paid: whose, to whom, the table and the hand (the log's seq of its deal)."""
    return [{"player": b.player, "player_id": b.player_id, "winner": b.winner, "winner_id": b.winner_id,
             "amount": b.amount,
             "table": b.table.name if b.table else None, "table_id": b.table_id, "hand": b.hand}
            for b in desk_models.bounties(t)]
