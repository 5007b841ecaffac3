"""The pot over its deals: antes due (O4), the rising requirement (O5), throwing in (O3), paying the
pot out to the best hands (H5, side pots by claim) and ending a deal, won or carried.

Both the play (:mod:`rules.jackpot.flow`) and the floor's rulings (:mod:`rules.jackpot.irregularities`) end deals
through here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.profiles import MINIMUMS
from rules.jackpot.house import drop_due, note_winners, rake_due, rake_off
from rules.jackpot.pots import side_pots, split_amount
from rules.hands import LowValue, categories, declare, evaluate_low, trips_or_better
from rules.jackpot.state import DealEnd, Phase, SeatStatus, WorkingTable, evaluate
from rules.words import requirement_words

__all__ = ["next_requirement", "throw_in", "settle", "award", "keep_finished", "end_deal",
           "finish_showdown", "wins_the_pot", "value", "carry_for_trips", "shut_out_folded"]


def next_requirement(t: WorkingTable) -> None:
    """Progressive openers (O5): J, Q, K, A, then back down K, Q, J, and up again."""
    i = MINIMUMS.index(t.requirement)
    if t.rising and i == len(MINIMUMS) - 1:
        t.rising = False
    elif not t.rising and i == 0:
        t.rising = True
    t.requirement = MINIMUMS[i + 1 if t.rising else i - 1]


def throw_in(t: WorkingTable) -> None:
    """Nobody opened (O3): the cards are thrown in and the pot waits for the next deal."""
    end_deal(t, DealEnd.THROW_IN)
    if t.profile.progressive_openers:
        next_requirement(t)
    t.message = f"nobody opened: the pot of {t.pot} carries to the next deal"
    if t.profile.progressive_openers:
        t.message += f"; openers needed now: {requirement_words(t.requirement)} (O5)"


def wins_the_pot(t: WorkingTable, cards: tuple[str, ...], declared: str | None = None) -> bool:
    """Whether a hand may win at all: any hand, but with trips to win only three of a kind or a
    better hand (D9; low hands in jacks back are not held to it), as declared where cards do not
    speak (H9)."""
    if not t.profile.trips_to_win or t.low:
        return True
    if declared is not None:
        order = categories(t.hand_rules())
        return order.index(declared) >= order.index("three_of_a_kind")
    return trips_or_better(cards, t.hand_rules())


def value(t: WorkingTable, cards: tuple[str, ...]) -> Any:
    """A shown hand's value for this deal: high, or ace-to-five low after jacks back turns (D10,
    H8); for low the smaller value wins, so it is negated into a key that sorts the same way."""
    if t.low:
        return _Low(evaluate_low(list(cards), t.hand_rules()))
    return evaluate(cards, t.hand_rules())


def shown_value(t: WorkingTable, s: int) -> Any:
    """A seat's shown hand's value, as declared where cards do not speak (H9)."""
    cards = t.seats[s].shown or ()
    declared = t.seats[s].declared
    if declared is None or t.low:
        return value(t, cards)
    # H9: the best hand of the declared class the cards make (checked at the show)
    return declare(cards, declared, t.hand_rules())


class _Low:
    """A low hand ordered so that the better (lower) hand is the greater, as high hands are."""

    __slots__ = ("low",)

    def __init__(self, low: LowValue) -> None:
        self.low = low

    def __lt__(self, other: "_Low") -> bool:
        return other.low < self.low

    def __gt__(self, other: "_Low") -> bool:
        return self.low < other.low

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Low) and self.low == other.low

    def __hash__(self) -> int:
        return hash(self.low)

    def describe(self) -> str:
        return f"{self.low.describe()} (for low)"


def carry_for_trips(t: WorkingTable) -> None:
    """D9: no hand of three of a kind or better: the pot stays; the players who folded in this
    deal are out of it, and those who showed down ante again and play on among themselves. (The
    survey names those who folded before the draw; 'the players who did not fold' play the next
    deal, so a fold after the draw is out too.)"""
    live = t.live()
    staying = [s for s in t.dealt if t.seats[s].status != SeatStatus.FOLDED]
    if len(staying) == 1 and staying[0] in live:
        # Issue 22's decision: the survey's play-off among those who did not fold needs two of
        # them. Everyone else gave the pot up by folding, so the one player left takes it, as a
        # card room awards an uncontested pot, rather than the table waiting for a newcomer.
        w, amount = staying[0], t.pot
        award(t, {w: rake_off(t, [amount])[0]})
        t.message += (f"; no three of a kind, but everyone else folded: seat {w}, the only player left in "
                      f"the pot, takes the {amount} (D9, D7)")
        return
    staying = shut_out_folded(t)
    end_deal(t, DealEnd.CARRIED)
    t.force_ante = True
    t.message += (f"; no hand of three of a kind or better: the pot of {t.pot} stays for "
                  f"{', '.join(f'seat {s}' for s in staying)}, who ante again (D9)")


def shut_out_folded(t: WorkingTable) -> list[int]:
    """D9: the players who folded in this deal are out of the pot (barred until it is won); the
    seats that stay in are returned. A player barred by F7 (an all-in false opener) plays no more
    deals of the pot either, so is no partner for the play-off: with one player left beside such a
    seat nobody is shut out (the night of issue 24 found a table stuck with only one player in)."""
    staying = [s for s in t.dealt if t.seats[s].status not in (SeatStatus.FOLDED, SeatStatus.BARRED)]
    if len(staying) < 2:
        # a play-off needs two players: nobody is shut out and the pot stays for everyone
        return list(t.dealt)
    for s in t.dealt:
        if t.seats[s].status == SeatStatus.FOLDED:
            t.set(s, status=SeatStatus.BARRED)
    return staying


def settle(t: WorkingTable) -> None:
    """Award every pot to its best live hand(s); a pot none of whose contenders is left goes to the
    best live hand at the table. With trips to win, only hands of three of a kind or better win; a
    side pot none of whose contenders has one is shared by its contenders (the project's decision:
    the seeds are silent, and a player all in for less never wins chips they did not match; the
    full night of issue 24 found such a pot going to the all-in player's trips), and with no such
    hand at the table at all the pot stays (D9)."""
    live = t.live()
    values = {s: shown_value(t, s) for s in live
              if t.seats[s].shown is not None and wins_the_pot(t, t.seats[s].shown or (), t.seats[s].declared)}
    if t.profile.trips_to_win and not t.low and not values:
        carry_for_trips(t)
        return
    pots = side_pots(t.claims(), live, [s for s in live if t.seats[s].all_in])
    around = t.clockwise(t.button)
    awards: dict[int, int] = {}
    shared: list[str] = []
    layers = rake_off(t, [pot.amount for pot in pots])  # the rake first, from the main pot (docs/house.md)
    for pot, amount_left in zip(pots, layers):
        eligible = [s for s in pot.eligible if s in live] or live
        shown = [s for s in eligible if s in values]
        if shown:
            best = max(values[s] for s in shown)
            winners = [s for s in shown if values[s] == best]
        else:
            winners = eligible
            if t.profile.trips_to_win and not t.low and len(pots) > 1:
                shared.append(f"no claimant of the side pot of {pot.amount} shows three of a kind: "
                              f"{', '.join(f'seat {s}' for s in winners)} share it (D9; no player wins "
                              "chips they did not match)")
        for s, amount in split_amount(amount_left, winners, around).items():
            awards[s] = awards.get(s, 0) + amount
    sevens_rule(t, awards)
    award(t, awards)
    t.message += "; " + ", ".join(f"seat {s} wins {a}" for s, a in awards.items())
    if shared:
        t.message += "; " + "; ".join(shared)


def sevens_rule(t: WorkingTable, awards: dict[int, int]) -> None:
    """D14, jacks back's sevens rule (as in California lowball): a lone winner who checked after the
    draw holding a seven-low or better does not win the bets made after the check; each goes back
    to the player who made it (out of the winner's award, which is changed in place)."""
    marks = dict(t.sevens)
    if not (t.low and t.profile.jacks_back_sevens and len(awards) == 1):
        return
    w = next(iter(awards))
    if w not in marks:
        return
    low = evaluate_low(list(t.seats[w].shown or ()), t.hand_rules())
    if low.pattern != 0 or max(low.ranks) > 7:
        return
    before = dict(marks[w])
    back = {x: t.seats[x].bets - before.get(x, 0) for x in t.dealt if x != w}
    back = {x: v for x, v in back.items() if v > 0}
    for x, v in back.items():
        v = min(v, awards[w])
        awards[w] -= v
        awards[x] = awards.get(x, 0) + v
    if back:
        t.message += (f"; seat {w} checked a seven-low or better after the draw: the bets made after the check "
                      f"go back (D14)")


def award(t: WorkingTable, awards: Mapping[int, int]) -> None:
    """Pay the pot out: the jackpot is won and the next deal starts a new pot. ``awards`` are what
    each winner is paid, the house's rake taken off already (:func:`rules.jackpot.house.rake_off`):
    the rake is recorded here, after the deal is kept as it ended."""
    rake, drop = rake_due(t), drop_due(t)
    if sum(awards.values()) + rake + drop != t.pot:  # pragma: no cover - an engine bug
        raise AssertionError("an award must pay out the whole pot, less the rake and the drop")
    keep_finished(t)
    t.house_rake += rake
    t.house_drop += drop
    t.last_rake, t.last_drop = rake, drop
    for s, amount in awards.items():
        t.set(s, stack=t.seats[s].stack + amount)
    note_winners(t, awards)
    for s in t.order:
        if t.seats[s].put:
            t.set(s, put=0)
    t.forfeited = ()  # the claims of players who left went into the pot just paid
    if t.age_seat is None:
        t.jack_pot = False  # D11: a jack pot was won: the blind game goes on
    t.awards = tuple(awards.items())
    end_deal(t, DealEnd.WON)


def keep_finished(t: WorkingTable) -> None:
    """Keep the deal as it stands at its end, before any award: a ruling between deals re-settles
    the last finished deal from here (:func:`rules.jackpot.irregularities.rule_last_deal`)."""
    snapshot = t.copy()
    snapshot.finished, snapshot.finished_end, snapshot.added = None, (), ()
    t.finished = snapshot


def end_deal(t: WorkingTable, how: DealEnd) -> None:
    """Close the deal: ``won`` (a new pot follows), ``throw_in`` or ``carried`` (the pot waits)."""
    if how != DealEnd.WON:
        keep_finished(t)  # an award keeps it before paying out
    t.phase, t.to_act, t.last_end = Phase.BETWEEN_DEALS, None, how
    t.reopen = None
    if how == DealEnd.WON:
        t.new_pot = True
    for s in t.order:
        x = t.seats[s]
        if x.status == SeatStatus.BARRED and how != DealEnd.WON:
            status = SeatStatus.BARRED
        elif x.stack == 0 and x.put == 0:
            status = SeatStatus.OUT
        else:
            status = SeatStatus.ACTIVE
        if status != x.status or x.committed or x.acted:
            t.set(s, status=status, committed=0, acted=False)
    t.finished_end = tuple((s, x.stack, x.put) for s, x in t.seats.items())


def finish_showdown(t: WorkingTable) -> bool:
    """Settle a showdown whose hands are all shown or mucked; False while hands are still to come.

    With every hand in, the pots go to the best live hands (H5); with no live hand left, the pot
    stays for the next deal.
    """
    live = t.live()
    if any(t.seats[x].shown is None for x in t.show_order if x in live):
        return False
    if not live:
        end_deal(t, DealEnd.CARRIED)
        t.message += "; no hand is left: the pot carries to the next deal"
        return True
    settle(t)
    return True
