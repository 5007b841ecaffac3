"""The table: an immutable state of one jackpot table, and ``apply(event)`` that returns the next one.

The dealer's log is a list of events (:mod:`rules.events`); the state after it is the fold of
:meth:`TableState.apply` over the log, starting from :meth:`TableState.from_setup`. A state is never
changed: ``apply`` returns a new state or raises :class:`rules.IllegalAction` and leaves the old one
as it was.

>>> setup = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": 1, "player": "Ann", "stack": 100},
...                    {"seat": 2, "player": "Bob", "stack": 100},
...                    {"seat": 3, "player": "Cy", "stack": 100}]}
>>> t = TableState.from_setup(setup).apply({"type": "deal"})
>>> t.phase, t.to_act, t.pot
('predraw', 2, 15)
>>> t = t.apply({"type": "pass", "seat": 2}).apply({"type": "open", "seat": 3})
>>> [a["type"] for a in t.legal()], t.to_act
(['call', 'raise', 'fold'], 1)
>>> t.apply({"type": "check", "seat": 1})
Traceback (most recent call last):
...
rules.IllegalAction: seat 1 cannot check: there is a bet of 10 to call; seat 1 may call 10, raise 20 or fold

Where the sources are silent the engine decides as follows (each decision is also stated where it
is made):

* The button of the first deal is ``setup["button"]``. Each later deal moves it one seat clockwise
  (to the next higher seat number, wrapping, skipping seats that are out), except after a throw-in
  when the profile's ``button_moves_on_throw_in`` is false (O3).
* A player who passed before the opening may call or raise once the pot is opened: passing only
  declines to open (O2).
* The opening bet is the small bet, or the opener's whole stack when it is smaller (O6). A short
  all-in opening or bet sets the amount to call; a raise always adds one full bet to it.
* Odd chips of a split pot go to the tied winners nearest the button's left.
* ``void`` withdraws only the latest live event (one that nothing else depends on yet); voiding
  it gives exactly the state the log would have without it. A void cannot be voided. Successive
  voids peel the current hand back as far as its deal; a hand before the latest deal is closed
  (the floor corrects it with a ruling), which also keeps a table's history in memory to one hand.
* After false openers with nobody reopening (F4), the next deal takes antes even if the pot's ante
  cap was reached: everyone of that deal antes again.
* Seats that are dealt in: every seat with chips or a claim on the pot (what it put in), except a
  seat barred from this pot (F7). A seat with neither is ``out``. All-in seats are dealt in, are
  asked to open before the opening (O6) and draw, but are skipped in the betting.
* Side pots are layered by each seat's claim over all deals of the pot. A pot whose contenders are
  all gone goes to the best live hand; if no hand is left the pot stays for the next deal.
* Irregularities: the engine reads the tree's facts from the log and calls ``rules.rulings.resolve``.
  A ruling is applied from its fields alone (dead, returns, barred, winner or winners, pot_plays,
  reopener, ante_for_all), whether the engine or a floor person asked for it. Unless it names a
  winner or a reopener, it ends the deal, the pot staying for the next one, exactly when the pot
  does not play (``pot_plays`` false); otherwise play goes on.
* An opener who shows a hand that does not open is dead at once; the ruling (best other hand, F8)
  waits until the other hands are shown or mucked. A split that cannot be proved from the escrow is
  ruled on at once (S2). An opener left alone who mucks has not proved openers (F8).
* ``false_openers`` found in the draw before anyone drew counts as found before the draw.
* The F9 penalty ante (``ante_for_all``) is taken on the next deal whatever the ante cap; each ante
  it pays buys the claim of the player it was paid for.
"""

from __future__ import annotations

import copy
import functools
from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules import CardError, IllegalAction, MissingFact, RulesError
from rules import events as ev
from rules.pots import side_pots, split_amount
from rules.profiles import MINIMUMS, Profile, get_profile

__all__ = ["Seat", "TableState", "PHASES", "STATUSES"]

PHASES = ("between_deals", "predraw", "draw", "postdraw", "showdown")
STATUSES = ("active", "folded", "dead", "barred", "out")


@dataclass(frozen=True)
class Seat:
    """One seat at the table.

    ``put`` is the seat's claim on the jackpot: every chip it put in over all deals of this pot
    (antes and bets), less what rulings handed back. ``committed`` is what it put in during the
    current betting round, ``bets`` what it bet in this deal (antes aside).
    """

    seat: int
    player: str
    stack: int
    status: str = "active"
    put: int = 0
    committed: int = 0
    bets: int = 0
    acted: bool = False
    drawn: int | None = None
    shown: tuple[str, ...] | None = None

    @property
    def all_in(self) -> bool:
        """No chips behind while holding a claim on the pot."""
        return self.stack == 0 and self.status not in ("out",) and self.put > 0


@dataclass(frozen=True)
class ReopenOffer:
    """The reopen offer after false openers found before the draw (F3).

    ``eligible`` are asked in turn; ``asked`` have passed.
    """

    false_opener: int
    eligible: tuple[int, ...]
    asked: tuple[int, ...]
    facts: tuple[tuple[str, Any], ...]


class _Table:
    """The mutable working copy behind a :class:`TableState`; never shared once frozen."""

    profile: Profile
    ante: int
    small_bet: int
    big_bet: int
    order: tuple[int, ...]
    seats: dict[int, Seat]
    button: int
    phase: str
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
    last_end: str
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
    # the record
    rulings: tuple[Mapping[str, Any], ...]
    added: tuple[Mapping[str, Any], ...]  # the rulings the event being applied produced
    awards: tuple[tuple[int, int], ...]
    message: str
    last_event: Mapping[str, Any] | None
    total: int
    # the last finished deal, for a ruling on it between deals: the table as it stood when the deal
    # ended (before any award), and each seat's (stack, claim) once it had ended
    finished: "_Table | None"
    finished_end: tuple[tuple[int, int, int], ...]

    def copy(self) -> "_Table":
        new = object.__new__(_Table)
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
        return [s for s in self.order if self.seats[s].status == "active"] if self.phase != "between_deals" else []

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
        return sum(s.put for s in self.seats.values())

    @property
    def bet_size(self) -> int:
        return self.big_bet if self.phase == "postdraw" else self.small_bet

    def escrow_of(self, s: int | None) -> tuple[str, ...]:
        for seat, cards in self.escrow:
            if seat == s:
                return cards
        return ()

    # ------------------------------------------------------------------ what is allowed now
    def legal(self) -> list[dict[str, Any]]:
        """The actions open to ``to_act`` (or the dealer's ``deal`` between deals), with amounts."""
        if self.phase == "between_deals":
            return [{"type": "deal"}]
        s = self.to_act
        if s is None:
            return []
        seat = self.seats[s]
        if self.reopen is not None:
            return [{"type": "reopen", "amount": min(self.small_bet, seat.stack)}, {"type": "pass"}]
        if self.phase == "predraw" and not self.opened:
            amounts = self.opening_amounts(seat)
            return [{"type": "pass"}, {"type": "open", "amount": min(self.small_bet, seat.stack), "amounts": amounts}]
        if self.phase == "draw":
            move: dict[str, Any] = {"type": "draw", "min": 0, "max": self.profile.max_draw}
            if s == self.opener:
                move["split"] = True
            return [move]
        if self.phase == "showdown":
            return [{"type": "show"}, {"type": "muck"}]
        to_call = self.bet_level - seat.committed
        out: list[dict[str, Any]] = []
        if to_call <= 0:
            out.append({"type": "check"})
            if self.bet_level == 0:
                out.append({"type": "bet", "amount": min(self.bet_size, seat.stack)})
            elif self.may_raise(seat):
                out.append({"type": "raise", "amount": min(self.bet_size, seat.stack)})
        else:
            out.append({"type": "call", "amount": min(to_call, seat.stack)})
            if seat.stack > to_call and self.may_raise(seat):
                out.append({"type": "raise", "amount": min(to_call + self.bet_size, seat.stack)})
        out.append({"type": "fold"})
        return out

    def opening_amounts(self, seat: Seat) -> list[int]:
        """What an opener may put in (O2, O6): the small bet (or a short stack's all), two small bets
        when the house lets a player open with a raise, nothing when it lets a player open by checking."""
        due = min(self.small_bet, seat.stack)
        amounts = [due]
        if self.profile.open_with_raise and seat.stack > self.small_bet:
            amounts.append(min(2 * self.small_bet, seat.stack))
        if self.profile.check_open and due > 0:
            amounts.insert(0, 0)
        return amounts

    def may_raise(self, seat: Seat) -> bool:
        cap = self.profile.raise_cap
        return cap is None or self.raises < cap

    def allowed_text(self) -> str:
        """What may happen now, in words: 'seat 2 may pass or open for 10'."""
        if self.phase == "between_deals":
            return "the dealer may deal"
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
        if self.phase == "between_deals":
            raise self.refuse(f"seat {s} cannot {kind}: no deal is in progress")
        if s != self.to_act:
            raise IllegalAction(f"seat {s} cannot {kind}: it is seat {self.to_act}'s turn "
                                f"({self.allowed_text().split(' may ', 1)[1]})")
        return self.seats[s]


@dataclass(frozen=True, eq=False)
class TableState:
    """An immutable table state. Build the first with :meth:`from_setup`, then :meth:`apply` events.

    >>> t = TableState.from_setup({"ante": 1, "small_bet": 2, "big_bet": 4, "button": 2,
    ...                            "seats": [{"seat": 1, "player": "A", "stack": 10},
    ...                                      {"seat": 2, "player": "B", "stack": 10}]})
    >>> t.phase, t.version, t.legal()
    ('between_deals', 0, [{'type': 'deal'}])
    """

    _t: _Table = field(repr=False, compare=False)
    _undo: tuple[int, str, "TableState"] | None = field(default=None, repr=False, compare=False)
    _voided: frozenset[int] = frozenset()
    _voids: frozenset[int] = frozenset()
    version: int = 0
    #: The rulings the latest event produced (the engine's own, or the floor's ruling event).
    added: tuple[Mapping[str, Any], ...] = field(default=(), repr=False, compare=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_setup(cls, setup: Mapping[str, Any]) -> "TableState":
        """The table before its first deal. Bad setups raise :class:`rules.IllegalAction`."""
        if not isinstance(setup, Mapping):
            raise IllegalAction("setup: a JSON object with profile, ante, small_bet, big_bet, button and seats")
        profile = get_profile(setup.get("profile"))
        t = object.__new__(_Table)
        t.profile = profile
        t.ante = _chips(setup.get("ante", 0), "ante")
        t.small_bet = _chips(setup.get("small_bet"), "small_bet", positive=True)
        t.big_bet = _chips(setup.get("big_bet", 2 * t.small_bet), "big_bet", positive=True)
        raw = setup.get("seats")
        if not isinstance(raw, (list, tuple)) or not raw:
            raise IllegalAction("setup: seats is a list of {seat, player, stack}")
        seats: dict[int, Seat] = {}
        for item in raw:
            if not isinstance(item, Mapping) or "seat" not in item:
                raise IllegalAction("setup: each seat is {seat, player, stack}")
            s = ev.parse_seat(item["seat"], "setup: seat")
            if s in seats:
                raise IllegalAction(f"setup: seat {s} is listed twice")
            stack = _chips(item.get("stack", 0), f"setup: stack of seat {s}")
            seats[s] = Seat(s, str(item.get("player", f"seat {s}")), stack, "active" if stack > 0 else "out")
        t.order = tuple(sorted(seats))
        t.seats = {s: seats[s] for s in t.order}
        button = ev.parse_seat(setup.get("button", t.order[0]), "setup: button")
        if button not in seats:
            raise IllegalAction(f"setup: the button must be on a seat ({', '.join(map(str, t.order))}), not {button}")
        t.button = button
        t.phase, t.to_act, t.deal_no = "between_deals", None, 0
        t.deals = t.ante_deals = 0
        t.requirement, t.rising, t.new_pot, t.force_ante = profile.opening_minimum, True, True, False
        t.ante_for_all, t.last_end = None, "start"
        _reset_deal(t)
        t.rulings, t.added, t.awards = (), (), ()
        t.finished, t.finished_end = None, ()
        t.message, t.last_event = "waiting for the first deal", None
        t.total = sum(s.stack for s in seats.values())
        return cls(t)

    def __eq__(self, other: object) -> bool:
        """Two states are equal when they show the same table (the same ``to_dict()``)."""
        if not isinstance(other, TableState):
            return NotImplemented
        return self is other or self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ reading
    @property
    def phase(self) -> str:
        return self._t.phase

    @property
    def to_act(self) -> int | None:
        return self._t.to_act

    @property
    def button(self) -> int:
        return self._t.button

    @property
    def pot(self) -> int:
        return self._t.pot

    @property
    def profile(self) -> Profile:
        return self._t.profile

    def seat(self, s: int) -> Seat:
        return self._t.seats[s]

    def legal(self) -> list[dict[str, Any]]:
        """The actions allowed now for ``to_act``, with the chips each puts in."""
        return self._t.legal()

    def facts(self, issue: str) -> dict[str, Any]:
        """The decision tree's facts about ``issue`` as the table stands (the same reading the engine
        gives the tree for its own rulings; :func:`rules.disputes.known_facts` trims it for a
        floor person's dispute). Between deals they are read from the last finished deal, as it
        stood when it ended: a dispute raised at the award is about that deal."""
        t = self._t
        if t.phase == "between_deals" and t.finished is not None:
            return _facts(t.finished, issue, {})
        return _facts(t, issue, {})

    @property
    def ruled_deal(self) -> str | None:
        """Which deal a ruling now applies to: ``current`` (a deal in progress), ``last`` (between
        deals, the deal just finished) or None (no deal has finished since the last one began)."""
        if self._t.phase != "between_deals":
            return "current"
        return "last" if self._t.finished is not None else None

    # ------------------------------------------------------------------ applying
    def apply(self, event: Mapping[str, Any] | ev.Event) -> "TableState":
        """The state after ``event``; raises :class:`rules.IllegalAction` (nothing changes) if refused."""
        e = ev.parse_event(event)
        if isinstance(e, ev.Void):
            return self._void(e.event)
        t = self._t.copy()
        t.added = ()
        handler = _HANDLERS[type(e)]
        handler(t, e)
        t.last_event = e.to_dict()
        chips = sum(s.stack + s.put for s in t.seats.values())
        if chips != t.total:  # pragma: no cover - an engine bug, never a player's mistake
            raise AssertionError(f"chips not conserved after {t.last_event}: {chips} != {t.total}")
        added, t.added = t.added, ()
        if added:
            added = _finish_rulings(t, added, self._t)
        if added or isinstance(e, _FLOOR_EVENTS):
            # A ruling is the floor's word: no void withdraws it, nor anything logged before it
            # (the floor corrects it with a ruling that supersedes it, or a correction of chips).
            return TableState(t, None, self._voided, self._voids, self.version + 1, added)
        # A new deal closes the hands before it: its undo step keeps the state it was dealt from but
        # not that state's own history, so a table holds one hand of history, not the whole day's.
        before = TableState(self._t, None, self._voided, self._voids, self.version) if isinstance(e, ev.Deal) else self
        return TableState(t, (self.version, e.kind, before), self._voided, self._voids, self.version + 1)

    def _void(self, index: int) -> "TableState":
        """Withdraw the logged event ``index`` if it is the latest live one (nothing depends on it)."""
        if index in self._voids:
            raise IllegalAction(f"event #{index} is itself a void and cannot be voided; "
                                f"log the withdrawn event again instead")
        if self._undo is None:
            raise IllegalAction(f"cannot void event #{index}: nothing is left to withdraw; a ruling, and "
                                "everything logged before it, stands until the floor corrects it, and an "
                                "earlier hand is closed once the next deal is logged (the floor corrects it "
                                "with a ruling)")
        latest, kind, before = self._undo
        if index != latest:
            raise IllegalAction(f"cannot void event #{index}: only the latest live event, #{latest} ({kind}), "
                                f"can be voided while nothing depends on it")
        t = before._t.copy()
        t.message = f"event #{index} ({kind}) withdrawn"
        t.last_event = {"type": "void", "event": index}
        return TableState(t, before._undo, self._voided | {index}, self._voids | {self.version}, self.version + 1)

    # ------------------------------------------------------------------ output
    def to_dict(self) -> dict[str, Any]:
        """The state as plain data (JSON-able except that seat keys are ints)."""
        t = self._t
        contenders = t.live() if t.phase != "between_deals" else [
            s for s in t.order if t.seats[s].status == "active"]
        pots = side_pots({s: x.put for s, x in t.seats.items()}, contenders,
                         [s for s in contenders if t.seats[s].all_in])
        offer = t.reopen
        return {
            "version": self.version,
            "profile": t.profile.name,
            "ante": t.ante, "small_bet": t.small_bet, "big_bet": t.big_bet,
            "deal": t.deal_no,
            "button": t.button,
            "phase": t.phase,
            "to_act": t.to_act,
            "legal": t.legal(),
            "pot": t.pot,
            "pots": [p.to_dict() for p in pots],
            "jackpot": {
                "deals": t.deals, "ante_deals": t.ante_deals, "opened": t.opened, "opener": t.opener,
                "requirement": t.requirement, "proven": t.proven, "new_pot": t.new_pot,
                "antes_next_deal": _antes_due(t) if t.phase == "between_deals" else None,
                "ante_for_all": t.ante_for_all,
            },
            "seats": {s: {
                "player": x.player, "stack": x.stack, "status": x.status, "all_in": x.all_in,
                "committed": x.committed, "put": x.put, "bets": x.bets, "drawn": x.drawn,
                "shown": list(x.shown) if x.shown is not None else None,
            } for s, x in t.seats.items()},
            "bet_level": t.bet_level,
            "raises": t.raises,
            "passed": list(t.passed),
            "dealt": list(t.dealt),
            "stub": t.stub,
            "discards": t.muck,
            "escrow": {s: list(c) for s, c in t.escrow},
            "split": t.split,
            "show_order": list(t.show_order),
            "reopen": None if offer is None else {
                "false_opener": offer.false_opener, "eligible": list(offer.eligible), "passed": list(offer.asked)},
            "rulings": [copy.deepcopy(dict(r)) for r in t.rulings],
            "awards": dict(t.awards),
            "last_end": t.last_end,
            "message": t.message,
            "last_event": None if t.last_event is None else dict(t.last_event),
            "voided": sorted(self._voided),
            # what a dealer's undo would withdraw now (the latest live event of this hand), or None
            "undo": None if self._undo is None else {"event": self._undo[0], "type": self._undo[1]},
        }


# ====================================================================== helpers


def _chips(value: Any, what: str, positive: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (1 if positive else 0):
        need = "a whole number of chips above 0" if positive else "a whole number of chips, 0 or more"
        raise IllegalAction(f"setup: {what} must be {need}, not {value!r}")
    return int(value)


def _reset_deal(t: _Table) -> None:
    """Clear what belongs to one deal."""
    t.dealt, t.opened, t.opener, t.proven, t.passed = (), False, None, False, ()
    t.unproven, t.unproven_hand = False, None
    t.callers, t.raised_before_draw, t.opener_bets = 0, False, ()
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    t.stub, t.muck, t.reshuffled = 0, 0, False
    t.escrow, t.split, t.show_order, t.reopen = (), False, (), None


def _antes_due(t: _Table) -> bool:
    """Whether the next deal of this pot takes antes (O4): the ante cap counts consecutive deals of
    one pot, and a pot limit stops antes too. A fresh pot always antes."""
    if t.new_pot or t.force_ante:
        return True
    p = t.profile
    if p.ante_deals is not None and t.ante_deals >= p.ante_deals:
        return False
    if p.pot_limit is not None and t.pot >= p.pot_limit:
        return False
    return True


def _next_requirement(t: _Table) -> None:
    """Progressive openers (O5): J, Q, K, A, then back down K, Q, J, and up again."""
    i = MINIMUMS.index(t.requirement)
    if t.rising and i == len(MINIMUMS) - 1:
        t.rising = False
    elif not t.rising and i == 0:
        t.rising = True
    t.requirement = MINIMUMS[i + 1 if t.rising else i - 1]


# ====================================================================== the deal


def _deal(t: _Table, e: ev.Deal) -> None:
    """A new deal (O3, O4, D1): move the button, deal in the players, take antes unless capped."""
    if t.phase != "between_deals":
        raise t.refuse("cannot deal: the current deal is not finished")
    if t.new_pot:
        t.deals = t.ante_deals = 0
        t.requirement, t.rising, t.force_ante = t.profile.opening_minimum, True, False
        for s in t.order:  # F7: a barred player is released once the pot has been won
            if t.seats[s].status == "barred":
                t.set(s, status="active")
    statuses = {}
    for s in t.order:
        x = t.seats[s]
        if x.status == "barred":
            statuses[s] = "barred"
        elif x.stack == 0 and x.put == 0:
            statuses[s] = "out"
        else:
            statuses[s] = "active"
    if t.deal_no > 0 and (t.last_end != "throw_in" or t.profile.button_moves_on_throw_in):
        t.button = next((s for s in t.clockwise(t.button) if statuses[s] != "out"), t.button)
    dealt = tuple(s for s in t.clockwise(t.button) if statuses[s] == "active")
    if len(dealt) < 2:
        raise IllegalAction("cannot deal: a deal needs at least two players with chips or a claim on the pot "
                            f"(in play: {', '.join(map(str, dealt)) or 'none'})")
    deck = t.profile.deck_size
    if 5 * len(dealt) > deck:
        raise IllegalAction(f"cannot deal: {len(dealt)} players need {5 * len(dealt)} cards and the deck has {deck}")
    antes = _antes_due(t)
    t.finished, t.finished_end = None, ()  # the deal before is closed: rulings on it are corrections now
    for s in t.order:
        t.set(s, status=statuses[s], committed=0, bets=0, acted=False, drawn=None, shown=None)
    _reset_deal(t)
    t.phase, t.dealt, t.stub = "predraw", dealt, deck - 5 * len(dealt)
    words = []
    payer = t.ante_for_all if t.ante_for_all in dealt else None
    if payer is not None and t.ante > 0:
        # F9: the false opener antes for every player of this deal
        paid = min(t.seats[payer].stack, t.ante * len(dealt))
        t.put_chips(payer, paid, bet=False)
        share, rest = divmod(paid, len(dealt))
        # the claim each ante buys belongs to the player it was paid for
        for s in dealt:
            t.set(payer, put=t.seats[payer].put - share)
            t.set(s, put=t.seats[s].put + share)
        words.append(f"seat {payer} antes {paid} for everyone (F9)")
        t.ante_deals += 1
    elif antes and t.ante > 0:
        for s in dealt:
            t.put_chips(s, min(t.ante, t.seats[s].stack), bet=False)
        t.ante_deals += 1
        words.append(f"antes of {t.ante} taken")
    else:
        words.append("no antes (the pot's ante cap is reached)")
    t.ante_for_all = None
    t.force_ante = False
    t.new_pot = False
    t.deals += 1
    t.deal_no += 1
    t.to_act = dealt[0]
    t.message = f"deal {t.deal_no}, button on seat {t.button}: " + "; ".join(words)


# ====================================================================== first round


def _pass(t: _Table, e: ev.Pass) -> None:
    """Declines to open (O2), or declines to reopen during a reopen offer (F3)."""
    s = e.seat
    if t.reopen is not None:
        t.check_turn("pass", s)
        _reopen_step(t, s, None)
        return
    if t.phase != "predraw" or t.opened:
        t.check_turn("pass", s)
        raise t.refuse(f"seat {s} cannot pass: passing only declines to open, and the pot is open")
    t.check_turn("pass", s)
    t.passed = t.passed + (s,)
    live = t.live()
    following = [x for x in t.clockwise(s) if x in live and x not in t.passed]
    if not following:
        _throw_in(t)
        return
    t.to_act = following[0]
    t.message = f"seat {s} passes"


def _throw_in(t: _Table) -> None:
    """Nobody opened (O3): the cards are thrown in and the pot waits for the next deal."""
    _end_deal(t, "throw_in")
    if t.profile.progressive_openers:
        _next_requirement(t)
    t.message = f"nobody opened: the pot of {t.pot} carries to the next deal"
    if t.profile.progressive_openers:
        t.message += f"; openers needed now: {t.requirement}s or better (O5)"


def _open(t: _Table, e: ev.Open) -> None:
    """Declares openers and bets the small bet, or all a short stack has, even nothing (O1, O2, O6)."""
    s = e.seat
    if t.reopen is not None:
        t.check_turn("open", s)
        raise t.refuse(f"seat {s} cannot open: false openers were found; the pot is reopened with 'reopen'")
    seat = t.check_turn("open", s)
    if t.phase != "predraw" or t.opened:
        raise t.refuse(f"seat {s} cannot open: the pot is already open")
    amounts = t.opening_amounts(seat)
    due = min(t.small_bet, seat.stack) if e.amount is None else e.amount
    if due not in amounts:
        allowed = " or ".join(map(str, amounts))
        raise t.refuse(f"seat {s} cannot open for {e.amount}: the opening bet here is {allowed} (O2)")
    t.put_chips(s, due)
    t.opened, t.opener, t.opener_bets = True, s, (due,)
    # Opening with a raise counts toward the raise cap; it is the opener's opening bet all the same
    # (F2 leaves all of it in the pot), and not "a raise" that makes a false opener's pot play (F5),
    # which protects the players who came in against the opener.
    raised = due > t.small_bet
    t.bet_level, t.raises, t.last_aggressor = t.seats[s].committed, int(raised), s
    t.set(s, acted=True)
    if due == 0 and seat.stack > 0:
        t.message = f"seat {s} declares openers and checks: the pot is open (O2)"
    elif raised:
        t.message = f"seat {s} opens with a raise to {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    else:
        t.message = f"seat {s} opens for {due}" + (" (all in)" if t.seats[s].stack == 0 else "")
    _after_action(t, s)


# ====================================================================== betting


def _betting_seat(t: _Table, kind: str, s: int) -> Seat:
    if t.reopen is not None:
        t.check_turn(kind, s)
        raise t.refuse(f"seat {s} cannot {kind}: the reopen offer must be answered first (F3)")
    seat = t.check_turn(kind, s)
    if t.phase not in ("predraw", "postdraw") or (t.phase == "predraw" and not t.opened):
        what = "the pot is not open yet" if t.phase == "predraw" else f"this is the {t.phase}"
        raise t.refuse(f"seat {s} cannot {kind}: {what}")
    return seat


def _record_bet(t: _Table, s: int, amount: int) -> None:
    t.put_chips(s, amount)
    if s == t.opener and amount > 0:
        t.opener_bets = t.opener_bets + (amount,)


def _call(t: _Table, e: ev.Call) -> None:
    s = e.seat
    seat = _betting_seat(t, "call", s)
    to_call = t.bet_level - seat.committed
    if to_call <= 0:
        raise t.refuse(f"seat {s} cannot call: there is no bet to call")
    amount = min(to_call, seat.stack)
    _record_bet(t, s, amount)
    if t.phase == "predraw" and t.raises == 0:
        t.callers += 1
    t.set(s, acted=True)
    t.message = f"seat {s} calls {amount}" + (" (all in)" if t.seats[s].stack == 0 else "")
    _after_action(t, s)


def _check(t: _Table, e: ev.Check) -> None:
    s = e.seat
    seat = _betting_seat(t, "check", s)
    if t.bet_level > seat.committed:
        raise t.refuse(f"seat {s} cannot check: there is a bet of {t.bet_level - seat.committed} to call")
    if t.phase == "predraw" and t.raises == 0 and s != t.opener:
        t.callers += 1  # the opening bet was nothing (an all-in opener, O6): checking calls it
    t.set(s, acted=True)
    t.message = f"seat {s} checks"
    _after_action(t, s)


def _bet(t: _Table, e: ev.Bet) -> None:
    s = e.seat
    seat = _betting_seat(t, "bet", s)
    if t.bet_level > 0:
        raise t.refuse(f"seat {s} cannot bet: there is already a bet (call or raise it)")
    if seat.stack == 0:  # pragma: no cover - all-in seats are never asked
        raise t.refuse(f"seat {s} cannot bet: no chips left")
    amount = min(t.bet_size, seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    _reopen_action(t, s)
    t.message = f"seat {s} bets {amount}"
    _after_action(t, s)


def _raise(t: _Table, e: ev.Raise) -> None:
    s = e.seat
    seat = _betting_seat(t, "raise", s)
    to_call = t.bet_level - seat.committed
    if t.bet_level == 0:
        raise t.refuse(f"seat {s} cannot raise: there is no bet yet (bet instead)")
    if not t.may_raise(seat):
        raise t.refuse(f"seat {s} cannot raise: the raise cap of {t.profile.raise_cap} is reached (D5)")
    if seat.stack <= to_call:
        raise t.refuse(f"seat {s} cannot raise: {seat.stack} chips only call the {to_call} due")
    amount = min(to_call + t.bet_size, seat.stack)
    _record_bet(t, s, amount)
    t.bet_level, t.last_aggressor = t.seats[s].committed, s
    t.raises += 1
    if t.phase == "predraw":
        t.raised_before_draw = True
    _reopen_action(t, s)
    t.message = f"seat {s} raises to {t.bet_level}" + (" (all in)" if t.seats[s].stack == 0 else "")
    _after_action(t, s)


def _fold(t: _Table, e: ev.Fold) -> None:
    s = e.seat
    _betting_seat(t, "fold", s)
    t.set(s, status="folded", acted=True)
    t.message = f"seat {s} folds"
    _after_action(t, s)


def _reopen_action(t: _Table, s: int) -> None:
    """After a bet or raise everyone else still able to bet must act again."""
    for x in t.live():
        t.set(x, acted=(x == s))


def _after_action(t: _Table, s: int) -> None:
    """Move the turn on, or close the betting round."""
    live = t.live()
    if len(live) == 1:
        _last_standing(t, live[0])
        return
    if not live:
        _end_deal(t, "carried")
        t.message += "; nobody is left in the deal: the pot carries to the next deal"
        return
    movers = [x for x in live if t.seats[x].stack > 0]
    pending = [x for x in movers if not t.seats[x].acted or t.seats[x].committed < t.bet_level]
    if not pending or (len(movers) == 1 and t.seats[movers[0]].committed >= t.bet_level):
        if t.phase == "predraw":
            _start_draw(t)
        else:
            _start_showdown(t)
        return
    t.to_act = next(x for x in t.clockwise(s) if x in pending)


def _last_standing(t: _Table, w: int) -> None:
    """Everyone else folded. The opener must still prove openers (F1); anyone else takes the pot (D7)."""
    if w == t.opener and not t.proven:
        t.phase, t.show_order, t.to_act = "showdown", (w,), w
        t.message += f"; everyone else folded: seat {w} shows openers to take the pot (F1)"
        return
    amount = t.pot
    _award(t, {w: amount})
    t.message += f"; seat {w} takes the pot of {amount} uncalled (D7)"


# ====================================================================== the draw


def _start_draw(t: _Table) -> None:
    t.phase = "draw"
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted:
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    t.to_act = next(x for x in t.clockwise(t.button) if t.seats[x].status == "active")
    t.message += "; betting before the draw is complete: the draw starts (D2)"


def _draw(t: _Table, e: ev.Draw) -> None:
    """Discards and receives as many cards (D2); the opener may split openers into escrow (S1).

    When the stub cannot cover a draw without its last card, the discards of those who already
    drew (never the escrow) are shuffled with what is left (D3).
    """
    s = e.seat
    if t.reopen is not None:
        t.check_turn("draw", s)
        raise t.refuse(f"seat {s} cannot draw: the reopen offer must be answered first (F3)")
    t.check_turn("draw", s)
    if t.phase != "draw":
        raise t.refuse(f"seat {s} cannot draw: this is the {t.phase.replace('_', ' ')}")
    if e.count > t.profile.max_draw:
        raise t.refuse(f"seat {s} cannot draw {e.count}: at most {t.profile.max_draw} cards (D2)")
    escrow: tuple[str, ...] = ()
    if e.split or e.escrow:
        if s != t.opener:
            raise t.refuse(f"seat {s} cannot split openers: only the opener (seat {t.opener}) splits (S1)")
        if not e.split:
            raise t.refuse("escrow cards are kept only when the opener splits openers (split: true, S1)")
        if len(e.escrow) != e.count or not e.count:
            raise t.refuse(f"seat {s} splits openers: every discard goes under the chip (S1), so the escrow "
                           f"lists all {e.count} discards, not {len(e.escrow)}"
                           if e.count else f"seat {s} cannot split openers without discarding (S1)")
        try:
            from rules.cards import parse_cards, to_text
            escrow = tuple(to_text([c]) for c in parse_cards(e.escrow))
        except CardError as exc:
            raise t.refuse(f"escrow: {exc}") from None
        _check_cards(t, escrow, "escrow")
    n = e.count
    if n <= t.stub - 1 or n == 0:
        t.stub -= n
        note = ""
    else:
        pack = t.stub + t.muck
        if n > pack:
            raise t.refuse(f"seat {s} cannot draw {n}: only {pack} card{'' if pack == 1 else 's'} can be dealt, "
                           f"even with the discards of those who drew reshuffled (the escrow never is) (D3)")
        t.stub, t.muck, t.reshuffled = pack - n, 0, True
        note = "; the discards were reshuffled to finish the draw (D3)"
    t.muck += n - len(escrow)
    if escrow:
        t.escrow = t.escrow + ((s, escrow),)
        t.split = True
    t.set(s, drawn=n)
    t.message = (f"seat {s} draws {n}" if n else f"seat {s} stands pat") + note
    if escrow:
        t.message += f"; openers split, {' '.join(escrow)} in escrow (S1)"
    waiting = [x for x in t.clockwise(s) if t.seats[x].status == "active" and t.seats[x].drawn is None]
    if waiting:
        t.to_act = waiting[0]
    else:
        _start_postdraw(t)


def _start_postdraw(t: _Table) -> None:
    """The second round (D4): from the opener, or the next live seat after the opener, or from the
    button's left when the profile says so; the big bet (D5)."""
    t.phase = "postdraw"
    for x in t.order:
        if t.seats[x].committed or t.seats[x].acted:
            t.set(x, committed=0, acted=False)
    t.bet_level, t.raises, t.last_aggressor = 0, 0, None
    movers = [x for x in t.live() if t.seats[x].stack > 0]
    if len(movers) < 2:
        t.message += "; no betting after the draw (players all in)"
        _start_showdown(t)
        return
    start = t.opener if t.profile.postdraw_first == "opener" and t.opener is not None else t.button
    if start == t.opener and start in movers:
        t.to_act = start
    else:
        t.to_act = next(x for x in t.clockwise(start) if x in movers)
    t.message += "; the draw is over: betting after the draw"


# ====================================================================== showdown


def _start_showdown(t: _Table) -> None:
    """Showdown order (D6): the last bettor or raiser shows first, else the opener; then clockwise."""
    t.phase = "showdown"
    live = t.live()
    first = t.last_aggressor if t.last_aggressor in live else t.opener
    if first not in live:
        first = next(x for x in t.clockwise(first if first is not None else t.button) if x in live)
    order = [first] + [x for x in t.clockwise(first) if x in live and x != first]
    t.show_order = tuple(order)
    t.to_act = first
    t.message += f"; showdown: seat {first} shows first (D6)"


def _show(t: _Table, e: ev.Show) -> None:
    """Shows a hand. A hand of other than five cards is dead (H6). The opener proves openers with it,
    or with the escrow when openers were split (F1, S2)."""
    s = e.seat
    t.check_turn("show", s)
    if t.phase != "showdown" or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot show: hands are shown at the showdown")
    from rules.cards import parse_cards, to_text
    try:
        cards = parse_cards(e.cards)
    except CardError as exc:
        raise t.refuse(f"show: {exc}") from None
    texts = tuple(to_text([c]) for c in cards)
    _check_cards(t, texts, "show")
    overlap = [c for c in texts if any(c in esc for _, esc in t.escrow)]
    if overlap:
        raise t.refuse(f"show: {overlap[0]} is in escrow, it cannot be in a hand")
    shown = [c for c in texts for x in t.order if x != s and c in (t.seats[x].shown or ())]
    if shown:
        raise t.refuse(f"show: {shown[0]} is already in another player's hand")
    wild = t.profile.wild
    if len(cards) == 5:
        try:
            _evaluate(texts, t.profile)
        except CardError as exc:
            raise t.refuse(f"show: {exc}") from None
    t.set(s, shown=texts)
    if len(cards) != 5:
        t.set(s, status="dead")
        t.message = f"seat {s} shows {len(cards)} cards: a foul hand is dead (H6)"
        if s == t.opener and not t.proven:
            t.unproven, t.unproven_hand = True, None
    else:
        t.message = f"seat {s} shows {' '.join(texts)}"
        if s == t.opener and not t.proven:
            from rules.openers import proof
            escrow = t.escrow_of(s)
            kept = proof(texts, t.seats[s].drawn or 0, escrow, wild=wild, minimum=t.requirement,
                         southern=t.profile.southern_hands)
            if kept is not None:
                t.proven = True
                shown_kept = " ".join(c for c in map(str, kept) if c not in escrow)
                t.message += (f" and, with the escrow {' '.join(escrow)}, proves openers (S2)" if escrow
                              else f" and proves openers with {shown_kept} (F1)")
            else:
                # F1: the hand is dead; the ruling waits for the other hands (F8, S2), so that it
                # knows whether anyone is left to take the pot
                t.set(s, status="dead")
                t.unproven, t.unproven_hand = True, texts
                t.message += (", which with the escrow cannot have held openers (S2)" if escrow
                              else ", which does not prove openers: the cards kept hold no openers (F1)")
    if t.phase == "showdown":
        _next_show(t)


def _muck(t: _Table, e: ev.Muck) -> None:
    """Gives up the hand at the showdown. An opener left alone who mucks has not proved openers (F8)."""
    s = e.seat
    t.check_turn("muck", s)
    if t.phase != "showdown" or t.reopen is not None:
        raise t.refuse(f"seat {s} cannot muck: hands are mucked at the showdown (fold while betting)")
    t.set(s, status="folded")
    t.message = f"seat {s} mucks"
    if s == t.opener and not t.proven and not t.live():
        t.unproven, t.unproven_hand = True, None  # F8: left alone, the opener did not prove openers
    if t.phase == "showdown":
        _next_show(t)


def _next_show(t: _Table) -> None:
    """Ask the next hand, or settle the pot once every hand is shown or mucked."""
    live = t.live()
    pending = [x for x in t.show_order if x in live and t.seats[x].shown is None]
    if pending:
        if not t.unproven and len(live) == 1 and not (live[0] == t.opener and not t.proven):
            w = live[0]
            amount = t.pot
            _award(t, {w: amount})
            t.message += f"; seat {w} takes the pot of {amount}, the other hands given up"
            return
        t.to_act = pending[0]
        return
    if t.unproven:
        _rule_unproven(t)
        return
    if not live:
        _end_deal(t, "carried")
        t.message += "; no hand is left: the pot carries to the next deal"
        return
    _settle(t)


def _rule_unproven(t: _Table) -> None:
    """The opener did not prove openers: the tree rules once the other hands are known (F1, F8, S2).

    A split that cannot be proved is ruled as split openers (S2) when other hands are left to take
    the pot; with nobody else left, any failed proof is ruled as an opener who cannot show openers,
    so that the pot stays and an all-in opener is barred (F8, F7) whichever way it was found.
    """
    t.unproven = False
    live = t.live()
    hands = {x: list(t.seats[x].shown or ()) for x in live if x != t.opener}
    opener = t.seats[t.opener] if t.opener is not None else None
    extra: dict[str, Any] = {"hands": hands, "everyone_folded": not hands,
                             "drawn": (opener.drawn or 0) if opener is not None else 0}
    if t.unproven_hand is not None:
        extra["final_hand"] = list(t.unproven_hand)
    else:
        extra["final_hand"] = None  # mucked, or a foul hand: nothing to prove openers with
    issue = "split_openers" if t.split and hands and t.unproven_hand is not None else "opener_cannot_show"
    _irregularity(t, issue, extra)
    if t.phase == "showdown":
        _next_show(t)


@functools.lru_cache(maxsize=16)
def _deck_texts(wild: str, stripped: bool) -> frozenset[str]:
    from rules.cards import deck, to_text
    return frozenset(to_text([c]) for c in deck(wild=wild, stripped=stripped))


def _check_cards(t: _Table, texts: Iterable[str], what: str) -> None:
    """Every card must belong to the deck the profile plays (H1)."""
    cards = _deck_texts(t.profile.wild, t.profile.stripped_deck)
    for c in texts:
        if c not in cards:
            raise t.refuse(f"{what}: {c} is not in this game's deck")


def _evaluate(cards: Iterable[str], profile: Profile) -> Any:
    from rules.hands import evaluate
    return evaluate(list(cards), wild=profile.wild, southern=profile.southern_hands)


def _settle(t: _Table) -> None:
    """Award every pot to its best live hand(s); a pot none of whose contenders is left goes to the
    best live hand at the table."""
    live = t.live()
    values = {s: _evaluate(t.seats[s].shown or (), t.profile) for s in live if t.seats[s].shown is not None}
    pots = side_pots({s: x.put for s, x in t.seats.items()}, live, [s for s in live if t.seats[s].all_in])
    around = t.clockwise(t.button)
    awards: dict[int, int] = {}
    for pot in pots:
        eligible = [s for s in pot.eligible if s in live] or live
        shown = [s for s in eligible if s in values]
        if shown:
            best = max(values[s] for s in shown)
            winners = [s for s in shown if values[s] == best]
        else:
            winners = eligible
        for s, amount in split_amount(pot.amount, winners, around).items():
            awards[s] = awards.get(s, 0) + amount
    _award(t, awards)
    t.message += "; " + ", ".join(f"seat {s} wins {a}" for s, a in awards.items())


def _award(t: _Table, awards: Mapping[int, int]) -> None:
    """Pay the pot out: the jackpot is won and the next deal starts a new pot."""
    if sum(awards.values()) != t.pot:  # pragma: no cover - an engine bug
        raise AssertionError("an award must pay out the whole pot")
    _keep_finished(t)
    for s, amount in awards.items():
        t.set(s, stack=t.seats[s].stack + amount)
    for s in t.order:
        if t.seats[s].put:
            t.set(s, put=0)
    t.awards = tuple(awards.items())
    _end_deal(t, "won")


def _keep_finished(t: _Table) -> None:
    """Keep the deal as it stands at its end, before any award: a ruling between deals re-settles
    the last finished deal from here (see :func:`_rule_last_deal`)."""
    snapshot = t.copy()
    snapshot.finished, snapshot.finished_end, snapshot.added = None, (), ()
    t.finished = snapshot


def _end_deal(t: _Table, how: str) -> None:
    """Close the deal: ``won`` (a new pot follows), ``throw_in`` or ``carried`` (the pot waits)."""
    if how != "won":
        _keep_finished(t)  # an award keeps it before paying out
    t.phase, t.to_act, t.last_end = "between_deals", None, how
    t.reopen = None
    if how == "won":
        t.new_pot = True
    for s in t.order:
        x = t.seats[s]
        if x.status == "barred" and how != "won":
            status = "barred"
        elif x.stack == 0 and x.put == 0:
            status = "out"
        else:
            status = "active"
        if status != x.status or x.committed or x.acted:
            t.set(s, status=status, committed=0, acted=False)
    t.finished_end = tuple((s, x.stack, x.put) for s, x in t.seats.items())


# ====================================================================== irregularities


def _facts(t: _Table, issue: str, extra: Mapping[str, Any]) -> dict[str, Any]:
    """The facts of the decision tree, read from the table (DESIGN.md's fact names)."""
    opener = t.opener
    live = t.live()
    nobody_drew = all(t.seats[x].drawn is None for x in t.dealt)
    before = t.phase == "predraw" or (t.phase == "draw" and nobody_drew)
    op = t.seats[opener] if opener is not None else None
    hands = {x: list(t.seats[x].shown or ()) for x in t.dealt if t.seats[x].shown is not None}
    facts: dict[str, Any] = {
        "issue": issue,
        "found": "before_draw" if before else "after_draw",
        "opener": opener,
        "opener_all_in": bool(op is not None and op.stack == 0 and t.opener_bets and t.opener_bets[0] < t.small_bet),
        "raise_before_draw": t.raised_before_draw,
        "callers": t.callers,
        "action_complete_before_draw": t.phase != "predraw",
        "passed": list(t.passed),
        "active": live,
        "opener_bets": list(t.opener_bets),
        "bets": {x: t.seats[x].bets for x in t.dealt if x != opener},
        "drawn_to": any(t.seats[x].drawn is not None for x in t.dealt if x != opener),
        "everyone_folded": not [x for x in live if x != opener],
        "hands": hands,
        "discards": list(t.escrow_of(opener)),
        "drawn": (op.drawn or 0) if op is not None else 0,
        "requirement": t.requirement,
    }
    if opener is not None and t.seats[opener].shown is not None:
        facts["final_hand"] = list(t.seats[opener].shown or ())
    facts.update(extra)
    return facts


def _resolve(t: _Table, facts: Mapping[str, Any]) -> Mapping[str, Any]:
    from rules.rulings import resolve
    return resolve(dict(facts), t.profile).to_dict()


def _irregularity(t: _Table, issue: str, extra: Mapping[str, Any]) -> None:
    """Ask the decision tree and apply its ruling; a needed reopener starts the reopen offer (F3)."""
    facts = _facts(t, issue, extra)
    try:
        ruling = _resolve(t, facts)
    except MissingFact as exc:
        if exc.fact == "reopener":
            _offer_reopen(t, facts)
            return
        raise t.refuse(f"{issue.replace('_', ' ')}: the ruling needs '{exc.fact}', which the log does not hold; "
                       f"settle it on the floor page and log it as a ruling event") from None
    except RulesError as exc:
        raise t.refuse(f"{issue.replace('_', ' ')}: the decision tree cannot rule from the log ({exc}); "
                       "settle it on the floor page and log it as a ruling event") from None
    _apply_ruling(t, ruling, None, facts)


def _false_openers(t: _Table, e: ev.FalseOpeners) -> None:
    """It is found that the opener had no openers: the tree rules (F2-F9)."""
    s = e.seat
    if s not in t.seats:
        raise IllegalAction(f"there is no seat {s} at this table; {t.allowed_text()}")
    if t.phase not in ("predraw", "draw", "postdraw") or not t.opened or t.reopen is not None:
        raise t.refuse(f"false openers of seat {s}: only while an opened deal is being played "
                       "(at the showdown the opener shows or mucks)")
    if s != t.opener:
        raise t.refuse(f"false openers of seat {s}: seat {s} is not the opener (seat {t.opener} is)")
    if t.seats[s].status != "active":
        raise t.refuse(f"false openers of seat {s}: the opener's hand is already {t.seats[s].status}")
    t.message = f"seat {s} had no openers"
    _irregularity(t, "false_openers", {})


def _offer_reopen(t: _Table, facts: Mapping[str, Any]) -> None:
    """F3: the active players other than the false opener, except those who passed, may reopen in turn."""
    opener = t.opener if t.opener is not None else t.button
    live = t.live()
    eligible = tuple(x for x in t.clockwise(opener) if x != t.opener and x in live and x not in t.passed)
    if not eligible:
        _conclude_reopen(t, dict(facts), None)
        return
    t.reopen = ReopenOffer(opener, eligible, (), tuple(facts.items()))
    t.to_act = eligible[0]
    t.message += f"; seats {', '.join(map(str, eligible))} may reopen the pot in turn (F3)"


def _reopen(t: _Table, e: ev.Reopen) -> None:
    s = e.seat
    t.check_turn("reopen", s)
    if t.reopen is None:
        raise t.refuse(f"seat {s} cannot reopen: there is no reopen offer (false openers not found)")
    _reopen_step(t, s, e.amount if e.amount is not None else -1)


def _reopen_step(t: _Table, s: int, amount: int | None) -> None:
    offer = t.reopen
    assert offer is not None
    if amount is None:
        asked = offer.asked + (s,)
        rest = [x for x in offer.eligible if x not in asked]
        t.message = f"seat {s} does not reopen"
        if rest:
            t.reopen = replace(offer, asked=asked)
            t.to_act = rest[0]
            return
        t.reopen = None
        _conclude_reopen(t, dict(offer.facts), None)
        return
    due = min(t.small_bet, t.seats[s].stack)
    if amount not in (-1, due):
        raise t.refuse(f"seat {s} cannot reopen for {amount}: the opening bet is {due}")
    t.reopen = None
    t.message = f"seat {s} reopens the pot"
    _conclude_reopen(t, dict(offer.facts), s)


def _conclude_reopen(t: _Table, facts: dict[str, Any], reopener: int | None) -> None:
    facts["reopener"] = reopener
    try:
        ruling = _resolve(t, facts)
    except MissingFact as exc:
        raise t.refuse(f"false openers: the ruling needs '{exc.fact}', which the log does not hold; "
                       "settle it on the floor page and log it as a ruling event") from None
    except RulesError as exc:
        raise t.refuse(f"false openers: the decision tree cannot rule ({exc})") from None
    _apply_ruling(t, ruling, None, facts)


def _ruling(t: _Table, e: ev.Ruling) -> None:
    """A floor person's ruling applied through the same path as the engine's own: to the deal in
    progress, or between deals to the last finished deal (a pot already awarded or carried)."""
    if t.phase == "between_deals":
        _rule_last_deal(t, dict(e.ruling or {}), e.id)
        return
    if t.reopen is not None:
        t.reopen = None
    _apply_ruling(t, dict(e.ruling or {}), e.id)
    if t.phase == "showdown":
        _next_show(t)


#: What a ruling on the last finished deal takes over from the re-settled deal: the pot's and the
#: deal's bookkeeping (the seats' chips are moved by difference, see :func:`_rule_last_deal`).
_SETTLED_FIELDS = (
    "deals", "ante_deals", "requirement", "rising", "new_pot", "force_ante", "ante_for_all", "last_end",
    "awards", "dealt", "opened", "opener", "proven", "unproven", "unproven_hand", "passed", "callers",
    "raised_before_draw", "opener_bets", "bet_level", "raises", "last_aggressor", "stub", "muck",
    "reshuffled", "escrow", "split", "show_order", "reopen",
)


def _rule_last_deal(t: _Table, r: Mapping[str, Any], rid: Any) -> None:
    """A ruling between deals re-settles the last finished deal (the dispute raised at the award).

    The deal is taken as it stood when it ended, before any award; the ruling is applied there
    and the deal settled again (a showdown whose hands are all in is settled, a pot nobody can take
    stays). Each seat then gets the difference between the new settlement and the one the table
    had, so what happened since (a correction, a rebuy) is kept. A later ruling on the same deal
    replaces this one: a correction starts again from how the deal ended. A ruling that would let
    the deal go on, or take back chips a seat no longer has, is refused: the floor then moves the
    chips with a ``correction``.
    """
    base = t.finished
    if base is None:
        raise t.refuse("a ruling between deals applies to the last finished deal, and there is none to "
                       "rule on (the next deal closed it; move chips with a correction instead)")
    work = base.copy()
    work.finished, work.finished_end, work.added, work.rulings = None, (), (), t.rulings
    _apply_ruling(work, r, rid)
    if work.phase == "showdown":
        _next_show(work)
    if work.phase != "between_deals":
        raise t.refuse("the last deal is over and this ruling would let it go on; the floor moves the "
                       "chips with a correction instead")
    end = {s: (stack, put) for s, stack, put in t.finished_end}
    moves: dict[int, tuple[int, int]] = {}
    for s, x in work.seats.items():
        old_stack, old_put = end.get(s, (x.stack, x.put))
        moves[s] = (x.stack - old_stack, x.put - old_put)
    for s, (d_stack, d_put) in moves.items():
        if not d_stack and not d_put:
            continue
        if s not in t.seats:
            raise t.refuse(f"the ruling moves chips of seat {s}, who has left the table; the floor moves the "
                           "chips with a correction instead")
        if t.seats[s].stack + d_stack < 0:
            raise t.refuse(f"the ruling takes {-d_stack} back from seat {s}, who has {t.seats[s].stack} left; "
                           "the floor moves the chips with a correction instead")
    for s, (d_stack, d_put) in moves.items():
        if s in t.seats and (d_stack or d_put):
            x = t.seats[s]
            t.set(s, stack=x.stack + d_stack, put=x.put + d_put)
    for name in _SETTLED_FIELDS:
        setattr(t, name, getattr(work, name))
    for s in t.order:
        x = t.seats[s]
        barred = s in work.seats and work.seats[s].status == "barred"
        status = "barred" if barred else "out" if x.stack == 0 and x.put == 0 else "active"
        if status != x.status:
            t.set(s, status=status)
    t.rulings, t.added = work.rulings, t.added + work.added
    t.finished_end = tuple((s, x.stack, x.put) for s, x in work.seats.items())
    t.message = work.message + " (a ruling on the last finished deal)"


def _seat_list(t: _Table, r: Mapping[str, Any], key: str) -> list[int]:
    raw = r.get(key) or []
    if not isinstance(raw, (list, tuple)):
        raise t.refuse(f"ruling: {key} is a list of seats")
    out = []
    for x in raw:
        s = ev.parse_seat(x, f"ruling: {key}")
        if s not in t.seats:
            raise t.refuse(f"ruling: {key} names seat {s}, which is not at this table")
        out.append(s)
    return out


def _apply_ruling(t: _Table, r: Mapping[str, Any], rid: Any,
                  facts: Mapping[str, Any] | None = None) -> None:
    """Apply a ruling from its fields: dead, returns, barred, winner, pot_plays, ante_for_all, and
    for a reopened pot (F3) the new opener."""
    dead = _seat_list(t, r, "dead")
    barred = _seat_list(t, r, "barred")
    returns_raw = r.get("returns") or {}
    if not isinstance(returns_raw, Mapping):
        raise t.refuse("ruling: returns maps seats to chips")
    returns: dict[int, int] = {}
    for k, v in returns_raw.items():
        s = ev.parse_seat(k, "ruling: returns")
        if s not in t.seats or isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise t.refuse(f"ruling: returns of seat {s}: {v!r} is not a number of chips for a seat here")
        if v > t.seats[s].put:
            raise t.refuse(f"ruling: cannot hand {v} back to seat {s}, which has {t.seats[s].put} in the pot")
        returns[s] = v
    winner = r.get("winner")
    winner = ev.parse_seat(winner, "ruling: winner") if winner is not None else None
    winners = _seat_list(t, r, "winners") or ([winner] if winner is not None else [])
    if winner is not None and winner not in t.seats:
        raise t.refuse(f"ruling: the winner, seat {winner}, is not at this table")
    reopener = r.get("reopener")
    reopener = ev.parse_seat(reopener, "ruling: reopener") if reopener is not None else None
    if reopener is not None and (reopener not in t.seats or t.phase != "predraw"):
        raise t.refuse(f"ruling: seat {reopener} cannot reopen the pot now (only before the draw, F3)")
    afa = r.get("ante_for_all")
    afa = ev.parse_seat(afa, "ruling: ante_for_all") if afa is not None else None
    proved = r.get("proved")
    proved = ev.parse_seat(proved, "ruling: proved") if proved is not None else None
    if proved is not None and proved != t.opener:
        raise t.refuse(f"ruling: openers are proved by the opener (seat {t.opener}), not seat {proved}")
    outcome = str(r.get("outcome", ""))
    record = dict(r)
    record["id"] = rid
    record["deal"] = t.deal_no  # the table's deal number, as the log and the tablet count deals
    if facts is not None:
        record["facts"] = dict(facts)  # what the engine read from the log for the tree
    t.rulings = t.rulings + (record,)
    t.added = t.added + (record,)

    if proved is not None:
        # the opener's hand stands (F1, S2, S3): a hand the table had found dead for want of a
        # proof is live again, and the ruling the show was waiting for is not needed any more
        t.proven, t.unproven = True, False
        if t.seats[proved].status == "dead" and t.seats[proved].shown is not None:
            t.set(proved, status="active")

    for s, v in returns.items():
        x = t.seats[s]
        t.set(s, stack=x.stack + v, put=x.put - v, bets=max(0, x.bets - v), committed=max(0, x.committed - v))
        if s == t.opener and v:
            t.opener_bets = t.opener_bets[:1]
    for s in dead:
        if t.seats[s].status == "active" and t.phase != "between_deals":
            t.set(s, status="dead")
    for s in barred:
        t.set(s, status="barred")
    if afa is not None:
        t.ante_for_all = afa
    summary = str(r.get("summary") or outcome)
    t.message = f"ruling {outcome}: {summary}"

    if winners:
        live = t.live()
        if t.phase == "showdown" and all(w in live and t.seats[w].shown is not None for w in winners) and all(
                t.seats[x].shown is not None for x in live):
            _settle(t)  # the same winners, with side pots respected
            return
        amount = t.pot
        _award(t, split_amount(amount, winners, t.clockwise(t.button)))
        t.message += f"; {', '.join(f'seat {w}' for w in winners)} take{'s' if len(winners) == 1 else ''} the pot of {amount}"
        return
    if not r.get("pot_plays", False):
        # the pot stays for the next deal (F4, F8, F9); every ruling that lets the deal go on,
        # whatever it did to one hand, says pot_plays
        _end_deal(t, "carried")
        if "F4" in (r.get("citations") or ()):
            t.force_ante = True  # F4: everyone of that deal antes again
        t.message += f"; the pot of {t.pot} stays for the next deal"
        return
    if reopener is not None:
        _become_opener(t, reopener)
        return
    _continue_after_ruling(t)


def _become_opener(t: _Table, s: int) -> None:
    """F3: the reopener declares the pot open and the betting round before the draw goes on."""
    t.opener, t.proven, t.split, t.escrow = s, False, False, ()
    seat = t.seats[s]
    due = min(t.small_bet, seat.stack)
    level = max([t.seats[x].committed for x in t.live()] + [0])
    if level < seat.committed + due:
        extra = seat.committed + due - level
        add = min(extra, seat.stack)
        t.put_chips(s, add)
        t.bet_level = t.seats[s].committed
        t.opener_bets = (add,)
    else:
        t.bet_level = level
        t.opener_bets = (0,)
    t.raises, t.callers, t.raised_before_draw = 0, 0, False
    t.last_aggressor = s
    for x in t.live():
        t.set(x, acted=(x == s))
    t.phase = "predraw"
    t.message += f"; seat {s} is the opener now (F3)"
    _after_action(t, s)


def _continue_after_ruling(t: _Table) -> None:
    """The deal goes on without the dead hands (F5, F6)."""
    live = t.live()
    if t.phase == "showdown":
        return  # the showdown goes on from where it was (the caller moves it)
    if t.phase == "predraw" and not t.opened:
        asked = [x for x in t.clockwise(t.to_act or t.button) if x in live and x not in t.passed]
        if len(live) < 2 or not asked:
            _throw_in(t)  # nobody left to open against: the cards are thrown in (O3)
        elif t.to_act not in asked:
            t.to_act = asked[0]
        return
    if len(live) == 1:
        _last_standing(t, live[0])
        return
    if not live:
        _end_deal(t, "carried")
        return
    if t.phase == "draw":
        waiting = [x for x in t.clockwise(t.button) if x in live and t.seats[x].drawn is None]
        if t.to_act not in waiting:
            if waiting:
                t.to_act = next(x for x in t.clockwise(t.to_act or t.button) if x in waiting)
            else:
                _start_postdraw(t)
        return
    t.bet_level = max(t.seats[x].committed for x in live)  # chips handed back lower the bet to call
    current = t.to_act if t.to_act is not None else t.button
    if current in live and t.seats[current].stack > 0:
        movers = [x for x in live if t.seats[x].stack > 0]
        pending = [x for x in movers if not t.seats[x].acted or t.seats[x].committed < t.bet_level]
        if pending and current in pending:
            return
    _after_action(t, current)


def _finish_rulings(t: _Table, added: tuple[Mapping[str, Any], ...],
                    before: _Table) -> tuple[Mapping[str, Any], ...]:
    """Give the rulings an event produced their chips (what each seat's stack gained or lost over
    the event) and their headline in plain words, once the event has settled what it settles."""
    from rules.words import ruling_headline

    chips = {s: x.stack - before.seats[s].stack for s, x in t.seats.items()
             if s in before.seats and x.stack != before.seats[s].stack}
    ended = t.phase == "between_deals" and (before.phase != "between_deals" or t.last_end != before.last_end
                                           or t.awards != before.awards)
    won = dict(t.awards) if ended and t.last_end == "won" else None
    names = {s: x.player for s, x in t.seats.items()}
    hands: dict[int, str] = {}
    for w in won or {}:
        shown = t.finished.seats[w].shown if t.finished is not None and w in t.finished.seats else None
        if shown is not None and len(shown) == 5:
            hands[w] = _evaluate(shown, t.profile).describe()
    pot_left = t.pot if ended and t.last_end != "won" else None
    done = []
    for i, record in enumerate(added):
        if record.get("kind") == "correction":
            done.append(record)
            continue
        last = i == len(added) - 1
        new = dict(record)
        new["chips"] = chips if last else {}
        new["headline"] = ruling_headline(new, names, won=won if last else None,
                                          pot_left=pot_left if last else None, hands=hands)
        done.append(new)
    count = len(added)
    t.rulings = t.rulings[:-count] + tuple(done) if count else t.rulings
    if done:
        t.message = "Ruling: " + str(done[-1]["headline"])
    return tuple(done)


def _correction(t: _Table, e: ev.Correction) -> None:
    """The floor moves chips between seats between deals (an award put right, a miscount): the
    amounts sum to nothing, so chips are conserved, and no stack goes below nothing."""
    if t.phase != "between_deals":
        raise t.refuse("a correction moves chips between deals; during a deal the floor rules instead")
    for s, amount in e.moves:
        if s not in t.seats:
            raise t.refuse(f"correction: there is no seat {s} at this table")
        if t.seats[s].stack + amount < 0:
            raise t.refuse(f"correction: seat {s} has {t.seats[s].stack} chips and cannot give {-amount}")
    for s, amount in e.moves:
        x = t.seats[s]
        stack = x.stack + amount
        status = x.status if x.status == "barred" else "out" if stack == 0 and x.put == 0 else "active"
        t.set(s, stack=stack, status=status)
    names = {s: t.seats[s].player for s, _ in e.moves}
    from rules.words import correction_headline
    record: dict[str, Any] = {
        "outcome": "CHIPS_CORRECTED", "kind": "correction", "citations": [], "path": [],
        "moves": [{"seat": s, "amount": a} for s, a in e.moves], "reason": e.reason,
        "summary": e.reason, "headline": correction_headline(e.moves, names), "deal": t.deal_no,
        "chips": {s: a for s, a in e.moves if a}, "pot_plays": False, "dead": [], "returns": {},
        "barred": [], "winners": [], "winner": None,
    }
    t.rulings = t.rulings + (record,)
    t.added = t.added + (record,)
    t.message = record["headline"]


_HANDLERS: dict[type, Any] = {
    ev.Deal: _deal, ev.Pass: _pass, ev.Open: _open, ev.Call: _call, ev.Raise: _raise, ev.Fold: _fold,
    ev.Check: _check, ev.Bet: _bet, ev.Draw: _draw, ev.Show: _show, ev.FalseOpeners: _false_openers,
    ev.Reopen: _reopen, ev.Muck: _muck, ev.Ruling: _ruling, ev.Correction: _correction,
}

#: Events that are the floor's word: no void withdraws them or anything before them.
_FLOOR_EVENTS = (ev.FalseOpeners, ev.Ruling, ev.Correction)
