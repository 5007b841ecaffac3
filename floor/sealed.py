"""Sealed rows: what decides who may act and what is paid (issue 30).

The tables' logs and the rulings were sealed (:mod:`floor.seals`); the rows beside them were not,
and whoever could write the database could make a dealer a director, swap a user's token digest
for a plain SHA-256 of a token of their own, replace a ruling's stored PDF, swap two tournament
places or edit the payouts, and the app served it. Each of those rows now carries ``row_seal``,
the keyed seal of what it decides (:class:`SealedRow`, ``SEALED``: its columns under the seal):

- a user: name, role, whether active, password hash, token digest;
- a stored print of a ruling: which ruling, the ruling's seal and print key it was made from, and
  the PDF's bytes (their SHA-256);
- a tournament: its event, structure (levels, chips, buy-in, payouts), draw and final seats, and
  the keyed sum of the seals of its entries, clock moves, desk actions and bounties
  (``children``): a child removed, added or put back as it was before changes the sum, so the
  tournament's own seal no longer matches;
- each entry, clock move, desk action and bounty.

The app seals a row whenever it writes it (:func:`_seal_rows`), but only when the seal it read was
good: a row changed behind the app's back stays detectably changed, never laundered by the next
write. An explicit act of the operator (``flask reset-password``, ``flask api-token``) may seal a
broken user row again (:func:`trust`); a broken print is derived data and is made again.

Every sealed row written is also a line of the room's witness (``row``: what, which, its seal and
the seal it replaced), so ``flask verify`` can tell a row removed or put back (:mod:`floor.witness`).

The app checks each at use: a user whose row does not match is not logged in
(:func:`user_problem`, with the reason); a tournament whose record does not match answers 409
naming the broken row (:func:`check_tournament`), as a table does.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import String, event, inspect, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column
from sqlalchemy.orm.attributes import set_committed_value

from floor.seals import SealBroken, canonical, keyed_digest, moment, same, seal_holds, set_member, sum_text, typed

__all__ = ["SealedRow", "trust", "check_tournament", "tournament_children", "plain", "user_problem"]


def plain(value: Any) -> Any:
    """A column's value as a seal reads it: times to the microsecond, bytes by their SHA-256, JSON
    as it reads back (seat keys as strings).

    >>> plain(b"%PDF"), plain({1: [2]})
    ('315d429b7714cedb6ad04ac31240145257692630457f3c88253c5beceac76027', {'1': [2]})
    """
    if isinstance(value, datetime):
        return moment(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return hashlib.sha256(bytes(value)).hexdigest()
    if isinstance(value, (dict, list)):
        return json.loads(canonical(value))
    return value


class SealedRow:
    """A row under its own keyed seal, ``row_seal`` (see the module). ``SEALED`` names the attributes
    the seal vouches for; ``TOURNAMENT_CHILD`` marks a tournament's entry, clock move, desk action
    or bounty (its seal counts in its tournament's ``children``)."""

    SEALED: ClassVar[tuple[str, ...]] = ()
    TOURNAMENT_CHILD: ClassVar[bool] = False
    #: Whether the room's witness keeps a line for each seal written (a stored print does not: see
    #: floor.rulings.printed).
    WITNESSED: ClassVar[bool] = True
    #: Every sealed model by its table's name (this module imports no model: they import it).
    KINDS: ClassVar[dict[str, type[SealedRow]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__tablename__" in cls.__dict__:
            SealedRow.KINDS[cls.__dict__["__tablename__"]] = cls

    row_seal: Mapped[str] = mapped_column(String(64), default="", server_default="")
    if TYPE_CHECKING:  # each model's own (declared apart: SQLAlchemy reads annotations)
        id: Any
        __tablename__: str

    @classmethod
    def seal_of(cls, row_id: Any, values: dict[str, Any], key: bytes | None = None) -> str:
        return keyed_digest({"of": cls.__tablename__, "id": row_id, **{k: plain(v) for k, v in values.items()}}, key)

    def sealed_values(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.SEALED}

    def compute_row_seal(self) -> str:
        return self.seal_of(self.id, self.sealed_values())

    @property
    def row_seal_intact(self) -> bool:
        """Whether the row matches its seal: checked once per process for the exact values read
        (:func:`floor.seals.seal_holds`; a row whose sealed values are not all hashable, a JSON
        structure, is checked every time)."""
        seal = self.row_seal
        if not seal:
            return False
        row_id, read = self.id, _sealed_getter(type(self))(self)
        values = read if len(self.SEALED) > 1 else (read,)
        try:
            covered = (self.__tablename__, row_id, *typed(values))
            hash(covered)
        except TypeError:
            return same(seal, self.seal_of(row_id, dict(zip(self.SEALED, values))))
        return seal_holds(seal, covered, lambda: self.seal_of(row_id, dict(zip(self.SEALED, values))))

    def member(self) -> int:
        """This row's part in a set's keyed sum (:func:`floor.seals.set_member`)."""
        return set_member(self.__tablename__, self.id, self.row_seal)


#: Per sealed model, the getter of its ``SEALED`` attributes in one call (every tap's user is checked).
_GETTERS: dict[type, attrgetter[Any]] = {}


def _sealed_getter(model: type[SealedRow]) -> attrgetter[Any]:
    getter = _GETTERS.get(model)
    if getter is None:
        getter = _GETTERS[model] = attrgetter(*model.SEALED)
    return getter


def trust(session: Session, row: SealedRow) -> None:
    """Let this transaction seal ``row`` again even though the seal it read did not match: an explicit
    act of the operator (a password or token reset from the command line), recorded by the witness."""
    session.info.setdefault("floor_trusted_rows", set()).add(id(row))


@event.listens_for(Session, "before_flush")
def _read_stored(session: Session, _context: Any, _instances: Any) -> None:
    """Before a sealed row is written again, read it as stored (its sealed values and its seal): an
    attribute set on a row the session had expired carries no old value to check the seal with."""
    stored = session.info.setdefault("floor_stored_rows", {})
    for obj in session.dirty:
        if not isinstance(obj, SealedRow) or id(obj) in stored:
            continue
        state = inspect(obj)
        if not any(state.attrs[name].history.has_changes() for name in obj.SEALED):
            continue
        mapper = state.mapper
        columns = [mapper.attrs[name].columns[0] for name in obj.SEALED] + [mapper.attrs["row_seal"].columns[0]]
        key = mapper.primary_key[0]
        connection = session.connection()
        # Read it as the write will find it: locked first, so that no other transaction commits a
        # change of it between this read and this flush's write (two requests writing one row at
        # once read the same seal; the second's check then took the first's reseal for tampering,
        # and left a good row under a broken seal). PostgreSQL locks the row and reads the latest
        # commit; SQLite reads after a no-op write that queues this transaction for the write lock.
        if connection.dialect.name == "sqlite":
            connection.execute(update(mapper.local_table).where(key == obj.id).values({key.name: key}))
        row = connection.execute(select(*columns).where(key == obj.id).with_for_update()).first()
        if row is not None:
            stored[id(obj)] = (dict(zip(obj.SEALED, row[:-1])), row[-1] or "")


def _intact_before(session: Session, obj: SealedRow) -> tuple[bool, dict[str, Any] | None]:
    """Whether ``obj``'s seal matched the row as stored before this flush, and that row's values."""
    found = session.info.get("floor_stored_rows", {}).get(id(obj))
    if found is None:
        return True, None  # none of its sealed values changed: nothing to reseal
    values, seal = found
    return bool(seal) and same(seal, obj.seal_of(obj.id, values)), values


@event.listens_for(Session, "after_flush")
def _seal_rows(session: Session, _context: Any) -> None:
    """Seal each sealed row the app wrote when the seal it read was good; note each seal written for
    the witness and in its tournament's sum of children (:func:`_tournament_head`)."""
    from floor import witness

    trusted = session.info.get("floor_trusted_rows", set())
    reseal: list[tuple[SealedRow, str]] = []
    deltas: dict[int, int] = {}
    tournaments: dict[int, dict[str, Any] | None] = {}
    for obj in list(session.new) + list(session.dirty):
        if not isinstance(obj, SealedRow):
            continue
        state = inspect(obj)
        if obj.__tablename__ == "tournaments":
            if obj in session.new:
                tournaments[obj.id] = None
            elif id(obj) in session.info.get("floor_stored_rows", {}):
                tournaments[obj.id] = session.info["floor_stored_rows"][id(obj)][0]
            continue
        written = state.attrs.row_seal.history
        if written.added and written.added[0] and obj.WITNESSED:  # a seal written: the witness and the sums
            was = (written.deleted[0] if written.deleted else "") or ""
            witness.note(session, {"kind": witness.ROW, "of": obj.__tablename__, "id": obj.id,
                                   "digest": obj.row_seal, "was": was})
            if obj.TOURNAMENT_CHILD:
                delta = obj.member() - set_member(obj.__tablename__, obj.id, was)
                deltas[obj.tournament_id] = deltas.get(obj.tournament_id, 0) + delta  # type: ignore[attr-defined]
        seal = obj.compute_row_seal()
        if same(obj.row_seal, seal):
            continue
        if obj in session.new or id(obj) in trusted or (not written.added and _intact_before(session, obj)[0]):
            reseal.append((obj, seal))
    for obj in session.deleted:
        if isinstance(obj, SealedRow) and obj.row_seal and obj.WITNESSED:
            witness.note(session, {"kind": witness.ROW, "of": obj.__tablename__, "id": obj.id, "digest": None,
                                   "was": obj.row_seal})
            if obj.TOURNAMENT_CHILD:
                deltas[obj.tournament_id] = deltas.get(obj.tournament_id, 0) - obj.member()  # type: ignore[attr-defined]
    session.info.setdefault("floor_row_seals", []).extend(reseal)
    session.info.pop("floor_stored_rows", None)
    for tournament_id in set(deltas) | set(tournaments):
        _tournament_head(session, tournament_id, deltas.get(tournament_id, 0), tournaments.get(tournament_id, {}))


@event.listens_for(Session, "after_flush_postexec")
def _apply_row_seals(session: Session, _context: Any) -> None:
    for obj, seal in session.info.pop("floor_row_seals", []):
        obj.row_seal = seal


@event.listens_for(Session, "after_rollback")
def _forget_row_seals(session: Session) -> None:
    session.info.pop("floor_row_seals", None)
    session.info.pop("floor_trusted_rows", None)
    session.info.pop("floor_stored_rows", None)


@event.listens_for(Session, "after_commit")
def _forget_trust(session: Session) -> None:
    session.info.pop("floor_trusted_rows", None)


def _tournament_head(session: Session, tournament_id: int, delta: int, old: dict[str, Any] | None) -> None:
    """Move the tournament's sum of children by ``delta`` and seal its row again, with its row locked
    and read as committed (two floor persons entering players at once on PostgreSQL each add to the
    other's sum). Only a row whose seal was good is sealed again (``old``: its sealed values before
    this flush changed them, None for a tournament made now)."""
    from floor import witness

    Tournament: Any = SealedRow.KINDS["tournaments"]
    table = Tournament.__table__
    connection = session.connection()
    row = connection.execute(select(table).where(table.c.id == tournament_id).with_for_update()).mappings().one()
    stored = {name: row[Tournament.__mapper__.attrs[name].columns[0].name] for name in Tournament.SEALED}
    before = {**stored, **(old or {}), "children": stored["children"]}
    if old is not None and not same(row["row_seal"], Tournament.seal_of(tournament_id, before)):
        return  # changed behind the app's back: it stays so, for the checks to name
    children = sum_text(int(stored["children"] or "0", 16) + delta)
    seal = Tournament.seal_of(tournament_id, {**stored, "children": children})
    connection.execute(table.update().where(table.c.id == tournament_id).values(children=children, row_seal=seal))
    witness.note(session, {"kind": witness.ROW, "of": "tournaments", "id": tournament_id, "digest": seal,
                           "was": row["row_seal"] or ""})
    obj = session.identity_map.get(inspect(Tournament).identity_key_from_primary_key((tournament_id,)))
    if obj is not None:
        set_committed_value(obj, "children", children)
        set_committed_value(obj, "row_seal", seal)


def user_problem(user: Any) -> str | None:
    """Why ``user`` may not act, or None: the account's row does not match its seal (its role, state,
    password or token changed outside the app), or it is not the row the room's witness saw (put
    back as it was before: a director demoted, made a director again)."""
    from floor import witness

    if not user.row_seal_intact:
        return (f"the account {user.username}'s record does not match its seal: its role, state, password or token "
                "was changed outside the app. A director resets it with `flask --app floor reset-password`.")
    if not witness.user_witnessed(user):
        return (f"the account {user.username}'s record is not the one the room's witness saw: it was put back as it "
                "was before, outside the app. A director resets it with `flask --app floor reset-password`.")
    return None


#: A tournament's children: the rows whose seals its own seal sums.
CHILDREN = ("tournament_entries", "tournament_clock_moves", "tournament_desk_actions", "tournament_bounties")


def tournament_children(tournament: Any, fresh: bool = False) -> list[SealedRow]:
    """The tournament's entries, clock moves, desk actions and bounties, as stored now (``fresh``:
    read again into the rows this session holds)."""
    from floor.extensions import db

    rows: list[SealedRow] = []
    for name in CHILDREN:
        model: Any = SealedRow.KINDS[name]
        query = db.select(model).where(model.tournament_id == tournament.id).order_by(model.id)
        rows += db.session.scalars(query.execution_options(populate_existing=fresh))
    return rows


def child_words(row: Any) -> str:
    """A tournament's row named for a person reading the refusal."""
    name = row.__tablename__
    if name == "tournament_entries":
        return f"the entry of {row.player}"
    if name == "tournament_clock_moves":
        return f"clock move #{row.id} ({row.action})"
    if name == "tournament_desk_actions":
        return f"desk action #{row.id} ({row.kind}{' of ' + row.player if row.player else ''})"
    return f"bounty #{row.id} ({row.player}'s, to {row.winner})"


def check_tournament(tournament: Any) -> None:
    """Raise :class:`floor.seals.SealBroken` naming the tournament's row that does not match its
    seal, or the rows removed or put back (their sum is not the one sealed): nothing is served
    from such a tournament, its clock, results and payouts included.

    Each row is read whole, so its own seal is checked at once. The sum is of several rows, read by
    several statements: a floor person's entry committed between reading the tournament and reading
    its children is no tampering, so the tournament is read again after its children and the sum
    checked again (a sum that still differs after three reads is)."""
    from floor.extensions import db

    name = tournament.event.name if tournament.event is not None else f"#{tournament.id}"
    where = f"The tournament {name}"
    for attempt in range(3):
        children = tournament_children(tournament, fresh=attempt > 0)
        for row in children:
            if not row.row_seal_intact:
                raise SealBroken(f"{where}: {child_words(row)} does not match its seal: it was changed outside the "
                                 f"app. {CALL}")
        if attempt:
            db.session.refresh(tournament)  # read after its children: no commit of theirs is newer
        if not tournament.row_seal_intact:
            raise SealBroken(f"{where}: its structure (levels, chips, buy-in, payouts), draw or list of entries, clock "
                             f"moves, desk actions and bounties does not match its seal: it was changed outside the "
                             f"app. {CALL}")
        if sum_text(sum(row.member() for row in children)) == (tournament.children or sum_text(0)):
            return
    raise SealBroken(f"{where}: an entry, a clock move, a desk action or a bounty was removed, or put back as it was "
                     f"before, outside the app. {CALL}")


CALL = ("Nothing of it is shown or changed until a director puts the record right (`flask --app floor verify` names "
        "what was changed; `flask --app floor restore` puts a backup back).")
