"""A banked table's round as a log of events (B1-B5): an immutable state, and ``apply(event)`` that
returns the next one, the way :class:`rules.jackpot.TableState` is a jackpot table's. The state
after a log is :meth:`BankedState.replay`; :func:`replay` gives its plain data. A refused event
raises :class:`rules.IllegalAction` (or :class:`rules.CardError`) naming the rule, and the state
it was applied to stays as it was.

setup: ``{"boxes": 3, "options": {...banked options...}}``. The events are declared in
:mod:`rules.banked.events` (their table is there), what they do in :mod:`rules.banked.play`; the
dispatch here reads those declarations: the event's type, whether it may happen now (``@checks``),
its fields, what it does (``@handles``). :meth:`BankedState.legal` lists the moves the rules allow
now as values (:class:`rules.banked.events.LegalMove`), from the same checks.

Boxes act in box order ("then the move goes to the next box"). Every card of a round is seen at
most once. When the dealer has drawn, every box is settled (B5) and the round is over; money
moves only between the boxes and the house (``house_net`` is minus the boxes' total).

>>> events = [
...     {"type": "deal", "antes": {"1": 3, "2": 6}, "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c"}},
...     {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "Ac Kd Qh"},
...     {"type": "bet", "box": 1},
...     {"type": "fold", "box": 2},
...     {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
... ]
>>> s = BankedState.replay({"boxes": 2}, events)
>>> s.stage, s.exchange.throw, s.exchange.words
(<RoundStage.DEALER_DRAW: 'dealer_draw'>, (Card('7s'), Card('5d'), Card('4h')), 'a pair: change the other three cards')
>>> [m.to_dict() for m in s.legal()]
[{'type': 'dealer_draw', 'cards': 3}, {'type': 'void', 'event': 5}]
>>> s = s.apply({"type": "dealer_draw", "drawn": "2c 3d 9h"})
>>> [(p.box, p.outcome, p.player_net) for p in s.payouts], s.house_net
([(1, 'player_wins', 42), (2, 'folded', -6)], -36)
>>> replay({"boxes": 2}, events[:2] + [{"type": "bet", "box": 2}])
Traceback (most recent call last):
...
rules.IllegalAction: B2: box 1 acts now (boxes act in order), not box 2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from rules import IllegalAction
from rules.banked.box import Box, Stage
from rules.banked.dealer import DealerExchange, dealer_decision, dealer_qualifies
from rules.banked.events import EVENTS, Event, LegalMove, Setup, Void, Who, parse_event
from rules.banked.options import BankedOptions
from rules.banked.readings import BoxInPlay, BoxRuling, DealerHand, Payout, RoundStage, RulingNote
from rules.banked.settle import settle_box
from rules.cards import Card
from rules.hands import evaluate

__all__ = ["EVENT_TYPES", "BankedState", "replay", "check_setup", "standing"]

#: The event types, as the log names them (declared in :mod:`rules.banked.events`).
EVENT_TYPES = tuple(EVENTS.kinds)

#: An entry of the log: its number and its event.
Entry = tuple[int, Mapping[str, Any]]


def check_setup(setup: Mapping[str, Any]) -> tuple[int, BankedOptions]:
    """The number of boxes (1-9, B1) and the banked options of a table's setup (:class:`Setup`)."""
    read = Setup.read(setup)
    return read.boxes, read.options


def standing(entries: Iterable[Entry]) -> list[Entry]:
    """The entries that stand: neither an undo nor withdrawn by one (what a round is replayed from
    when its undos are not; :meth:`BankedState.replay` reads the undos themselves).

    >>> standing([(1, {"type": "deal"}), (2, {"type": "fold", "box": 1}), (3, {"type": "void", "event": 2})])
    [(1, {'type': 'deal'})]
    """
    listed = list(entries)
    gone = {int(p["event"]) for _, p in listed if p.get("type") == "void" and str(p.get("event", "")).isdigit()}
    return [(s, p) for s, p in listed if s not in gone and p.get("type") != "void"]


@dataclass(frozen=True, eq=False)
class BankedState:
    """An immutable banked table: its setup, the round in play (its number, 0 before the first deal;
    its boxes, none before it) and the house's money. Build the first with :meth:`start`, then
    :meth:`apply` events."""

    setup: Setup
    number: int = 0
    #: the boxes dealt this round, by number (:class:`rules.banked.box.Box`: cards, stakes, stage)
    boxes: Mapping[int, Box] = field(default_factory=lambda: MappingProxyType({}))
    #: who plays each box, as the deal named them
    players: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    dealer: tuple[Card, ...] = ()
    final: tuple[Card, ...] = ()
    #: a floor ruling voided the dealer's hand
    void: bool = False
    #: the boxes whose payout a floor ruling set
    ruled: Mapping[int, BoxRuling] = field(default_factory=lambda: MappingProxyType({}))
    rulings: tuple[RulingNote, ...] = ()
    seen: frozenset[Card] = frozenset()
    #: the house's net over the rounds before this one
    house_before: int = 0
    #: this round's standing entries (number, event), its deal first: what an undo withdraws
    entries: tuple[tuple[int, Event], ...] = ()
    #: the table before this round's deal (withdrawing the deal gives it back)
    before: BankedState | None = field(default=None, repr=False)
    #: the number of the last entry applied
    version: int = 0
    #: the event last applied, as read: what the log stores of it is its ``to_dict()``
    applied: Event | None = field(default=None, repr=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def start(cls, setup: Mapping[str, Any], rounds: int = 0) -> BankedState:
        """The table before its next deal, ``rounds`` rounds played before (0: its first deal is
        next); a bad setup is refused naming the rule."""
        return cls(Setup.read(setup), number=rounds)

    @classmethod
    def replay(cls, setup: Mapping[str, Any], events: Iterable[Mapping[str, Any] | Event | Entry],
               first: int = 1, rounds: int = 0) -> BankedState:
        """The state after a log: its events (numbered from ``first``) or its entries (number,
        event); ``rounds`` were played before them (a log read from a round's deal)."""
        state = cls.start(setup, rounds)
        for n, item in enumerate(events, start=first):
            seq, event = item if isinstance(item, tuple) else (n, item)
            state = state.apply(event, seq)
        return state

    def apply(self, event: Mapping[str, Any] | Event, seq: int | None = None) -> BankedState:
        """The state after ``event`` (logged as entry ``seq``, by default the next); refused naming
        the rule when the rules forbid it now. What the dispatch reads is declared per event type:
        whether it may happen now, its fields, what it does (:mod:`rules.banked.play`)."""
        if isinstance(event, Event):
            cls: type[Event] = type(event)
        elif isinstance(event, Mapping):
            cls = EVENTS.type_of(event.get("type"))
        else:
            raise IllegalAction(f"an event is a mapping with a 'type', not {event!r}")
        EVENTS.checks_of[cls](self)  # may it happen now (before its fields: the rule is said first)
        read = parse_event(event, self.setup)
        after: BankedState = EVENTS.handlers[cls](self, read)
        at = self.version + 1 if seq is None else seq
        entries = after.entries + ((at, read),) if cls.stands else after.entries
        return replace(after, entries=entries, version=at, applied=read)

    # ------------------------------------------------------------------ readings
    @property
    def options(self) -> BankedOptions:
        return self.setup.options

    @property
    def to_act(self) -> int | None:
        """The box to decide now (boxes act in box order), or None."""
        return next((n for n, b in sorted(self.boxes.items()) if not b.closed), None)

    @property
    def stage(self) -> RoundStage:
        if not self.boxes:  # no round dealt yet (a deal always deals a box)
            return RoundStage.DEAL
        if self.final or self.void:
            return RoundStage.SETTLED
        if self.dealer:
            return RoundStage.DEALER_DRAW
        return RoundStage.BOXES if self.to_act is not None else RoundStage.REVEAL

    @cached_property
    def exchange(self) -> DealerExchange:
        """The dealer's exchange as the list decides it (B4); refused before the reveal."""
        if not self.dealer:
            raise IllegalAction("B4: the dealer's cards are not revealed yet")
        return dealer_decision(self.dealer, self.options)

    def legal(self, who: Who = Who.DEALER) -> tuple[LegalMove, ...]:
        """The moves the rules allow now, of the event types ``who`` logs, as values: every one is
        accepted by :meth:`apply` with the fields it asks (a promise the tests walk)."""
        moves: list[LegalMove] = []
        for cls in EVENTS.kinds.values():
            if cls.by is who:
                try:
                    moves.extend(EVENTS.checks_of[cls](self))
                except IllegalAction:
                    continue
        return tuple(moves)

    @property
    def withdrawable(self) -> tuple[int, Event] | None:
        """The entry an undo would withdraw now (the latest standing one, a dealer's), or None."""
        try:
            EVENTS.checks_of[Void](self)
        except IllegalAction:
            return None
        return self.entries[-1]

    @cached_property
    def in_play(self) -> tuple[BoxInPlay, ...]:
        """Every box dealt this round, in box order, as the tablet shows it."""
        acting = self.to_act
        return tuple(BoxInPlay(n, self.players.get(n), b.cards, evaluate(b.cards, "joker").describe(), b.ante,
                               b.ante_box, b.bet_amount, b.fees, b.stage, b.allowed() if n == acting else ())
                     for n, b in sorted(self.boxes.items()))

    @cached_property
    def dealer_hand(self) -> DealerHand | None:
        """The dealer's hand once revealed: the list's exchange (B4), the final hand, the qualifier."""
        if not self.dealer:
            return None
        d = self.exchange
        value = evaluate(self.final, "joker") if self.final else None
        return DealerHand(self.dealer, d.throw, d.keep, d.item, d.words, self.final,
                          None if value is None else value.describe(),
                          None if value is None else dealer_qualifies(value, self.options), self.void)

    @cached_property
    def payouts(self) -> tuple[Payout, ...]:
        """Every box's settlement, with the floor's rulings applied (none before the round is settled)."""
        if self.stage is not RoundStage.SETTLED:
            return ()
        out = []
        for n, b in sorted(self.boxes.items()):
            if self.void and b.stage is not Stage.FOLDED:
                payout = Payout(n, "void", -b.fees, 0, 0, None, ("B4", "B5"),
                                "the dealer's hand is void by a floor ruling: ante box and bet returned")
            else:
                payout = Payout(box=n, **settle_box(b, self.final))  # a folded box never reads the dealer's cards
            ruled = self.ruled.get(n)
            if ruled is not None:
                payout = replace(payout, player_net=ruled.net, paid=ruled.paid, ruling=ruled.ruling,
                                 correction=b.ante_box + b.bet_amount + ruled.net - ruled.paid,
                                 reason=f"{payout.reason}; ruled by the floor (ruling #{ruled.ruling})")
            out.append(payout)
        return tuple(out)

    @property
    def house_net(self) -> int:
        """The house's net this round: minus the boxes' total."""
        return -sum(p.player_net for p in self.payouts)

    @property
    def house_total(self) -> int:
        """The house's net over every round of the log, this one's included."""
        return self.house_before + self.house_net

    def seen_cards(self) -> dict[str, str]:
        """Every card shown this round (each at most once), and where: the card picker greys them out.

        >>> s = BankedState.replay({"boxes": 1}, [{"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}])
        >>> s.seen_cards()["9c"]
        'box 1'
        """
        return {str(card): where for _, event in self.entries for card, where in event.shown()}

    def to_dict(self) -> dict[str, Any]:
        """The state as plain data: ``round``, ``stage``, ``to_act``, ``boxes`` (each: ``box``,
        ``player``, ``cards``, ``ante``, ``ante_box``, ``bet``, ``fees``, ``stage``, ``hand``,
        ``allowed``), ``dealer`` (``cards``, ``throw``, ``keep``, ``item``, ``words``, ``final``,
        ``hand``, ``qualifies``, ``void``), ``payouts``, ``rulings``, ``house_net`` (this round),
        ``house_total`` (every round), and the table's money (``scale``, antes)."""
        o = self.options
        state: dict[str, Any] = {"boxes_at_table": self.setup.boxes, "round": self.number, "stage": self.stage.value,
                                 "to_act": self.to_act, "boxes": [b.to_dict() for b in self.in_play],
                                 "rulings": [r.to_dict() for r in self.rulings], "dealer": None, "payouts": [],
                                 "house_net": 0, "house_total": self.house_total, "scale": o.scale,
                                 "ante_unit": o.ante_unit, "minimum_ante": o.minimum_ante,
                                 "maximum_ante": o.maximum_ante}
        hand = self.dealer_hand
        if hand is not None:
            state.update(dealer=hand.to_dict(), payouts=[p.to_dict() for p in self.payouts], house_net=self.house_net)
        return state


def replay(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The table's state after its log, as plain data (:meth:`BankedState.to_dict`): the current
    round (boxes, the dealer's exchange as the rules decide it, the payouts once settled), the rounds
    played, and the money."""
    return BankedState.replay(setup, events).to_dict()
