"""The table as the engine works on it: seats, the pot's and the deal's bookkeeping. Closed
vocabularies of the table live here too. What is allowed now is each event type's check, in the
module of its rules (:mod:`rules.jackpot.events` lists them; :mod:`rules.jackpot.moves` reads them).

A :class:`WorkingTable` is the mutable copy an event is applied to; :class:`rules.jackpot.table.TableState`
freezes it. Nothing outside the engine ever sees a working table that is being changed.

>>> Phase("draw") == "draw", SeatStatus.BARRED.value
(True, 'barred')
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, TypeVar, get_type_hints

from rules.cards import to_text
from rules.hands import HandRules, categories
from rules.hands import evaluate as evaluate_hand
from rules.jackpot.event_base import Event, NotNow
from rules.profiles import Profile

__all__ = ["Phase", "SeatStatus", "DealEnd", "PHASES", "IN_DEAL", "STATUSES", "Seat", "ReopenOffer", "WorkingTable",
           "reset_deal", "check_cards", "evaluate"]


class Phase(StrEnum):
    """Where a table is: between deals, or in one of a deal's four stages."""

    BETWEEN_DEALS = "between_deals"
    PREDRAW = "predraw"
    DRAW = "draw"
    POSTDRAW = "postdraw"
    SHOWDOWN = "showdown"


class SeatStatus(StrEnum):
    """A seat in a deal: still in (active), folded, dead (a ruling or a foul hand), barred from the
    pot (F7), or out (no chips and no claim on the pot)."""

    ACTIVE = "active"
    FOLDED = "folded"
    DEAD = "dead"
    BARRED = "barred"
    OUT = "out"


class DealEnd(StrEnum):
    """How the last deal ended: won (a new pot follows), thrown in (O3), or carried (the pot stays)."""

    START = "start"
    WON = "won"
    THROW_IN = "throw_in"
    CARRIED = "carried"


PHASES = tuple(p.value for p in Phase)
#: The phases of a deal in progress: a turn to act, and what happens beside it, need one.
IN_DEAL = frozenset(Phase) - {Phase.BETWEEN_DEALS}
STATUSES = tuple(s.value for s in SeatStatus)


@dataclass(frozen=True)
class Seat:
    """One seat at the table.

    ``put`` is the seat's claim on the jackpot: every chip it put in over all deals of this pot
    (antes and bets), less what rulings handed back. ``committed`` is what it put in during the
    current betting round, ``bets`` what it bet in this deal (antes aside). A player may sit out
    (not dealt in, no ante) and a newcomer may wait for the pot in play to be won, where the house
    says so (``waiting``).
    """

    seat: int
    player: str
    stack: int
    status: str = SeatStatus.ACTIVE
    put: int = 0
    committed: int = 0
    bets: int = 0
    acted: bool = False
    drawn: int | None = None
    shown: tuple[str, ...] | None = None
    sitting_out: bool = False
    waiting: bool = False
    drew_four: bool = False  # drew four, which the show checks is with an ace kept (D2)
    declared: str | None = None  # the class declared at the show where cards do not speak (H9)
    player_id: int | None = None  # the card room's record of the player, when the app named it (issue 31)
    time_paid: int = -1  # the last period of time collection paid for (issue 32; -1: none yet)

    @property
    def person(self) -> str:
        """Who sits here, as the rules follow a person from seat to seat (F7): the player's record
        when known, else the name (a table seats a name once).

        >>> Seat(1, "Ann", 100).person, Seat(2, "Ann", 100, player_id=7).person
        ('name:ann', 'id:7')
        """
        return f"id:{self.player_id}" if self.player_id is not None else f"name:{self.player.casefold()}"

    @property
    def all_in(self) -> bool:
        """No chips behind while holding a claim on the pot."""
        return self.stack == 0 and self.status != SeatStatus.OUT and self.put > 0


@dataclass(frozen=True)
class ReopenOffer:
    """The reopen offer after false openers found before the draw (F3).

    ``eligible`` are asked in turn; ``asked`` have passed.
    """

    false_opener: int
    eligible: tuple[int, ...]
    asked: tuple[int, ...]
    facts: tuple[tuple[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """The offer as the contract's state shows it (``state["reopen"]``).

        >>> ReopenOffer(3, (4, 5, 1), (4,), ()).to_dict()
        {'false_opener': 3, 'eligible': [4, 5, 1], 'passed': [4]}
        """
        return {"false_opener": self.false_opener, "eligible": list(self.eligible), "passed": list(self.asked)}


#: A field of :class:`WorkingTable` that a ruling on the last finished deal settles again
#: (:func:`rules.jackpot.floor_word.rule_last_deal`): the table takes it from the deal as re-settled,
#: where the other fields (the seats' chips moved by difference, the record, the clock) are its own.
#: ``Settled[int]`` is an ``int`` to the type checker; :data:`SETTLED_FIELDS` lists them.
_RESETTLED = "settled again by a ruling on the last deal"


_T = TypeVar("_T")
Settled = Annotated[_T, _RESETTLED]


class WorkingTable:
    """The mutable working copy behind a :class:`TableState`; never shared once frozen."""

    profile: Profile
    ante: int
    small_bet: Settled[int]
    big_bet: Settled[int]
    order: tuple[int, ...]
    seats: dict[int, Seat]
    button: int
    phase: Phase
    to_act: int | None
    deal_no: int
    # the jackpot (this pot, over its deals)
    deals: Settled[int]
    ante_deals: Settled[int]
    requirement: Settled[str]
    rising: Settled[bool]
    new_pot: Settled[bool]
    force_ante: Settled[bool]
    ante_for_all: Settled[int | None]
    last_end: Settled[DealEnd]  # this deal
    dealt: Settled[tuple[int, ...]]
    opened: Settled[bool]
    opener: Settled[int | None]
    proven: Settled[bool]
    unproven: Settled[bool]
    unproven_hand: Settled[tuple[str, ...] | None]
    passed: Settled[tuple[int, ...]]
    callers: Settled[int]
    raised_before_draw: Settled[bool]
    opener_bets: Settled[tuple[int, ...]]
    bet_level: Settled[int]
    last_raise: Settled[int]  # the last full bet or raise of this round: the least a raise adds (pot and no limit)
    raises: Settled[int]
    last_aggressor: Settled[int | None]
    stub: Settled[int]
    muck: Settled[int]
    reshuffled: Settled[bool]
    escrow: Settled[tuple[tuple[int, tuple[str, ...]], ...]]
    split: Settled[bool]
    show_order: Settled[tuple[int, ...]]
    reopen: Settled[ReopenOffer | None]  # the variants (rules.profiles): the deal turned to ace-to-five low (D10), which draw of the
    # hand this is (D13), the age of a blind deal (D11) and whether the next deal is a jack pot
    low: bool
    widow: str | None  # wild widow: the card turned up in this deal, whose rank is wild (H4)
    draw_round: int
    drew_this_round: tuple[int, ...]
    # D12: the cards faced while the draw was dealt (seat, card), the seats exposed to in this
    # draw, each seat's count drawn in this draw, and the seats owed a card once the others drew
    exposed: tuple[tuple[int, str], ...]
    exposed_now: tuple[int, ...]
    drawn_now: tuple[tuple[int, int], ...]
    owed: tuple[int, ...]
    # F12: the seat that asked the opener to keep the opening hand, if anyone did
    keep_asked: int | None
    # O7: blind raises posted after the big blind this deal; D14: seats that checked this round
    straddled: int
    checked: tuple[int, ...]
    draw_leader: int | None  # D13 all for one: who began the last draw
    sevens: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # D14: checks after the draw, bets then
    age_seat: int | None
    jack_pot: bool
    # the record
    rulings: tuple[Mapping[str, Any], ...]
    added: tuple[Mapping[str, Any], ...]  # the rulings the event being applied produced
    awards: Settled[tuple[tuple[int, int], ...]]
    message: str
    last_event: Event | None
    total: int
    # players come and go (rules.jackpot.seating): the seats the table has, the chips brought in and taken
    # away, and the claims left in the pot by players who left (they stay in the pot, F4-like)
    capacity: int
    max_buy_in: int | None
    chips_in: int
    chips_out: int
    forfeited: tuple[int, ...]
    # the house's take (issue 32, rules.jackpot.house): the rake of the pots won, the time collected,
    # the drops set aside for promotions; and the rake of the last pot won
    house_rake: Settled[int]
    house_time: int
    house_drop: Settled[int]
    last_rake: Settled[int]
    last_drop: Settled[int]  # kill pots: who has won the last pots alone and how many; the killer of the pot in play and the
    # table's bets before the kill (restored when the kill pot is won)
    streak_seat: Settled[int | None]
    streak: Settled[int]
    kill: Settled[int | None]
    kill_base: Settled[tuple[int, int] | None]
    clock: int  # the latest minute since the table opened that the log carries (time collection)
    # the last finished deal, for a ruling on it between deals: the table as it stood when the deal
    # ended (before any award), and each seat's (stack, claim) once it had ended
    finished: "WorkingTable | None"
    finished_end: tuple[tuple[int, int, int], ...]
    # the hand-off between the play and the rulings while one event is applied (rules.jackpot.table._run):
    # "rule_unproven" (a showdown waits for a ruling) or "resume" (the deal goes on after a ruling,
    # after the seat ``resume_after`` when a reopener has just opened)
    next_step: str | None
    resume_after: int | None
    # the log index of the latest deal (the voids a state remembers start at the hand before it)
    hand_start: int
    # F7: the people (Seat.person) a ruling barred from the pot in play, whatever seat they take
    # (issue 31: "even if you buy in again"); cleared when the pot is won. A class default: a state
    # snapshotted before it existed (at a new pot, when it is empty anyway) reads it as none.
    barred_people: tuple[str, ...] = ()

    def copy(self) -> "WorkingTable":
        new = object.__new__(WorkingTable)
        new.__dict__.update(self.__dict__)
        new.seats = dict(self.seats)
        return new

    # ------------------------------------------------------------------ seats and order
    def clockwise(self, after: int) -> list[int]:
        """All seat numbers clockwise, starting with the first seat after ``after``."""
        i = bisect_right(self.order, after)
        return list(self.order[i:] + self.order[:i])

    def live(self) -> list[int]:
        """Seats still contending in this deal (dealt in, not folded, dead or barred)."""
        return [s for s in self.order if self.seats[s].status == SeatStatus.ACTIVE] if self.phase != Phase.BETWEEN_DEALS else []

    def set(self, s: int, **changes: Any) -> None:
        """Replace seat ``s`` by a copy with ``changes`` (a fast ``dataclasses.replace``)."""
        new = object.__new__(Seat)
        fields = new.__dict__
        fields.update(self.seats[s].__dict__)
        fields.update(changes)
        self.seats[s] = new

    def put_chips(self, s: int, amount: int, bet: bool = True) -> None:
        """Move ``amount`` from the seat's stack to the pot (a bet unless ``bet`` is false: an ante)."""
        seat = self.seats[s]
        if amount > seat.stack or amount < 0:  # pragma: no cover - guarded by the callers
            raise AssertionError(f"seat {s} cannot put in {amount}")
        if bet:
            self.set(s, stack=seat.stack - amount, put=seat.put + amount,
                     committed=seat.committed + amount, bets=seat.bets + amount)
        else:
            self.set(s, stack=seat.stack - amount, put=seat.put + amount)

    @property
    def pot(self) -> int:
        return sum(s.put for s in self.seats.values()) + sum(self.forfeited)

    def claims(self) -> dict[int, int]:
        """Every claim on the pot, for layering side pots: the seats', and those left by players
        who have gone (under keys below 1, never a contender)."""
        out = {s: x.put for s, x in self.seats.items()}
        out.update({-i: amount for i, amount in enumerate(self.forfeited)})
        return out

    @property
    def chips(self) -> int:
        """All the chips at the table: stacks and the pot. The conservation law: with the house's
        take it is always the starting stacks plus the chips brought in, less the chips taken away."""
        return sum(x.stack + x.put for x in self.seats.values()) + sum(self.forfeited)

    @property
    def house_take(self) -> int:
        """What the house has taken from this table: rake, time and drops (issue 32)."""
        return self.house_rake + self.house_time + self.house_drop

    def reorder(self) -> None:
        """After a seat was taken, left or changed: seats in seat order again."""
        self.order = tuple(sorted(self.seats))
        self.seats = {s: self.seats[s] for s in self.order}

    def pack(self) -> int:
        """The cards the draw can still deal (D3): the stub, its last card only reshuffled with discards
        (never escrow nor dead cards), less cards owed for one faced (D12); all for one (D13): the stub."""
        stub = self.stub if self.profile.all_for_one else self.stub + self.muck if self.muck else self.stub - 1
        return max(0, stub) - len(self.owed)

    def take_cards(self, n: int) -> str:
        """Deal ``n`` cards from the stub, never its last card: the discards of those who drew are
        shuffled in with it when the stub is short (D3); dead cards and the escrow are not discards, and
        with no discard to shuffle the last card is not dealt (:meth:`pack`, which the moves are
        checked against). Returns a note for the message ('' if no reshuffle)."""
        # all for one (D13) deals the stub to its last card and never reshuffles
        if n == 0 or n <= self.stub - 1 or (self.profile.all_for_one and n <= self.stub):
            self.stub -= n
            return ""
        pack = self.stub + self.muck
        self.stub, self.muck, self.reshuffled = pack - n, 0, True
        return "; the discards were reshuffled to finish the draw (D3)"

    def escrow_of(self, s: int | None) -> tuple[str, ...]:
        for seat, cards in self.escrow:
            if seat == s:
                return cards
        return ()

    def barred_by_ruling(self) -> frozenset[int]:
        """The seats a ruling of the pot in play barred (F7, an all-in false opener); the other
        barred seats were shut out of a trips-to-win play-off (D9), which no ruling records. Where
        the bar follows the person (the profile's ``f7_follows_player``), the seats where the
        barred people sit now, wherever they moved or sat down again."""
        if self.barred_people:
            return frozenset(s for s, x in self.seats.items() if self.barred_person(x))
        return frozenset(int(b) for r in self.rulings for b in (r.get("barred") or ()))

    def barred_person(self, x: Seat) -> bool:
        """Whether the player in ``x`` is one a ruling barred from the pot in play (F7): the same
        record, or the same name where the bar was put on a seat that named no record (a table set
        up before players were records)."""
        return x.person in self.barred_people or f"name:{x.player.casefold()}" in self.barred_people

    @property
    def widow_due(self) -> bool:
        """Wild widow: the deal waits for the dealer to turn up the widow card (H4)."""
        # asked before anything else; a deal that moved on at once (everyone all in on the blinds)
        # still waits for it, for no hand can be read without it
        return self.profile.wild == "widow" and self.widow is None and self.phase != Phase.BETWEEN_DEALS

    def hand_rules(self) -> HandRules:
        """How hands are read in this deal: the profile's rules, with the widow's rank wild once
        the widow card is turned up (H4)."""
        rules = self.profile.hand_rules
        return rules.with_widow(self.widow) if self.widow is not None else rules


def reset_deal(t: WorkingTable) -> None:
    """Clear what belongs to one deal."""
    t.dealt, t.opened, t.opener, t.proven, t.passed = (), False, None, False, ()
    t.unproven, t.unproven_hand = False, None
    t.callers, t.raised_before_draw, t.opener_bets = 0, False, ()
    t.bet_level, t.raises, t.last_aggressor, t.last_raise = 0, 0, None, 0
    t.stub, t.muck, t.reshuffled = 0, 0, False
    t.escrow, t.split, t.show_order, t.reopen = (), False, (), None
    t.low, t.draw_round, t.age_seat, t.drew_this_round, t.widow = False, 0, None, (), None
    t.exposed, t.exposed_now, t.drawn_now, t.owed, t.keep_asked = (), (), (), (), None
    t.straddled, t.checked, t.draw_leader, t.sevens = 0, (), None, ()


@functools.lru_cache(maxsize=64)
def _deck_texts(rules: HandRules) -> frozenset[str]:
    return frozenset(to_text([c]) for c in rules.deck())


def check_cards(t: WorkingTable, texts: Iterable[str], what: str) -> None:
    """Every card is of the profile's deck (H1), not the widow on the table (H4) nor a dead card (D12)."""
    cards = _deck_texts(t.profile.hand_rules)
    for c in texts:
        if c not in cards:
            raise NotNow(f"{what}: {c} is not in this game's deck")
        if c == t.widow:
            raise NotNow(f"{what}: {c} is the widow card, turned up on the table")
        if any(c == faced for _, faced in t.exposed):
            raise NotNow(f"{what}: {c} was faced in the draw and is dead (D12)")


def evaluate(cards: Iterable[str], rules: HandRules) -> Any:
    """A hand's value under the deal's hand rules (:meth:`WorkingTable.hand_rules`)."""
    return evaluate_hand(list(cards), rules)


#: The fields of :class:`WorkingTable` declared ``Settled[...]``, in their order.
SETTLED_FIELDS: tuple[str, ...] = tuple(
    name for name, hint in get_type_hints(WorkingTable, include_extras=True).items()
    if _RESETTLED in getattr(hint, "__metadata__", ()))
