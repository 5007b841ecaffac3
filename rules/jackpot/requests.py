"""What happens beside the turn to act: a card faced while the draw is dealt (D12), a player's
request that the opener keep the opening hand (F12) and a hand found holding the wrong number of
cards (D8). Each may be logged for a seat that is not the one to act; the state's ``requests`` list
each with the seats it may concern (each type's check, ``@may`` here, gives them), beside ``legal``.
Events ``expose``, ``keep_openers`` and ``wrong_count``.

D8 (GUIDE, FOSTER): a hand of the wrong size found during the deal is ruled by the tree (issue
``wrong_card_count``): dead after the draw; before it as the house rule says (put right, or dead).
A hand put right keeps its seat in the play; the stub is as the engine counts it once the dealer has
given the missing cards or taken the extra ones back.

D12 (FOSTER): the faced card is dead and set aside (D3 reshuffles only discards, never a card all
have seen); the player's replacement is dealt once every other player has drawn (at once when
nobody else is waiting). The decision tree rules it (issue ``exposed_card``), and the ruling is
logged with the deal.

F12 (CARDROOM, GUIDE): any player may ask the opener to keep the opening hand and show it when the
pot is decided. The engine holds the opener to it: the opener's discards are all kept apart (the
escrow, as for a split), the opener shows at the showdown and may not muck, and an opener who folds
still shows the kept hand before the pot is paid. The opening hand is proved as it always is, with
the kept cards and the escrow (F1); a hand that does not prove openers is ruled by the tree.

>>> from rules.jackpot import replay
>>> setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": s, "player": f"P{s}", "stack": 100} for s in (1, 2, 3)]}
>>> state = replay(setup, [{"type": "deal"}, {"type": "open", "seat": 2},
...                        {"type": "keep_openers", "seat": 3}])
>>> state["keep_openers"], state["message"]
(3, 'seat 3 asks seat 2, the opener, to keep the opening hand and show it at the end (F12)')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import IllegalAction, parse
from rules.jackpot.event_base import Ask, NotNow, SeatEvent, Who, handles, may, one_card
from rules.jackpot.irregularities import irregularity
from rules.jackpot.moves import MenuMove, in_menu
from rules.jackpot.state import IN_DEAL, Phase, SeatStatus, WorkingTable, check_cards

__all__ = ["Expose", "KeepOpeners", "WrongCount", "ExposeMove", "KeepOpenersMove", "WrongCountMove", "expose",
           "keep_openers", "wrong_count", "deal_owed", "expose_seats", "keep_seats", "wrong_count_seats"]


@dataclass(frozen=True)
class Expose(SeatEvent):
    """D12: ``card`` was turned face up while the dealer dealt ``seat`` its draw; the card is dead
    and the seat's replacement comes once every other player has drawn.

    >>> from rules.jackpot.events import parse_event
    >>> e = parse_event({"type": "expose", "seat": 2, "card": "qh"})
    >>> e, e.words()
    (Expose(seat=2, card='Qh'), 'seat 2 has Q♥ faced in the draw (D12)')
    """

    kind = "expose"
    by = Who.DEALER
    said = "{who}has {card} faced in the draw (D12)"
    ask = Ask("A card faced while the draw is dealt (D12)", "Card faced to seat {seat}", "card", "Faced (D12)")
    card: str = ""

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        return {"card": one_card("expose", event, "turned face up")}


@dataclass(frozen=True)
class KeepOpeners(SeatEvent):
    """F12: the player in ``seat`` asks the opener to keep the opening hand and show it once the pot
    is decided."""

    kind = "keep_openers"
    by = Who.DEALER
    said = "{who}asks the opener to keep the opening hand (F12)"
    ask = Ask("A player asks the opener to keep the opening hand (F12)", "Seat {seat} asks the opener to keep the hand",
              open=False)


@dataclass(frozen=True)
class WrongCount(SeatEvent):
    """D8, H6: the hand of ``seat`` is found to hold ``count`` cards, not the game's number; the
    decision tree rules (issue ``wrong_card_count``): dead after the draw, before it as the house
    rule says.

    >>> from rules.jackpot.events import parse_event
    >>> e = parse_event({"type": "wrong_count", "seat": "4", "count": "6"})
    >>> e, e.words({4: "Dee"})
    (WrongCount(seat=4, count=6), 'seat 4 (Dee) holds 6 cards (D8)')
    >>> parse_event({"type": "wrong_count", "seat": 4})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: wrong_count: say how many cards the hand holds (count)
    """

    kind = "wrong_count"
    by = Who.DEALER
    said = "{who}holds {count} cards (D8)"
    ask = Ask("A hand of the wrong number of cards (D8)", "holds", "count", "Wrong count (D8)",
              open=False, choices="counts", pick_seat=True)
    count: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("count") in (None, ""):
            raise IllegalAction("wrong_count: say how many cards the hand holds (count)")
        return {"count": parse.whole(event["count"], "wrong_count: count")}


@dataclass(frozen=True)
class KeepOpenersMove(MenuMove):
    event_type = KeepOpeners
    place = 70

    def event(self, seat: int) -> KeepOpeners:
        return KeepOpeners(self.chosen(seat))


@dataclass(frozen=True)
class ExposeMove(MenuMove):
    event_type = Expose
    place = 71

    def event(self, seat: int, card: str) -> Expose:
        return Expose(self.chosen(seat), one_card("expose", {"card": card}, "turned face up"))


@dataclass(frozen=True)
class WrongCountMove(MenuMove):
    """A hand of one of ``seats`` holds one of ``counts`` cards (not the game's number, nor five)."""

    event_type = WrongCount
    place = 72
    counts: tuple[int, ...]

    def event(self, seat: int, count: int) -> WrongCount:
        if count not in self.counts:
            raise NotNow(f"wrong_count: a hand found the wrong size holds {', '.join(map(str, self.counts))} cards")
        return WrongCount(self.chosen(seat), count)


def expose_seats(t: WorkingTable) -> list[int]:
    """D12: the seats a card may have been faced to while the draw was dealt: those who drew in
    this draw, while it lasts or right after its last draw, no more often than cards drawn."""
    last = t.last_event.kind if t.last_event is not None else None
    if t.phase != Phase.DRAW and not (t.phase in (Phase.POSTDRAW, Phase.SHOWDOWN)
                                      and last in ("draw", "expose")):
        return []
    if t.reopen is not None or t.pack() < 1:  # no card is left to replace a faced one (D3)
        return []
    counts = dict(t.drawn_now)
    return [s for s in t.drew_this_round if t.seats[s].status == SeatStatus.ACTIVE
            and counts.get(s, 0) > t.exposed_now.count(s)]


def keep_askable(t: WorkingTable) -> bool:
    """F12: whether the opener may be asked to keep the opening hand as far as the deal goes: a pot
    opened in a deal, its openers still to prove, nobody has asked yet, no reopen offer waiting.
    The request's check refuses otherwise (:func:`keep_seats`), and declares it
    (``@may(..., when=keep_askable)``)."""
    return (t.opener is not None and t.keep_asked is None and not t.proven and t.reopen is None
            and t.phase != Phase.BETWEEN_DEALS and t.opened)


def keep_seats(t: WorkingTable) -> list[int]:
    """F12: the seats that may ask the opener to keep the opening hand: anyone dealt in but the
    opener, once, while openers are still to prove and the opening hand can still be shown
    (the opener has not thrown any of it into the discards)."""
    o = t.opener
    if o is None or not keep_askable(t):
        return []
    opener = t.seats[o]
    if opener.status != SeatStatus.ACTIVE or (opener.drawn or 0) > len(t.escrow_of(o)):
        return []
    return [s for s in t.dealt if s != o]


def wrong_count_seats(t: WorkingTable) -> list[int]:
    """D8: the hands that may be found the wrong size: every live hand not yet shown (a hand shown
    is judged at the show, H6), while the deal is played (not while the widow card or a reopen
    offer is awaited)."""
    if t.phase == Phase.BETWEEN_DEALS or t.reopen is not None or t.widow_due:
        return []
    return [s for s in t.live() if t.seats[s].shown is None]


def deal_owed(t: WorkingTable) -> None:
    """D12: every other player has drawn: the seats owed a card for one faced get it now."""
    if not t.owed:
        return
    note = t.take_cards(len(t.owed))
    seats = ", ".join(f"seat {s}" for s in t.owed)
    t.message += f"; {seats} now get{'s' if len(t.owed) == 1 else ''} the card in place of the one faced (D12)" + note
    t.owed = ()


def _seated(t: WorkingTable, seat: int | None, kind: str) -> None:
    """A request asked for one seat names a seat of this table (``NotNow`` otherwise)."""
    if seat is not None and seat not in t.seats:
        raise NotNow(f"{kind}: there is no seat {seat} at this table")


@may(Expose, (Phase.DRAW, Phase.POSTDRAW, Phase.SHOWDOWN))
def may_expose(t: WorkingTable, seat: int | None) -> ExposeMove:
    """D12: a card faced to a seat that has drawn, while the draw is dealt."""
    seats = expose_seats(t)
    _seated(t, seat, "expose")
    if seat is not None and seat not in seats:
        raise NotNow(f"expose: a card is faced to seat {seat} only while the draw is dealt, to a player who has "
                     "drawn (and no more often than the cards drawn) (D12)")
    return ExposeMove(in_menu(seat, seats, "expose: no card is being dealt in a draw (D12)"))


@handles(Expose)
def expose(t: WorkingTable, e: Expose, move: ExposeMove) -> None:
    """D12: a card faced in dealing the draw to ``seat``; the tree rules, the play goes on."""
    s = e.seat
    check_cards(t, (e.card,), "expose")
    if any(e.card in (t.seats[x].shown or ()) for x in t.order):
        raise NotNow(f"expose: {e.card} is in a hand already shown")
    if e.card in t.escrow_of(t.opener):
        raise NotNow(f"expose: {e.card} is in escrow")
    waiting = [x for x in t.clockwise(s) if x in t.live() and x not in t.drew_this_round]
    others = t.phase == Phase.DRAW and bool(waiting)
    t.exposed = t.exposed + ((s, e.card),)
    t.exposed_now = t.exposed_now + (s,)
    # the faced card is dead: set aside, never among the discards reshuffled to finish a draw (D3)
    t.message = f"{e.card} faced in dealing seat {s}'s draw"
    irregularity(t, "exposed_card", {"seat": s, "others_to_draw": others})
    if others:
        t.owed = t.owed + (s,)
    else:
        note = t.take_cards(1)
        t.message += f"; seat {s} gets its card now (D12){note}"


@may(KeepOpeners, IN_DEAL, when=keep_askable)
def may_keep_openers(t: WorkingTable, seat: int | None) -> KeepOpenersMove:
    """F12: once, by anyone dealt in but the opener, while the opening hand is whole and unproved."""
    allowed = keep_seats(t)
    _seated(t, seat, "keep_openers")
    if seat is not None and seat not in allowed:
        if t.keep_asked is not None:
            why = f"seat {t.keep_asked} has asked already"
        elif t.opener is None or not t.opened or t.phase == Phase.BETWEEN_DEALS:
            why = "nobody has opened"
        elif t.proven:
            why = "there are no openers to prove in this pot" if t.seats[t.opener].shown is None else \
                "the opener has proved openers"
        elif seat == t.opener:
            why = "the opener does not ask it of themselves"
        elif t.reopen is not None:
            why = "the reopen offer must be answered first (F3)"
        else:
            why = "the opening hand is no longer whole (the opener has discarded it)"
        raise NotNow(f"keep_openers: seat {seat} cannot ask the opener to keep the opening hand: {why} (F12)")
    return KeepOpenersMove(in_menu(seat, allowed, "keep_openers: nobody may ask it now (F12)"))


@handles(KeepOpeners)
def keep_openers(t: WorkingTable, e: KeepOpeners, move: KeepOpenersMove) -> None:
    """F12: ``seat`` asks the opener to keep the opening hand and show it at the end."""
    t.keep_asked = e.seat
    t.message = (f"seat {e.seat} asks seat {t.opener}, the opener, to keep the opening hand and show it at the "
                 "end (F12)")


@may(WrongCount, IN_DEAL)
def may_wrong_count(t: WorkingTable, seat: int | None) -> WrongCountMove:
    """D8: a live hand not yet shown, while a deal is played; the counts a hand of the wrong size may
    hold (not the game's number)."""
    seats = wrong_count_seats(t)
    _seated(t, seat, "wrong_count")
    if seat is not None and seat not in seats:
        raise NotNow(f"wrong_count: seat {seat} holds no live hand still unshown in a deal being played; a hand "
                     "shown is judged at the show (H6) (D8)")
    size = t.profile.hand_size
    # the tree knows five-card hands: in seven-card draw (D15) a hand of five is the floor's to rule
    return WrongCountMove(in_menu(seat, seats, "wrong_count: no hand is being played (D8)"), _wrong_counts(size))


@functools.cache
def _wrong_counts(size: int) -> tuple[int, ...]:
    """The counts a hand of the wrong size may hold in a game of ``size`` cards (not ``size``, nor
    five: the tree knows five-card hands), worked out once a size.

    >>> _wrong_counts(5), _wrong_counts(7)
    ((1, 2, 3, 4, 6, 7, 8, 9, 10), (1, 2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 14))
    """
    return tuple(n for n in range(1, 2 * size + 1) if n not in (size, 5))


@handles(WrongCount)
def wrong_count(t: WorkingTable, e: WrongCount, move: WrongCountMove) -> None:
    """D8, H6: the hand of ``seat`` holds ``count`` cards; the tree rules, found before the draw while
    the seat has not drawn yet, after it otherwise."""
    s, size = e.seat, t.profile.hand_size
    if e.count == size:
        raise NotNow(f"wrong_count: {size} cards is the right number; there is nothing to rule (D8)")
    if e.count == 5:
        raise NotNow(f"wrong_count: a hand of five cards where the game deals {size} is the floor's to rule "
                     "(call the floor) (D8)")
    before = t.seats[s].drawn is None and t.phase in (Phase.PREDRAW, Phase.DRAW)
    t.message = f"seat {s} holds {e.count} cards, not {size}"
    irregularity(t, "wrong_card_count", {"seat": s, "card_count": e.count,
                                         "found": "before_draw" if before else "after_draw"})
