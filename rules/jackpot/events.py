"""Table events: the dealer's log entries, read from JSON-like mappings into frozen values.

Every event is a mapping with a ``type`` and the fields of that type (see DESIGN.md, "Table setup
and events"). :func:`parse_event` reads it once, at the edge: seats and counts as numbers, cards as
canonical card texts, a ruling as a typed :class:`rules.rulings.Ruling`. Whether the event is
allowed *now* is the table's business (:mod:`rules.jackpot.table`). ``Event.to_dict()`` is the canonical
event the log stores.

>>> parse_event({"type": "open", "seat": "3"})
Open(seat=3, amount=None)
>>> parse_event({"type": "draw", "seat": 2, "count": 3, "split": True, "escrow": "jh 4C 5d"})
Draw(seat=2, count=3, split=True, escrow=('Jh', '4c', '5d'), up=None, take=None)
>>> parse_event({"type": "void", "event": 4})
Void(event=4)
>>> parse_event({"type": "shuffle"})
Traceback (most recent call last):
...
rules.IllegalAction: unknown event type 'shuffle'; the event types are: deal, pass, open, call, raise, fold, check, bet, draw, show, false_openers, reopen, muck, void, ruling, correction, sit, add_chips, leave, sit_out, sit_in, move_seat, straddle, widow, expose, keep_openers
>>> parse_event({"type": "call"})
Traceback (most recent call last):
...
rules.IllegalAction: call: the event needs a seat (a seat number)
>>> parse_event({"type": "show", "seat": 1, "cards": "As Zz"})
Traceback (most recent call last):
...
rules.IllegalAction: show: cards: unknown card 'Zz'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules import CardError, IllegalAction, RulesError, parse
from rules.cards import parse_cards, to_text
from rules.rulings import Ruling as FloorRuling

__all__ = [
    "EventType", "Event", "Deal", "Pass", "Open", "Call", "Raise", "Fold", "Check", "Bet", "Draw", "Show",
    "FalseOpeners", "Reopen", "Muck", "Void", "Ruling", "Correction", "Sit", "AddChips", "Leave", "SitOut",
    "SitIn", "MoveSeat", "Straddle", "Widow", "Expose", "KeepOpeners", "EVENT_TYPES", "FLOOR_ONLY", "REASON_MAX", "NAME_MAX", "parse_event", "parse_seat",
]


class EventType(StrEnum):
    """The types of logged event (DESIGN.md's event table, and the app's ruling)."""

    DEAL = "deal"
    PASS = "pass"
    OPEN = "open"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"
    CHECK = "check"
    BET = "bet"
    DRAW = "draw"
    SHOW = "show"
    FALSE_OPENERS = "false_openers"
    REOPEN = "reopen"
    MUCK = "muck"
    VOID = "void"
    RULING = "ruling"
    CORRECTION = "correction"
    SIT = "sit"
    ADD_CHIPS = "add_chips"
    LEAVE = "leave"
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"
    MOVE_SEAT = "move_seat"
    STRADDLE = "straddle"
    WIDOW = "widow"
    EXPOSE = "expose"
    KEEP_OPENERS = "keep_openers"


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` is the event's ``type`` in the log."""

    kind = ""

    def to_dict(self) -> dict[str, Any]:
        """The canonical event, as the log stores it: the client's spelling is gone (seats as
        numbers, cards as a list of card texts as given, no unknown keys).

        >>> parse_event({"type": "draw", "seat": "2", "count": "1", "split": True, "escrow": "Jh",
        ...              "note": "ignored"}).to_dict()
        {'type': 'draw', 'seat': 2, 'count': 1, 'split': True, 'escrow': ['Jh']}
        >>> parse_event({"type": "correction", "moves": [{"seat": 1, "amount": -5},
        ...              {"seat": 2, "amount": "5"}], "reason": " miscount "}).to_dict()
        {'type': 'correction', 'moves': [{'seat': 1, 'amount': -5}, {'seat': 2, 'amount': 5}], 'reason': 'miscount'}
        """
        out: dict[str, Any] = {"type": self.kind}
        for name, value in self.__dict__.items():
            if name == "moves":
                out[name] = [{"seat": s, "amount": a} for s, a in value]
            elif isinstance(value, tuple):
                out[name] = list(value)
            elif isinstance(value, Mapping):
                out[name] = dict(value)
            else:
                out[name] = value
        return out


@dataclass(frozen=True)
class Deal(Event):
    """A new deal: the button moves, antes go in, five cards each (O3, O4, D1). The stakes may
    change from this deal on (a tournament's level): ``ante``, ``small_bet``, ``big_bet``.

    >>> parse_event({"type": "deal", "ante": "10", "small_bet": 20}).to_dict()
    {'type': 'deal', 'ante': 10, 'small_bet': 20}
    """

    kind = "deal"
    ante: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        out.update((k, v) for k, v in self.__dict__.items() if v is not None)
        return out


@dataclass(frozen=True)
class SeatEvent(Event):
    """An event made by one seat."""

    seat: int


@dataclass(frozen=True)
class Pass(SeatEvent):
    """Declines to open (O2); during a reopen offer, declines to reopen (F3)."""

    kind = "pass"


@dataclass(frozen=True)
class Open(SeatEvent):
    """Declares openers and bets (O1, O2, O6); ``amount`` is optional and checked by the table."""

    kind = "open"
    amount: int | None = None


@dataclass(frozen=True)
class Call(SeatEvent):
    kind = "call"


@dataclass(frozen=True)
class Raise(SeatEvent):
    """A raise; ``amount`` (the chips put in, the call included) only matters with spread betting (D17)."""

    kind = "raise"
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if out.get("amount") is None:
            out.pop("amount", None)
        return out


@dataclass(frozen=True)
class Fold(SeatEvent):
    kind = "fold"


@dataclass(frozen=True)
class Check(SeatEvent):
    kind = "check"


@dataclass(frozen=True)
class Bet(SeatEvent):
    """A bet; ``amount`` (the chips put in) only matters with spread betting (D17)."""

    kind = "bet"
    amount: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if out.get("amount") is None:
            out.pop("amount", None)
        return out


@dataclass(frozen=True)
class Draw(SeatEvent):
    """Discards ``count`` cards and receives as many (D2); the opener may split openers (S1)."""

    kind = "draw"
    count: int = 0
    split: bool = False
    escrow: tuple[str, ...] = ()
    #: the Bosnian exchange (D16): of the last two cards of a four-card draw, the one dealt face up
    #: and which of the two the player takes ("up" or "down")
    up: str | None = None
    take: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for name in ("up", "take"):
            if out.get(name) is None:
                out.pop(name, None)
        return out


@dataclass(frozen=True)
class Show(SeatEvent):
    """Shows a hand at the showdown (D6, F1)."""

    kind = "show"
    cards: tuple[str, ...] = ()
    #: the hand's class as its holder declares it, where cards do not speak (H9): "two_pair", ...
    declare: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        if out.get("declare") is None:
            out.pop("declare", None)
        return out


@dataclass(frozen=True)
class FalseOpeners(SeatEvent):
    """It is found that the opener had no openers (F2-F9)."""

    kind = "false_openers"


@dataclass(frozen=True)
class Reopen(SeatEvent):
    """After false openers, an eligible player declares the pot open (F3)."""

    kind = "reopen"
    amount: int | None = None


@dataclass(frozen=True)
class Muck(SeatEvent):
    """Gives up the hand at the showdown."""

    kind = "muck"


@dataclass(frozen=True)
class Void(Event):
    """Withdraws the logged event at index ``event`` (0-based position in the log)."""

    kind = "void"
    event: int = 0


@dataclass(frozen=True)
class Ruling(Event):
    """A floor ruling applied to the table through the log, typed once here at the edge
    (:meth:`rules.rulings.Ruling.from_dict`); ``id`` is the stored ruling's number, if any."""

    kind = "ruling"
    ruling: FloorRuling
    id: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "ruling": self.ruling.to_dict(), "id": self.id}


@dataclass(frozen=True)
class Straddle(SeatEvent):
    """A blind raise to twice the big blind, by the first player after the blinds (O2)."""

    kind = "straddle"


@dataclass(frozen=True)
class Widow(Event):
    """Wild widow (H4): the card the dealer turns up during the deal; its rank is wild this deal."""

    kind = "widow"
    card: str = ""


@dataclass(frozen=True)
class Expose(SeatEvent):
    """D12: ``card`` was turned face up while the dealer dealt ``seat`` its draw; the card is dead
    and the seat's replacement comes once every other player has drawn.

    >>> parse_event({"type": "expose", "seat": 2, "card": "qh"})
    Expose(seat=2, card='Qh')
    """

    kind = "expose"
    card: str = ""


@dataclass(frozen=True)
class KeepOpeners(SeatEvent):
    """F12: the player in ``seat`` asks the opener to keep the opening hand and show it once the pot
    is decided."""

    kind = "keep_openers"


@dataclass(frozen=True)
class Sit(SeatEvent):
    """A player takes an empty seat between deals with chips (a buy-in, or a move from another table)."""

    kind = "sit"
    player: str = ""
    chips: int = 0


@dataclass(frozen=True)
class AddChips(SeatEvent):
    """A rebuy or top-up between deals; it never lifts an F7 bar."""

    kind = "add_chips"
    amount: int = 0


@dataclass(frozen=True)
class Leave(SeatEvent):
    """The player leaves between deals with the stack; what they put into a carried pot stays there."""

    kind = "leave"


@dataclass(frozen=True)
class SitOut(SeatEvent):
    """Not dealt in (and no ante) until back."""

    kind = "sit_out"


@dataclass(frozen=True)
class SitIn(SeatEvent):
    """Back in from the next deal."""

    kind = "sit_in"


@dataclass(frozen=True)
class MoveSeat(SeatEvent):
    """The player changes seats at this table between deals."""

    kind = "move_seat"
    to: int = 0


@dataclass(frozen=True)
class Correction(Event):
    """The floor moves chips between seats, with a reason (an award put right): the amounts sum
    to nothing, so no chip is made or lost.

    >>> parse_event({"type": "correction", "moves": [{"seat": 5, "amount": -50},
    ...              {"seat": "3", "amount": 50}], "reason": "pot went to the wrong seat"})
    Correction(moves=((5, -50), (3, 50)), reason='pot went to the wrong seat', house=0)
    """

    kind = "correction"
    moves: tuple[tuple[int, int], ...] = ()
    reason: str = ""
    #: The house's side (a tournament's staff recount or chip race, issue 21): chips the house
    #: puts on the table (positive) or takes off it (negative); the moves sum to it, and the
    #: table's ledger counts it as chips in or out, so the conservation law still holds.
    house: int = 0

    def to_dict(self) -> dict[str, Any]:
        """As every event, without ``house`` when the house takes no part (the log's old form).

        >>> parse_event({"type": "correction", "moves": [{"seat": 3, "amount": -150}], "house": -150,
        ...              "reason": "recount"}).to_dict()
        {'type': 'correction', 'moves': [{'seat': 3, 'amount': -150}], 'reason': 'recount', 'house': -150}
        """
        out = super().to_dict()
        if not self.house:
            out.pop("house")
        return out


_SEAT_EVENTS: dict[str, type[SeatEvent]] = {
    cls.kind: cls for cls in (Pass, Open, Call, Raise, Fold, Check, Bet, Draw, Show, FalseOpeners, Reopen, Muck,
                              Sit, AddChips, Leave, SitOut, SitIn, MoveSeat, Straddle, Expose, KeepOpeners)
}
#: The longest player name a seat takes (names in any script; the pages wrap them).
NAME_MAX = 80
EVENT_TYPES: tuple[str, ...] = tuple(t.value for t in EventType)
#: Events that only the floor may log: a ruling and a correction of chips are the floor's word.
FLOOR_ONLY: frozenset[str] = frozenset({EventType.RULING.value, EventType.CORRECTION.value})
#: The longest reason a correction may carry.
REASON_MAX = 500


def parse_seat(value: Any, what: str = "seat") -> int:
    """A seat number (see :func:`rules.parse.seat`).

    >>> parse_seat("07"), parse_seat(4)
    (7, 4)
    """
    return parse.seat(value, what)


def _card_list(value: Any, what: str) -> tuple[str, ...]:
    """Cards read once, at the edge: canonical texts ('As', 'Td', 'Jk'); an unknown card or a
    duplicate is refused naming it. Whether the cards belong to this game's deck is the table's
    business (a joker in a game without one)."""
    if value is None:
        return ()
    if not isinstance(value, str) and not (isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value)):
        raise IllegalAction(f"{what}: give the cards as text ('As Kd Jk') or a list of card texts")
    try:
        return tuple(to_text([c]) for c in parse_cards(value))
    except CardError as exc:
        raise IllegalAction(f"{what}: {exc}") from None


def parse_event(event: Mapping[str, Any] | Event) -> Event:
    """Read one logged event; raise :class:`rules.IllegalAction` if its shape is wrong.

    >>> parse_event({"type": "draw", "seat": 1, "count": -1})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: draw: count must be a whole number from 0 to 5, not -1
    """
    if isinstance(event, Event):
        return event
    if not isinstance(event, Mapping):
        raise IllegalAction(f"an event is a JSON object with a type, not {type(event).__name__}")
    kind = event.get("type")
    if kind == EventType.DEAL:
        stakes = {k: parse.chips(event[k], f"deal: {k}", positive=(k != "ante"))
                  for k in ("ante", "small_bet", "big_bet") if event.get(k) is not None}
        return Deal(**stakes)
    if kind == EventType.VOID:
        if "event" not in event:
            raise IllegalAction("void: give the index of the logged event to withdraw (event)")
        return Void(event=parse.whole(event["event"], "void: event"))
    if kind == EventType.RULING:
        return _ruling(event)
    if kind == EventType.WIDOW:
        cards = _card_list(event.get("card"), "widow: card")
        if len(cards) != 1:
            raise IllegalAction("widow: give the one card turned up (card)")
        return Widow(card=cards[0])
    if kind == EventType.CORRECTION:
        return _correction(event)
    cls = _SEAT_EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"unknown event type {kind!r}; the event types are: " + ", ".join(EVENT_TYPES))
    if event.get("seat") is None:
        raise IllegalAction(f"{kind}: the event needs a seat (a seat number)")
    seat = parse.seat(event["seat"], f"{kind}: seat")
    if cls is Bet or cls is Raise:
        amount = event.get("amount")
        value = None if amount is None else parse.whole(amount, f"{kind}: amount")
        return cls(seat=seat, amount=value)
    if cls is Open or cls is Reopen:
        amount = event.get("amount")
        value = None if amount is None else parse.whole(amount, f"{kind}: amount")
        return Open(seat=seat, amount=value) if cls is Open else Reopen(seat=seat, amount=value)
    if cls is Draw:
        count = event.get("count")
        if count is None:
            raise IllegalAction("draw: say how many cards the player draws (count, 0 to stand pat)")
        try:
            n = parse.whole(count, "draw: count")
        except IllegalAction:
            n = -1
        if not 0 <= n <= 5:
            raise IllegalAction(f"draw: count must be a whole number from 0 to 5, not {count!r}")
        split = event.get("split", False)
        if not isinstance(split, bool):
            raise IllegalAction(f"draw: split is true or false, not {split!r}")
        take = event.get("take")
        if take not in (None, "up", "down"):
            raise IllegalAction(f"draw: take is 'up' or 'down' (the Bosnian exchange), not {take!r}")
        up = _card_list(event.get("up"), "draw: up")
        if len(up) > 1:
            raise IllegalAction("draw: up is the one card dealt face up (the Bosnian exchange)")
        return Draw(seat=seat, count=n, split=split, escrow=_card_list(event.get("escrow"), "draw: escrow"),
                    up=up[0] if up else None, take=take)
    if cls is Expose:
        faced = _card_list(event.get("card"), "expose: card")
        if len(faced) != 1:
            raise IllegalAction("expose: give the one card turned face up (card)")
        return Expose(seat=seat, card=faced[0])
    if cls is Show:
        if event.get("cards") in (None, "", []):
            raise IllegalAction("show: list the cards shown (cards)")
        declare = event.get("declare")
        if declare is not None and not isinstance(declare, str):
            raise IllegalAction(f"show: declare names the hand's class ('two_pair', 'flush', ...), not {declare!r}")
        return Show(seat=seat, cards=_card_list(event.get("cards"), "show: cards"), declare=declare or None)
    if cls is Sit:
        player = event.get("player")
        if not isinstance(player, str) or not player.strip():
            raise IllegalAction("sit: give the player's name (player)")
        if len(player.strip()) > NAME_MAX:
            raise IllegalAction(f"sit: a player's name is at most {NAME_MAX} characters")
        if event.get("chips") is None:
            raise IllegalAction("sit: give the chips the player brings (chips)")
        return Sit(seat=seat, player=" ".join(player.split()),
                   chips=parse.chips(event["chips"], "sit: chips", positive=True))
    if cls is AddChips:
        if event.get("amount") is None:
            raise IllegalAction("add_chips: give the chips added (amount)")
        return AddChips(seat=seat, amount=parse.chips(event["amount"], "add_chips: amount", positive=True))
    if cls is MoveSeat:
        if event.get("to") is None:
            raise IllegalAction("move_seat: give the seat moved to (to)")
        return MoveSeat(seat=seat, to=parse.seat(event["to"], "move_seat: to"))
    return cls(seat=seat)


def _ruling(event: Mapping[str, Any]) -> Ruling:
    """A ruling's fields typed once (seats, chips, the outcome code), or refused saying which."""
    raw = event.get("ruling")
    if not isinstance(raw, Mapping) or "outcome" not in raw:
        raise IllegalAction("ruling: give the ruling's fields (outcome, dead, returns, pot_plays, ...) under 'ruling'")
    try:
        ruling = FloorRuling.from_dict(raw)
    except RulesError as exc:
        raise IllegalAction(f"ruling: {exc}") from None
    rid = event.get("id")
    return Ruling(ruling=ruling, id=None if rid is None else parse.whole(rid, "ruling: id"))


def _correction(event: Mapping[str, Any]) -> Correction:
    """Read a correction: a list of ``{seat, amount}`` summing to nothing, and a reason."""
    raw = event.get("moves")
    if not isinstance(raw, (list, tuple)) or not raw:
        raise IllegalAction("correction: give the moves, a list of {seat, amount} that sum to 0")
    moves: list[tuple[int, int]] = []
    for item in raw:
        if not isinstance(item, Mapping) or "seat" not in item or "amount" not in item:
            raise IllegalAction("correction: each move is {seat, amount} (a negative amount gives chips)")
        seat = parse.seat(item["seat"], "correction: seat")
        amount = parse.signed(item["amount"], f"correction: the amount of seat {seat}")
        if any(seat == s for s, _ in moves):
            raise IllegalAction(f"correction: seat {seat} is listed twice; give one amount per seat")
        moves.append((seat, amount))
    house = parse.signed(event.get("house", 0), "correction: house")
    total = sum(a for _, a in moves)
    if total != house:
        raise IllegalAction(f"correction: the amounts must sum to 0 so that no chip is made or lost, "
                            f"not {total}" if not house else
                            f"correction: the amounts must sum to the house's {house}, not {total}")
    if not any(a for _, a in moves):
        raise IllegalAction("correction: nothing moves; give at least one seat that gives and one that gets")
    reason = event.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalAction("correction: say why the chips move (reason)")
    if len(reason) > REASON_MAX:
        raise IllegalAction(f"correction: the reason is at most {REASON_MAX} characters")
    return Correction(moves=tuple(moves), reason=reason.strip(), house=house)
