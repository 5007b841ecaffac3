"""The banked tables' records: a table (its boxes and banked options) and its append-only log.

Kept in the blueprint's package (not floor/models.py) while other work edits that module; they are
ordinary models of the same ``db`` and migrate with the others. As for jackpot tables, the state is
never stored: it is ``rules.banked.round.replay(table.setup, events)`` over the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.extensions import db
from floor.models import User, utcnow


class BankedTable(db.Model):
    """A banked table: its name, its setup (``{"boxes": n, "options": {...}}``) and its log;
    ``version`` counts log entries."""

    __tablename__ = "banked_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    log: Mapped[list["BankedEntry"]] = relationship(
        back_populates="table", order_by="BankedEntry.seq", cascade="all, delete-orphan")

    @property
    def boxes(self) -> int:
        return int(self.setup["boxes"])


class BankedEntry(db.Model):
    """One event of a banked table's log; ``seq`` 1, 2, 3 ... per table, unique: of two tablets
    logging at once only one gets the number."""

    __tablename__ = "banked_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_banked_entries_table_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("banked_tables.id"), index=True)
    seq: Mapped[int]
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    logged_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    logged_at: Mapped[datetime] = mapped_column(default=utcnow)

    table: Mapped[BankedTable] = relationship(back_populates="log")
    logged_by: Mapped[User | None] = relationship()
