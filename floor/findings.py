"""Findings: what a checker outside the app flagged about a night's history (issue 24).

The night's referee (``python -m night``) judges every pot from the real cards, which the app never
sees; a pot it finds wrongly awarded, a ruling that decided what the rules should not have, chips
that do not add up at a table: each is filed here through ``POST /api/findings`` by a floor or
director account, under that account's name, and shown in the shift report's "Flagged" section
beside what ``flask verify`` finds. A floor manager can trust the section because it is written by
an authenticated user through the same API as every tap (nothing is pasted into a PDF after the
fact), says who filed each line and when, and is read back from the database with the history it
speaks of. A finding is never changed or removed once filed: it is part of the record of the
shift, as a ruling is.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.extensions import DbModel, db
from floor.models import Table, User, utcnow

__all__ = ["FindingKind", "Finding", "in_shift"]

#: The longest text of one finding (a referee's verdict names the cards and the awards).
MAX_TEXT = 2000
#: The longest name of the checker that filed it (the column's length).
MAX_SOURCE = 120


class FindingKind(enum.StrEnum):
    """What a finding says is wrong."""

    discrepancy = "discrepancy"  # chips do not add up (a table, a tournament, the room)
    wrong_verdict = "wrong_verdict"  # a pot awarded or a ruling that the real cards contradict
    other = "other"  # a table that broke down, a tap the server refused


class Finding(DbModel):
    """One flagged line: the table and deal (the pot) it concerns when it concerns one."""

    __tablename__ = "findings"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), index=True)
    deal: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(MAX_SOURCE))  # the checker, e.g. "night referee, seed 2024"
    filed_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    filed_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)

    table: Mapped[Table | None] = relationship()
    filed_by: Mapped[User] = relationship()


def in_shift(start: datetime, end: datetime) -> list[Finding]:
    """The findings filed in ``[start, end)`` (stored UTC), by table and deal, then in filing order."""
    rows = db.session.scalars(db.select(Finding).where(Finding.filed_at >= start, Finding.filed_at < end)
                              .order_by(Finding.id))
    return sorted(rows, key=lambda f: (f.table_id is None, f.table_id or 0, f.deal or 0, f.id))
