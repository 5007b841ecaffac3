"""The table as the engine works on it: seats, the pot's and the deal's bookkeeping, and what is
allowed now (the ``legal`` moves). Closed vocabularies of the table live here too.

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
from typing import Any

from rules import IllegalAction
from rules.cards import to_text
from rules.hands import HandRules, categories
from rules.hands import evaluate as evaluate_hand
from rules.profiles import Profile

__all__ = ["Phase", "SeatStatus", "DealEnd", "PHASES", "STATUSES", "Seat", "ReopenOffer", "WorkingTable",
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


class WorkingTable:
    """The mutable working copy behind a :class:`TableState`; never shared once frozen."""

    profile: Profile
    ante: int
    small_bet: int
    big_bet: int
    order: tuple[int, ...]
    seats: dict[int, Seat]
    button: int
    phase: Phase
    to_act: int | None
    deal_no: int
    # the jackpot (this pot, over its deals)
    deals: int
    ante_deals: int
    requirement: str
    rising: bool
    new_pot: bool
    force_ante: bool
    ante_for_all: int | None
    last_end: DealEnd
    # this deal
    dealt: tuple[int, ...]
    opened: bool
    opener: int | None
    proven: bool
    unproven: bool
    unproven_hand: tuple[str, ...] | None
    passed: tuple[int, ...]
    callers: int
    raised_before_draw: bool
    opener_bets: tuple[int, ...]
    bet_level: int
    raises: int
    last_aggressor: int | None
    stub: int
    muck: int
    reshuffled: bool
    escrow: tuple[tuple[int, tuple[str, ...]], ...]
    split: bool
    show_order: tuple[int, ...]
    reopen: ReopenOffer | None
    # the variants (rules.profiles): the deal turned to ace-to-five low (D10), which draw of the
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
    awards: tuple[tuple[int, int], ...]
    message: str
    last_event: Mapping[str, Any] | None
    total: int
    # players come and go (rules.jackpot.seating): the seats the table has, the chips brought in and taken
    # away, and the claims left in the pot by players who left (they stay in the pot, F4-like)
    capacity: int
    max_buy_in: int | None
    chips_in: int
    chips_out: int
    forfeited: tuple[int, ...]
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
        """All the chips at the table: stacks and the pot. The conservation law: it is always the
        starting stacks plus the chips brought in, less the chips taken away."""
        return sum(x.stack + x.put for x in self.seats.values()) + sum(self.forfeited)

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

    def bet_range(self, base: int, stack: int) -> tuple[int, int]:
        """The least and the most chips a bet (or a raise) puts in over ``base`` (the call), capped by
        the ``stack``: one bet of the fixed limit's small or big bet, or with spread betting any
        amount of the spread, doubled after the draw (D5, D17). Every amount between is allowed."""
        after = self.phase == Phase.POSTDRAW
        if self.profile.spread is None:
            low = high = self.big_bet if after else self.small_bet
        else:
            factor = 2 if after else 1
            low, high = (x * factor for x in self.profile.spread)
        return min(base + low, stack), min(base + high, stack)

    def _amounts(self, base: int, stack: int) -> dict[str, Any]:
        """A bet's or raise's amounts: the least first; with spread betting every amount allowed."""
        low, high = self.bet_range(base, stack)
        out: dict[str, Any] = {"amount": low}
        if self.profile.spread is not None:
            out["amounts"] = list(range(low, high + 1))
        return out

    def keep_owed(self) -> bool:
        """F12: an opener asked to keep the opening hand who folded still shows it at the end."""
        o = self.opener
        return self.keep_asked is not None and o is not None and not self.proven and \
            self.seats[o].status == SeatStatus.FOLDED and self.seats[o].shown is None

    def escrow_of(self, s: int | None) -> tuple[str, ...]:
        for seat, cards in self.escrow:
            if seat == s:
                return cards
        return ()

    # ------------------------------------------------------------------ what is allowed now
    def legal(self) -> list[dict[str, Any]]:
        """The actions open to ``to_act`` (or the dealer's ``deal`` between deals), with amounts."""
        if self.phase == Phase.BETWEEN_DEALS:
            # the deal is offered only when it would be accepted: a tablet never shows a dead button
            deal = [{"type": "deal"}] if self.deal_refusal() is None else []
            return [*deal, *self.seating_moves()]
        if self.widow_due:
            return [{"type": "widow"}]
        s = self.to_act
        if s is None:
            return []
        seat = self.seats[s]
        if self.reopen is not None:
            return [{"type": "reopen", "amount": min(self.small_bet, seat.stack)}, {"type": "pass"}]
        if self.phase == Phase.PREDRAW and not self.opened:
            amounts = self.opening_amounts(seat)
            return [{"type": "pass"}, {"type": "open", "amount": self.opening_default(seat), "amounts": amounts}]
        if self.phase == Phase.DRAW:
            most = 4 if self.profile.ace_draws_four else self.profile.max_draw
            # never more than the stub and the reshuffled discards can give (D3)
            move: dict[str, Any] = {"type": "draw", "min": 0,
                                    "max": max(0, min(most, self.pack()))}
            if self.profile.all_for_one:  # D13: 0, 1 or 5 cards, as the pack allows
                counts = self.all_for_one_counts()
                move.update(max=max(counts), cards=counts)
            if self.profile.bosnian and move["max"] >= 4 and self.pack() >= 5:
                move["bosnian"] = True  # D16: a draw of four takes "up" or "down" (the pack has a fifth)
            if s == self.opener and self.draw_round == 1:
                move["split"] = True
                if self.keep_asked is not None:
                    move["keep"] = True  # F12: every discard is kept apart (escrow)
            return [move]
        if self.phase == Phase.SHOWDOWN:
            show: dict[str, Any] = {"type": "show"}
            if self.profile.declared_hands:  # H9: the classes a player may declare
                show["declare"] = list(categories(self.hand_rules()))
            if s == self.opener and self.keep_asked is not None and not self.proven:
                return [show]  # F12: the kept hand is shown, never mucked
            return [show, {"type": "muck"}]
        to_call = self.bet_level - seat.committed
        out: list[dict[str, Any]] = []
        straddle = self.straddle_amount(s)
        if straddle is not None:
            out.append({"type": "straddle", "amount": straddle})
        if to_call <= 0:
            out.append({"type": "check"})
            if self.bet_level == 0:
                out.append({"type": "bet", **self._amounts(0, seat.stack)})
            elif self.may_raise(seat):
                out.append({"type": "raise", **self._amounts(0, seat.stack)})
        else:
            out.append({"type": "call", "amount": min(to_call, seat.stack)})
            if seat.stack > to_call and self.may_raise(seat):
                out.append({"type": "raise", **self._amounts(to_call, seat.stack)})
        out.append({"type": "fold"})
        return out

    # ------------------------------------------------------------------ who the next deal deals in
    def antes_due(self) -> bool:
        """Whether the next deal of this pot takes antes (O4): the ante cap counts consecutive deals
        of one pot, and a pot limit stops antes too. A fresh pot always antes."""
        if self.new_pot or self.force_ante:
            return True
        p = self.profile
        if p.ante_deals is not None and self.ante_deals >= p.ante_deals:
            return False
        return p.pot_limit is None or self.pot < p.pot_limit

    def barred_by_ruling(self) -> frozenset[int]:
        """The seats a ruling of the pot in play barred (F7, an all-in false opener); the other
        barred seats were shut out of a trips-to-win play-off (D9), which no ruling records."""
        return frozenset(int(b) for r in self.rulings for b in (r.get("barred") or ()))

    def deal_plan(self) -> tuple[dict[int, SeatStatus], bool]:
        """Each seat's status in the next deal, and whether that deal must take antes so that
        players who have put nothing into a capped pot may play. A seat barred from the pot (F7)
        stays barred; one without chips or claim, sitting out or waiting for a carried pot is out;
        those shut out of a D9 play-off that lost its partner (a claimant left) play again (issue
        24). A player who has put nothing into a carried pot whose antes have stopped (O4) is not
        dealt in: a card room lets nobody play for a pot free; if that leaves fewer than two
        players, the antes start again and everyone is dealt in (the decision of issue 22)."""
        fresh = self.new_pot
        statuses: dict[int, SeatStatus] = {}
        for s in self.order:
            x = self.seats[s]
            if x.status == SeatStatus.BARRED and not fresh:
                statuses[s] = SeatStatus.BARRED
            elif (x.stack == 0 and x.put == 0) or x.sitting_out or (x.waiting and not fresh):
                statuses[s] = SeatStatus.OUT
            else:
                statuses[s] = SeatStatus.ACTIVE
        if not fresh and sum(st == SeatStatus.ACTIVE for st in statuses.values()) < 2:  # D9: no partner left
            f7 = self.barred_by_ruling()
            statuses.update({s: SeatStatus.ACTIVE for s, x in self.seats.items() if statuses.get(s) == SeatStatus.BARRED and s not in f7 and not x.sitting_out and (x.stack or x.put)})
        blind_deal = self.profile.age and not self.jack_pot
        if fresh or blind_deal or self.antes_due() or self.ante == 0:
            return statuses, False
        free = [s for s, st in statuses.items() if st == SeatStatus.ACTIVE and self.seats[s].put == 0]
        if not free:
            return statuses, False
        if sum(1 for st in statuses.values() if st == SeatStatus.ACTIVE) - len(free) >= 2:
            return {s: (SeatStatus.OUT if s in free else st) for s, st in statuses.items()}, False
        return statuses, True

    def deal_refusal(self, statuses: Mapping[int, SeatStatus] | None = None) -> str | None:
        """Why the next deal cannot be dealt now, or None when it can."""
        statuses = statuses if statuses is not None else self.deal_plan()[0]
        dealt = [s for s in self.order if statuses.get(s) == SeatStatus.ACTIVE]
        if len(dealt) < 2:
            return ("cannot deal: a deal needs at least two players with chips or a claim on the pot "
                    f"(in play: {', '.join(map(str, dealt)) or 'none'})")
        deck, each = self.profile.deck_size, self.profile.hand_size
        if each * len(dealt) > deck:
            return f"cannot deal: {len(dealt)} players need {each * len(dealt)} cards and the deck has {deck}"
        return None

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

    def seating_moves(self) -> list[dict[str, Any]]:
        """Between deals, what players may do (rules.jackpot.seating), each with the seats it applies to."""
        empty = [s for s in range(1, self.capacity + 1) if s not in self.seats]
        taken = list(self.order)
        moves: list[dict[str, Any]] = []
        if empty:
            moves.append({"type": "sit", "seats": empty})
        if taken:
            moves.append({"type": "add_chips", "seats": taken})
            moves.append({"type": "leave", "seats": taken})
        out = [s for s in taken if not self.seats[s].sitting_out]
        back = [s for s in taken if self.seats[s].sitting_out]
        if out:
            moves.append({"type": "sit_out", "seats": out})
        if back:
            moves.append({"type": "sit_in", "seats": back})
        if empty and taken:
            moves.append({"type": "move_seat", "seats": taken, "to": empty})
        return moves

    def all_for_one_counts(self) -> list[int]:
        """All for one (D13): stand pat, change one, or change five when the stub still holds a card
        for each player after this one in the draw; the discards are never reshuffled."""
        waiting = [x for x in self.live() if x not in self.drew_this_round and x != self.to_act]
        return [n for n in (0, 1, 5) if not n or self.stub - len(self.owed) >= n + len(waiting)]

    def opening_default(self, seat: Seat) -> int:
        """The opening bet when none is named: the small bet, or the least of the spread (D17), as
        a bet before the draw (:meth:`bet_range`), or a short stack's all."""
        return self.bet_range(0, seat.stack)[0]

    def opening_amounts(self, seat: Seat) -> list[int]:
        """What an opener may put in (O2, O6): the small bet (or a short stack's all), two small bets
        when the house lets a player open with a raise, nothing when it lets a player open by checking."""
        if self.profile.spread is not None:  # D17: any opening bet within the spread
            low, high = self.bet_range(0, seat.stack)
            amounts = list(range(low, high + 1))
            return ([0] if self.profile.check_open and amounts[0] > 0 else []) + amounts
        due = self.opening_default(seat)
        amounts = [due]
        if self.profile.open_with_raise and seat.stack > self.small_bet:
            amounts.append(min(2 * self.small_bet, seat.stack))
        if self.profile.check_open and due > 0:
            amounts.insert(0, 0)
        return amounts

    def straddle_amount(self, s: int) -> int | None:
        """What seat ``s`` puts in to straddle now, or None: with the house's straddle, the first
        to act after the blinds, before anyone has acted, may post a blind raise to twice the big
        blind (O2, the basic game)."""
        blinds = self.profile.blinds
        # O7: each re-straddle by the next player doubles the last blind raise, up to the house's number
        if (self.straddled >= self.profile.straddles or blinds is None or self.phase != Phase.PREDRAW
                or self.to_act != s or self.bet_level != blinds[1] << self.straddled
                or any(x.acted for x in self.seats.values())):
            return None
        want = 2 * self.bet_level - self.seats[s].committed
        return want if self.seats[s].stack > want else None

    def checked_in_low(self, s: int) -> bool:
        """D14: with the house's no check-raise, whether seat ``s`` checked (or passed before the
        opening) in this betting round of the low part of jacks back."""
        return (self.low and self.profile.jacks_back_no_check_raise
                and (s in self.checked or (self.phase == Phase.PREDRAW and s in self.passed)))

    def may_raise(self, seat: Seat) -> bool:
        if self.checked_in_low(seat.seat):
            return False  # D14: no check-raise in the low part of jacks back
        cap = self.profile.raise_cap
        return cap is None or self.raises < cap

    def allowed_text(self) -> str:
        """What may happen now, in words: 'seat 2 may pass or open for 10'."""
        if self.phase == Phase.BETWEEN_DEALS:
            return "the dealer may deal"
        if self.widow_due:
            return "the dealer turns up the widow card"
        if self.to_act is None:  # pragma: no cover - every live phase has someone to act
            return "nothing may happen"
        words = []
        for move in self.legal():
            kind, amount = move["type"], move.get("amount")
            if kind == "open":
                words.append("open for " + " or ".join(map(str, move.get("amounts", [amount]))))
            elif kind == "reopen":
                words.append(f"reopen for {amount}")
            elif kind == "draw":
                words.append(f"draw 0 to {move['max']} cards")
            elif amount is not None:
                words.append(f"{kind} {amount}")
            else:
                words.append(kind)
        text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        return f"seat {self.to_act} may {text}"

    def refuse(self, why: str) -> IllegalAction:
        return IllegalAction(f"{why}; {self.allowed_text()}")

    def check_turn(self, kind: str, s: int) -> Seat:
        if s not in self.seats:
            raise IllegalAction(f"there is no seat {s} at this table (seats: {', '.join(map(str, self.order))}); "
                                f"{self.allowed_text()}")
        if self.phase == Phase.BETWEEN_DEALS:
            raise self.refuse(f"seat {s} cannot {kind}: no deal is in progress")
        if self.widow_due:
            raise self.refuse(f"seat {s} cannot {kind}: the widow card is turned up first (H4)")
        if s != self.to_act:
            raise IllegalAction(f"seat {s} cannot {kind}: it is seat {self.to_act}'s turn "
                                f"({self.allowed_text().split(' may ', 1)[1]})")
        return self.seats[s]


def reset_deal(t: WorkingTable) -> None:
    """Clear what belongs to one deal."""
    t.dealt, t.opened, t.opener, t.proven, t.passed = (), False, None, False, ()
    t.unproven, t.unproven_hand = False, None
    t.callers, t.raised_before_draw, t.opener_bets = 0, False, ()
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
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
            raise t.refuse(f"{what}: {c} is not in this game's deck")
        if c == t.widow:
            raise t.refuse(f"{what}: {c} is the widow card, turned up on the table")
        if any(c == faced for _, faced in t.exposed):
            raise t.refuse(f"{what}: {c} was faced in the draw and is dead (D12)")


def evaluate(cards: Iterable[str], rules: HandRules) -> Any:
    """A hand's value under the deal's hand rules (:meth:`WorkingTable.hand_rules`)."""
    return evaluate_hand(list(cards), rules)
