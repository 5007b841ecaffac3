"""Table events: the dealer's log entries, read from JSON-like mappings into frozen values.

Every event is a mapping with a ``type`` and the fields of that type (see docs/contract.md, "Table setup
and events"). :func:`parse_event` reads it once, at the edge: seats and counts as numbers, cards as
canonical card texts, a ruling as a typed :class:`rules.rulings.Ruling`. Whether the event is
allowed *now* is the table's business (:mod:`rules.jackpot.table`). ``Event.to_dict()`` is the canonical
event the log stores.

Each event type is declared once, here (:mod:`rules.jackpot.event_base` says what a declaration
holds): its fields and how they are read (``more``), who may log it (``by``), its label in the log
(``said``), how the tablet asks for it when any seat may make it (``ask``); its handler declares
itself beside the rules it applies (``@handles``). Adding an event type is a class here, a handler
there, and a test: the registry's test fails if one of them is missing.

>>> parse_event({"type": "open", "seat": "3"})
Open(seat=3, amount=None)
>>> parse_event({"type": "draw", "seat": 2, "count": 3, "split": True, "escrow": "jh 4C 5d"})
Draw(seat=2, count=3, split=True, escrow=('Jh', '4c', '5d'), up=None, take=None)
>>> parse_event({"type": "void", "event": 4})
Void(event=4)
>>> parse_event({"type": "shuffle"})
Traceback (most recent call last):
...
rules.IllegalAction: unknown event type 'shuffle'; the event types are: deal, pass, open, call, raise, fold, check, bet, draw, show, false_openers, reopen, muck, void, ruling, correction, sit, add_chips, leave, sit_out, sit_in, move_seat, straddle, widow, expose, keep_openers, wrong_count
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

from rules import IllegalAction, RulesError, parse
from rules.jackpot.event_base import (ASKERS, EVENTS, HANDLERS, Ask, Event, SeatEvent, Who, WithAmount, asks,
                                      card_list, event_words, handles, incomplete, one_card, parse_event, parse_seat,
                                      without_none)
from rules.rulings import Ruling as FloorRuling
from rules.words import cards_face, correction_headline, entry_number, entry_words

__all__ = [
    "EventType", "Event", "Deal", "Pass", "Open", "Call", "Raise", "Fold", "Check", "Bet", "Draw", "Show",
    "FalseOpeners", "Reopen", "Muck", "Void", "Ruling", "Correction", "Sit", "AddChips", "Leave", "SitOut",
    "SitIn", "MoveSeat", "Straddle", "Widow", "Expose", "KeepOpeners", "WrongCount", "EVENT_TYPES", "FLOOR_ONLY",
    "FLOOR_WORD", "FLOOR_ACTS", "REASON_MAX", "NAME_MAX", "parse_event", "parse_seat", "event_words",
    "Who", "Ask", "EVENTS", "HANDLERS", "ASKERS", "handles", "asks", "incomplete",
]

#: The longest player name a seat takes (names in any script; the pages wrap them).
NAME_MAX = 80
#: The longest reason a correction may carry.
REASON_MAX = 500


@dataclass(frozen=True)
class Deal(Event):
    """A new deal: the button moves, antes go in, five cards each (O3, O4, D1). The stakes may
    change from this deal on (a tournament's level): ``ante``, ``small_bet``, ``big_bet``.

    >>> e = parse_event({"type": "deal", "ante": "10", "small_bet": 20})
    >>> e.to_dict(), e.words()
    ({'type': 'deal', 'ante': 10, 'small_bet': 20}, 'deal (from now on: ante 10, small bet 20)')
    """

    kind = "deal"
    by = Who.DEALER
    ante: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        return cls(**{k: parse.chips(event[k], f"deal: {k}", positive=(k != "ante"))
                      for k in ("ante", "small_bet", "big_bet") if event.get(k) is not None})

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        out.update((k, v) for k, v in self.__dict__.items() if v is not None)
        return out

    def words(self, names: Mapping[int, str] | None = None) -> str:
        stakes = [f"{k.replace('_', ' ')} {v}" for k, v in self.__dict__.items() if v is not None]
        return "deal" + (f" (from now on: {', '.join(stakes)})" if stakes else "")


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
class Call(SeatEvent):
    kind = "call"
    by = Who.DEALER
    said = "{who}calls"


@dataclass(frozen=True)
class Raise(WithAmount):
    """A raise; ``amount`` (the chips put in, the call included) only matters with spread betting (D17)."""

    kind = "raise"
    by = Who.DEALER
    said = "{who}raises"

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "amount")


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
class Draw(SeatEvent):
    """Discards ``count`` cards and receives as many (D2); the opener may split openers (S1).

    >>> parse_event({"type": "draw", "seat": 1, "count": 2, "split": True, "escrow": ["Jh", "7s"]}).words()
    'seat 1 draws 2, splits openers: J♥ 7♠ in escrow'
    >>> parse_event({"type": "draw", "seat": 4, "count": 0}).words({4: "Dee"})
    'seat 4 (Dee) stands pat'
    """

    kind = "draw"
    by = Who.DEALER
    count: int = 0
    split: bool = False
    escrow: tuple[str, ...] = ()
    #: the Bosnian exchange (D16): of the last two cards of a four-card draw, the one dealt face up
    #: and which of the two the player takes ("up" or "down")
    up: str | None = None
    take: str | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
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
        up = card_list(event.get("up"), "draw: up")
        if len(up) > 1:
            raise IllegalAction("draw: up is the one card dealt face up (the Bosnian exchange)")
        return {"count": n, "split": split, "escrow": card_list(event.get("escrow"), "draw: escrow"),
                "up": up[0] if up else None, "take": take}

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "up", "take")

    def words(self, names: Mapping[int, str] | None = None) -> str:
        text = self.who(names) + ("stands pat" if not self.count else f"draws {self.count}")
        if self.split:
            text += ", splits openers: " + cards_face(self.escrow) + " in escrow"
        return text


@dataclass(frozen=True)
class Show(SeatEvent):
    """Shows a hand at the showdown (D6, F1)."""

    kind = "show"
    by = Who.DEALER
    said = "{who}shows {cards}"
    cards: tuple[str, ...] = ()
    #: the hand's class as its holder declares it, where cards do not speak (H9): "two_pair", ...
    declare: str | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("cards") in (None, "", []):
            raise IllegalAction("show: list the cards shown (cards)")
        declare = event.get("declare")
        if declare is not None and not isinstance(declare, str):
            raise IllegalAction(f"show: declare names the hand's class ('two_pair', 'flush', ...), not {declare!r}")
        return {"cards": card_list(event.get("cards"), "show: cards"), "declare": declare or None}

    def to_dict(self) -> dict[str, Any]:
        return without_none(super().to_dict(), "declare")


@dataclass(frozen=True)
class FalseOpeners(SeatEvent):
    """It is found that the opener had no openers (F2-F9): the floor's word; a dealer's tap is a
    report that waits for a floor person."""

    kind = "false_openers"
    said = "{who}did not hold openers"
    by = Who.FLOOR
    reported = True


@dataclass(frozen=True)
class Reopen(WithAmount):
    """After false openers, an eligible player declares the pot open (F3)."""

    kind = "reopen"
    by = Who.DEALER
    said = "{who}reopens"


@dataclass(frozen=True)
class Muck(SeatEvent):
    """Gives up the hand at the showdown."""

    kind = "muck"
    by = Who.DEALER
    said = "{who}mucks"


@dataclass(frozen=True)
class Void(Event):
    """Withdraws the logged event at index ``event`` (0-based position in the log); the table
    itself withdraws it (:meth:`rules.jackpot.table.TableState.apply`).

    The words name the entry withdrawn by the number people read (:func:`rules.words.entry_number`:
    the log counted from 1), not by the index the event carries.

    >>> parse_event({"type": "void", "event": 7}).words()
    'undo: entry 8 withdrawn'
    """

    kind = "void"
    by = Who.DEALER
    own = True
    event: int = 0

    def words(self, names: Mapping[int, str] | None = None) -> str:
        return f"undo: {entry_words(entry_number(self.event))} withdrawn"

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        if "event" not in event:
            raise IllegalAction("void: give the index of the logged event to withdraw (event)")
        return cls(event=parse.whole(event["event"], "void: event"))


@dataclass(frozen=True)
class Ruling(Event):
    """A floor ruling applied to the table through the log, typed once here at the edge
    (:meth:`rules.rulings.Ruling.from_dict`); ``id`` is the stored ruling's number, if any."""

    kind = "ruling"
    said = "ruling"
    by = Who.FLOOR
    ruling: FloorRuling
    id: int | None = None

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        """A ruling's fields typed once (seats, chips, the outcome code), or refused saying which."""
        raw = event.get("ruling")
        if not isinstance(raw, Mapping) or "outcome" not in raw:
            raise IllegalAction("ruling: give the ruling's fields (outcome, dead, returns, pot_plays, ...) under 'ruling'")
        try:
            ruling = FloorRuling.from_dict(raw)
        except RulesError as exc:
            raise IllegalAction(f"ruling: {exc}") from None
        rid = event.get("id")
        return cls(ruling=ruling, id=None if rid is None else parse.whole(rid, "ruling: id"))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "ruling": self.ruling.to_dict(), "id": self.id}


@dataclass(frozen=True)
class Correction(Event):
    """The floor moves chips between seats, with a reason (an award put right): the amounts sum
    to nothing, so no chip is made or lost.

    >>> parse_event({"type": "correction", "moves": [{"seat": 5, "amount": -50},
    ...              {"seat": "3", "amount": 50}], "reason": "pot went to the wrong seat"})
    Correction(moves=((5, -50), (3, 50)), reason='pot went to the wrong seat', house=0)
    """

    kind = "correction"
    by = Who.FLOOR
    moves: tuple[tuple[int, int], ...] = ()
    reason: str = ""
    #: The house's side (a tournament's staff recount or chip race, issue 21): chips the house
    #: puts on the table (positive) or takes off it (negative); the moves sum to it, and the
    #: table's ledger counts it as chips in or out, so the conservation law still holds.
    house: int = 0

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        """A list of ``{seat, amount}`` summing to nothing (or to the house's part), and a reason."""
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
        return cls(moves=tuple(moves), reason=reason.strip(), house=house)

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

    def words(self, names: Mapping[int, str] | None = None) -> str:
        return correction_headline(list(self.moves), names) + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True)
class Sit(SeatEvent):
    """A player takes an empty seat between deals with chips (a buy-in, or a move from another table).

    >>> parse_event({"type": "sit", "seat": 5, "player": "Gus", "chips": 500}).words()
    'seat 5: Gus sits down with 500'
    """

    kind = "sit"
    by = Who.DEALER
    said = "seat {seat}: {player} sits down with {chips}"
    floor_act = True
    player: str = ""
    chips: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        player = event.get("player")
        if not isinstance(player, str) or not player.strip():
            raise IllegalAction("sit: give the player's name (player)")
        if len(player.strip()) > NAME_MAX:
            raise IllegalAction(f"sit: a player's name is at most {NAME_MAX} characters")
        if event.get("chips") is None:
            raise IllegalAction("sit: give the chips the player brings (chips)")
        return {"player": " ".join(player.split()), "chips": parse.chips(event["chips"], "sit: chips", positive=True)}


@dataclass(frozen=True)
class AddChips(SeatEvent):
    """A rebuy or top-up between deals; it never lifts an F7 bar."""

    kind = "add_chips"
    by = Who.DEALER
    said = "{who}adds {amount} chips"
    floor_act = True
    amount: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("amount") is None:
            raise IllegalAction("add_chips: give the chips added (amount)")
        return {"amount": parse.chips(event["amount"], "add_chips: amount", positive=True)}


@dataclass(frozen=True)
class Leave(SeatEvent):
    """The player leaves between deals with the stack; what they put into a carried pot stays there."""

    kind = "leave"
    by = Who.DEALER
    said = "{who}leaves with the stack"
    floor_act = True


@dataclass(frozen=True)
class SitOut(SeatEvent):
    """Not dealt in (and no ante) until back."""

    kind = "sit_out"
    by = Who.DEALER
    said = "{who}sits out"
    floor_act = True


@dataclass(frozen=True)
class SitIn(SeatEvent):
    """Back in from the next deal."""

    kind = "sit_in"
    by = Who.DEALER
    said = "{who}is back in"
    floor_act = True


@dataclass(frozen=True)
class MoveSeat(SeatEvent):
    """The player changes seats at this table between deals."""

    kind = "move_seat"
    by = Who.DEALER
    said = "{who}moves to seat {to}"
    floor_act = True
    to: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("to") is None:
            raise IllegalAction("move_seat: give the seat moved to (to)")
        return {"to": parse.seat(event["to"], "move_seat: to")}


@dataclass(frozen=True)
class Straddle(SeatEvent):
    """A blind raise to twice the big blind, by the first player after the blinds (O2)."""

    kind = "straddle"
    by = Who.DEALER
    said = "{who}straddles"


@dataclass(frozen=True)
class Widow(Event):
    """Wild widow (H4): the card the dealer turns up during the deal; its rank is wild this deal."""

    kind = "widow"
    by = Who.DEALER
    said = "the widow card is {card}"
    card: str = ""

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> Event:
        return cls(card=one_card("widow", event, "turned up"))


@dataclass(frozen=True)
class Expose(SeatEvent):
    """D12: ``card`` was turned face up while the dealer dealt ``seat`` its draw; the card is dead
    and the seat's replacement comes once every other player has drawn.

    >>> e = parse_event({"type": "expose", "seat": 2, "card": "qh"})
    >>> e, e.words()
    (Expose(seat=2, card='Qh'), 'seat 2 has Q♥ faced in the draw (D12)')
    """

    kind = "expose"
    by = Who.DEALER
    said = "{who}has {card} faced in the draw (D12)"
    ask = Ask("A card faced while the draw is dealt (D12)", "Card faced to seat {seat}", "card", "Faced (D12)")
    card: str = ""

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        return {"card": one_card("expose", event, "turned face up")}


@dataclass(frozen=True)
class KeepOpeners(SeatEvent):
    """F12: the player in ``seat`` asks the opener to keep the opening hand and show it once the pot
    is decided."""

    kind = "keep_openers"
    by = Who.DEALER
    said = "{who}asks the opener to keep the opening hand (F12)"
    ask = Ask("A player asks the opener to keep the opening hand (F12)", "Seat {seat} asks the opener to keep the hand",
              open=False)


@dataclass(frozen=True)
class WrongCount(SeatEvent):
    """D8, H6: the hand of ``seat`` is found to hold ``count`` cards, not the game's number; the
    decision tree rules (issue ``wrong_card_count``): dead after the draw, before it as the house
    rule says.

    >>> e = parse_event({"type": "wrong_count", "seat": "4", "count": "6"})
    >>> e, e.words({4: "Dee"})
    (WrongCount(seat=4, count=6), 'seat 4 (Dee) holds 6 cards (D8)')
    >>> parse_event({"type": "wrong_count", "seat": 4})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: wrong_count: say how many cards the hand holds (count)
    """

    kind = "wrong_count"
    by = Who.DEALER
    said = "{who}holds {count} cards (D8)"
    ask = Ask("A hand of the wrong number of cards (D8)", "holds", "count", "Wrong count (D8)",
              open=False, choices="counts", pick_seat=True)
    count: int = 0

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        if event.get("count") in (None, ""):
            raise IllegalAction("wrong_count: say how many cards the hand holds (count)")
        return {"count": parse.whole(event["count"], "wrong_count: count")}


EVENT_TYPES: tuple[str, ...] = tuple(EVENTS)
#: The event types as an enum (derived from the declarations above, in their order).
EventType = StrEnum("EventType", [(k.upper(), k) for k in EVENTS])  # type: ignore[misc]
#: Events that only the floor may log outright: a ruling and a correction of chips.
FLOOR_ONLY: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.by is Who.FLOOR and not c.reported)
#: The floor's word: no void withdraws it or anything logged before it (false openers too).
FLOOR_WORD: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.by is Who.FLOOR)
#: The floor's acts when a floor person or a director logs them: a dealer's undo never withdraws them.
FLOOR_ACTS: frozenset[str] = frozenset(k for k, c in EVENTS.items() if c.floor_act) | FLOOR_WORD
