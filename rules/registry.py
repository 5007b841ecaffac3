"""Event types declared once, for any game's log: the registry of a game's event types by their
``type`` in the log, with the two functions each type's rules declare beside them, "may it happen
now" and "what it does" (pokerkit's can/do).

A game declares its event types as frozen dataclasses on a base class of its own that registers
each subclass naming a ``kind`` (:meth:`Registry.declare`, from the base's ``__init_subclass__``);
each declaration says who may log it (:class:`Who`) and its label in the log. Its rules declare
themselves where they live: ``@EVENTS.checks(X)`` (whether an X may be logged now, and the moves
of that type the game offers then) and ``@EVENTS.handles(X)`` (the next state). Everything else
reads the registry: reading a logged event, the dispatch, who may log what, the legal moves, and
:meth:`Registry.incomplete`, which a test keeps empty.

The banked game (:mod:`rules.banked.events`) is built on it. The jackpot engine keeps its own
registry for now (:mod:`rules.jackpot.event_base`: ``EVENTS``, ``HANDLERS``, ``handles``), of the
same shape; :class:`Who` is the same vocabulary as its ``Who``.

>>> from dataclasses import dataclass
>>> NODS: Registry[Any] = Registry("nodding")
>>> @dataclass(frozen=True)
... class Nod:
...     kind = "nod"
...     by = Who.DEALER
...     said = "a nod"
>>> NODS.declare(Nod)
>>> @NODS.handles(Nod)
... def nod(state: int, event: Nod) -> int:
...     return state + 1
>>> NODS.type_of("nod") is Nod, NODS.incomplete()
(True, {'nod': ['whether it may happen now (@checks)']})
>>> NODS.type_of("wink")
Traceback (most recent call last):
...
rules.IllegalAction: unknown event type 'wink'; one of nod
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Generic, TypeVar

from rules import IllegalAction

__all__ = ["Who", "Registry"]


class Who(StrEnum):
    """Who may log an event: the dealer (and a floor person or a director standing in), or only
    the floor (a floor person or a director): the floor's word."""

    DEALER = "dealer"
    FLOOR = "floor"


E = TypeVar("E")
_F = TypeVar("_F", bound=Callable[..., Any])


class Registry(Generic[E]):
    """A game's event types by kind, in the order declared, and their rules' functions."""

    def __init__(self, game: str) -> None:
        self.game = game
        #: every event type, by its ``type`` in the log
        self.kinds: dict[str, type[E]] = {}
        #: what each type does: ``handler(state, event) -> state``
        self.handlers: dict[type[E], Callable[..., Any]] = {}
        #: whether each type may be logged now: ``check(state)`` returns what the game offers of that
        #: type now (its legal moves) or raises :class:`rules.IllegalAction` saying why it may not
        self.checks_of: dict[type[E], Callable[..., Any]] = {}

    def declare(self, cls: type[E]) -> None:
        """Register an event type under its ``kind`` (a base class calls it for each subclass)."""
        self.kinds[getattr(cls, "kind")] = cls

    def handles(self, cls: type[E]) -> Callable[[_F], _F]:
        """Declare what an event type does, where the rules it applies live."""
        def register(fn: _F) -> _F:
            self.handlers[cls] = fn
            return fn
        return register

    def checks(self, cls: type[E]) -> Callable[[_F], _F]:
        """Declare whether an event type may be logged now (and what it offers then)."""
        def register(fn: _F) -> _F:
            self.checks_of[cls] = fn
            return fn
        return register

    def type_of(self, kind: object) -> type[E]:
        """The event type logged as ``kind``; an unknown one is refused, naming the types."""
        cls = self.kinds.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise IllegalAction(f"unknown event type {kind!r}; one of {', '.join(self.kinds)}")
        return cls

    def by(self, who: Who) -> tuple[str, ...]:
        """The kinds ``who`` logs (``Who.FLOOR``: the floor's word)."""
        return tuple(kind for kind, cls in self.kinds.items() if getattr(cls, "by") is who)

    def incomplete(self, base: type | None = None) -> dict[str, list[str]]:
        """What the declared types lack: who may log it (the game's base class gives no default), a
        label (``said``, or ``words`` of its own rather than ``base``'s), what it does, whether it
        may happen now. Empty when complete (a test keeps it so)."""
        out: dict[str, list[str]] = {}
        for kind, cls in self.kinds.items():
            missing = []
            if getattr(cls, "by", None) is None:
                missing.append("who may log it (by)")
            if not getattr(cls, "said", "") and (base is None or getattr(cls, "words") is getattr(base, "words")):
                missing.append("a label (said, or words)")
            if cls not in self.handlers:
                missing.append("what it does (@handles)")
            if cls not in self.checks_of:
                missing.append("whether it may happen now (@checks)")
            if missing:
                out[kind] = missing
        return out
