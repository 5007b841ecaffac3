"""The player record (issue 31): who a player is, beside the names the logs hold."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.extensions import DbModel
from floor.models import User, utcnow


class Player(DbModel):
    """A person who plays in the room. ``card`` is the room's card number (a players' club card),
    unique when given. A ban has a reason and, optionally, an end (``banned_until``, UTC); it is in
    force while the reason is set and the end, if any, is still to come."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), index=True)
    card: Mapped[str | None] = mapped_column(String(40), unique=True)
    note: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    banned_reason: Mapped[str | None] = mapped_column(Text)
    banned_until: Mapped[datetime | None]
    banned_at: Mapped[datetime | None]
    banned_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id])
    banned_by: Mapped[User | None] = relationship(foreign_keys=[banned_by_id])

    def ban_in_force(self, now: datetime | None = None) -> bool:
        """Whether the ban holds at ``now`` (UTC; default: now)."""
        if not self.banned_reason:
            return False
        return self.banned_until is None or self.banned_until > (now or utcnow())
