"""The banked tables' records: a table (its boxes and banked options) and its append-only log.

The log is tamper-evident like a jackpot table's (:mod:`floor.seals`): each entry is sealed with
the digest of the one before it, and the table's head (version, last digest, setup) is sealed, so
``flask --app floor verify`` finds an edited, inserted or deleted entry. Seals carry
``"kind": "banked"`` so that an entry can never pass for a jackpot table's of the same id.

Kept in the blueprint's package (not floor/models.py) while other work edits that module; they are
ordinary models of the same ``db`` and migrate with the others. As for jackpot tables, the state is
never stored: it is ``rules.banked.round.replay(table.setup, events)`` over the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from floor.extensions import DbModel, db
from floor.models import ChainedEntry, User, utcnow
from floor.seals import head_content, keyed_digest, same


class BankedTable(DbModel):
    """A banked table: its name, its setup (``{"boxes": n, "options": {...}}``) and its log;
    ``version`` counts log entries."""

    __tablename__ = "banked_tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Where the round in play begins: the seq of its deal (0 before the first deal). Earlier rounds
    # were settled when logged, so a request reads one round of the log, never the whole day's.
    round_start: Mapped[int] = mapped_column(default=0, server_default="0")
    # The end of the log's hash chain and the keyed seal over the table's head (see the module).
    head_digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    head_seal: Mapped[str] = mapped_column(String(64), default="", server_default="")

    log: Mapped[list["BankedEntry"]] = relationship(
        back_populates="table", order_by="BankedEntry.seq", cascade="all, delete-orphan")

    @property
    def boxes(self) -> int:
        return int(self.setup["boxes"])

    def compute_head_seal(self) -> str:
        # where the round in play begins is sealed too: the app reads the round from there, so a
        # moved round start would change what the table shows (issue 20)
        return keyed_digest({**head_content(self.id, self.version, self.head_digest, self.setup), "kind": "banked",
                             "round_start": self.round_start})

    @property
    def head_seal_intact(self) -> bool:
        """Whether the head seal matches the row as it is (every table is sealed when it is set up)."""
        return same(self.head_seal, self.compute_head_seal())

    def seal_head(self) -> None:
        """Seal a new table's head (its id must be known: after a flush)."""
        self.head_seal = self.compute_head_seal()


class BankedEntry(ChainedEntry, DbModel):
    """One event of a banked table's log (:class:`floor.models.ChainedEntry`: the place, the event,
    who and when, the chain); of two tablets logging at once only one gets the number."""

    SEAL_KIND = {"kind": "banked"}

    __tablename__ = "banked_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_banked_entries_table_seq"),
                      Index("uq_banked_entries_table_tap", "table_id", "tap_id", unique=True))

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("banked_tables.id"), index=True)

    table: Mapped[BankedTable] = relationship(back_populates="log")


class IssuedBankedRuling(DbModel):
    """A floor ruling on a banked table's dispute (:mod:`rules.banked.disputes`): written once, sealed
    like the jackpot game's :class:`floor.models.IssuedRuling` (an HMAC of :meth:`content` with the
    installation's key, :mod:`floor.seals`) and checked by ``flask --app floor verify``.

    Named ``Issued...`` as ``IssuedRuling`` is: the stored record, not the tree's value
    (:class:`rules.banked.disputes.BankedRuling`). Its own table rather than a column on ``rulings``: the
    jackpot ruling pages read every row there as a jackpot ruling (seats, pots), and a banked ruling has
    boxes and money instead."""

    __tablename__ = "banked_rulings"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("banked_tables.id"), index=True)
    round: Mapped[int]
    log_seq: Mapped[int | None]
    profile: Mapped[str] = mapped_column(String(80))
    outcome: Mapped[str] = mapped_column(String(40))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")
    issued_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Inserted before it is sealed (the id is sealed too): "" until seal(), in the same transaction.
    digest: Mapped[str] = mapped_column(String(64), default="")
    # The room's witness line that recorded it (floor.witness), as for a jackpot table's ruling.
    witness_line: Mapped[int | None]

    table: Mapped[BankedTable] = relationship()
    issued_by: Mapped[User] = relationship()

    def content(self) -> dict[str, Any]:
        """Everything the seal vouches for."""
        return {
            "kind": "banked",
            "id": self.id,
            "table_id": self.table_id,
            "round": self.round,
            "log_seq": self.log_seq,
            "profile": self.profile,
            "outcome": self.outcome,
            "facts": self.facts,
            "ruling": self.record,
            "note": self.note,
            "issued_by": self.issued_by.username if self.issued_by else None,
            "issued_at": self.issued_at.isoformat(timespec="seconds"),
        }

    def compute_digest(self) -> str:
        return keyed_digest(self.content())

    def seal(self) -> None:
        """Set the digest once, when the ruling is issued (the id must be known)."""
        self.digest = self.compute_digest()

    @property
    def seal_intact(self) -> bool:
        return same(self.digest, self.compute_digest())


class BankedCall(DbModel):
    """A dealer's call for the floor person at a banked table (issue 25): open until a floor ruling
    is logged at that table (:func:`floor.banked.log.append`) or a floor person dismisses it."""

    __tablename__ = "banked_calls"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("banked_tables.id"), index=True)
    issue: Mapped[str] = mapped_column(String(40))
    box: Mapped[int | None]
    called_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    called_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    ruling_id: Mapped[int | None] = mapped_column(ForeignKey("banked_rulings.id"))

    table: Mapped[BankedTable] = relationship()
    called_by: Mapped[User] = relationship(foreign_keys=[called_by_id])

    #: what a dealer calls the floor for at a banked table, in the words the floor reads
    ISSUES = {"wrong_exchange": "a wrong dealer exchange", "wrong_payout": "a wrong payout",
              "cards": "a card problem (exposed, missing, extra)", "other": "something else"}

    @property
    def words(self) -> str:
        return self.ISSUES.get(self.issue, self.issue) + (f", box {self.box}" if self.box else "")

    @staticmethod
    def open_at(table_id: int | None = None) -> list["BankedCall"]:
        """Open calls, oldest first (at one table, or at every banked table)."""
        query = db.select(BankedCall).where(BankedCall.closed_at.is_(None))
        if table_id is not None:
            query = query.where(BankedCall.table_id == table_id)
        return list(db.session.scalars(query.order_by(BankedCall.id)))


def logged_round_start(table: BankedTable, below: int | None = None) -> int:
    """Where the round in play begins according to the log alone: the seq of its last deal that an
    undo has not withdrawn (0 before the first); with ``below``, of the last such deal before that
    seq (the round before, in play again when the current round's deal is withdrawn). Reads the log
    backwards, a round at a time; an undo comes after the entry it withdraws, so it is met first."""
    seq, gone = (table.version if below is None else below - 1), set()
    while seq > 0:
        rows = db.session.execute(db.select(BankedEntry.seq, BankedEntry.payload).where(
            BankedEntry.table_id == table.id, BankedEntry.seq <= seq, BankedEntry.seq > seq - 200)
            .order_by(BankedEntry.seq.desc())).all()
        for at, payload in rows:
            kind = (payload or {}).get("type")
            if kind == "void" and str(payload.get("event", "")).isdigit():
                gone.add(int(payload["event"]))
            elif kind == "deal" and at not in gone:
                return int(at)
        seq -= 200
    return 0
