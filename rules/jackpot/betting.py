"""Betting: opening the pot (O1, O2, O6), calls, checks, bets, raises and folds (D5), straddles and
the blinds' option (O2 in the basic game). Each action ends by moving the turn on
(:func:`rules.jackpot.flow.after_action`).
"""

from __future__ import annotations

import rules.jackpot.events as ev
from rules.jackpot.flow import after_action
from rules.jackpot.state import Phase, Seat, SeatStatus, WorkingTable

__all__ = ["open_", "call", "check", "bet", "raise_", "fold", "straddle"]


@ev.handles(ev.Open)
def open_(t: WorkingTable, e: ev.Open) -> None:
    """Declares openers and bets the small bet, or all a short stack has, even nothing (O1, O2, O6)."""
    s = e.seat
    if t.reopen is not None:
        t.check_turn("open", s)
        raise t.refuse(f"seat {s} cannot open: false openers were found; the pot is reopened with 'reopen'")
    seat = t.check_turn("open", s)
    if t.phase != Phase.PREDRAW or t.opened:
        raise t.refuse(f"seat {s} cannot open: the pot is already open")
    amounts = t.opening_amounts(seat)
    due = t.opening_default(seat) if e.amount is None else e.amount
    if due not in amounts:
        allowed = " or ".join(map(str, amounts))
        raise t.refuse(f"seat {s} cannot open for {e.amount}: the opening bet here is {allowed} (O2)")
    t.put_chips(s, due)
    t.opened, t.opener, t.opener_bets = True, s, (due,)
    # nothing to prove where no openers are needed: California (O1 'none') or the low round (D10)
    t.proven = t.requirement == "none" or t.low
    # Opening with a raise counts toward the raise cap; it is the opener's opening bet all the same
    # (F2 leaves all of it in the pot), and not "a raise" that makes a false opener's pot play (F5),
    # which protects the players who came in against the opener.
    raised = due > t.small_bet and t.profile.spread is None  # any spread amount is an opening bet (D17)
    t.bet_level, t.raises, t.last_aggressor = t.seats[s].committed, int(raised), s
    t.set(s, acted=True)
    if due == 0 and seat.stack > 0:
        t.message = f"seat {s} declares openers and checks: the pot is open (O2)"
    elif raised:
        t.message = f"seat {s} opens with a raise to {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    else:
        t.message = f"seat {s} opens for {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


def _betting_seat(t: WorkingTable, kind: str, s: int) -> Seat:
    if t.reopen is not None:
        t.check_turn(kind, s)
        raise t.refuse(f"seat {s} cannot {kind}: the reopen offer must be answered first (F3)")
    seat = t.check_turn(kind, s)
    if t.phase not in (Phase.PREDRAW, Phase.POSTDRAW) or (t.phase == Phase.PREDRAW and not t.opened):
        what = "the pot is not open yet" if t.phase == Phase.PREDRAW else f"this is the {t.phase}"
        raise t.refuse(f"seat {s} cannot {kind}: {what}")
    return seat


def _record_bet(t: WorkingTable, s: int, amount: int) -> None:
    t.put_chips(s, amount)
    if s == t.opener and amount > 0:
        t.opener_bets = t.opener_bets + (amount,)


@ev.handles(ev.Call)
def call(t: WorkingTable, e: ev.Call) -> None:
    s = e.seat
    seat = _betting_seat(t, "call", s)
    to_call = t.bet_level - seat.committed
    if to_call <= 0:
        raise t.refuse(f"seat {s} cannot call: there is no bet to call")
    amount = min(to_call, seat.stack)
    _record_bet(t, s, amount)
    if t.phase == Phase.PREDRAW and t.raises == 0:
        t.callers += 1
    t.set(s, acted=True)
    t.message = f"seat {s} calls {amount}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


@ev.handles(ev.Check)
def check(t: WorkingTable, e: ev.Check) -> None:
    s = e.seat
    seat = _betting_seat(t, "check", s)
    if t.bet_level > seat.committed:
        raise t.refuse(f"seat {s} cannot check: there is a bet of {t.bet_level - seat.committed} to call")
    if t.phase == Phase.PREDRAW and t.raises == 0 and s != t.opener:
        t.callers += 1  # the opening bet was nothing (an all-in opener, O6): checking calls it
    t.set(s, acted=True)
    t.checked = t.checked + (s,)
    if t.low and t.phase == Phase.POSTDRAW and t.profile.jacks_back_sevens and s not in dict(t.sevens):
        # D14's sevens rule: what everyone had bet when this player checked after the draw
        t.sevens = t.sevens + ((s, tuple((x, t.seats[x].bets) for x in t.dealt)),)
    t.message = f"seat {s} checks"
    after_action(t, s)


@ev.handles(ev.Bet)
def bet(t: WorkingTable, e: ev.Bet) -> None:
    s = e.seat
    seat = _betting_seat(t, "bet", s)
    if t.bet_level > 0:
        raise t.refuse(f"seat {s} cannot bet: there is already a bet (call or raise it)")
    if seat.stack == 0:  # pragma: no cover - all-in seats are never asked
        raise t.refuse(f"seat {s} cannot bet: no chips left")
    amount = _chosen(t, "bet", s, e.amount, 0, seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    _reopen_action(t, s)
    t.message = f"seat {s} bets {amount}"
    after_action(t, s)


@ev.handles(ev.Raise)
def raise_(t: WorkingTable, e: ev.Raise) -> None:
    s = e.seat
    seat = _betting_seat(t, "raise", s)
    to_call = t.bet_level - seat.committed
    if t.bet_level == 0:
        raise t.refuse(f"seat {s} cannot raise: there is no bet yet (bet instead)")
    if t.checked_in_low(s):
        raise t.refuse(f"seat {s} cannot raise: seat {s} checked in this round, and check-raising is not played "
                       "in the low part of jacks back (D14)")
    if not t.may_raise(seat):
        raise t.refuse(f"seat {s} cannot raise: the raise cap of {t.profile.raise_cap} is reached (D5)")
    if seat.stack <= to_call:
        raise t.refuse(f"seat {s} cannot raise: {seat.stack} chips only call the {to_call} due")
    amount = _chosen(t, "raise", s, e.amount, max(0, to_call), seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    t.raises += 1
    if t.phase == Phase.PREDRAW:
        t.raised_before_draw = True
    _reopen_action(t, s)
    t.message = f"seat {s} raises to {t.bet_level}" + (" (all in)" if t.seats[s].stack == 0 else "")
    after_action(t, s)


def _chosen(t: WorkingTable, kind: str, s: int, amount: int | None, to_call: int, stack: int) -> int:
    """The chips a bet or raise puts in: the one fixed amount, or with spread betting the amount
    named if the spread allows it (D5, D17)."""
    low, high = t.bet_range(to_call, stack)
    if amount is None:
        return low
    if not low <= amount <= high:
        what = f"{low} to {high}" if high > low else str(low)
        raise t.refuse(f"seat {s} cannot {kind} {amount}: the {kind} here puts in {what} (D5, D17)")
    return amount


@ev.handles(ev.Fold)
def fold(t: WorkingTable, e: ev.Fold) -> None:
    s = e.seat
    _betting_seat(t, "fold", s)
    t.set(s, status=SeatStatus.FOLDED, acted=True)
    t.message = f"seat {s} folds"
    after_action(t, s)


def _reopen_action(t: WorkingTable, s: int) -> None:
    """After a bet or raise everyone else still able to bet must act again."""
    for x in t.live():
        t.set(x, acted=(x == s))


@ev.handles(ev.Straddle)
def straddle(t: WorkingTable, e: ev.Straddle) -> None:
    """A straddle: the first player after the blinds posts a blind raise to twice the big blind;
    the betting starts after the straddler, who keeps the option to raise (O2, the basic game)."""
    s = e.seat
    t.check_turn("straddle", s)
    amount = t.straddle_amount(s)
    if amount is None:
        raise t.refuse(f"seat {s} cannot straddle: only the first to act after the blinds (or, where the house "
                       "allows re-straddles, after the last straddle) before anyone has acted (O2, O7)")
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    t.straddled += 1
    t.set(s, acted=False)  # a blind: the straddler may still raise when everyone has only called
    t.message = f"seat {s} {'re-straddles' if t.straddled > 1 else 'straddles'} to {t.bet_level}"
    after_action(t, s)
