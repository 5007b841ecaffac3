"""The tournament desk's own records (issue 21), beside :class:`floor.models.Tournament` and its entries.

* :class:`Bounty`: a bounty paid: whose, to whom, at which table and hand (the hand that busted
  the player), so that every bounty on the results is traced to a hand of the log.
* :class:`DeskAction`: what the floor did at the desk that is not a table's event: a manual
  bust-out (who and why; ``disqualified`` in its data when it is a disqualification), a recount
  (also logged on the table as a ``correction``), hand for hand on and off, a colour-up, a deal
  settled (its prizes). Append-only, in time order.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.extensions import DbModel, db
from floor.models import Table, Tournament, User, utcnow
from floor.sealed import SealedRow


class DeskKind(enum.StrEnum):
    """The kinds of :class:`DeskAction`."""

    ELIMINATE = "eliminate"
    REINSTATE = "reinstate"  # a manual bust-out undone (issue 33)
    COUNT = "count"
    HAND_FOR_HAND = "hand_for_hand"
    COLOR_UP = "color_up"
    DEAL = "deal"
    REENTRY = "reentry"
    DISQUALIFY = "disqualify"  # a player already out disqualified after the fact (session 41)
    LIFT_DISQUALIFY = "lift_disqualify"  # a disqualification lifted (its ``undoes``: the action that made it)


class Bounty(SealedRow, DbModel):
    """A bounty paid to the player who won the pot that busted ``player`` (split between the
    pot's winners when it was split). Sealed (:mod:`floor.sealed`): it is paid."""

    __tablename__ = "tournament_bounties"
    SEALED = ("tournament_id", "player", "winner", "amount", "table_id", "hand", "at")
    TOURNAMENT_CHILD = True

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player: Mapped[str] = mapped_column(String(80))  # whose bounty
    winner: Mapped[str] = mapped_column(String(80))  # who collects it
    # issue 31: their records, beside the sealed names (flask verify checks them against the names)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    amount: Mapped[int]
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    hand: Mapped[int | None]  # the log's seq of the deal that busted the player
    at: Mapped[datetime] = mapped_column(default=utcnow)

    tournament: Mapped[Tournament] = relationship()
    table: Mapped[Table | None] = relationship()


class DeskAction(SealedRow, DbModel):
    """One thing the floor did at the desk: kind, player (where one is concerned), reason, who and
    when, and the figures (``data``). Sealed (:mod:`floor.sealed`): a deal's prizes are here."""

    __tablename__ = "tournament_desk_actions"
    SEALED = ("tournament_id", "kind", "player", "reason", "data", "at", "by_id")
    TOURNAMENT_CHILD = True

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    player: Mapped[str | None] = mapped_column(String(80))
    reason: Mapped[str | None] = mapped_column(String(500))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    tournament: Mapped[Tournament] = relationship()
    by: Mapped[User | None] = relationship()


def actions(t: Tournament, kind: DeskKind | None = None) -> list[DeskAction]:
    """The desk's actions for ``t``, oldest first (of one kind, when given)."""
    q = db.select(DeskAction).where(DeskAction.tournament_id == t.id)
    if kind is not None:
        q = q.where(DeskAction.kind == kind.value)
    return list(db.session.scalars(q.order_by(DeskAction.id)))


def latest(t: Tournament, kind: DeskKind) -> DeskAction | None:
    """The desk's latest action of ``kind`` for ``t`` (None before the first): the one place that
    says which hand-for-hand switch or deal is in force, read without loading the older ones."""
    q = db.select(DeskAction).where(DeskAction.tournament_id == t.id, DeskAction.kind == kind.value)
    return db.session.scalar(q.order_by(DeskAction.id.desc()).limit(1))


def reason_text(reason: str | None) -> str | None:
    """A reason as the desk keeps it: trimmed, at most the column's 500 characters; None when none
    was given (a blank one is none).

    >>> reason_text("  marked cards "), reason_text("   "), len(reason_text("x" * 600) or "")
    ('marked cards', None, 500)
    """
    return (reason or "").strip()[:500] or None


def record(t: Tournament, kind: DeskKind, user: User | None, player: str | None = None, reason: str | None = None,
           **data: Any) -> DeskAction:
    """Add one desk action to the session (the caller commits with what it did)."""
    action = DeskAction(tournament_id=t.id, kind=kind.value, player=player, reason=reason, data=data,
                        by_id=user.id if user is not None else None, at=utcnow())
    db.session.add(action)
    return action


def disqualifications(t: Tournament) -> dict[str, DeskAction]:
    """The disqualifications in force in ``t``: the player's name (casefolded) -> the desk action that
    disqualified them, read from the sealed records alone. A player is disqualified by a manual
    bust-out with ``disqualified`` in its data (:func:`floor.tournament.desk.eliminate`), or, once out
    already, by a :attr:`DeskKind.DISQUALIFY` (:func:`floor.tournament.disqualification.disqualify`). It stands
    until an action whose ``undoes`` is its id: a :attr:`DeskKind.REINSTATE` (the bust-out undone,
    the place given back) or a :attr:`DeskKind.LIFT_DISQUALIFY` (the disqualification alone lifted)."""
    made = (DeskKind.ELIMINATE.value, DeskKind.DISQUALIFY.value)
    undone = (DeskKind.REINSTATE.value, DeskKind.LIFT_DISQUALIFY.value)
    q = db.select(DeskAction).where(DeskAction.tournament_id == t.id, DeskAction.kind.in_(made + undone))
    standing: dict[str, DeskAction] = {}
    for a in db.session.scalars(q.order_by(DeskAction.id)):
        name = (a.player or "").casefold()
        if a.kind == DeskKind.DISQUALIFY.value or (a.kind == DeskKind.ELIMINATE.value and a.data.get("disqualified")):
            standing[name] = a
        elif a.kind in undone and name in standing and a.data.get("undoes") == standing[name].id:
            del standing[name]
    return standing


def bounties(t: Tournament) -> list[Bounty]:
    return list(db.session.scalars(db.select(Bounty).where(Bounty.tournament_id == t.id).order_by(Bounty.id)))
