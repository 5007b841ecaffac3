"""The showdown: who shows first (D6), hands shown or mucked, the opener proving openers with the
hand kept (F1, F8, F12, S2), a foul or misdrawn hand (H6, D2), the hand declared where cards do not
speak (H9). Events ``show`` and ``muck``.

An opener who shows a hand that does not prove openers (:func:`rules.openers.proof`: the cards kept,
and the whole escrow after a split) is dead at once; the ruling (best other hand, F8; a failed
split, S2) waits until the other hands are shown or mucked (``t.next_step``, which
:mod:`rules.jackpot.table` hands to :mod:`rules.jackpot.irregularities`). An opener left alone who
mucks has not proved openers (F8).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"))]})
>>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2}).apply({"type": "fold", "seat": 1})
>>> t.legal()
(ShowMove(seat=2, declare=()), MuckMove(seat=2))
>>> t.legal()[0].event("Js Jd 2c 3h 4s")
Show(seat=2, cards=('Js', 'Jd', '2c', '3h', '4s'), declare=None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import CardError, IllegalAction
from rules.hands import categories, declare as declare_hand_value
from rules.jackpot.event_base import Event, NotNow, SeatEvent, Who, card_list, handles, may, without_none
from rules.jackpot.moves import TurnMove, turn_seat
from rules.jackpot.house import rake_off
from rules.jackpot.settlement import award, finish_showdown
from rules.jackpot.state import Phase, Seat, SeatStatus, WorkingTable, check_cards, evaluate
from rules.openers import proof

__all__ = ["Show", "Muck", "ShowMove", "MuckMove", "may_show", "show", "may_muck", "muck", "start_showdown",
           "next_show", "keep_owed"]


@dataclass(frozen=True)
class Show(SeatEvent):
    """Shows a hand at the showdown (D6, F1)."""

    kind = "show"
    by = Who.DEALER
    said = "{who}shows {cards}"
    cards: tuple[str, ...] = ()
    #: the hand's class as its holder declares it, where cards do not speak (H9): "two_pair", ...
    declare: str | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("cards") in (None, "", []):
            raise IllegalAction("show: list the cards shown (cards)")
        declare = event.get("declare")
        if declare is not None and not isinstance(declare, str):
            raise IllegalAction(f"show: declare names the hand's class ('two_pair', 'flush', ...), not {declare!r}")
        return {"cards": card_list(event.get("cards"), "show: cards"), "declare": declare or None}

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "declare")


@dataclass(frozen=True)
class Muck(SeatEvent):
    """Gives up the hand at the showdown."""

    kind = "muck"
    by = Who.DEALER
    said = "{who}mucks"


@dataclass(frozen=True)
class ShowMove(TurnMove):
    """The seat shows its hand; where cards do not speak (H9) it declares one of ``declare``, the
    game's classes."""

    event_type = Show
    place = 50
    declare: tuple[str, ...] = ()

    def event(self, cards: str | list[str] | tuple[str, ...], declare: str | None = None) -> Show:
        if declare is not None and declare not in self.declare:
            raise NotNow(f"seat {self.seat} shows: the hands declared here are {', '.join(self.declare) or 'none'} "
                         "(H9)")
        shown = Show.read({"seat": self.seat, "cards": cards, "declare": declare})
        assert isinstance(shown, Show)
        return shown


@dataclass(frozen=True)
class MuckMove(TurnMove):
    event_type = Muck
    place = 51

    def event(self) -> Muck:
        return Muck(self.seat)


def keep_owed(t: WorkingTable) -> bool:
    """F12: an opener asked to keep the opening hand who folded still shows it at the end."""
    o = t.opener
    return t.keep_asked is not None and o is not None and not t.proven and \
        t.seats[o].status == SeatStatus.FOLDED and t.seats[o].shown is None


def start_showdown(t: WorkingTable) -> None:
    """Showdown order (D6): the last bettor or raiser shows first, else the opener; then clockwise."""
    t.phase = Phase.SHOWDOWN
    live = t.live()
    first = t.last_aggressor if t.last_aggressor in live else t.opener
    if first not in live:
        first = next(x for x in t.clockwise(first if first is not None else t.button) if x in live)
    order = [first] + [x for x in t.clockwise(first) if x in live and x != first]
    t.show_order = tuple(order)
    t.to_act = first
    t.message += f"; showdown: seat {first} shows first (D6)"


def _at_showdown(t: WorkingTable, kind: str, seat: int | None, why: str) -> Seat:
    x = turn_seat(t, kind, seat)
    if t.phase != Phase.SHOWDOWN or t.reopen is not None:
        raise NotNow(f"seat {x.seat} cannot {kind}: {why}")
    return x


@may(Show, (Phase.SHOWDOWN,))
def may_show(t: WorkingTable, seat: int | None) -> ShowMove:
    s = _at_showdown(t, "show", seat, "hands are shown at the showdown").seat
    # H9: the classes a player may declare
    return ShowMove(s, tuple(categories(t.hand_rules())) if t.profile.declared_hands else ())


@handles(Show)
def show(t: WorkingTable, e: Show, move: ShowMove) -> None:
    """Shows a hand. A hand of other than five cards is dead (H6). The opener proves openers with it,
    or with the escrow when openers were split (F1, S2)."""
    s = e.seat
    texts = e.cards  # read once, at the edge (rules.jackpot.events)
    _check_shown(t, s, texts)
    if t.profile.declared_hands and len(texts) == 5:
        declare_hand(t, s, texts, e.declare)
    elif e.declare is not None:
        raise NotNow("show: hands are declared only where cards do not speak (declared_hands, H9)")
    t.set(s, shown=texts)
    if len(texts) == 5 and t.seats[s].drew_four and not any(c[0] == "A" or c == "Jk" for c in texts):
        # D2: four cards were drawn only to an ace kept; a hand without one is dead
        t.set(s, status=SeatStatus.DEAD)
        t.message = f"seat {s} shows {' '.join(texts)}: four cards were drawn without an ace kept, the hand is dead (D2)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    elif len(texts) != 5:
        t.set(s, status=SeatStatus.DEAD)
        t.message = f"seat {s} shows {len(texts)} cards: a foul hand is dead (H6)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    else:
        t.message = f"seat {s} shows {' '.join(texts)}"
        if s == t.opener and not t.proven:
            _prove_openers(t, s, texts)
    if t.phase == Phase.SHOWDOWN:
        next_show(t)


def _check_shown(t: WorkingTable, s: int, texts: tuple[str, ...]) -> None:
    """The cards shown are of the deck, not in escrow nor in another hand, and read as a hand."""
    check_cards(t, texts, "show")
    overlap = [c for c in texts if any(c in esc for _, esc in t.escrow)]
    if overlap:
        raise NotNow(f"show: {overlap[0]} is in escrow, it cannot be in a hand")
    shown = [c for c in texts for x in t.order if x != s and c in (t.seats[x].shown or ())]
    if shown:
        raise NotNow(f"show: {shown[0]} is already in another player's hand")
    if len(texts) == 5:
        try:
            evaluate(texts, t.hand_rules())
        except CardError as exc:
            raise NotNow(f"show: {exc}") from None


def _prove_openers(t: WorkingTable, s: int, texts: tuple[str, ...]) -> None:
    """The opener's five cards shown: the cards kept prove openers, with the escrow after a split
    (F1, S2); otherwise the hand is dead and the ruling waits for the other hands (F8, S2), so
    that it knows whether anyone is left to take the pot."""
    escrow = t.escrow_of(s)
    # with several draws (D13) a card drawn may be drawn again: at least 5 - all drawn are kept
    kept = proof(texts, min(5, t.seats[s].drawn or 0), escrow, wild=t.hand_rules(), minimum=t.requirement)
    if kept is not None:
        t.proven = True
        shown_kept = " ".join(c for c in map(str, kept) if c not in escrow)
        t.message += (f" and, with the escrow {' '.join(escrow)}, proves openers (S2)" if escrow
                      else f" and proves openers with {shown_kept} (F1)")
        return
    t.set(s, status=SeatStatus.DEAD)
    t.unproven, t.unproven_hand = True, texts
    t.message += (", which with the escrow cannot have held openers (S2)" if escrow
                  else ", which does not prove openers: the cards kept hold no openers (F1)")


def declare_hand(t: WorkingTable, s: int, texts: tuple[str, ...], declare: str | None) -> None:
    """H9, cards do not speak: the show names the hand's class; one the cards cannot make is refused
    (:func:`rules.hands.declare`, the check the floor's tree makes too)."""
    order = categories(t.hand_rules())
    if declare is None:
        raise NotNow(f"seat {s} shows: here each player declares the hand (declare: one of {', '.join(order)}) "
                     "(H9)")
    try:
        declare_hand_value(texts, declare, t.hand_rules())
    except ValueError as exc:
        raise NotNow(f"seat {s} declares {declare.replace('_', ' ')} with {' '.join(texts)}: {exc} (H9)") from None
    t.set(s, declared=declare)


@may(Muck, (Phase.SHOWDOWN,))
def may_muck(t: WorkingTable, seat: int | None) -> MuckMove:
    """At the showdown, except an opener asked to keep the opening hand, who shows it (F12)."""
    s = _at_showdown(t, "muck", seat, "hands are mucked at the showdown (fold while betting)").seat
    if s == t.opener and t.keep_asked is not None and not t.proven:
        raise NotNow(f"seat {s} cannot muck: seat {t.keep_asked} asked the opener to keep the opening hand, "
                     "which is shown (F12)")
    return MuckMove(s)


@handles(Muck)
def muck(t: WorkingTable, e: Muck, move: MuckMove) -> None:
    """Gives up the hand at the showdown. An opener left alone who mucks has not proved openers (F8)."""
    s = e.seat
    t.set(s, status=SeatStatus.FOLDED)
    t.message = f"seat {s} mucks"
    if s == t.opener and not t.proven and not t.live():
        t.unproven, t.unproven_hand = True, None  # F8: left alone, the opener did not prove openers
    if t.phase == Phase.SHOWDOWN:
        next_show(t)


def next_show(t: WorkingTable) -> None:
    """Ask the next hand, or settle the pot once every hand is shown or mucked.

    An opener who did not prove openers waits for the other hands; then a ruling is needed
    (``t.next_step``), which :mod:`rules.jackpot.table` asks :mod:`rules.jackpot.irregularities` for.
    """
    live = t.live()
    pending = [x for x in t.show_order if x in live and t.seats[x].shown is None]
    must_show = t.profile.trips_to_win and not t.low
    uncontested = len(live) == 1 and not (live[0] == t.opener and not t.proven) and not must_show
    if keep_owed(t) and (not pending or uncontested):
        # F12: the opener who folded shows the kept opening hand before the pot is paid
        t.phase, t.to_act = Phase.SHOWDOWN, t.opener
        t.message += f"; seat {t.opener}, who opened, shows the opening hand kept at seat {t.keep_asked}'s request (F12)"
        return
    if pending:
        # The one live hand left wins without showing, as an uncontested pot (D7), whether the
        # others were mucked or found dead (a false opener, a failed split): an opener must still
        # prove openers (F1), and with trips to win the hand must show three of a kind (D9).
        if uncontested:
            if t.unproven:
                t.next_step = "rule_unproven"  # the dead opener's ruling gives it the pot
                return
            w = live[0]
            amount = t.pot
            award(t, {w: rake_off(t, [amount])[0]})
            t.message += f"; seat {w} takes the pot of {amount}, the other hands given up"
            return
        t.to_act = pending[0]
        return
    if t.unproven:
        t.next_step = "rule_unproven"
        return
    finish_showdown(t)
