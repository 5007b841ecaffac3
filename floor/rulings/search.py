"""Finding rulings: by rule id, table, player and date (``/rulings/?rule=F5&table=...``).

The criteria are read from the query string into a :class:`Search`; :func:`find` filters the
rulings newest first. Rule ids and players live in each ruling's JSON record, which SQLite and
PostgreSQL query differently, so the date and the table are narrowed in SQL and the rest is
matched in Python over at most :data:`WINDOW` rulings (a card room issues a few dozen a night;
the page says when the window was reached).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Mapping

from floor.extensions import db
from floor.localtime import zone
from floor.models import IssuedRuling, Table
from floor.rulings import stored

WINDOW = 5000
SHOWN = 200
_RULE = re.compile(r"^[A-Za-z]{1,3}\d{1,3}$")


class SearchError(ValueError):
    """A criterion that cannot be read (the page says which)."""


@dataclass(frozen=True)
class Search:
    rule: str = ""
    table: str = ""
    player: str = ""
    day: date | None = None

    @classmethod
    def read(cls, args: Mapping[str, str]) -> "Search":
        """The criteria from a query string; a rule id is like F5, a date is YYYY-MM-DD."""
        rule = (args.get("rule") or "").strip().upper()
        if rule and not _RULE.fullmatch(rule):
            raise SearchError(f"rule: a rule id such as F5 or O4, not {rule[:20]!r}")
        raw_day = (args.get("date") or "").strip()
        day = None
        if raw_day:
            try:
                day = date.fromisoformat(raw_day)
            except ValueError:
                raise SearchError(f"date: a day as YYYY-MM-DD, not {raw_day[:20]!r}") from None
        return cls(rule=rule, table=(args.get("table") or "").strip()[:80],
                   player=(args.get("player") or "").strip()[:80], day=day)

    @property
    def any(self) -> bool:
        return bool(self.rule or self.table or self.player or self.day)


def _cites(row: IssuedRuling, rule: str) -> bool:
    return rule in {str(c).upper() for c in row.record.get("citations") or ()}


def _names(row: IssuedRuling) -> list[str]:
    """The players the ruling concerns, by name, and its headline (which names them too)."""
    names = stored.players(row)
    return [names.get(s, "") for s in stored.concerned_seats(row)] + [str(row.record.get("headline") or "")]


def find(search: Search) -> tuple[list[IssuedRuling], bool]:
    """The rulings that match, newest first (at most :data:`SHOWN`), and whether the window of
    :data:`WINDOW` rulings searched was full (older ones were not looked at)."""
    query = db.select(IssuedRuling).order_by(IssuedRuling.id.desc())
    if search.day is not None:  # the day in the card room's zone, stored times are UTC
        start = datetime.combine(search.day, time.min, tzinfo=zone())
        end = start + timedelta(days=1)
        query = query.where(IssuedRuling.issued_at >= _utc(start), IssuedRuling.issued_at < _utc(end))
    if search.table:
        wanted = search.table.casefold()
        ids = [t.id for t in db.session.scalars(db.select(Table))
               if wanted in t.name.casefold() or wanted == str(t.id)]
        query = query.where(IssuedRuling.table_id.in_(ids))
    rows = list(db.session.scalars(query.limit(WINDOW)))
    full = len(rows) == WINDOW
    if search.rule:
        rows = [r for r in rows if _cites(r, search.rule)]
    if search.player:
        wanted = search.player.casefold()
        rows = [r for r in rows if any(wanted in n.casefold() for n in _names(r))]
    return rows[:SHOWN], full


def _utc(moment: datetime) -> datetime:
    """A zone-aware time as the naive UTC the database stores."""
    return moment.astimezone(UTC).replace(tzinfo=None)
