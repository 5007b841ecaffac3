"""A banked table's events, each type declared once: read from the log's mapping into a frozen value.

Every event is a mapping with a ``type`` and the fields of that type:

| type | fields | who logs it | meaning |
|---|---|---|---|
| ``deal`` | ``antes`` {box: ante}, ``cards`` {box: five cards}, ``players``? {box: name} | dealer | a new round: each playing box's ante and cards (B1), and who plays it |
| ``fold`` / ``bet`` | ``box`` | dealer | the box to act folds, or bets twice its ante box (B2, B3) |
| ``exchange`` | ``box``, ``discards``, ``drawn`` | dealer | the box to act changes cards for the next of the deck (B2, B3) |
| ``reveal`` | ``dealer`` (five cards) | dealer | once every box is closed, the dealer's cards are shown (B4) |
| ``dealer_draw`` | ``drawn`` | dealer | the cards the dealer takes for those the list throws (B4) |
| ``ruling`` | ``ruling`` (its id), ``outcome``, and ``dealer_final`` / ``void`` / ``box`` + ``box_net`` + ``paid`` | floor | a floor ruling (:mod:`rules.banked.disputes`) |
| ``void`` | ``event`` (the entry's number) | dealer | undo: the round's last standing entry is withdrawn |

Each type is a class here (:class:`BankedEvent` says what a declaration holds): its fields and how
they are read (``read``, once, at the edge: boxes as numbers, cards as cards, antes in the smallest
unit), who may log it (``by``), its words in the log (``said``, or ``words``), the cards it shows
(``shown``, for the tablet's card picker). What it does, and whether it may happen now, declare
themselves beside the rules they apply (:mod:`rules.banked.play`: ``@EVENTS.handles``,
``@EVENTS.checks``); :meth:`Event.to_dict` is the canonical event the log stores.

>>> setup = Setup.read({"boxes": 3})
>>> e = parse_event({"type": "exchange", "box": "2", "discards": "9c 6s", "drawn": ["ac", "Kd"]}, setup)
>>> e, e.words()
(Exchange(box=2, discards=(Card('9c'), Card('6s')), drawn=(Card('Ac'), Card('Kd'))), 'box 2 changes 9c 6s for Ac Kd')
>>> e.to_dict()
{'type': 'exchange', 'box': 2, 'discards': '9c 6s', 'drawn': 'Ac Kd'}
>>> parse_event({"type": "shuffle"}, setup)
Traceback (most recent call last):
...
rules.IllegalAction: unknown event type 'shuffle'; one of deal, fold, bet, exchange, reveal, dealer_draw, ruling, void
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from rules import CardError, IllegalAction, RulesError, parse
from rules.banked.options import BankedOptions, banked_options
from rules.banked.outcomes import OUTCOME_WORDS
from rules.cards import Card, parse_cards, to_text
from rules.registry import Registry, Who

__all__ = ["EVENTS", "MAX_BOXES", "Setup", "Event", "Dealt", "Deal", "BoxEvent", "Fold", "Bet", "Exchange",
           "DealersCards", "Reveal", "DealerDraw", "Ruling", "Void", "LegalMove", "parse_event", "event_words", "box_number", "Who"]

#: The banked game's event types, by their ``type`` in the log, and the rules each declares.
EVENTS: Registry["Event"] = Registry("banked")
MAX_BOXES = 9
#: The longest player name a box takes.
NAME_MAX = 80

#: How an amount of the smallest unit is written (``BankedOptions.money``).
Money = Callable[[int], str]


@dataclass(frozen=True)
class Setup:
    """A banked table's setup, read once: its boxes (1-9, B1) and its banked options.

    >>> Setup.read({"boxes": 10})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B1: a banked table has 1 to 9 boxes, not 10
    """

    boxes: int
    options: BankedOptions

    @classmethod
    def read(cls, setup: Mapping[str, Any]) -> Setup:
        boxes = setup.get("boxes")
        if not isinstance(boxes, int) or isinstance(boxes, bool) or not 1 <= boxes <= MAX_BOXES:
            raise IllegalAction(f"B1: a banked table has 1 to {MAX_BOXES} boxes, not {boxes!r}")
        return cls(boxes, banked_options(setup.get("options")))


def box_number(value: Any) -> int:
    """A box's number as the log gives it (a number, or its text).

    >>> box_number("2"), box_number(3)
    (2, 3)
    >>> box_number("the second")
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B2: which box? 'the second' is not a box number
    """
    try:
        return int(value)
    except (TypeError, ValueError):
        raise IllegalAction(f"B2: which box? {value!r} is not a box number") from None


def _text(cards: tuple[Card, ...]) -> str:
    return to_text(cards)


@dataclass(frozen=True)
class Event:
    """Base of every banked event; ``kind`` is its ``type`` in the log. A subclass naming a
    ``kind`` is an event type, registered in :data:`EVENTS` as it is declared. ``by`` has no
    default: every type says who may log it (the registry's check finds one that does not)."""

    #: the event's ``type`` in the log
    kind: ClassVar[str] = ""
    #: who may log it (:class:`rules.registry.Who`)
    by: ClassVar[Who]
    #: the label of the log: a template of the event's fields
    said: ClassVar[str] = ""
    #: the entry stands in the round once logged (an undo does not: it withdraws one)
    stands: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind"):
            EVENTS.declare(cls)

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        """The event from its mapping, its fields checked (the default takes none)."""
        return cls()

    def to_dict(self) -> dict[str, Any]:
        """The canonical event, as the log stores it: boxes as numbers, cards as their text."""
        out: dict[str, Any] = {"type": self.kind}
        for name, value in self.__dict__.items():
            out[name] = _text(value) if isinstance(value, tuple) else value
        return out

    def words(self, money: Money = str) -> str:
        """The event in a few plain words (``money`` writes an amount of the smallest unit)."""
        return self.said.format(**{k: _text(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()})

    def shown(self) -> tuple[tuple[Card, str], ...]:
        """The cards this entry shows at the table, each with where it is (the card picker's)."""
        return ()


@dataclass(frozen=True)
class Dealt:
    """One box of a deal: its ante (the smallest unit), its five cards, who plays it (or nobody named)."""

    box: int
    ante: int
    cards: tuple[Card, ...]
    player: str | None = None


def _players(names: Any, dealt: Mapping[int, Any]) -> dict[int, str]:
    """The players' names of a deal's ``players`` ({box: name}), for the boxes dealt; a box left
    out, or named by an empty name, is played by nobody named.

    >>> _players({"1": " Ann ", "2": ""}, {1: None, 2: None})
    {1: 'Ann'}
    """
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise IllegalAction("B1: a deal's 'players' names the player of each box ({box: name})")
    out: dict[int, str] = {}
    for key, name in names.items():
        n = box_number(key)
        if n not in dealt:
            raise IllegalAction(f"B1: box {n} is not dealt this round, so nobody plays it")
        if not isinstance(name, str) or len(name.strip()) > NAME_MAX:
            raise IllegalAction(f"B1: box {n}'s player is a name of at most {NAME_MAX} characters")
        if name.strip():
            out[n] = name.strip()
    return out


@dataclass(frozen=True)
class Deal(Event):
    """A new round: each playing box's ante and five cards (B1), in box order, and who plays it.
    Every card of the deal is seen once; an ante is a multiple of the unit within the table's limits.

    >>> d = parse_event({"type": "deal", "antes": {"2": "0.6", "1": 3}, "cards": {"1": "ah ad 9c 6s 2h",
    ...                  "2": "Ks Qd 8h 5c 3c"}, "players": {"2": " Bob "}}, Setup.read({"boxes": 3}))
    >>> d.words(banked_options().money)
    'deal: box 1 ante 0.3, Ah Ad 9c 6s 2h; box 2 (Bob) ante 0.6, Ks Qd 8h 5c 3c'
    >>> d.to_dict()["antes"], d.to_dict()["players"]
    ({'1': 3, '2': 6}, {'2': 'Bob'})
    """

    kind = "deal"
    by = Who.DEALER
    boxes: tuple[Dealt, ...]

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        antes, cards = event.get("antes"), event.get("cards")
        if not isinstance(antes, Mapping) or not isinstance(cards, Mapping) or not antes:
            raise IllegalAction("B1: a deal gives 'antes' and 'cards' for each playing box")
        if {str(k) for k in antes} != {str(k) for k in cards}:
            raise IllegalAction("B1: every playing box has an ante and five cards, and only those")
        dealt: dict[int, tuple[int, tuple[Card, ...]]] = {}
        for key, ante in antes.items():
            n = box_number(key)
            if not 1 <= n <= setup.boxes:
                raise IllegalAction(f"B1: this table has boxes 1 to {setup.boxes}, not {n}")
            amount = ante if isinstance(ante, int) else setup.options.amount(str(ante))
            hand = parse_cards(cards.get(key, cards.get(str(key))), count=5)
            dealt[n] = setup.options.check_ante(amount), hand
        seen: set[Card] = set()
        for n, (_, hand) in sorted(dealt.items()):
            for card in hand:
                if card in seen:
                    raise CardError(f"duplicate card: {card} was already seen this round (box {n})")
                seen.add(card)
        players = _players(event.get("players"), dealt)
        return cls(tuple(Dealt(n, ante, hand, players.get(n)) for n, (ante, hand) in sorted(dealt.items())))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "antes": {str(d.box): d.ante for d in self.boxes},
                               "cards": {str(d.box): _text(d.cards) for d in self.boxes}}
        if any(d.player for d in self.boxes):
            out["players"] = {str(d.box): d.player for d in self.boxes if d.player}
        return out

    def words(self, money: Money = str) -> str:
        return "deal: " + "; ".join(f"box {d.box}{f' ({d.player})' if d.player else ''} ante {money(d.ante)}, "
                                    f"{_text(d.cards)}" for d in self.boxes)

    def shown(self) -> tuple[tuple[Card, str], ...]:
        return tuple((c, f"box {d.box}") for d in self.boxes for c in d.cards)


@dataclass(frozen=True)
class BoxEvent(Event):
    """A decision of the box to act (B2, B3)."""

    box: int

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        return cls(box_number(event.get("box")), **cls.more(event))

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        """The fields beside the box (none by default)."""
        return {}


@dataclass(frozen=True)
class Fold(BoxEvent):
    """The box gives up its ante box (B2, B3)."""

    kind = "fold"
    by = Who.DEALER
    said = "box {box} folds"


@dataclass(frozen=True)
class Bet(BoxEvent):
    """The box bets twice its ante box and stands (B2, B3)."""

    kind = "bet"
    by = Who.DEALER
    said = "box {box} bets"


@dataclass(frozen=True)
class Exchange(BoxEvent):
    """The box changes ``discards`` for ``drawn``, the next cards of the deck (B2: one to five cards,
    paying one ante; B3: a second exchange of one card)."""

    kind = "exchange"
    by = Who.DEALER
    said = "box {box} changes {discards} for {drawn}"
    discards: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = ()

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        drawn = parse_cards(event.get("drawn") or ())
        return {"discards": parse_cards(event.get("discards") or ()), "drawn": drawn}

    def shown(self) -> tuple[tuple[Card, str], ...]:
        return tuple((c, f"box {self.box}") for c in self.discards + self.drawn)


@dataclass(frozen=True)
class DealersCards(Event):
    """Cards of the dealer's, in the event's one field: the hand revealed, or the cards drawn."""

    #: how many cards the event gives (None: as many as the rules say then)
    count: ClassVar[int | None] = None

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        name = fields(cls)[0].name
        return cls(**{name: parse_cards(event.get(name) or (), count=cls.count)})

    def shown(self) -> tuple[tuple[Card, str], ...]:
        return tuple((c, "the dealer") for c in getattr(self, fields(self)[0].name))


@dataclass(frozen=True)
class Reveal(DealersCards):
    """The dealer's five cards, shown once every box has decided (B4)."""

    kind = "reveal"
    by = Who.DEALER
    said = "the dealer's cards: {dealer}"
    count = 5
    dealer: tuple[Card, ...]


@dataclass(frozen=True)
class DealerDraw(DealersCards):
    """The cards the dealer takes for those the list throws, no more, no fewer (B4)."""

    kind = "dealer_draw"
    by = Who.DEALER
    said = "the dealer draws {drawn}"
    drawn: tuple[Card, ...]


def _unit(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(f"B5: a payout ruling gives {name} in the smallest unit, not {value!r}")
    return value


@dataclass(frozen=True)
class Ruling(Event):
    """A floor ruling (:mod:`rules.banked.disputes`) carried into the round: ``dealer_final`` settles
    the round on the dealer's cards as they fell; ``void`` gives every box that bet its ante box and
    bet back; ``box`` with ``box_net`` (its net by the ruling) and ``paid`` (what the dealer handed
    the box) rules one box's payout. Any other ruling is only recorded. Logged only by the floor's
    dispute page, with the sealed ruling it carries.

    >>> parse_event({"type": "ruling", "ruling": 4, "outcome": "PAYOUT_CORRECTED", "box": "1", "box_net": 42,
    ...              "paid": 24}, Setup.read({"boxes": 1})).words()
    'floor ruling #4: the payout is corrected'
    """

    kind = "ruling"
    by = Who.FLOOR
    ruling: int | None
    outcome: str = ""
    dealer_final: tuple[Card, ...] | None = None
    void: bool = False
    box: int | None = None
    box_net: int | None = None
    paid: int | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        ruling, outcome = event.get("ruling"), str(event.get("outcome") or "")
        if ruling is not None and (not isinstance(ruling, int) or isinstance(ruling, bool)):
            raise IllegalAction(f"a ruling event names its ruling by number, not {ruling!r}")
        if event.get("void"):
            return cls(ruling, outcome, void=True)
        if event.get("dealer_final") is not None:
            return cls(ruling, outcome, dealer_final=parse_cards(event["dealer_final"], count=5))
        if event.get("box") is not None:
            return cls(ruling, outcome, box=box_number(event["box"]), box_net=_unit(event.get("box_net"), "box_net"),
                       paid=_unit(event.get("paid"), "paid"))
        return cls(ruling, outcome)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind, "ruling": self.ruling, "outcome": self.outcome}
        if self.void:
            out["void"] = True
        elif self.dealer_final is not None:
            out["dealer_final"] = [str(c) for c in self.dealer_final]
        elif self.box is not None:
            out.update(box=self.box, box_net=self.box_net, paid=self.paid)
        return out

    def words(self, money: Money = str) -> str:
        return (f"floor ruling #{self.ruling}: "
                f"{OUTCOME_WORDS.get(self.outcome, self.outcome.replace('_', ' ').lower())}")


@dataclass(frozen=True)
class Void(Event):
    """Undo: the round's last standing entry, a dealer's, is withdrawn (``event``, its number); the
    log stays append-only and the round is as if the entry had not been logged."""

    kind = "void"
    by = Who.DEALER
    said = "undo: entry {event} withdrawn"
    stands = False
    event: int

    @classmethod
    def read(cls, event: Mapping[str, Any], setup: Setup) -> Event:
        return cls(parse.whole(event.get("event"), "undo: the number of the entry it withdraws"))


@dataclass(frozen=True)
class LegalMove:
    """A move the rules allow now, as a value (python-chess's ``Move``): its event type, the box it
    is for, how many cards its event gives (an exchange: 1 to that many; the dealer's draw: exactly
    that many), the entry an undo withdraws. :meth:`event` builds the event from the fields the
    dealer fills in (the cards), and the state's ``apply`` takes it.

    >>> from rules.banked.round import BankedState
    >>> s = BankedState.start({"boxes": 1}).apply({"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}})
    >>> [m.to_dict() for m in s.legal()]
    [{'type': 'fold', 'box': 1}, {'type': 'bet', 'box': 1}, {'type': 'exchange', 'box': 1, 'cards': 5}, {'type': 'void', 'event': 1}]
    >>> s.apply(s.legal()[2].event(discards="9c 6s 2h", drawn="Ac Kd Qh")).boxes[1].cards_text
    'Ah Ad Ac Kd Qh'
    """

    kind: type[Event]
    setup: Setup = field(repr=False, compare=False)
    box: int | None = None
    cards: int | None = None
    entry: int | None = None

    @property
    def type(self) -> str:
        return self.kind.kind

    def event(self, **fields: Any) -> Event:
        """The move's event, with the fields it needs beside what the move knows (cards)."""
        known = {"box": self.box, "event": self.entry}
        return self.kind.read({"type": self.type, **{k: v for k, v in known.items() if v is not None}, **fields},
                              self.setup)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for name, value in (("box", self.box), ("cards", self.cards), ("event", self.entry)):
            if value is not None:
                out[name] = value
        return out


def parse_event(event: Mapping[str, Any] | Event, setup: Setup) -> Event:
    """Read one logged event for this table; an unknown type or a wrong shape is refused naming it."""
    if isinstance(event, Event):
        return event
    if not isinstance(event, Mapping):
        raise IllegalAction(f"an event is a mapping with a 'type', not {event!r}")
    return EVENTS.type_of(event.get("type")).read(event, setup)


def event_words(event: Mapping[str, Any], setup: Setup) -> str:
    """A logged event in a few plain words, money as the table writes it; an entry the rules cannot
    read any more is named by its type.

    >>> setup = Setup.read({"boxes": 1})
    >>> event_words({"type": "void", "event": 4}, setup), event_words({"type": "shuffle"}, setup)
    ('undo: entry 4 withdrawn', 'shuffle')
    """
    try:
        return parse_event(event, setup).words(setup.options.money)
    except RulesError:
        return str(event.get("type", "?")).replace("_", " ")
