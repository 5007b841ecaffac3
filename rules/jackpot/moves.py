"""Legal moves as values that build their event, as python-chess's ``Move``.

:func:`legal` lists what the table allows now (the seat to act's moves, or the dealer's), and
:func:`requests` what any seat may ask beside the turn (F12, D12, D8): typed, immutable move values,
each made by its event type's one "may it happen now" check (:func:`rules.jackpot.event_base.may`),
the check the engine asks before it applies an event of that type. A move knows what it still
leaves to choose (an amount among its amounts, a count and the escrow of a draw, the cards shown,
a seat of a menu) and builds its event from that choice: ``move.event(...)``, refused (a
:class:`rules.jackpot.event_base.NotNow`) when the choice is beyond the move. Its JSON
(``to_dict()``: the API's ``legal`` and ``requests``, in the contract's words) reads back with
:func:`parse_move`, the one parser of moves.

Each kind of move is its own class, declared beside its event type (``CallMove`` beside ``Call``,
in :mod:`rules.jackpot.betting`), rather than one Move carrying a kind: the choices differ from kind
to kind (nothing, an amount, a count with escrow and the Bosnian exchange, cards and a declared
class, a seat of a menu with a buy-in), so each class's ``event`` takes exactly its choice and
mypy checks every caller; the tablet, the night and the test walkers match on the class, never on
a type string. The bases here say what the kinds share: a move of the seat to act
(:class:`TurnMove`), a menu of seats (:class:`MenuMove`).

>>> from rules.jackpot import start
>>> t = start({"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": s, "player": p, "stack": 100} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})
>>> t = t.apply({"type": "deal"})
>>> t.legal()
(PassMove(seat=2), OpenMove(seat=2, amount=10, amounts=(10, 20)))
>>> opening = t.legal()[1]
>>> opening.event(amount=20), opening.to_dict()
(Open(seat=2, amount=20), {'type': 'open', 'seat': 2, 'amount': 10, 'amounts': [10, 20]})
>>> parse_move(opening.to_dict()) == opening
True
>>> opening.event(amount=30)
Traceback (most recent call last):
...
rules.jackpot.event_base.NotNow: seat 2 cannot open for 30: the opening bet here is 10 or 20 (O2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, Field, dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from rules import IllegalAction, parse
from rules.jackpot.event_base import ASKED_IN, EVENTS, MAY, MAY_IN, MAY_WHEN, Event, NotNow, Who
from rules.jackpot.state import Phase, Seat

if TYPE_CHECKING:
    from rules.jackpot.state import WorkingTable

__all__ = ["Move", "BigBetRepr", "TurnMove", "MenuMove", "MOVES", "parse_move", "legal", "requests", "allowed_text",
           "refusal", "turn_seat", "in_menu"]

#: Every kind of move, by its event type's ``type`` (registered as each class is declared).
MOVES: dict[str, type["Move"]] = {}


_FIELDS: dict[type, tuple[Field[Any], ...]] = {}


def _move_fields(cls: type) -> tuple[Field[Any], ...]:
    """A move type's fields, worked out once a type: ``dataclasses.fields`` builds the tuple anew
    each call, and every move of every answer is written with them (issue 34)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = fields(cls)
    return found


#: Per move type, what :meth:`Move.to_dict` writes: its event type's ``type`` and its fields' names
#: (every answer writes each legal move: issue 34).
_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


@dataclass(frozen=True)
class Move:
    """A move the table allows now; a subclass names its event type (``event_type``) and where
    :func:`legal` lists it among the moves allowed at once (``place``: the tablet's reading order)."""

    event_type: ClassVar[type[Event]]
    place: ClassVar[int] = 100

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "event_type" in cls.__dict__:
            MOVES[cls.event_type.kind] = cls

    @property
    def kind(self) -> str:
        """The event type's ``type`` (``"call"``)."""
        return self.event_type.kind

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON (the state's ``legal`` and ``requests``): its type and the fields that
        say something (an absent option, a false flag or an empty list is left out).

        >>> from rules.jackpot.draw import DrawMove
        >>> DrawMove(seat=3, min=0, max=3, split=True).to_dict()
        {'type': 'draw', 'seat': 3, 'min': 0, 'max': 3, 'split': True}
        """
        cls = type(self)
        shape = _SHAPES.get(cls)
        if shape is None:
            shape = _SHAPES[cls] = (cls.event_type.kind, tuple(f.name for f in _move_fields(cls)))
        kind, names = shape
        out: dict[str, Any] = {"type": kind}
        for name in names:
            value = getattr(self, name)
            if value is None or value is False or value == ():
                continue
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def words(self) -> str:
        """The move as the table's refusals say what is allowed: 'call 10', 'fold'."""
        amount = getattr(self, "amount", None)
        return self.kind if amount is None else f"{self.kind} {amount}"


class BigBetRepr:
    """A move's repr without the pot- and no-limit fields (``most``, ``bounds``) where they are None:
    a fixed or spread limit's move reads as it always has."""

    def __repr__(self) -> str:
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)  # type: ignore[arg-type]
                 if f.repr and not (f.name in ("most", "bounds") and getattr(self, f.name) is None)]
        return f"{type(self).__name__}({', '.join(shown)})"


@dataclass(frozen=True)
class TurnMove(Move):
    """A move of the seat to act (``seat``)."""

    seat: int


@dataclass(frozen=True)
class MenuMove(Move):
    """A move any of several seats may make (``seats``): a player coming or going between deals, or
    a request beside the turn; the event names one of them."""

    seats: tuple[int, ...]

    def chosen(self, seat: int) -> int:
        """``seat`` if the menu holds it; refused otherwise."""
        if seat not in self.seats:
            raise NotNow(f"{self.kind}: seat {seat} is not one of {', '.join(map(str, self.seats))}")
        return seat


def in_menu(seat: int | None, seats: list[int] | tuple[int, ...], empty: str) -> tuple[int, ...]:
    """The seats a menu move lists: all of ``seats``, or only ``seat`` when the check is asked for
    one (it has already said why that seat may not); none is refused with ``empty``."""
    chosen = tuple(seats) if seat is None else (seat,)
    if not chosen:
        raise NotNow(empty)
    return chosen


# ------------------------------------------------------------------ the one parser of moves


def _read(kind: str, name: str, hint: str, value: Any) -> Any:
    what = f"move {kind}: {name}"
    if hint == "bool":
        if not isinstance(value, bool):
            raise IllegalAction(f"{what}: true or false, not {value!r}")
        return value
    if hint in ("int", "int | None"):
        return None if value is None and hint.endswith("None") else parse.whole(value, what)
    if hint == "str | None":
        if value is not None and not isinstance(value, str):
            raise IllegalAction(f"{what}: words, not {value!r}")
        return value
    if not isinstance(value, (list, tuple)):
        raise IllegalAction(f"{what}: a list, not {value!r}")
    if hint == "tuple[int, ...]":
        return tuple(parse.whole(v, what) for v in value)
    if not all(isinstance(v, str) for v in value):
        raise IllegalAction(f"{what}: a list of words, not {value!r}")
    return tuple(value)


def parse_move(data: Mapping[str, Any]) -> Move:
    """A move from its JSON (:meth:`Move.to_dict`), the fields checked; what a client reads back
    from the API's ``legal`` and ``requests``.

    >>> parse_move({"type": "call", "seat": 3, "amount": 10})
    CallMove(seat=3, amount=10)
    >>> parse_move({"type": "shuffle"})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: move: 'shuffle' is not a kind of move
    """
    if not isinstance(data, Mapping):
        raise IllegalAction(f"a move is a JSON object with a type, not {type(data).__name__}")
    kind = data.get("type")
    cls = MOVES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"move: {kind!r} is not a kind of move")
    values: dict[str, Any] = {}
    for f in _move_fields(cls):
        hint = str(f.type)
        if f.name in data:
            values[f.name] = _read(cls.event_type.kind, f.name, hint, data[f.name])
        elif f.default is not MISSING:  # an optional field left out: its default
            continue
        else:
            raise IllegalAction(f"move {kind}: {f.name} is missing")
    return cls(**values)


# ------------------------------------------------------------------ what the table allows now


#: The checks asked in a phase: each event type, its check and its declared test (or None).
Asked = tuple[tuple[Any, Any, Any], ...]


def _asked(phase: str) -> tuple[Asked, Asked]:
    """The checks ``legal`` and ``requests`` ask in ``phase``, in the order declared, each with the
    test that must hold for it to allow anything (or None): those of the types that may happen in
    it (:data:`rules.jackpot.event_base.MAY_IN`, :data:`rules.jackpot.event_base.MAY_WHEN`); the
    others' checks would only refuse. Worked out once a phase."""
    found = ASKED_IN.get(phase)
    if found is None:
        here = [(cls, check, MAY_WHEN.get(cls)) for cls, check in MAY.items()
                if phase in MAY_IN.get(cls, (phase,))]
        found = ASKED_IN[phase] = (
            tuple(asked for asked in here if asked[0].ask is None and asked[0].by is Who.DEALER),
            tuple(asked for asked in here if asked[0].ask is not None))
    return found


def _allowed(t: "WorkingTable", asked: Asked) -> list[Any]:
    """The moves the checks ``asked`` allow now: each check whose test holds, asked for no seat."""
    moves: list[Any] = []
    for _, check, when in asked:
        if when is not None and not when(t):
            continue  # its check would refuse, on this very test
        try:
            moves.append(check(t, None))
        except NotNow:
            pass
    moves.sort(key=lambda m: m.place)
    return moves


def legal(t: "WorkingTable") -> tuple[Move, ...]:
    """The moves allowed now: the seat to act's, or the dealer's (the deal and the seating menus
    between deals, the widow card), in the tablet's order. Each is what its type's check gives
    (:data:`rules.jackpot.event_base.MAY`; the types that cannot happen in this phase, or whose
    declared test fails, are skipped: their checks would refuse): every move listed is accepted by
    the engine."""
    return tuple(_allowed(t, _asked(t.phase)[0]))


def requests(t: "WorkingTable") -> tuple[MenuMove, ...]:
    """The moves beside the turn to act (F12, D12, D8): the event types that declare how the tablet
    asks for them (``ask``), each with the seats it may concern now (none between deals)."""
    return tuple(_allowed(t, _asked(t.phase)[1]))


def allowed_text(t: "WorkingTable") -> str:
    """What may happen now, in words: 'seat 2 may pass or open for 10'."""
    if t.phase == Phase.BETWEEN_DEALS:
        return "the dealer may deal"
    if t.widow_due:
        return "the dealer turns up the widow card"
    if t.to_act is None:  # pragma: no cover - every live phase has someone to act
        return "nothing may happen"
    words = [m.words() for m in legal(t)]
    text = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"seat {t.to_act} may {text}"


def refusal(t: "WorkingTable", exc: NotNow) -> IllegalAction:
    """The refusal of an event, in the table's words: why, and what ``t`` (the state it was refused
    in) allows instead."""
    if exc.how == "alone":
        return IllegalAction(str(exc))
    allowed = allowed_text(t)
    if exc.how == "turn":
        return IllegalAction(f"{exc} ({allowed.split(' may ', 1)[1]})")
    return IllegalAction(f"{exc}; {allowed}")


def turn_seat(t: "WorkingTable", kind: str, seat: int | None) -> Seat:
    """The seat whose turn it is, when ``seat`` (or, asked for no seat, the seat to act) may act now:
    a seat of this table, in a deal, the widow card turned up (H4), its turn."""
    s = t.to_act if seat is None else seat
    if s is None or s not in t.seats:
        raise NotNow(f"there is no seat {s} at this table (seats: {', '.join(map(str, t.order))})")
    if t.phase == Phase.BETWEEN_DEALS:
        raise NotNow(f"seat {s} cannot {kind}: no deal is in progress")
    if t.widow_due:
        raise NotNow(f"seat {s} cannot {kind}: the widow card is turned up first (H4)")
    if s != t.to_act:
        raise NotNow(f"seat {s} cannot {kind}: it is seat {t.to_act}'s turn", "turn")
    return t.seats[s]
