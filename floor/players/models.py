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


class WaitingList(DbModel):
    """A list of players waiting for a seat in a game (a profile) at stakes ("5/10": the small and
    the big bet), or, ``interest``, for a game not yet running (issue 31)."""

    __tablename__ = "waiting_lists"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(80))
    stakes: Mapped[str] = mapped_column(String(40))
    interest: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class ListEntry(DbModel):
    """A player on a list: joined, called (a seat opened), and off it (``removed_at``) with the
    reason: seated (at ``table_id``/``seat``, whose log holds the sit), left, no show, seated
    elsewhere. Rows are kept: the list's history is the player's night too."""

    __tablename__ = "waiting_list_entries"

    id: Mapped[int] = mapped_column(primary_key=True)
    list_id: Mapped[int] = mapped_column(ForeignKey("waiting_lists.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)
    called_at: Mapped[datetime | None]
    removed_at: Mapped[datetime | None]
    reason: Mapped[str | None] = mapped_column(String(20))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int | None]
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    player: Mapped[Player] = relationship()
