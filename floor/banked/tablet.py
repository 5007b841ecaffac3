"""The banked tablet's round log: each entry of the round in words, who logged it and when, and
what an undo withdrew.

Undo (issue 25) is an entry of its own, ``{"type": "void", "event": seq}``: the log stays
append-only and hash-chained, and the round is replayed from the entries that stand. What may be
withdrawn is the rules' (``rules.banked.play``: only the round's last standing entry, a dealer's;
never the floor's ruling nor anything before it); the words of an entry are its event type's
(``rules.banked.events``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from floor.banked.models import BankedEntry
from rules.banked.events import Setup, Void, event_words, parse_event
from rules.banked.round import standing
from rules import RulesError

__all__ = ["LogLine", "round_log", "standing"]


@dataclass(frozen=True)
class LogLine:
    """An entry of the round's log as the tablet lists it."""

    seq: int
    words: str
    withdrawn: bool
    kind: str
    who: str
    at: datetime | None


def _withdrawn(setup: Setup, entries: list[BankedEntry]) -> set[int]:
    gone: set[int] = set()
    for entry in entries:
        if entry.payload.get("type") == Void.kind:
            try:
                event = parse_event(entry.payload, setup)
            except RulesError:
                continue
            assert isinstance(event, Void)
            gone.add(event.event)
    return gone


def round_log(setup: Setup, entries: list[BankedEntry]) -> list[LogLine]:
    """The round's entries, newest first, each in words, who logged it and when, and whether an
    undo withdrew it."""
    gone = _withdrawn(setup, entries)
    return [LogLine(e.seq, event_words(e.payload, setup), e.seq in gone, str(e.payload.get("type")),
                    e.logged_by.username if e.logged_by else "", e.logged_at) for e in reversed(entries)]
