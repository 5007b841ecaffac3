"""Betting once the pot is open: calls, checks, bets, raises and folds (D5, D14, D17), straddles and the
blinds' option (O2, O7 in the basic game), and the blinds themselves. Events ``call``, ``check``,
``bet``, ``raise``, ``fold`` and ``straddle``; the opening is :mod:`rules.jackpot.opening`. Each
action ends by moving the turn on (:func:`rules.jackpot.flow.after_action`).

* A short all-in opening or bet sets the amount to call; a raise always adds one full bet to it.
* A player who passed before the opening may call or raise once the pot is opened: passing only
  declines to open (O2).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1, "seats": [
...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
>>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2})
>>> t.legal()
(CallMove(seat=3, amount=10), RaiseMove(seat=3, amount=20, amounts=()), FoldMove(seat=3))
>>> t.legal()[1].event()
Raise(seat=3, amount=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.jackpot.event_base import NotNow, SeatEvent, Who, WithAmount, handles, may, without_none
from rules.jackpot.flow import after_action
from rules.jackpot.moves import BigBetRepr, TurnMove, turn_seat
from rules.jackpot.state import Phase, Seat, SeatStatus, WorkingTable

__all__ = ["Call", "Check", "Bet", "Raise", "Fold", "Straddle", "CallMove", "CheckMove", "BetMove", "RaiseMove",
           "FoldMove", "StraddleMove", "call", "check", "bet", "raise_", "fold", "straddle", "post_blind",
           "bet_range", "big_bet_bounds", "BIG_BET", "betting_seat", "record_bet", "raise_level"]


@dataclass(frozen=True)
class Call(SeatEvent):
    kind = "call"
    by = Who.DEALER
    said = "{who}calls"


@dataclass(frozen=True)
class Fold(SeatEvent):
    kind = "fold"
    by = Who.DEALER
    said = "{who}folds"


@dataclass(frozen=True)
class Check(SeatEvent):
    kind = "check"
    by = Who.DEALER
    said = "{who}checks"


@dataclass(frozen=True)
class Bet(WithAmount):
    """A bet; ``amount`` (the chips put in) only matters with spread betting (D17)."""

    kind = "bet"
    by = Who.DEALER
    said = "{who}bets"

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "amount")


@dataclass(frozen=True)
class Raise(WithAmount):
    """A raise; ``amount`` (the chips put in, the call included) only matters with spread betting (D17)."""

    kind = "raise"
    by = Who.DEALER
    said = "{who}raises"

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "amount")


@dataclass(frozen=True)
class Straddle(SeatEvent):
    """A blind raise to twice the big blind, by the first player after the blinds (O2)."""

    kind = "straddle"
    by = Who.DEALER
    said = "{who}straddles"


# ------------------------------------------------------------------ the moves


@dataclass(frozen=True)
class StraddleMove(TurnMove):
    """A straddle of ``amount`` chips (O2, O7)."""

    event_type = Straddle
    place = 60
    amount: int

    def event(self) -> Straddle:
        return Straddle(self.seat)


@dataclass(frozen=True)
class CheckMove(TurnMove):
    event_type = Check
    place = 61

    def event(self) -> Check:
        return Check(self.seat)


@dataclass(frozen=True)
class CallMove(TurnMove):
    """A call of ``amount`` chips (all a short stack has, when less)."""

    event_type = Call
    place = 62
    amount: int

    def event(self) -> Call:
        return Call(self.seat)


@dataclass(frozen=True, repr=False)
class _Chips(BigBetRepr, TurnMove):
    """A bet or a raise: ``amount`` chips put in (the call included), the least; with spread betting
    (D17) ``amounts`` lists every amount allowed, and the event may name one. In pot limit and no
    limit (the house's ``betting`` "pot" or "no_limit") any amount from ``amount`` to ``most`` is
    allowed, and ``bounds`` says in words, with the numbers, where the least and the most come from."""

    amount: int
    amounts: tuple[int, ...] = ()
    most: int | None = None
    bounds: str | None = None

    def allows(self, amount: int) -> bool:
        """Whether the move puts in ``amount`` chips."""
        if self.most is not None:
            return self.amount <= amount <= self.most
        return amount in (self.amounts or (self.amount,))

    def words(self) -> str:
        if self.most is not None and self.most > self.amount:
            return f"{self.kind} {self.amount} to {self.most}"
        return super().words()

    def check_amount(self, amount: int | None) -> None:
        """Refuse an ``amount`` the move does not allow (None is the least, as the engine takes it)."""
        if amount is None or self.allows(amount):
            return
        if self.most is not None:
            raise NotNow(f"seat {self.seat} cannot {self.kind} {amount}: {self.bounds} (D5)")
        low, high = (self.amounts[0], self.amounts[-1]) if self.amounts else (self.amount, self.amount)
        what = f"{low} to {high}" if high > low else str(low)
        raise NotNow(f"seat {self.seat} cannot {self.kind} {amount}: the {self.kind} here puts in {what} "
                     "(D5, D17)")


@dataclass(frozen=True, repr=False)
class BetMove(_Chips):
    event_type = Bet
    place = 63

    def event(self, amount: int | None = None) -> Bet:
        self.check_amount(amount)
        return Bet(self.seat, amount)


@dataclass(frozen=True, repr=False)
class RaiseMove(_Chips):
    event_type = Raise
    place = 64

    def event(self, amount: int | None = None) -> Raise:
        self.check_amount(amount)
        return Raise(self.seat, amount)


@dataclass(frozen=True)
class FoldMove(TurnMove):
    event_type = Fold
    place = 65

    def event(self) -> Fold:
        return Fold(self.seat)


# ------------------------------------------------------------------ what a bet puts in


def bet_range(t: WorkingTable, base: int, stack: int) -> tuple[int, int]:
    """The least and the most chips a bet (or a raise) puts in over ``base`` (the call), capped by
    the ``stack``: one bet of the fixed limit's small or big bet, or with spread betting any
    amount of the spread, doubled after the draw (D5, D17); in pot limit and no limit
    (:func:`big_bet_bounds`) from a full bet or raise up to the pot after the call, or the stack.
    Every amount between is allowed."""
    if t.profile.betting in BIG_BET:
        return big_bet_bounds(t, base, stack)[:2]
    after = t.phase == Phase.POSTDRAW
    if t.profile.spread is None:
        low = high = t.big_bet if after else t.small_bet
    else:
        factor = 2 if after else 1
        low, high = (x * factor for x in t.profile.spread)
    return min(base + low, stack), min(base + high, stack)


#: The betting structures whose bets are bounded by the pot or the stack, not by the limit's bet.
BIG_BET = ("pot", "no_limit")


def big_bet_bounds(t: WorkingTable, base: int, stack: int) -> tuple[int, int, str]:
    """Pot limit and no limit (the house's ``betting``): the least and the most chips a bet or a
    raise puts in over the call ``base``, and the bounds in words with their numbers.

    The least is a full bet or raise: the limit's bet (the small bet before the draw, the big bet
    after) or the last bet or raise of this round, whichever is more. The most is, in pot limit,
    the pot after the call (every chip in the jackpot, this round's bets and the call included);
    in no limit, the stack. A stack too short for the least goes all in for what it has.

    >>> from rules.jackpot import start
    >>> t = start({"profile": {"betting": "pot"}, "ante": 5, "small_bet": 10, "button": 1, "seats": [
    ...     {"seat": s, "player": p, "stack": 500} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
    >>> t = t.apply({"type": "deal"}).apply({"type": "open", "seat": 2, "amount": 15})
    >>> t.legal()[1]
    RaiseMove(seat=3, amount=30, amounts=(), most=60, bounds='in pot limit a raise here puts in 30 to 60: the call of 15, then a raise of at least 15 (the last bet or raise) and at most 45 (the pot after the call)')
    """
    after = t.phase == Phase.POSTDRAW
    limit_bet = t.big_bet if after else t.small_bet
    least = max(limit_bet, t.last_raise)
    pot_limit = t.profile.betting == "pot"
    most = t.pot + base if pot_limit else stack - base
    most = max(least, most)
    low, high = min(base + least, stack), min(base + most, stack)
    kind = "raise" if base > 0 or t.bet_level > 0 else "bet"
    structure = "pot limit" if pot_limit else "no limit"
    what = f"{low} to {high}" if high > low else f"{low} (all in)"
    full = "the last bet or raise" if t.last_raise > limit_bet else f"the {'big' if after else 'small'} bet"
    ceiling = "the pot after the call" if pot_limit else "the stack"
    if kind == "raise":
        words = (f"in {structure} a raise here puts in {what}: the call of {base}, then a raise of at least "
                 f"{least} ({full}) and at most {most} ({ceiling})")
    else:
        words = (f"in {structure} a bet here is {what}: at least {least} ({full}), at most {most} "
                 f"({'the pot' if pot_limit else 'the stack'})")
    if high < base + least:
        words += f"; {stack} chips behind: all in for {high}"
    return low, high, words


def _amounts(t: WorkingTable, base: int, stack: int) -> tuple[int, tuple[int, ...], int | None, str | None]:
    """A bet's or raise's least amount and, with spread betting, every amount allowed; in pot limit
    and no limit the most and the bounds in words (:func:`big_bet_bounds`)."""
    if t.profile.betting in BIG_BET:
        low, high, words = big_bet_bounds(t, base, stack)
        return low, (), high, words
    low, high = bet_range(t, base, stack)
    return low, tuple(range(low, high + 1)) if t.profile.spread is not None else (), None, None


def betting_round(t: WorkingTable) -> bool:
    """Whether a betting round is under way: before the draw once the pot is opened, or after the
    draw. The betting checks refuse outside one (:func:`betting_seat`), and declare it
    (``@may(..., when=betting_round)``): ``legal()`` does not ask them outside one.

    >>> from rules.jackpot import start
    >>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
    ...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
    >>> t = t.apply({"type": "deal"})
    >>> betting_round(t._t), [m.kind for m in t.legal()]
    (False, ['pass', 'open'])
    >>> t = t.apply({"type": "open", "seat": 2})
    >>> betting_round(t._t), [m.kind for m in t.legal()]
    (True, ['call', 'raise', 'fold'])
    """
    return t.phase == Phase.POSTDRAW or (t.phase == Phase.PREDRAW and t.opened)


def betting_seat(t: WorkingTable, kind: str, seat: int | None) -> Seat:
    """The seat that may bet now: its turn, in a betting round of an opened pot, no reopen offer
    waiting (F3)."""
    x = turn_seat(t, kind, seat)
    s = x.seat
    if t.reopen is not None:
        raise NotNow(f"seat {s} cannot {kind}: the reopen offer must be answered first (F3)")
    if not betting_round(t):
        what = "the pot is not open yet" if t.phase == Phase.PREDRAW else f"this is the {t.phase}"
        raise NotNow(f"seat {s} cannot {kind}: {what}")
    return x


def checked_in_low(t: WorkingTable, s: int) -> bool:
    """D14: with the house's no check-raise, whether seat ``s`` checked (or passed before the
    opening) in this betting round of the low part of jacks back."""
    return (t.low and t.profile.jacks_back_no_check_raise
            and (s in t.checked or (t.phase == Phase.PREDRAW and s in t.passed)))


def straddles_left(t: WorkingTable) -> bool:
    """Whether the house plays blinds and straddles, and this deal has not had all the straddles
    the house allows (O2, O7): the straddle's check refuses otherwise (:func:`straddle_amount`),
    and declares it (``@may(..., when=straddles_left)``)."""
    return t.profile.blinds is not None and t.straddled < t.profile.straddles


def straddle_amount(t: WorkingTable, s: int) -> int | None:
    """What seat ``s`` puts in to straddle now, or None: with the house's straddle, the first
    to act after the blinds, before anyone has acted, may post a blind raise to twice the big
    blind (O2, the basic game)."""
    blinds = t.profile.blinds
    # O7: each re-straddle by the next player doubles the last blind raise, up to the house's number
    if (not straddles_left(t) or blinds is None or t.phase != Phase.PREDRAW
            or t.to_act != s or t.bet_level != blinds[1] << t.straddled
            or any(x.acted for x in t.seats.values())):
        return None
    want = 2 * t.bet_level - t.seats[s].committed
    return want if t.seats[s].stack > want else None


def raise_level(t: WorkingTable, s: int) -> None:
    """Seat ``s`` has bet or raised: its chips in this round are the bet to call, and the bet or
    raise, when a full one, is the least the next raise adds in pot limit and no limit (a short
    all-in raise leaves the least as it was)."""
    added = t.seats[s].committed - t.bet_level
    if added >= t.last_raise:
        t.last_raise = added
    t.bet_level = t.seats[s].committed
    t.last_aggressor = s


def record_bet(t: WorkingTable, s: int, amount: int) -> None:
    """Chips bet by seat ``s``; the opener's bets are kept apart for the floor (F2, F6)."""
    t.put_chips(s, amount)
    if s == t.opener and amount > 0:
        t.opener_bets = t.opener_bets + (amount,)


def post_blind(t: WorkingTable, s: int, amount: int, what: str) -> None:
    """A blind bet posted before the cards are seen: it opens the pot, the betting goes on after it,
    and the blind may still raise when everyone has only called (its ``acted`` stays false)."""
    paid = min(amount, t.seats[s].stack)
    t.put_chips(s, paid)
    t.opened, t.proven = True, True
    if t.seats[s].committed > t.bet_level:
        raise_level(t, s)
    else:
        t.last_aggressor = s
    t.message += f"; seat {s} posts the {what} of {paid}"


def _reopen_action(t: WorkingTable, s: int) -> None:
    """After a bet or raise everyone else still able to bet must act again."""
    for x in t.live():
        t.set(x, acted=(x == s))


# ------------------------------------------------------------------ each action: may it happen now, and doing it


@may(Call, (Phase.PREDRAW, Phase.POSTDRAW), when=betting_round)
def may_call(t: WorkingTable, seat: int | None) -> CallMove:
    x = betting_seat(t, "call", seat)
    to_call = t.bet_level - x.committed
    if to_call <= 0:
        raise NotNow(f"seat {x.seat} cannot call: there is no bet to call")
    return CallMove(x.seat, min(to_call, x.stack))


@handles(Call)
def call(t: WorkingTable, e: Call, move: CallMove) -> None:
    s = e.seat
    record_bet(t, s, move.amount)
    if t.phase == Phase.PREDRAW and t.raises == 0:
        t.callers += 1
    t.set(s, acted=True)
    t.message = f"seat {s} calls {move.amount}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


@may(Check, (Phase.PREDRAW, Phase.POSTDRAW), when=betting_round)
def may_check(t: WorkingTable, seat: int | None) -> CheckMove:
    x = betting_seat(t, "check", seat)
    if t.bet_level > x.committed:
        raise NotNow(f"seat {x.seat} cannot check: there is a bet of {t.bet_level - x.committed} to call")
    return CheckMove(x.seat)


@handles(Check)
def check(t: WorkingTable, e: Check, move: CheckMove) -> None:
    s = e.seat
    if t.phase == Phase.PREDRAW and t.raises == 0 and s != t.opener:
        t.callers += 1  # the opening bet was nothing (an all-in opener, O6): checking calls it
    t.set(s, acted=True)
    t.checked = t.checked + (s,)
    if t.low and t.phase == Phase.POSTDRAW and t.profile.jacks_back_sevens and s not in dict(t.sevens):
        # D14's sevens rule: what everyone had bet when this player checked after the draw
        t.sevens = t.sevens + ((s, tuple((x, t.seats[x].bets) for x in t.dealt)),)
    t.message = f"seat {s} checks"
    after_action(t, s)


@may(Bet, (Phase.PREDRAW, Phase.POSTDRAW), when=betting_round)
def may_bet(t: WorkingTable, seat: int | None) -> BetMove:
    x = betting_seat(t, "bet", seat)
    if t.bet_level > 0:
        raise NotNow(f"seat {x.seat} cannot bet: there is already a bet (call or raise it)")
    if x.stack == 0:  # pragma: no cover - all-in seats are never asked
        raise NotNow(f"seat {x.seat} cannot bet: no chips left")
    return BetMove(x.seat, *_amounts(t, 0, x.stack))


@handles(Bet)
def bet(t: WorkingTable, e: Bet, move: BetMove) -> None:
    s = e.seat
    move.check_amount(e.amount)
    amount = move.amount if e.amount is None else e.amount
    record_bet(t, s, amount)
    raise_level(t, s)
    _reopen_action(t, s)
    t.message = f"seat {s} bets {amount}"
    after_action(t, s)


@may(Raise, (Phase.PREDRAW, Phase.POSTDRAW), when=betting_round)
def may_raise(t: WorkingTable, seat: int | None) -> RaiseMove:
    x = betting_seat(t, "raise", seat)
    s, to_call = x.seat, t.bet_level - x.committed
    if t.bet_level == 0:
        raise NotNow(f"seat {s} cannot raise: there is no bet yet (bet instead)")
    if checked_in_low(t, s):
        raise NotNow(f"seat {s} cannot raise: seat {s} checked in this round, and check-raising is not played "
                     "in the low part of jacks back (D14)")
    cap = t.profile.raise_cap
    if cap is not None and t.raises >= cap:
        raise NotNow(f"seat {s} cannot raise: the raise cap of {cap} is reached (D5)")
    if x.stack <= to_call:
        raise NotNow(f"seat {s} cannot raise: {x.stack} chips only call the {to_call} due")
    return RaiseMove(s, *_amounts(t, max(0, to_call), x.stack))


@handles(Raise)
def raise_(t: WorkingTable, e: Raise, move: RaiseMove) -> None:
    s = e.seat
    move.check_amount(e.amount)
    amount = move.amount if e.amount is None else e.amount
    record_bet(t, s, amount)
    raise_level(t, s)
    t.raises += 1
    if t.phase == Phase.PREDRAW:
        t.raised_before_draw = True
    _reopen_action(t, s)
    t.message = f"seat {s} raises to {t.bet_level}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


@may(Fold, (Phase.PREDRAW, Phase.POSTDRAW), when=betting_round)
def may_fold(t: WorkingTable, seat: int | None) -> FoldMove:
    return FoldMove(betting_seat(t, "fold", seat).seat)


@handles(Fold)
def fold(t: WorkingTable, e: Fold, move: FoldMove) -> None:
    s = e.seat
    t.set(s, status=SeatStatus.FOLDED, acted=True)
    t.message = f"seat {s} folds"
    after_action(t, s)


@may(Straddle, (Phase.PREDRAW,), when=straddles_left)
def may_straddle(t: WorkingTable, seat: int | None) -> StraddleMove:
    s = turn_seat(t, "straddle", seat).seat
    amount = straddle_amount(t, s)
    if amount is None:
        raise NotNow(f"seat {s} cannot straddle: only the first to act after the blinds (or, where the house "
                     "allows re-straddles, after the last straddle) before anyone has acted (O2, O7)")
    return StraddleMove(s, amount)


@handles(Straddle)
def straddle(t: WorkingTable, e: Straddle, move: StraddleMove) -> None:
    """A straddle: the first player after the blinds posts a blind raise to twice the big blind;
    the betting starts after the straddler, who keeps the option to raise (O2, the basic game)."""
    s = e.seat
    record_bet(t, s, move.amount)
    raise_level(t, s)
    t.straddled += 1
    t.set(s, acted=False)  # a blind: the straddler may still raise when everyone has only called
    t.message = f"seat {s} {'re-straddles' if t.straddled > 1 else 'straddles'} to {t.bet_level}"
    after_action(t, s)
