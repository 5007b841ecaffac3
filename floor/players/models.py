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
    # Put on the list by a seat opening at the main game while seated at this must-move table: the
    # list takes them first, and seating them moves them with their stack (floor.players.cashfloor).
    must_move_from_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))

    player: Mapped[Player] = relationship()


class MustMove(DbModel):
    """A must-move game: ``table_id`` feeds the main game ``main_id`` (issue 31). A seat opening at
    the main game calls the must-move player who has waited longest (floor.players.cashfloor)."""

    __tablename__ = "must_move_games"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    main_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    set_at: Mapped[datetime] = mapped_column(default=utcnow)
    set_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class SeatChange(DbModel):
    """A seated player's request for another seat at the same table (``seat``: that one, or None:
    the first to open), honoured in order when a seat opens; ``outcome`` once done: ``moved`` (to
    ``to_seat``, the ``move_seat`` in the table's log), ``left`` (no longer seated when a seat
    opened) or ``cancelled``."""

    __tablename__ = "seat_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seat: Mapped[int | None]
    asked_at: Mapped[datetime] = mapped_column(default=utcnow)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    done_at: Mapped[datetime | None]
    outcome: Mapped[str | None] = mapped_column(String(20))
    to_seat: Mapped[int | None]

    player: Mapped[Player] = relationship()
