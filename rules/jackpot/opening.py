"""Opening the pot: passing (O2, O3), declaring openers with the opening bet (O1, O2, O6, D17), and in
jacks back the turn to low when nobody opens (D10). Events ``pass`` and ``open``; during a reopen
offer a pass declines to reopen (F3, :mod:`rules.jackpot.irregularities`).

* The opening bet is the small bet, or the opener's whole stack when it is smaller (O6).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"))]})
>>> t = t.apply({"type": "deal"})
>>> [m.event() for m in t.legal()]
[Pass(seat=2), Open(seat=2, amount=None)]
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.jackpot.betting import BIG_BET, big_bet_bounds, bet_range, post_blind, raise_level
from rules.jackpot.event_base import NotNow, SeatEvent, Who, WithAmount, handles, may
from rules.jackpot.flow import after_action
from rules.jackpot.irregularities import decline_reopen
from rules.jackpot.moves import BigBetRepr, TurnMove, turn_seat
from rules.jackpot.settlement import throw_in
from rules.jackpot.state import IN_DEAL, Phase, Seat, WorkingTable

__all__ = ["Pass", "Open", "PassMove", "OpenMove", "may_pass", "pass_", "may_open", "open_", "opening_amounts"]


@dataclass(frozen=True)
class Pass(SeatEvent):
    """Declines to open (O2); during a reopen offer, declines to reopen (F3)."""

    kind = "pass"
    by = Who.DEALER
    said = "{who}passes"


@dataclass(frozen=True)
class Open(WithAmount):
    """Declares openers and bets (O1, O2, O6); ``amount`` is optional and checked by the table."""

    kind = "open"
    by = Who.DEALER
    said = "{who}opens"


@dataclass(frozen=True)
class PassMove(TurnMove):
    event_type = Pass
    place = 31

    def event(self) -> Pass:
        return Pass(self.seat)


@dataclass(frozen=True, repr=False)
class OpenMove(BigBetRepr, TurnMove):
    """An opening of ``amount`` chips unless the event names another of ``amounts`` (O2: an opening
    with a raise, declaring openers with a check; D17: any amount of the spread)."""

    event_type = Open
    place = 32
    amount: int
    amounts: tuple[int, ...] = ()
    most: int | None = None  # pot limit, no limit: any opening from ``amount`` to ``most``
    bounds: str | None = None  # ... and where those come from, in words with the numbers

    def event(self, amount: int | None = None) -> Open:
        self.check_amount(amount)
        return Open(self.seat, amount)

    def allows(self, amount: int) -> bool:
        """Whether the opener may put in ``amount`` chips."""
        return amount in self.amounts or (self.most is not None and self.amount <= amount <= self.most)

    def check_amount(self, amount: int | None) -> None:
        """Refuse an ``amount`` the opening does not allow (None: the opening bet due)."""
        if amount is None or self.allows(amount):
            return
        if self.most is not None:
            check = " (or 0, declaring openers with a check)" if 0 in self.amounts else ""
            raise NotNow(f"seat {self.seat} cannot open for {amount}: the opening is a bet, and "
                         f"{self.bounds}{check} (O2, D5)")
        allowed = " or ".join(map(str, self.amounts))
        raise NotNow(f"seat {self.seat} cannot open for {amount}: the opening bet here is {allowed} (O2)")

    def words(self) -> str:
        if self.most is not None:
            return f"open for {self.amount} to {self.most}"
        return "open for " + " or ".join(map(str, self.amounts))


def opening_amounts(t: WorkingTable, seat: Seat) -> tuple[int, tuple[int, ...]]:
    """The opening bet due when none is named (the small bet, the least of the spread, or a short
    stack's all: :func:`rules.jackpot.betting.bet_range`), and what an opener may put in (O2, O6):
    two small bets too where the house lets a player open with a raise, nothing where it lets a
    player open by checking; with spread betting any amount of the spread (D17)."""
    due, high = bet_range(t, 0, seat.stack)
    if t.profile.betting in BIG_BET:  # pot limit, no limit: any opening from the least to the most
        return due, (0,) if t.profile.check_open and due > 0 else ()
    if t.profile.spread is not None:  # D17: any opening bet within the spread
        amounts = list(range(due, high + 1))
        return due, tuple(([0] if t.profile.check_open and amounts[0] > 0 else []) + amounts)
    amounts = [due]
    if t.profile.open_with_raise and seat.stack > t.small_bet:
        amounts.append(min(2 * t.small_bet, seat.stack))
    if t.profile.check_open and due > 0:
        amounts.insert(0, 0)
    return due, tuple(amounts)


def opening_round(t: WorkingTable) -> bool:
    """Whether the pot may still be opened: before the draw, nobody has opened (O1, O2)."""
    return t.phase == Phase.PREDRAW and not t.opened


def passing(t: WorkingTable) -> bool:
    """Whether a pass may be logged: to decline to open (O2), or to decline a reopen offer (F3)."""
    return t.reopen is not None or opening_round(t)


@may(Pass, IN_DEAL, when=passing)
def may_pass(t: WorkingTable, seat: int | None) -> PassMove:
    """Before the pot is opened; or, during a reopen offer, to decline it (F3)."""
    s = turn_seat(t, "pass", seat).seat
    if not passing(t):
        raise NotNow(f"seat {s} cannot pass: passing only declines to open, and the pot is open")
    return PassMove(s)


@handles(Pass)
def pass_(t: WorkingTable, e: Pass, move: PassMove) -> None:
    """Declines to open (O2), or during a reopen offer declines to reopen (F3); when nobody is left to
    open the cards are thrown in (O3), or in jacks back played for low (D10)."""
    if t.reopen is not None:
        decline_reopen(t, e)
        return
    s = e.seat
    t.passed = t.passed + (s,)
    live = t.live()
    following = [x for x in t.clockwise(s) if x in live and x not in t.passed]
    if following:
        t.to_act = following[0]
        t.message = f"seat {s} passes"
    elif t.profile.jacks_back and not t.low:
        _turn_to_low(t, s)
    else:
        throw_in(t)


def _turn_to_low(t: WorkingTable, s: int) -> None:
    """D10, jacks back: nobody opened, so the same hands are played for ace-to-five low, with a fresh
    betting round from the button's left in which anyone may open (and nothing needs proving); with
    the house's blind, the first player posts it and the betting starts after the blind."""
    # the requirement stays as it was: nothing needs proving while ``low`` (open_ below), and if the
    # low round is thrown in too the next deal of the pot needs openers again (O1, O5)
    t.low, t.passed, t.checked = True, (), ()
    t.message = f"seat {s} passes; nobody opened: the hands are played for low (D10)"
    first = next(x for x in t.clockwise(t.button) if x in t.live())
    t.to_act = first
    if t.profile.jacks_back_blind:
        post_blind(t, first, t.small_bet, "low blind")
        after_action(t, first)


@may(Open, (Phase.PREDRAW,), when=opening_round)
def may_open(t: WorkingTable, seat: int | None) -> OpenMove:
    """The seat to act before the pot is opened, no reopen offer waiting (F3 reopens with ``reopen``)."""
    x = turn_seat(t, "open", seat)
    if t.reopen is not None:
        raise NotNow(f"seat {x.seat} cannot open: false openers were found; the pot is reopened with 'reopen'")
    if not opening_round(t):
        raise NotNow(f"seat {x.seat} cannot open: the pot is already open")
    due, amounts = opening_amounts(t, x)
    if t.profile.betting in BIG_BET:
        _, most, bounds = big_bet_bounds(t, 0, x.stack)
        return OpenMove(x.seat, due, amounts, most, bounds)
    return OpenMove(x.seat, due, amounts)


@handles(Open)
def open_(t: WorkingTable, e: Open, move: OpenMove) -> None:
    """Declares openers and bets the small bet, or all a short stack has, even nothing (O1, O2, O6)."""
    s = e.seat
    move.check_amount(e.amount)
    due = move.amount if e.amount is None else e.amount
    stack = t.seats[s].stack
    t.put_chips(s, due)
    t.opened, t.opener, t.opener_bets = True, s, (due,)
    # nothing to prove where no openers are needed: California (O1 'none') or the low round (D10)
    t.proven = t.requirement == "none" or t.low
    # Opening with a raise counts toward the raise cap; it is the opener's opening bet all the same
    # (F2 leaves all of it in the pot), and not "a raise" that makes a false opener's pot play (F5),
    # which protects the players who came in against the opener.
    # any spread amount is an opening bet (D17), and so is any amount in pot limit and no limit
    raised = due > t.small_bet and t.profile.betting == "fixed"
    raise_level(t, s)
    t.raises = int(raised)
    t.set(s, acted=True)
    if due == 0 and stack > 0:
        t.message = f"seat {s} declares openers and checks: the pot is open (O2)"
    elif raised:
        t.message = f"seat {s} opens with a raise to {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    else:
        t.message = f"seat {s} opens for {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)
