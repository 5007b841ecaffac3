"""The tournament desk (issue 21): what the floor does for the event as a whole, beside the
balancing of :mod:`floor.tournament.floorwork`.

* :func:`add_entry`: an entry, a late entry seated at once, a re-entry.
* :func:`eliminate`: a manual bust-out (a player who leaves or is disqualified): the place is
  given at once, the stack leaves the table (``leave``: the ledger's chips out), who and why kept
  (a disqualified player may not come back: :func:`floor.tournament.service.check_not_disqualified`);
  the page confirms it first (:func:`bust_preview`) and :func:`reinstate` undoes the latest one.
  A player already out is disqualified after the fact in :mod:`floor.tournament.disqualification`.
* :func:`recount`: the staff's chip count: the difference from the log is a floor ``correction``
  against the house on the player's table (who, why), so the table's conservation law holds.
* :func:`set_hand_for_hand`, :func:`check_hand_for_hand`: near the bubble every table deals one
  hand at a time: a table may not deal its next hand until every other table with a game has
  finished the hand it is on; the clock is paused while it lasts; it ends by itself when the
  bubble bursts (players left no more than the places paid) and the clock runs again.
* :func:`offer`, :func:`settle`: deal-making among the players left (chip, ICM, custom).
* :func:`color_up`: the chip race of the structure's ``color_up`` due now, at every table.

Every action is one :class:`~floor.tournament.models.DeskAction` (who, when, why, the figures).
Every action that changes who is in or their chips records first the bust-outs the log holds and the
desk has not (and again after it, where its change may leave one or the final table's draw due),
inside itself: :func:`floor.tournament.eliminations.synced` (issue 34), so a page and the JSON API
get it alike by calling the action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from floor import tables
from floor.extensions import db
from floor.inputs import BadNumber, whole
from floor.models import Entry, Table, Tournament, User, utcnow
from floor.players import service as players
from floor.tournament import models as desk_models
from floor.tournament import service
from floor.tournament.eliminations import (BUBBLE_BURST, end_hand_for_hand_at_the_bubble, hand_for_hand_off,
                                           lock_the_event, next_out_order, places_paid, synced)
from floor.tournament.models import DeskKind
from rules import IllegalAction
from rules.bounds import CHIPS_MAX
from rules.jackpot import Seat, TableState
from rules.tournament import BountyRule, chop, deal_bounties, late_seat, next_chip, race

# --------------------------------------------------------------------------- where a player sits


def find_seat(t: Tournament, player: str) -> tuple[Table, int, Seat] | None:
    """The table, seat and seat state where ``player`` sits at one of the event's tables (a busted
    player too, until the seat is cleared), or None."""
    for table in service.event_tables(t):
        for seat, x in tables.table_state(table).seats.items():
            if x.player.casefold() == player.casefold():
                return table, int(seat), x
    return None


def seat_of(t: Tournament, player: str) -> tuple[Table, int, Seat]:
    """The table, seat and seat state of a player still in (IllegalAction naming who is not)."""
    entry = service.entry_named(t, player)
    if entry is None:  # the desk's box left empty read "'' has not entered this event"
        raise IllegalAction(f"{player.strip()} has not entered this event" if player.strip() else "name the player")
    if entry.is_out:
        raise IllegalAction(f"{entry.player} is out of the event already")
    found = find_seat(t, entry.player)
    if found is None:
        raise IllegalAction(f"{entry.player} has no seat yet (the draw seats every entry)")
    return found


def check_not_over(t: Tournament, what: str) -> None:
    """After a deal the event is over: nothing more is dealt, busted out, counted or raced."""
    if service.the_deal(t) is not None:
        raise IllegalAction(f"{what}: the event ended with a deal")


def _between_deals(table: Table, what: str) -> TableState:
    state = tables.table_state(table)
    if state.phase != "between_deals":
        raise IllegalAction(f"{what}: {table.name} is in a hand; do it between deals")
    return state


# --------------------------------------------------------------------------- entries


@synced(after=False)
def add_entry(t: Tournament, player: Any, user: User | None) -> tuple[Entry, tuple[Table, int] | None]:
    """A new entry. Before the draw it waits for it; after it (a late entry) the player is seated
    at once where the balance needs them (:func:`rules.tournament.late_seat`), with the starting chips.

    A player already out enters again where the structure allows re-entries (``reentry`` n, while
    late registration is open): a new buy-in (and bounty) to the pool, the starting chips, and a
    seat drawn at random where the balance needs one, as a new entry (not the seat left: a re-entry
    is a new entry). The entry keeps its row: places are per player, the pool counts every buy-in."""
    if isinstance(player, str) and not player.strip():
        raise IllegalAction("entry: a player's name, 1 to 80 characters")
    # the player's record (issue 31): a name or {"id": n}; a banned player is refused with the reason
    record = players.named(player, None, user, "entry")
    players.check_not_banned(record, "entry")
    player = record.name
    existing = next((e for e in t.entries if e.player_id == record.id), None) or service.entry_named(t, player)
    if existing is not None and existing.player_id not in (None, record.id):
        raise IllegalAction(f"entry: another player named {player} (#{existing.player_id}) is entered; "
                            "an event's entries have different names")
    if existing is not None and not existing.is_out:
        raise IllegalAction(f"entry: {player} is already entered")
    if existing is not None:
        service.check_not_disqualified(t, existing, "re-entry")
        allowed = service.structure(t).reentry
        if not allowed:
            raise IllegalAction(f"re-entry: {existing.player} is out and this event has no re-entries")
        if existing.reentries >= allowed:
            raise IllegalAction(f"re-entry: {existing.player} has had the {allowed} re-entr"
                                f"{'y' if allowed == 1 else 'ies'} allowed")
        service.check_late_registration(t, "re-entry")
    else:
        service.check_late_registration(t)
    seated = None
    if t.drawn_at is not None:
        views = service.seat_views(t)
        key, seat = late_seat(views, service.RANDOM)
        table = db.session.get(Table, key)
        assert table is not None
        service.clear_seat(table, seat, user)
        if existing is not None:
            entry = existing
            entry.reentries += 1
            entry.back_in()
            desk_models.record(t, DeskKind.REENTRY, user, player=entry.player, number=entry.reentries)
        else:
            entry = Entry(tournament=t, player=player, player_id=record.id)
            db.session.add(entry)
        db.session.flush()
        tables.append(table, {"type": "sit", "seat": seat, "player": entry.player, "player_id": entry.player_id,
                              "chips": service.structure(t).starting_chips}, user)  # commits the entry with it
        seated = (table, seat)
    elif existing is not None:
        raise IllegalAction(f"re-entry: {existing.player} is out before the draw?")  # pragma: no cover
    else:
        entry = Entry(tournament=t, player=player, player_id=record.id)
        db.session.add(entry)
        db.session.commit()
    return entry, seated



# --------------------------------------------------------------------------- manual bust-out and recounts


@synced(after=True)
def eliminate(t: Tournament, player: str, reason: str, user: User | None, disqualified: bool = False) -> Entry:
    """Bust a player out by hand: the next place at once, the stack taken off the table. A
    ``disqualified`` player (cheating, abuse: the reason is required) stays out of the event: the
    desk's record says so, and a rebuy, add-on or entry is refused while it stands
    (:func:`floor.tournament.service.check_not_disqualified`; :func:`reinstate` lifts it)."""
    check_not_over(t, "eliminate")
    if disqualified and desk_models.reason_text(reason) is None:
        raise IllegalAction("disqualify: say why the player is disqualified (reason)")
    table, seat, x = seat_of(t, player)
    _between_deals(table, "eliminate")
    if x.put:
        raise IllegalAction(f"eliminate: {x.player} has {x.put} chips in the pot carried at {table.name}; "
                            "bust them out once that pot is won")
    entry = service.entry_named(t, player)
    assert entry is not None

    def place_given(_: Any) -> None:
        _place_at_the_desk(t, entry, table, seat, x.stack, user, reason, manual=True, chips_removed=x.stack,
                           **({"disqualified": True} if disqualified else {}))

    # the chips leave with the player (the ledger's chips out) and the place is given, in one transaction
    tables.append(table, {"type": "leave", "seat": seat}, user, with_it=place_given)
    end_hand_for_hand_at_the_bubble(t, user)
    return entry


def _place_at_the_desk(t: Tournament, entry: Entry, table: Table, seat: int, chips: int, user: User | None,
                       reason: str, **data: Any) -> None:
    """Give ``entry`` the next place now, out by the desk's hand (no hand of the log put them out, so
    no eliminator: their bounty is nobody's, :func:`floor.tournament.service.unclaimed_bounties`),
    in the caller's transaction; the desk keeps who, why and ``data``."""
    lock_the_event(t)
    entry.out_order, entry.out_at, entry.out_table_id = next_out_order(t), utcnow(), table.id
    entry.out_hand, entry.out_chips, entry.out_seat = None, chips, seat
    desk_models.record(t, DeskKind.ELIMINATE, user, player=entry.player, reason=desk_models.reason_text(reason),
                       table=table.id, seat=seat, out_order=entry.out_order, **data)


@synced(after=False)
def bust_preview(t: Tournament, player: str) -> dict[str, Any]:
    """What a manual bust-out of ``player`` would do, for the floor to confirm before it is done:
    where they sit, the chips that leave the table, the place they get. Raises as :func:`eliminate`.
    It is the first step of the bust-out's POST, so it records the bust-outs the log holds first (a
    player the cards busted is out already, not offered to the floor to bust by hand); no GET calls it."""
    check_not_over(t, "eliminate")
    table, seat, x = seat_of(t, player)
    _between_deals(table, "eliminate")
    return {"player": x.player, "table": table.name, "seat": seat, "chips": x.stack,
            "place": len(service.live_entries(t))}


def last_manual_bust(t: Tournament) -> tuple[Entry, Any] | None:
    """The latest bust-out of the event when the desk made it by hand and nobody was busted since
    (the one a floor person may still undo: :func:`reinstate`), with its desk action; else None."""
    last = next_out_order(t) - 1
    action = desk_models.latest(t, DeskKind.ELIMINATE)
    if last < 1 or action is None or not action.data.get("manual") or action.data.get("out_order") != last:
        return None
    entry = service.entry_named(t, action.player or "")
    if entry is None or entry.out_order != last:
        return None
    return entry, action


@synced(after=True)
def reinstate(t: Tournament, player: str, reason: str, user: User | None) -> Entry:
    """Undo a manual bust-out made by mistake: the player sits again in the seat left, with the chips
    that left the table with them (a ``sit`` on the table's log: the ledger's chips in), and the
    place is given back; the desk keeps who undid it and why. Only the event's latest bust-out, made
    by the desk, while nobody has been busted since, the seat is still free and the table is between
    deals: a bust-out by the cards is the table's log, put right by a floor ruling. A disqualification
    made after the bust-out (:func:`floor.tournament.disqualification.disqualify`) is lifted first.

    When that bust-out burst the bubble and so ended hand for hand, the undo turns it on again (the
    clock paused as it was), in the same transaction: the event is back as it stood before the mistake."""
    check_not_over(t, "undo the bust-out")
    found = last_manual_bust(t)
    entry = service.entry_named(t, player)
    if entry is None or found is None or found[0].id != entry.id:
        raise IllegalAction(f"undo the bust-out: only the latest bust-out made at the desk can be undone, while "
                            f"nobody has been busted since{'' if entry is None else f'; {entry.player} is not it'}")
    action = found[1]
    standing = desk_models.disqualifications(t).get(entry.player.casefold())
    if standing is not None and standing.id != action.id:
        # disqualified after this bust-out, by its own action: back in play, the player would be
        # seated and disqualified at once; the floor lifts it first, saying why, or leaves both
        raise IllegalAction(f"undo the bust-out: {entry.player} was disqualified since, by their own action; "
                            "lift the disqualification first")
    table = db.session.get(Table, int(action.data["table"]))
    seat, chips = int(action.data["seat"]), int(action.data["chips_removed"])
    if table is None:
        raise IllegalAction("undo the bust-out: the table the player left is gone")
    state = _between_deals(table, "undo the bust-out")
    if seat in state.seats:
        raise IllegalAction(f"undo the bust-out: seat {seat} at {table.name} is taken now")
    switch = desk_models.latest(t, DeskKind.HAND_FOR_HAND)
    burst = switch is not None and not switch.data.get("on") and switch.reason == BUBBLE_BURST and switch.id > action.id
    started = _hands_now(t) if burst else None

    def place_back(_: Any) -> None:
        out_order = entry.out_order
        entry.back_in()
        desk_models.record(t, DeskKind.REINSTATE, user, player=entry.player, reason=desk_models.reason_text(reason),
                           table=table.id, seat=seat, chips_back=chips, out_order=out_order, undoes=action.id)
        if started is not None:  # the bubble this bust-out burst is back: so is hand for hand
            _hand_for_hand_on(t, started, user, undoes=action.id)

    # the chips come back with the player and the place is given back, in one transaction
    tables.append(table, {"type": "sit", "seat": seat, "player": entry.player, "player_id": entry.player_id,
                          "chips": chips}, user, with_it=place_back)
    return entry


@synced(after=True)
def recount(t: Tournament, player: str, stack: Any, reason: str, user: User | None) -> dict[str, Any]:
    """The staff count a stack: a difference from the log is logged on the table as a floor
    ``correction`` against the house, with who counted and why. A player counted at 0 (with no claim
    on a carried pot) is out at once, in the same transaction, as a bust-out by hand: the next place,
    no hand, no eliminator (not the last pot's winner, whom the log's hook would name), and the seat
    cleared. It is not one :func:`reinstate` undoes: that sits a player back with the chips the
    bust-out took off the table, and a count of 0 took them to the house."""
    check_not_over(t, "count")
    try:
        counted = whole(stack, "count", 0, CHIPS_MAX)
    except BadNumber:
        # the desk's box left empty read "not ''" on the floor's page
        given = f"not {stack!r:.40}" if str(stack or "").strip() else "and none was written"
        raise IllegalAction(f"count: the stack counted is a whole number of chips from 0 to {CHIPS_MAX}, "
                            f"{given}") from None
    reason = (reason or "").strip()
    if not reason:
        raise IllegalAction("count: say why the stack was counted (reason)")
    table, seat, x = seat_of(t, player)
    _between_deals(table, "count")
    change = counted - x.stack
    seq = None
    # counted out of chips, with no claim on a pot: out now, as by the desk's hand (no pot was won, so
    # no eliminator; the table log's hook would have read the last pot's winner as one)
    out = counted == 0 and change != 0 and x.put == 0
    entered = service.entry_named(t, x.player) if out else None  # read only when it is needed

    def kept(entry: Any) -> None:
        desk_models.record(t, DeskKind.COUNT, user, player=x.player, reason=reason[:500], table=table.id,
                           seat=seat, logged=x.stack, counted=counted, change=change,
                           seq=entry.seq if entry is not None else None)
        if out and entered is not None:
            _place_at_the_desk(t, entered, table, seat, x.stack, user, f"counted 0: {reason}", manual=False,
                               counted=True)

    if change:  # the correction and the desk's record of the count commit together
        who = user.username if user is not None else "the staff"
        entry, _ = tables.append(table, {"type": "correction", "moves": [{"seat": seat, "amount": change}],
                                         "house": change, "reason": f"recount by {who}: {reason}"[:500]},
                                 user, with_it=kept)
        seq = entry.seq
        if out:
            service.clear_seat(table, seat, user)
            end_hand_for_hand_at_the_bubble(t, user)
    else:  # the count agrees with the log: only the desk keeps it
        kept(None)
        db.session.commit()
    return {"player": x.player, "table": table.id, "table_name": table.name, "seat": seat,
            "logged": x.stack, "stack": counted, "change": change, "log_seq": seq}


# --------------------------------------------------------------------------- hand for hand


@synced(after=True)
def set_hand_for_hand(t: Tournament, on: bool, user: User | None) -> dict[str, Any]:
    """Turn hand for hand on (the clock paused; each table's hand count starts now) or off (the
    clock runs again if hand for hand paused it). Refused on once the bubble has burst: it would
    end by itself at once (:func:`end_hand_for_hand_at_the_bubble`)."""
    check_not_over(t, "hand for hand")
    now = service.hand_for_hand_switch(t)
    if on and now is not None:
        raise IllegalAction("hand for hand: it is on already")
    if not on and now is None:
        raise IllegalAction("hand for hand: it is off already")
    left, paid = len(service.live_entries(t)), places_paid(t)
    if on and left <= paid:  # it would end at once (end_hand_for_hand_at_the_bubble), having paused the clock
        raise IllegalAction(f"hand for hand: the bubble has burst ({left} players left, {paid} places paid); "
                            "it is played only while someone is still out of the money")
    if on:
        _hand_for_hand_on(t, _hands_now(t), user)
    else:
        hand_for_hand_off(t, now, user)
    db.session.commit()
    return {"on": on, "clock": service.summary(t)}


def _hands_now(t: Tournament) -> dict[str, int]:
    """Each table's deal count now: hand for hand counts each table's hands from it."""
    return {str(x.id): tables.table_state(x).deal_no for x in service.event_tables(t)}


def _hand_for_hand_on(t: Tournament, started: dict[str, int], user: User | None, **data: Any) -> None:
    """Record hand for hand on, the clock paused if it runs (the caller commits)."""
    paused = bool(service.clock(t).running)
    if paused:
        service.add_clock_move(t, "pause", user)
    desk_models.record(t, DeskKind.HAND_FOR_HAND, user, on=True, start=started, paused_clock=paused, **data)


def check_hand_for_hand(t: Tournament, table: Table) -> None:
    """Refuse a ``deal`` at ``table`` while another table has not finished the hand this one has,
    and once a deal among the players has ended the event."""
    check_not_over(t, "deal")
    switch = service.hand_for_hand_switch(t)
    if switch is None:
        return
    live = {e.player.casefold() for e in service.live_entries(t)}
    # typed states (issue 23): a deal's tap in hand for hand reads every table's, never copies it
    done = tables.table_state(table).deal_no - int(switch.data["start"].get(str(table.id), 0))
    for other in service.event_tables(t):
        if other.id == table.id:
            continue
        state = tables.table_state(other)
        between = state.phase == "between_deals"
        if sum(1 for x in state.seats.values() if x.player.casefold() in live and x.stack > 0) < 2 and between:
            continue  # no game there
        theirs = state.deal_no - int(switch.data["start"].get(str(other.id), 0))
        if theirs < done or (theirs == done and not between):
            raise IllegalAction(f"hand for hand: wait; {other.name} has not finished hand {max(done, 1)} yet "
                                "(every table deals its next hand together)")


# --------------------------------------------------------------------------- deals


def prizes_left(t: Tournament) -> list[int]:
    """The prizes of the places still to give (the players left's), first place first."""
    left = len(service.live_entries(t))
    ladder = [p["prize"] for p in service.payout_table(t)]
    return [ladder[i] if i < len(ladder) else 0 for i in range(left)]


def deal_stacks(t: Tournament) -> dict[str, int]:
    """The players left and their chips, as a deal counts them: every player seated with chips and
    no pot in play at any table (the chips in a pot are nobody's yet: a hand in play is finished,
    a carried pot won, before the players deal)."""
    check_not_over(t, "deal")
    for table in service.event_tables(t):
        state = tables.table_state(table)
        if state.phase != "between_deals":
            raise IllegalAction(f"deal: {table.name} is in a hand; the players deal once it is over")
        if state.pot:
            raise IllegalAction(f"deal: a pot of {state.pot} is carried at {table.name}; the players deal once "
                                "it has been won")
    people, _ = service.seated(t)
    stacks = {p.player: p.stack for p in people}
    if len(stacks) != len(service.live_entries(t)):
        raise IllegalAction("deal: every player left must be seated with chips")
    return stacks


@dataclass(frozen=True)
class Sheet:
    """A deal drawn up (not yet agreed): the chips it counts, the prizes (summing to what is left to
    pay), the bounties it pays (summing to those not yet won) and how, the bounties already won."""

    method: str
    stacks: dict[str, int]
    prizes: dict[str, int]
    bounties: dict[str, int]
    rule: str
    won: dict[str, int]
    total: int          # what is left to pay in prizes
    bounty: int         # the bounty on each head
    unclaimed: int      # the bounties nobody won

    def rows(self) -> list[dict[str, Any]]:
        """The deal's lines, biggest stack first: chips, prize, the bounties the deal pays, those won."""
        return [{"player": p, "stack": self.stacks[p], "prize": self.prizes[p], "bounty": self.bounties[p],
                 "bounties_won": self.won.get(p, 0)}
                for p in sorted(self.stacks, key=lambda p: (-self.stacks[p], p.casefold()))]


def draw_up(t: Tournament, method: str, custom: Any = None, bounties: Any = None) -> Sheet:
    """The deal by ``method`` (chip, icm, or custom prizes {player: amount} summing to what is left
    to pay), with its bounties (``kept`` by default, ``shared``, or amounts {player: amount}: see
    :func:`rules.tournament.chop.deal_bounties`), checked and not recorded."""
    stacks = deal_stacks(t)
    total = sum(prizes_left(t))
    if method == "custom":
        if not isinstance(custom, dict):
            raise IllegalAction("deal: a custom deal gives prizes {player: amount}")
        named = {str(k).strip().casefold(): v for k, v in custom.items()}
        prizes: dict[str, int] = {}
        for p in stacks:
            value = named.get(p.casefold())
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise IllegalAction(f"deal: {p}'s prize is a whole amount, 0 or more, not {value!r}")
            prizes[p] = value
        if sum(prizes.values()) != total:
            raise IllegalAction(f"deal: the prizes add up to {sum(prizes.values())}; what is left to pay is {total}")
    else:
        prizes = chop(method, stacks, prizes_left(t))
    rule, amounts = BountyRule.KEPT, None
    if isinstance(bounties, dict):
        named = {str(k).strip().casefold(): v for k, v in bounties.items()}
        rule, amounts = BountyRule.CUSTOM, {p: named.get(p.casefold()) for p in stacks}
    elif bounties is not None:
        if bounties not in (BountyRule.KEPT, BountyRule.SHARED):
            raise IllegalAction("deal: bounties is kept, shared, or the amounts {player: amount}")
        rule = BountyRule(bounties)
    bounty, unclaimed = service.structure(t).bounty, service.unclaimed_bounties(t)
    paid = deal_bounties(stacks, bounty, unclaimed, rule, amounts)
    won: dict[str, int] = {}
    for b in desk_models.bounties(t):
        won[b.winner] = won.get(b.winner, 0) + b.amount
    return Sheet(method, stacks, prizes, paid, str(rule), won, total, bounty, unclaimed)


def offer(t: Tournament, method: str, bounties: Any = BountyRule.KEPT) -> list[dict[str, Any]]:
    """``GET /api/events/<id>/chop``: [{player, stack, prize, bounty, bounties_won}] for the players
    left, biggest stack first: the prizes sum to what is left to pay, the bounties (what the deal
    pays; ``bounties_won`` are the player's already) to the bounties not yet won (docs/money.md)."""
    if method == "custom":
        raise IllegalAction("deal: a custom deal is what the players write down, not an offer; method chip or icm")
    return draw_up(t, method, None, bounties).rows()


@synced(after=False)
def settle(t: Tournament, method: str, agreed: Any, custom: Any, user: User | None, bounties: Any = None,
           seen: Any = None) -> list[dict[str, Any]]:
    """Settle a deal every player left agreed to (:func:`draw_up`). ``seen``, when given, is the chips
    {player: stack} of the sheet the players signed: the deal is refused if the chips have changed
    since. The event ends: the clock stops, hand for hand ends, the results show what was agreed."""
    sheet = draw_up(t, method, custom, bounties)
    stacks = sheet.stacks
    if not isinstance(agreed, list) or not all(isinstance(p, str) for p in agreed):
        raise IllegalAction("deal: agreed is the list of the players who agree")
    if seen is not None and (not isinstance(seen, dict) or {str(k): v for k, v in seen.items()} != stacks):
        raise IllegalAction("deal: the chips have changed since the sheet was drawn up; review the deal again")
    said = {p.strip().casefold() for p in agreed}
    missing = sorted(p for p in stacks if p.casefold() not in said)
    if missing:
        raise IllegalAction(f"deal: every player left must agree; not agreed: {', '.join(missing)}")
    extra = sorted(p for p in agreed if p.strip().casefold() not in {q.casefold() for q in stacks})
    if extra:
        raise IllegalAction(f"deal: {', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not in the event any more")
    c = service.clock(t)
    if c.running:
        service.add_clock_move(t, "pause", user)
    if service.hand_for_hand_on(t):  # a deal on the bubble: hand for hand ends with the event (the clock stands)
        desk_models.record(t, DeskKind.HAND_FOR_HAND, user, on=False, reason="the deal ended the event")
    desk_models.record(t, DeskKind.DEAL, user, method=method, prizes=sheet.prizes, stacks=stacks,
                       agreed=sorted(stacks), total=sheet.total, bounties=sheet.bounties, bounty_rule=sheet.rule,
                       bounty=sheet.bounty, unclaimed=sheet.unclaimed)
    db.session.commit()
    return sheet.rows()


# --------------------------------------------------------------------------- the chip race


def races_due(t: Tournament) -> list[Any]:
    """The structure's chip races whose level has begun, or whose break before it is on, and that
    have not been run (the floor page says so; the floor runs them between deals). A room races on
    the break before the level, when no table deals: a break counts as the level that follows it
    (the one before it when no level follows)."""
    s = service.structure(t)
    c = service.clock(t)
    if not s.color_up or not c.started:
        return []
    level = c.level
    if level is None:  # a break: the level that follows it, else the one before it
        after = (s.playing_number(i) for i in range(c.index + 1, len(s.levels)))
        before = s.playing_number(c.index - 1) if c.index else None
        level = next((n for n in after if n is not None), before)
    done = {int(a.data["level"]) for a in desk_models.actions(t, DeskKind.COLOR_UP)}
    return [r for r in s.color_up if level is not None and r.level <= level and r.level not in done]


@synced(after=True)
def color_up(t: Tournament, user: User | None) -> list[dict[str, Any]]:
    """Run the chip race due now (the latest ``color_up`` whose level has begun and not yet raced)
    at every table with players: each change logged as a floor correction against the house."""
    check_not_over(t, "colour-up")
    s = service.structure(t)
    due = races_due(t)
    done = {int(a.data["level"]) for a in desk_models.actions(t, DeskKind.COLOR_UP)}
    if not due:
        planned = ", ".join(f"level {r.level}" for r in s.color_up) or "none"
        raise IllegalAction(f"colour-up: none is due now (the structure's races: {planned}; done: "
                            f"{', '.join(map(str, sorted(done))) or 'none'})")
    todo = due[-1]
    stakes = s.stakes_at(s.index_of_level(todo.level))
    to = next_chip(todo.chip, stakes.ante, stakes.small_bet, stakes.big_bet)
    live = {e.player.casefold() for e in service.live_entries(t)}
    event_tables = service.event_tables(t)
    for table in event_tables:
        _between_deals(table, "colour-up")
    report = []
    for table in event_tables:
        state = tables.table_state(table)
        seats = {x.player: int(seat) for seat, x in state.seats.items() if x.player.casefold() in live}
        before = {p: state.seats[seat].stack for p, seat in seats.items()}
        if not before:
            continue
        result = race(before, todo.chip, to, service.RANDOM)
        changes = result.changes(before)
        seq = None
        if changes:
            moves = [{"seat": seats[p], "amount": v} for p, v in changes.items()]
            entry, _ = tables.append(table, {"type": "correction", "moves": moves, "house": sum(changes.values()),
                                             "reason": f"chip race: the {todo.chip} chips leave (level {todo.level}); "
                                                       f"odd chips race for {to}s"}, user)
            seq = entry.seq
        report.append({"table": table.id, "table_name": table.name, "before": before, "after": result.stacks,
                       "odd": result.odd, "winners": list(result.winners), "kept_in": list(result.kept_in),
                       "log_seq": seq})
    desk_models.record(t, DeskKind.COLOR_UP, user, level=todo.level, chip=todo.chip, to=to, tables=report)
    db.session.commit()
    return report
