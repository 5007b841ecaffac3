"""The database: accounts, events and tables, each table's append-only log, and issued rulings.

The state of a table is never stored: it is always ``rules.jackpot.replay(table.setup, events)``
over the table's log (see :mod:`floor.tables`). A ruling, once issued, is never changed: it is
stored with the keyed seal (HMAC-SHA-256, :mod:`floor.seals`) of its content, and a correction is
a new ruling that names the one it supersedes. Each table's log is a hash chain under the same
key, and each table's head (version, last digest, setup) is sealed too.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, event, func, inspect
from sqlalchemy.orm import Mapped, Session, declared_attr, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from floor.extensions import DbModel, db
from floor.keys import token_key
from floor.sealed import SealedRow
from floor.seals import (Spelled, canonical, entry_content, head_content, keyed_digest, same, seal_holds, seal_key,
                         setup_spelled, snapshot_content, spelled_with)


def utcnow() -> datetime:
    """Now, in UTC, without tzinfo (SQLite has no time zones; every stored time is UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Role(enum.IntEnum):
    """Who a user is on the floor. Each role may do everything the roles below it may do:
    a director can settle a dispute, a floor person can log an event for a dealer."""

    dealer = 1
    floor = 2
    director = 3

    @classmethod
    def parse(cls, text: str) -> "Role":
        try:
            return cls[text.strip().lower()]
        except KeyError:
            raise ValueError(f"unknown role {text!r}; choose dealer, floor or director") from None


def token_digest(token: str) -> str:
    """What the database keeps of an API token: a keyed digest (HMAC with a key derived from the
    seal key) of its SHA-256. A stolen database yields no usable token, and whoever can write the
    database cannot make a token of their own work: a plain SHA-256 of a made-up token, written into
    the column, matches nothing (issue 30; the user's row seal covers the column too)."""
    return hmac.digest(token_key(seal_key()), hashlib.sha256(token.encode()).hexdigest().encode(), "sha256").hex()


class User(SealedRow, UserMixin, DbModel):
    """An account. Its name, role, state, password hash and token digest are under its row seal
    (:mod:`floor.sealed`): a role set to director in the database makes no director."""

    __tablename__ = "users"
    SEALED = ("username", "role_name", "active", "password_hash", "token_digest")

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    role_name: Mapped[str] = mapped_column("role", String(20))
    password_hash: Mapped[str] = mapped_column(String(255))
    token_digest: Mapped[str | None] = mapped_column(String(64), unique=True)
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Part of every session cookie of this user (see get_id): a new nonce at logout and at a
    # password change ends every session and "keep me logged in" cookie made before.
    session_nonce: Mapped[str] = mapped_column(String(32), default=lambda: secrets.token_hex(16),
                                               server_default="")
    # Failed logins in a row, and until when the account refuses logins (floor.auth.views).
    failed_logins: Mapped[int] = mapped_column(default=0, server_default="0")
    locked_until: Mapped[datetime | None]

    @staticmethod
    def named(username: str) -> "User | None":
        """The user of that name, whatever its case: "Dealer1" is dealer1 (a tablet's keyboard
        capitalises the first letter). Names that differ only in case are refused when made."""
        return db.session.scalars(db.select(User).where(
            func.lower(User.username) == (username or "").strip().lower())).first()

    def get_id(self) -> str:
        """What the session cookie names: the id and the session nonce (see ``load_user``)."""
        return f"{self.id}:{self.session_nonce}"

    def end_sessions(self) -> None:
        """Every session and remembered login of this user stops working."""
        self.session_nonce = secrets.token_hex(16)

    @property
    def role(self) -> Role:
        return Role[self.role_name]

    @role.setter
    def role(self, role: Role) -> None:
        self.role_name = role.name

    @property
    def is_active(self) -> bool:  # Flask-Login refuses inactive accounts
        return self.active

    def may(self, minimum: Role) -> bool:
        return self.role >= minimum

    def set_password(self, password: str) -> None:
        if len(password) < 8:
            raise ValueError("a password needs at least 8 characters")
        self.password_hash = generate_password_hash(password)
        self.end_sessions()  # a new password logs out every device that knew the old one
        self.failed_logins, self.locked_until = 0, None

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    def new_api_token(self) -> str:
        """Issue a fresh API token (shown once; only its digest is kept)."""
        token = secrets.token_urlsafe(32)
        self.token_digest = token_digest(token)
        return token

    def __repr__(self) -> str:
        return f"<User {self.username} ({self.role_name})>"


# User names ignore case (User.named): no two names that differ only in case.
Index("uq_users_username_lower", func.lower(User.username), unique=True)


class CardRoomEvent(DbModel):
    """A director's event: a tournament or a session of the house game, with its tables.

    Named ``CardRoomEvent`` (table ``events``) so that it is never taken for an event of a table's
    log (:class:`rules.jackpot.events.Event`)."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    starts_on: Mapped[date | None]
    profile: Mapped[str] = mapped_column(String(80), default="cardroom")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    tables: Mapped[list["Table"]] = relationship(back_populates="event", order_by="Table.id")


class HouseProfile(DbModel):
    """A card room's own profile, written by a director as TOML and checked by ``rules.profiles``."""

    __tablename__ = "house_profiles"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    toml: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Table(DbModel):
    """A table: its setup (seats, stakes, profile) and its log. ``version`` counts log entries."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"))
    name: Mapped[str] = mapped_column(String(80))
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # The end of the log's hash chain (the digest of its last entry, "" while it is empty) and the
    # keyed seal over the table's id, version, head and setup (floor.seals): the app re-seals it
    # whenever it writes the row, if the seal it read was good (see _seal_tables).
    head_digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    head_seal: Mapped[str] = mapped_column(String(64), default="", server_default="")

    event: Mapped[CardRoomEvent | None] = relationship(back_populates="tables")
    log: Mapped[list["LogEntry"]] = relationship(
        back_populates="table", order_by="LogEntry.seq", cascade="all, delete-orphan"
    )
    rulings: Mapped[list["IssuedRuling"]] = relationship(back_populates="table", order_by="IssuedRuling.id")

    @property
    def label(self) -> str:
        """The name a floor person tells it apart by: every event numbers its tables from 1."""
        return f"{self.name} ({self.event.name})" if self.event is not None else self.name

    @property
    def profile_name(self) -> str:
        profile = self.setup.get("profile", "cardroom")
        return profile if isinstance(profile, str) else str(profile.get("name", "custom"))

    @property
    def head_seal_intact(self) -> bool:
        """Whether the head seal matches the row as it is (an empty table not yet sealed counts)."""
        if not self.head_seal:
            return not self.version
        # checked once per process for this very head (floor.seals.seal_holds): every tap checks it
        return seal_holds(self.head_seal, self.head_covered(), self.compute_head_seal)

    def head_covered(self, version: int | None = None, head: str | None = None) -> tuple[Any, ...]:
        """What the head's seal is taken over (the row's own setup), as a key of
        :func:`floor.seals.seal_holds`."""
        return (self.id, self.version if version is None else version,
                self.head_digest if head is None else head, setup_spelled(self))

    def compute_head_seal(self, version: int | None = None, head: str | None = None,
                          setup: Any = None) -> str:
        """The head's seal; over the row's own setup (spelled once: floor.seals.setup_spelled) or ``setup``."""
        content = head_content(self.id, self.version if version is None else version,
                               self.head_digest if head is None else head, setup)
        if setup is not None:
            return keyed_digest(content)
        return keyed_digest(spelled_with(content, {"setup": setup_spelled(self)}))  # canonical(content)


@event.listens_for(Session, "after_flush")
def _seal_tables(session: Session, _context: Any) -> None:
    """Re-seal the head of every table the app wrote (a new table, an append, a setup edit), but
    only when the seal it had verified: a row changed behind the app's back stays detectably
    changed, it is never laundered by the next append. (Here the attributes' history still holds
    what was read; the new seals are set after the flush, and the commit writes them.)"""
    reseal = []
    for obj in list(session.new) + list(session.dirty):
        if not isinstance(obj, Table) or obj.id is None:
            continue
        seal = obj.compute_head_seal()
        if obj.head_seal == seal:
            continue
        state = inspect(obj)
        history = {key: state.attrs[key].history for key in ("version", "head_digest", "setup", "head_seal")}
        old = {key: (h.deleted[0] if h.deleted else getattr(obj, key)) for key, h in history.items()}
        if old["head_seal"]:
            good = same(old["head_seal"], obj.compute_head_seal(old["version"], old["head_digest"], old["setup"]))
        else:  # never sealed: a table just made (or still without a log) is sealed now
            good = not old["version"]
        if good:
            reseal.append((obj, seal))
    session.info.setdefault("floor_reseal", []).extend(reseal)


@event.listens_for(Session, "after_flush_postexec")
def _apply_seals(session: Session, _context: Any) -> None:
    for obj, seal in session.info.pop("floor_reseal", []):
        obj.head_seal = seal


@event.listens_for(Session, "after_rollback")
def _forget_seals(session: Session) -> None:
    session.info.pop("floor_reseal", None)


class ChainedEntry:
    """What an entry of any table's append-only log is, a jackpot table's or a banked table's: its
    place (``seq`` 1, 2, 3 ... per table), its event, who logged it and when, and its link in the
    hash chain (:mod:`floor.seals`): the digest of the entry before it, and its own, keyed, over its
    content and that previous digest. Each log names its table (``table_id``); ``SEAL_KIND`` keeps
    the chains of two kinds of table apart, so an entry never passes for another kind's."""

    SEAL_KIND: ClassVar[dict[str, str]] = {}

    table_id: int  # each log's own column, with its foreign key
    seq: Mapped[int] = mapped_column()
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    logged_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    logged_at: Mapped[datetime] = mapped_column(default=utcnow)
    prev_digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    digest: Mapped[str] = mapped_column(String(64), default="", server_default="")
    # The tablet's id of the tap that logged the entry (a client UUID, DESIGN part four "A tap is sent
    # once"; unique per table): a tap sent again is answered with this entry, never logged twice. Not
    # part of the seal: it names the request, not what happened at the table (docs/pages.md).
    tap_id: Mapped[str | None] = mapped_column(String(36))

    @declared_attr
    def logged_by(cls) -> Mapped["User | None"]:
        return relationship("User")

    def compute_digest(self, payload: Spelled | None = None) -> str:
        """The entry's seal; ``payload``: its payload spelled already (the text the row stores)."""
        return self.digest_of(self, payload)

    @classmethod
    def digest_of(cls, entry: Any, payload: Spelled | None = None) -> str:
        """The seal of an entry of this kind of log, read from anything with an entry's columns as
        attributes (a row of this model, or a row of a query of its columns)."""
        content = {**entry_content(entry.table_id, entry.seq, entry.payload, entry.logged_by_id, entry.logged_at,
                                   entry.prev_digest), **cls.SEAL_KIND}
        if payload is None:
            return keyed_digest(content)
        # the same text as canonical(content), the payload not spelled again
        return keyed_digest(spelled_with(content, {"event": payload}))


class LogEntry(ChainedEntry, DbModel):
    """One event of a jackpot table's append-only log; the unique constraint on (table, seq) is
    what makes two tablets logging at once safe: only one of them gets the number."""

    __tablename__ = "log_entries"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_log_entries_table_seq"),
                      Index("uq_log_entries_table_tap", "table_id", "tap_id", unique=True))

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)

    table: Mapped[Table] = relationship(back_populates="log")


class PotSnapshot(DbModel):
    """A table's state at the end of a pot, as ``rules.jackpot.snapshot`` gives it, taken when the
    next deal is logged. After a restart a table is replayed from its latest snapshot, one pot of
    events, not the whole day's. Derived data that never outranks the log: each is sealed with the
    installation's key, chained to the digest of the log entry at its version (issue 20), and one
    whose seal does not match (edited, moved to another history, or unsealed) is ignored, reported
    by ``flask verify``, and the state is replayed from the log; so is one that does not read."""

    __tablename__ = "pot_snapshots"
    __table_args__ = (UniqueConstraint("table_id", "version", name="uq_pot_snapshots_table_version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    version: Mapped[int]  # the log's length when the snapshot was taken: the events after it follow
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    seal: Mapped[str] = mapped_column(String(64), default="", server_default="")

    def compute_seal(self, entry_digest: str, setup: Any) -> str:
        """The keyed seal of this snapshot on the history whose entry at ``version`` has
        ``entry_digest`` (``""`` at version 0), replayed from ``setup``."""
        return keyed_digest(snapshot_content(self.table_id, self.version, entry_digest, setup, self.data))

    def intact(self, entry_digest: str, setup: Any) -> bool:
        return bool(self.seal) and same(self.seal, self.compute_seal(entry_digest, setup))


#: The one byte-exact spelling of a record that its digest is taken over (:func:`floor.seals.canonical`).
canonical_json = canonical


class IssuedRuling(DbModel):
    """An issued ruling: immutable once written; ``digest`` seals ``content()``.

    Named ``IssuedRuling`` (table ``rulings``): the stored, sealed record of a ruling, as opposed
    to the decision tree's value (:class:`rules.rulings.Ruling`) and the log's ruling event
    (:class:`rules.jackpot.events.Ruling`)."""

    __tablename__ = "rulings"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), index=True)
    deal: Mapped[int | None]
    log_seq: Mapped[int | None]
    profile: Mapped[str] = mapped_column(String(80))
    outcome: Mapped[str] = mapped_column(String(40))
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    note: Mapped[str] = mapped_column(Text, default="")
    issued_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    supersedes_id: Mapped[int | None] = mapped_column(ForeignKey("rulings.id"))
    # The dealer whose report the floor ruled on ("reported by dealer2, ruled by maria").
    reported_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    # A ruling the rules made on a dealer's tap (a failed proof at the show, a foul hand) applies at
    # once, "by the rules", and waits for a floor person to confirm it. The confirmation is sealed
    # apart (over the ruling's own digest), so the ruling's seal never changes.
    by_rules: Mapped[bool] = mapped_column(default=False)
    confirmed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    confirmed_at: Mapped[datetime | None]
    confirmation_digest: Mapped[str] = mapped_column(String(64), default="")
    # A ruling is inserted before it is sealed (its id is part of the sealed content), so the digest
    # is "" from the INSERT until seal() sets it, in the same transaction.
    digest: Mapped[str] = mapped_column(String(64), default="")
    # The line of the room's witness that recorded the ruling (floor.witness: written in the same
    # transaction, the witness's line number being known before the commit); shown on its page.
    witness_line: Mapped[int | None]

    table: Mapped[Table | None] = relationship(back_populates="rulings")
    issued_by: Mapped[User] = relationship(foreign_keys=[issued_by_id])
    reported_by: Mapped[User | None] = relationship(foreign_keys=[reported_by_id])
    confirmed_by: Mapped[User | None] = relationship(foreign_keys=[confirmed_by_id])
    supersedes: Mapped["IssuedRuling | None"] = relationship(remote_side=[id], foreign_keys=[supersedes_id])

    def content(self) -> dict[str, Any]:
        """Everything the digest vouches for."""
        return {
            "id": self.id,
            "table_id": self.table_id,
            "deal": self.deal,
            "log_seq": self.log_seq,
            "profile": self.profile,
            "outcome": self.outcome,
            "facts": self.facts,
            "ruling": self.record,
            "note": self.note,
            "issued_by": self.issued_by.username if self.issued_by else None,
            "issued_at": self.issued_at.isoformat(timespec="seconds"),
            "supersedes": self.supersedes_id,
            "reported_by": self.reported_by.username if self.reported_by else None,
            "by_rules": self.by_rules,
        }

    def compute_digest(self) -> str:
        """The keyed seal of the content (HMAC-SHA-256 with the installation's key, floor.seals):
        a plain SHA-256 could be computed again by whoever edits the row."""
        return keyed_digest(self.content())

    def seal(self) -> None:
        """Set the digest; called once, when the ruling is issued (the id must be known)."""
        self.digest = self.compute_digest()

    @property
    def seal_intact(self) -> bool:
        return same(self.digest, self.compute_digest())

    @property
    def intact(self) -> bool:
        return self.seal_intact and self.confirmation_intact

    # ------------------------------------------------------------------ who rules
    @property
    def pending(self) -> bool:
        """A ruling the rules made on a dealer's tap, not yet confirmed by a floor person."""
        return self.by_rules and self.confirmed_by_id is None and self.superseded_by is None

    @property
    def ruled_by(self) -> User | None:
        """The floor person whose word the ruling is: who issued it, or who confirmed the rules'."""
        if self.by_rules:
            return self.confirmed_by
        return self.issued_by

    def confirmation_content(self) -> dict[str, Any]:
        return {"ruling": self.id, "digest": self.digest,
                "confirmed_by": self.confirmed_by.username if self.confirmed_by else None,
                "confirmed_at": self.confirmed_at.isoformat(timespec="seconds") if self.confirmed_at else None}

    def confirm(self, user: User) -> None:
        """A floor person signs the rules' ruling: it becomes theirs (sealed apart)."""
        self.confirmed_by, self.confirmed_at = user, utcnow().replace(microsecond=0)
        self.confirmation_digest = keyed_digest(self.confirmation_content())

    @property
    def confirmation_intact(self) -> bool:
        if self.confirmed_by_id is None:
            return not self.confirmation_digest
        return same(self.confirmation_digest, keyed_digest(self.confirmation_content()))

    @property
    def superseded_by(self) -> "IssuedRuling | None":
        return db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.supersedes_id == self.id)).first()


class FloorCall(DbModel):
    """A dealer's call for the floor person at a table: open until a ruling for that table answers
    it or a floor person dismisses it (a word at the table that needed no ruling)."""

    __tablename__ = "floor_calls"
    __table_args__ = (Index("uq_floor_calls_table_tap", "table_id", "tap_id", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    issue: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None]
    called_by_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    called_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]
    closed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    ruling_id: Mapped[int | None] = mapped_column(ForeignKey("rulings.id"))
    # A dealer's report that only the floor may log (false openers): the event the dealer tapped,
    # the table's version then, and what the rules would do (shown to the floor person, who logs
    # it on confirming).
    event: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version: Mapped[int | None]
    proposal: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # the tap that made the report (as a log entry's tap_id): a report sent again is the same call
    tap_id: Mapped[str | None] = mapped_column(String(36))

    table: Mapped[Table] = relationship()
    called_by: Mapped[User] = relationship(foreign_keys=[called_by_id])
    closed_by: Mapped[User | None] = relationship(foreign_keys=[closed_by_id])
    ruling: Mapped[IssuedRuling | None] = relationship()

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @staticmethod
    def open_at(table_id: int) -> list["FloorCall"]:
        """The table's open calls, oldest first."""
        return list(db.session.scalars(db.select(FloorCall).where(
            FloorCall.table_id == table_id, FloorCall.closed_at.is_(None)).order_by(FloorCall.id)))

    @staticmethod
    def answer(ruling: IssuedRuling, by: User | None = None) -> None:
        """A ruling issued (or confirmed) for a table answers every call open there (same
        transaction), but a dealer's report still waiting for the floor's confirmation."""
        if ruling.table_id is None:
            return
        for call in FloorCall.open_at(ruling.table_id):
            if call.event is not None and ruling.log_seq is not None and call.version is not None \
                    and call.version >= ruling.log_seq:
                continue  # reported after this ruling was logged: it still needs the floor
            call.closed_at, call.closed_by, call.ruling = utcnow(), by or ruling.issued_by, ruling


class Tournament(SealedRow, DbModel):
    """A card-room event run as a tournament: its structure (``rules.tournament.parse_structure``
    reads it), the clock's recorded moves, the entries and, once drawn, the final table's redraw.
    The event's tables are the tournament's tables, in the event's order (the first is the final
    table; tables break last first). Sealed with the keyed sum of its entries', clock moves', desk
    actions' and bounties' seals (``children``, :mod:`floor.sealed`)."""

    __tablename__ = "tournaments"
    SEALED = ("event_id", "structure", "drawn_at", "final_seats", "children")

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id"), unique=True)
    structure: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    drawn_at: Mapped[datetime | None]
    # The final table's redraw (player -> seat), drawn once when it falls due, so that every floor
    # person's page suggests the same seats.
    final_seats: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    children: Mapped[str] = mapped_column(String(64), default="", server_default="")

    event: Mapped[CardRoomEvent] = relationship()
    clock_moves: Mapped[list["ClockMove"]] = relationship(back_populates="tournament", order_by="ClockMove.id",
                                                          cascade="all, delete-orphan")
    entries: Mapped[list["Entry"]] = relationship(back_populates="tournament", order_by="Entry.id",
                                                  cascade="all, delete-orphan")


class ClockMove(SealedRow, DbModel):
    """One move of a tournament's clock (start, pause, resume, advance, back) and its moment: the
    clock is computed from these and the time now (``rules.tournament.read_clock``), never kept ticking."""

    __tablename__ = "tournament_clock_moves"
    SEALED = ("tournament_id", "action", "at", "by_id")
    TOURNAMENT_CHILD = True

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    action: Mapped[str] = mapped_column(String(10))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))

    tournament: Mapped[Tournament] = relationship(back_populates="clock_moves")
    by: Mapped[User | None] = relationship()


class Entry(SealedRow, DbModel):
    """A player's entry: rebuys and add-ons bought, and once out, when, at which table and hand
    (``out_hand``: the log's sequence number of that hand's deal), with the chips the player had
    when that hand began (it orders players out in the same hand). Players out in the same hand
    share ``out_order``; places are computed from these (``rules.tournament.places``)."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "player", name="uq_tournament_entries_player"),)
    SEALED = ("tournament_id", "player", "entered_at", "rebuys", "add_ons", "out_order", "out_at", "out_table_id",
              "out_hand", "out_chips", "reentries", "out_seat")
    TOURNAMENT_CHILD = True

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player: Mapped[str] = mapped_column(String(80))
    # issue 31: the player's record; beside the sealed name, which flask verify checks it against
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)
    rebuys: Mapped[int] = mapped_column(default=0)
    add_ons: Mapped[int] = mapped_column(default=0)
    out_order: Mapped[int | None]
    out_at: Mapped[datetime | None]
    out_table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    out_hand: Mapped[int | None]
    out_chips: Mapped[int | None]
    # Issue 21: re-entries bought (each one a buy-in to the pool) and the seat the player left when
    # out (a rebuy sits the player back there when it is still free).
    reentries: Mapped[int] = mapped_column(default=0, server_default="0")
    out_seat: Mapped[int | None]

    tournament: Mapped[Tournament] = relationship(back_populates="entries")
    out_table: Mapped[Table | None] = relationship()

    @property
    def is_out(self) -> bool:
        return self.out_order is not None

    def back_in(self) -> None:
        """In the event again (a rebuy, a re-entry, a bust-out undone): no longer out, nor when,
        where or with what; the desk's record keeps what it was."""
        self.out_order = self.out_at = self.out_table_id = self.out_hand = self.out_chips = self.out_seat = None
