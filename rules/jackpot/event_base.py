"""What every table event declares, and the registry that reads those declarations.

An event type is declared once, in the module of the rules it follows (:mod:`rules.jackpot.events`
lists them), and everything about it lives there: the frozen dataclass (its fields, read from the
log's mapping by :meth:`Event.read`; who may log it, :attr:`Event.by`; its label, :attr:`Event.said`
or :meth:`Event.words`; for a move any seat may make beside the turn to act, how the tablet asks for
it, :attr:`Event.ask`), its one "may it happen now" check (:func:`may`, which gives the move the
table allows, :mod:`rules.jackpot.moves`, or raises :class:`NotNow` saying why not) and its handler,
which does it (:func:`handles`). pokerkit's ``can``/``do``: the engine's dispatch
(:mod:`rules.jackpot.table`) asks the check, then the handler; ``legal()`` and ``requests()`` ask
the same check for every type. Everything else is derived from these declarations: the event types
(``EVENTS``), the floor's events and acts (:mod:`floor.tables`), the words of the log and the
tablet's forms.

>>> class Nod(SeatEvent):
...     kind = "nod"
...     by = Who.DEALER
...     said = "{who}nods"
>>> Nod(seat=2).words({2: "Ann"}), EVENTS.pop("nod") is Nod
('seat 2 (Ann) nods', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from rules import CardError, IllegalAction, RulesError, parse
from rules.cards import parse_cards, to_text
from rules.words import card_face, cards_face

__all__ = ["Who", "Ask", "Event", "SeatEvent", "EVENTS", "HANDLERS", "MAY", "MAY_IN", "MAY_WHEN", "ASKED_IN", "NotNow",
           "handles", "may", "card_list", "incomplete", "WithAmount", "amount_of", "one_card", "without_none",
           "parse_event", "parse_seat", "event_words"]


class Who(StrEnum):
    """Who may log an event: anyone at the table (the dealer, and a floor person or a director
    standing in), or only the floor (a floor person or a director): the floor's word."""

    DEALER = "dealer"
    FLOOR = "floor"


@dataclass(frozen=True)
class Ask:
    """How the tablet asks for a move any seat may make beside the turn to act: the line the
    requests fold under, the words per seat (``{seat}``), and the one field the dealer fills in
    (None: a button per seat) with its submit label. With ``pick_seat`` the tablet shows one form
    whose seat is picked from the request's seats, ``seat`` being then the words before the field."""

    title: str
    seat: str
    field: str | None = None
    submit: str = ""
    #: the tablet shows the requests folded unless they want the dealer's eye now
    open: bool = True
    #: the key of the request (the state's ``requests``) that lists the values the field may take
    choices: str | None = None
    #: one form for every seat the request concerns (a move any live hand may need), not one per seat
    pick_seat: bool = False


class NotNow(IllegalAction):
    """Why an event may not happen now, in a few words: raised by the "may it happen now" checks
    and the handlers. The table (:meth:`rules.jackpot.table.TableState.apply`) says it with what is
    allowed instead, read from the state the event was refused in (:func:`rules.jackpot.moves.refusal`):
    ``then`` "why; seat 2 may call 10 or fold", ``turn`` "why (call 10 or fold)" for a seat
    that spoke out of turn, ``alone`` the reason by itself (a deal that cannot be dealt).

    >>> str(NotNow("seat 3 cannot check: there is a bet of 10 to call")), NotNow("x", "turn").how
    ('seat 3 cannot check: there is a bet of 10 to call', 'turn')
    """

    def __init__(self, why: str, how: str = "then") -> None:
        super().__init__(why)
        self.how = how


#: Every event type, by its ``type`` in the log, in the order declared.
EVENTS: dict[str, type["Event"]] = {}
#: The handler of each event type: ``handler(working_table, event, move)``, which does it once its check
#: has given the move allowed (see :func:`handles`).
HANDLERS: dict[type["Event"], Callable[[Any, Any, Any], None]] = {}
#: The "may it happen now" check of each event type: ``check(working_table, seat)`` gives the move
#: the table allows now (for ``seat``, or for every seat it may concern when None) or raises
#: :class:`NotNow` (see :func:`may`).
MAY: dict[type["Event"], Callable[[Any, int | None], Any]] = {}
#: The phases of the table (:class:`rules.jackpot.state.Phase` values) in which each event type's
#: check may allow it, where the check declares them (see :func:`may`); a type not listed may
#: happen in any phase as far as this says.
MAY_IN: dict[type["Event"], frozenset[str]] = {}
#: What else must hold for each event type's check to allow it, where the check declares it (see
#: :func:`may`): a test of the table that the check itself makes, and refuses when it fails.
MAY_WHEN: dict[type["Event"], Callable[[Any], bool]] = {}
#: The checks ``legal()`` and ``requests()`` ask in each phase, worked out from :data:`MAY`,
#: :data:`MAY_IN` and :data:`MAY_WHEN` by :mod:`rules.jackpot.moves` on first asking; declaring a
#: check forgets them.
ASKED_IN: dict[Any, Any] = {}

_F = TypeVar("_F", bound=Callable[..., Any])


def handles(cls: type["Event"]) -> Callable[[_F], _F]:
    """Declare the handler of an event type (it does the event; the check has let it through)."""
    def register(fn: _F) -> _F:
        HANDLERS[cls] = fn
        return fn
    return register


def may(cls: type["Event"], phases: Iterable[str] | None = None,
        when: Callable[[Any], bool] | None = None) -> Callable[[_F], _F]:
    """Declare the one "may it happen now" check of an event type: ``check(t, seat)`` returns the
    move allowed now (:mod:`rules.jackpot.moves`: with the amounts, counts or seats it allows) or
    raises :class:`NotNow` saying why not. The engine asks it before the handler, and ``legal()``
    and ``requests()`` ask it (with ``seat`` None) for what they list.

    ``phases``, where given, are the table's phases in which the check can allow the event at all:
    in any other it always raises :class:`NotNow` (a turn to act needs a deal; the seating menus
    wait for the deal to finish). ``legal()`` and ``requests()`` then skip it there rather than ask
    it for the refusal: most checks refuse in most phases, and a refusal built and caught for each
    of them was most of ``legal()``'s time (issue 34). The check still says why not, for a
    logged event. tests/test_moves_by_phase.py keeps the declarations true over random walks.

    ``when(t)``, where given, is a test the check makes of the table within those phases and refuses
    on (the betting checks: a betting round under way, :func:`rules.jackpot.betting.betting_round`):
    one function, which the check calls for its refusal and ``legal()`` calls to skip it (issue 34,
    session 43: before the pot is opened, the five betting checks' refusals were half of
    ``legal()``'s time in a deal's first round)."""
    def register(fn: _F) -> _F:
        MAY[cls] = fn
        if phases is None:
            MAY_IN.pop(cls, None)
        else:
            MAY_IN[cls] = frozenset(phases)
        if when is None:
            MAY_WHEN.pop(cls, None)
        else:
            MAY_WHEN[cls] = when
        ASKED_IN.clear()
        return fn
    return register


def card_list(value: Any, what: str) -> tuple[str, ...]:
    """Cards read once, at the edge: canonical texts ('As', 'Td', 'Jk'); an unknown card or a
    duplicate is refused naming it. Whether the cards belong to this game's deck is the table's
    business (a joker in a game without one).

    >>> card_list("as td", "show: cards"), card_list(None, "x")
    (('As', 'Td'), ())
    """
    if value is None:
        return ()
    if not isinstance(value, str) and not (isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value)):
        raise IllegalAction(f"{what}: give the cards as text ('As Kd Jk') or a list of card texts")
    try:
        return tuple(to_text([c]) for c in parse_cards(value))
    except CardError as exc:
        raise IllegalAction(f"{what}: {exc}") from None


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` is the event's ``type`` in the log. A subclass with a
    ``kind`` is an event type: it is registered in :data:`EVENTS` as it is declared."""

    #: the event's ``type`` in the log
    kind: ClassVar[str] = ""
    #: who may log it (:class:`Who`): every event type says it (the registry's check refuses a type
    #: that leaves it to this default)
    by: ClassVar[Who] = Who.DEALER
    #: logged by a floor person or a director, the floor's act: a dealer's undo never withdraws it
    #: (who sits where and with what chips); the floor's word (``by`` the floor) always is
    floor_act: ClassVar[bool] = False
    #: a dealer's tap is a report: it goes to the floor as a call (false openers)
    reported: ClassVar[bool] = False
    #: the label of the log: a template of the event's fields, ``{who}`` the seat and its player;
    #: a field named ``card`` or ``cards`` (``escrow``) is shown as the card picker shows cards
    said: ClassVar[str] = ""
    #: for a move any seat may make beside the turn to act, how the tablet asks for it
    ask: ClassVar[Ask | None] = None
    #: the table itself handles the event (``void``): it has no handler of its own
    own: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind"):
            EVENTS[cls.kind] = cls

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> "Event":
        """The event from its mapping (the fields checked); the default takes no field."""
        return cls()

    def to_dict(self) -> dict[str, Any]:
        """The canonical event, as the log stores it: the client's spelling is gone (seats as
        numbers, cards as a list of card texts as given, no unknown keys).

        >>> from rules.jackpot.events import parse_event
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

    def who(self, names: Mapping[int, str] | None = None) -> str:
        """The seat the event concerns, with its player's name, as a sentence starts: 'seat 2 (Ann) '."""
        seat = self.__dict__.get("seat")
        if seat is None:
            return ""
        name = (names or {}).get(int(seat))
        return f"seat {seat} ({name}) " if name else f"seat {seat} "

    def words(self, names: Mapping[int, str] | None = None) -> str:
        """The event in a few plain words: its :attr:`said` filled in."""
        values: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            if name == "card" and isinstance(value, str):
                value = card_face(value)
            elif name in ("cards", "escrow"):
                value = cards_face(value)
            values[name] = value
        return (self.said or self.kind.replace("_", " ")).format(who=self.who(names), **values)


@dataclass(frozen=True)
class SeatEvent(Event):
    """An event made by one seat (or concerning one)."""

    seat: int

    @classmethod
    def read(cls, event: Mapping[str, Any]) -> "Event":
        if event.get("seat") is None:
            raise IllegalAction(f"{cls.kind}: the event needs a seat (a seat number)")
        seat = parse.seat(event["seat"], f"{cls.kind}: seat")
        return cls(seat=seat, **cls.more(event))

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        """The fields beside the seat, read and checked (none by default)."""
        return {}


def incomplete(events: Mapping[str, type[Event]] | None = None) -> dict[str, list[str]]:
    """What the declared event types lack: who may log it, a label, its "may it happen now" check,
    a handler. Empty when the registry is complete (a test keeps it so).

    >>> import rules.jackpot
    >>> incomplete()
    {}
    """
    out: dict[str, list[str]] = {}
    for kind, cls in (EVENTS if events is None else events).items():
        missing = []
        if not any("by" in k.__dict__ for k in cls.__mro__ if k is not Event):
            missing.append("who may log it (by)")
        if not cls.said and cls.words is Event.words:
            missing.append("a label (said, or words)")
        if cls not in MAY and not cls.own:
            missing.append("its check, may it happen now (@may)")
        if cls not in HANDLERS and not cls.own:
            missing.append("a handler (@handles)")
        if missing:
            out[kind] = missing
    return out


def amount_of(kind: str, event: Mapping[str, Any]) -> dict[str, Any]:
    """An optional amount (the table checks it)."""
    amount = event.get("amount")
    return {"amount": None if amount is None else parse.whole(amount, f"{kind}: amount")}


def one_card(kind: str, event: Mapping[str, Any], what: str) -> str:
    cards = card_list(event.get("card"), f"{kind}: card")
    if len(cards) != 1:
        raise IllegalAction(f"{kind}: give the one card {what} (card)")
    return cards[0]


def without_none(out: dict[str, Any], *names: str) -> dict[str, Any]:
    """The log's old form: an optional field left out when it is not given."""
    for name in names:
        if out.get(name) is None:
            out.pop(name, None)
    return out


@dataclass(frozen=True)
class WithAmount(SeatEvent):
    """A seat's move with an optional amount (the chips put in), said 'for 20'."""

    amount: int | None = None

    @classmethod
    def more(cls, event: Mapping[str, Any]) -> dict[str, Any]:
        return amount_of(cls.kind, event)

    def words(self, names: Mapping[int, str] | None = None) -> str:
        return super().words(names) + ("" if self.amount is None else f" for {self.amount}")


def parse_seat(value: Any, what: str = "seat") -> int:
    """A seat number (see :func:`rules.parse.seat`).

    >>> parse_seat("07"), parse_seat(4)
    (7, 4)
    """
    return parse.seat(value, what)


def parse_event(event: Mapping[str, Any] | Event) -> Event:
    """Read one logged event; raise :class:`rules.IllegalAction` if its shape is wrong.

    >>> import rules.jackpot.events
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
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"unknown event type {kind!r}; the event types are: " + ", ".join(EVENTS))
    return cls.read(event)


def event_words(event: Mapping[str, Any] | Event, names: Mapping[int, str] | None = None) -> str:
    """A logged event in a few plain words, its type's label (the numbers are the engine's: ``#7``
    is the 0-based position in the log, as its messages say). An entry the rules cannot read any
    more is named by its type.

    >>> import rules.jackpot.events
    >>> event_words({"type": "show", "seat": 2, "cards": ["As", "Kd", "Qh", "Jc", "Jk"]}, {2: "王小明"})
    'seat 2 (王小明) shows A♠ K♦ Q♥ J♣ Joker'
    >>> event_words({"type": "open", "seat": 3, "amount": 10}), event_words({"type": "call", "seat": 1})
    ('seat 3 opens for 10', 'seat 1 calls')
    >>> event_words({"type": "shuffle", "seat": 2})
    'seat 2 shuffle'
    """
    try:
        return parse_event(event).words(names)
    except RulesError:
        raw = event if isinstance(event, Mapping) else {}
        seat = raw.get("seat")
        return (f"seat {seat} " if seat is not None else "") + str(raw.get("type", "?")).replace("_", " ")
