"""A banked table's log and its state: the one place that appends (as :mod:`floor.tables` is a
jackpot table's).

The state is always ``rules.banked.round.BankedState.replay`` over the log from the current round's
deal (an earlier round was settled when it was logged and cannot change), read only from the
sealed log (:func:`round_entries`). Appending applies the new event to that state first; only an
event the rules accept is written, in the transaction that moves the table's head (and, for the
floor's ruling, stores its sealed record and closes the calls it answers), so a refused or
conflicting event leaves nothing behind. What the log stores is the rules' reading of the event
(``to_dict()``), never the client's payload.

Who may log what is each event type's word (``by``, :mod:`rules.banked.events`): the floor's word
(a ruling) only from a floor person or a director (:func:`append`), and never posted to the table:
the floor's dispute page logs it with the sealed ruling it carries (:func:`post` answers 403). A tap
sent again (its ``tap_id``, :mod:`floor.tapids`) is answered with the entry it logged the first time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlalchemy.exc import IntegrityError

from floor import chain, tables, tapids, witness
from floor.cache import LRU
from floor.banked.models import BankedCall, BankedEntry, BankedTable, logged_round_start
from floor.extensions import db
from floor.models import Role, User, utcnow
from floor.seals import SealBroken, head_content, keyed_digest, same
from floor.chain import CALL_THE_DIRECTOR
from floor.tables import NotYours
from rules import RulesError
from rules.banked.events import EVENTS, Deal, Event, Ruling, Void, Who
from rules.banked.round import BankedState

__all__ = ["Stale", "NotYours", "Posted", "round_entries", "rounds_before", "replayed", "table_state", "state_of",
           "append", "post"]


class Stale(tables.StaleVersion):
    """Another device logged first: the version the client saw is not the table's."""

    def __init__(self, expected: int, current: int) -> None:
        Exception.__init__(self, f"another device logged first: this page showed version {expected}, the table is "
                                 f"at {current}; the table is shown as it is now")
        self.expected, self.current = expected, current


def round_entries(table: BankedTable) -> list[BankedEntry]:
    """The log from the current round's deal, undos and withdrawn entries included, each checked
    against its seal and its link to the one before (issue 20). The round start is trusted only
    under a good head seal; a head changed outside the app (a moved round start) is not believed:
    the round is found in the log itself, from its last standing deal (``flask verify`` names the
    broken seal). One round read from the database, however long the day."""
    witness.seen()  # no cache here: read on what other processes witnessed, then refuse a rolled-back log
    witness.check_not_behind("banked", table.id, table.version)
    start = table.round_start
    if not table.head_seal_intact:
        start = logged_round_start(table)
        if not same(table.head_seal, keyed_digest({**head_content(table.id, table.version, table.head_digest,
                                                                  table.setup), "kind": "banked",
                                                   "round_start": start})):
            raise SealBroken(f"{table.name}: the table's seal does not match its version, the end of its log or its "
                             f"setup: they were changed outside the app. {CALL_THE_DIRECTOR}")
    first = max(start, 1)
    prev = "" if first == 1 else db.session.scalar(db.select(BankedEntry.digest).where(
        BankedEntry.table_id == table.id, BankedEntry.seq == first - 1)) or "-"
    rows = db.session.scalars(db.select(BankedEntry).where(
        BankedEntry.table_id == table.id, BankedEntry.seq >= first, BankedEntry.seq <= table.version)
        .order_by(BankedEntry.seq)).all()
    return chain.chain_checked(table, rows, first - 1, prev, BankedEntry.digest_of)


#: How many rounds a table dealt before a round's deal, by (table, the deal's number, its digest): the
#: log up to a deal never changes (its digest chains it), so a count once made stays the count.
rounds: LRU[tuple[int, int, str], int] = LRU(1024)


def rounds_before(table: BankedTable, deal: BankedEntry) -> int:
    """How many rounds the table dealt before ``deal`` (its round's first entry): the deals before it
    that no undo withdrew, counted by the database (the log before the round is not read) once per
    process and round; a deal this process logged is known from the state it followed."""
    key = (table.id, deal.seq, deal.digest)
    known = rounds.get(key)
    if known is None:
        kind = BankedEntry.payload["type"].as_string()
        target = BankedEntry.payload["event"].as_integer()
        withdrawn = db.select(target).where(BankedEntry.table_id == table.id, kind == "void", target.is_not(None))
        known = db.session.scalar(db.select(func.count()).select_from(BankedEntry).where(
            BankedEntry.table_id == table.id, BankedEntry.seq < deal.seq, kind == "deal",
            BankedEntry.seq.not_in(withdrawn))) or 0
        rounds.put(key, known)
    return known


def replayed(table: BankedTable, entries: list[BankedEntry]) -> BankedState:
    """The state after ``entries``, the round's (:func:`round_entries`), numbered among the table's rounds."""
    return BankedState.replay(table.setup, [(e.seq, e.payload) for e in entries],
                              rounds=rounds_before(table, entries[0]) if entries and entries[0].seq > 1 else 0)


def table_state(table: BankedTable) -> BankedState:
    """The table's state now: its round replayed from the sealed log (the undos read by the rules)."""
    return replayed(table, round_entries(table))


def state_of(table: BankedTable) -> dict[str, Any]:
    """The table's state as the plain data of the JSON answers."""
    return table_state(table).to_dict()


def check_role(kind: type[Event], user: User | None) -> None:
    """The floor's word (``by`` the floor: a ruling) only from a floor person or a director; the
    demo and the CLI log without a user."""
    if kind.by is Who.FLOOR and user is not None and not user.may(Role.floor):
        raise NotYours(f"a {kind.kind.replace('_', ' ')} is the floor's word: {user.username} is a {user.role.name} "
                       "and may not log it")


def append(table: BankedTable, event: Mapping[str, Any] | Event, user: User | None,
           expected_version: int | None = None, tap_id: str | None = None) -> BankedState:
    """Check ``event`` with the rules and log it as ``user``; returns the new state. Raises
    :class:`NotYours` (the floor's word from a dealer), :class:`Stale` (another device was first, or
    the same tap twice at once: the log's unique tap id) or ``RulesError`` (refused, naming the
    rule); nothing is written then. An undo that withdraws the round's deal makes the round before
    the table's round again (its start is found in the log). Whatever the session holds beside
    (the floor's sealed ruling) is committed with the entry, or neither is."""
    kind = type(event) if isinstance(event, Event) else EVENTS.type_of(event.get("type"))
    check_role(kind, user)
    db.session.refresh(table)
    if expected_version is not None and expected_version != table.version:
        raise Stale(expected_version, table.version)
    try:
        before = replayed(table, round_entries(table))
        state = before.apply(event, table.version + 1)  # the rules' reading of it, refused or logged
    except RulesError:
        db.session.rollback()
        raise
    logged = state.applied
    assert logged is not None
    undoes_deal = isinstance(logged, Void) and isinstance(before.entries[-1][1], Deal)
    entry = BankedEntry(table_id=table.id, seq=table.version + 1, payload=logged.to_dict(),
                        logged_by_id=user.id if user is not None else None, logged_at=utcnow(),
                        prev_digest=table.head_digest or "", tap_id=tap_id)
    entry.digest = entry.compute_digest()
    # Re-sealed only when the seal read was good: a head changed behind the app's back stays
    # detectably broken for `flask verify`.
    sealed = table.head_seal_intact
    table.version, table.head_digest = entry.seq, entry.digest
    if isinstance(logged, Deal):
        table.round_start = entry.seq
    elif undoes_deal:
        table.round_start = logged_round_start(table, below=table.round_start)  # the round before is in play again
    if sealed:
        table.head_seal = table.compute_head_seal()
    db.session.add(entry)
    if isinstance(logged, Ruling):  # the floor's ruling answers the calls open at this table
        for call in BankedCall.open_at(table.id):
            call.closed_at, call.ruling_id, call.closed_by_id = utcnow(), logged.ruling, entry.logged_by_id
    key = (table.id, entry.seq, entry.digest)  # named before the commit, which expires the rows
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        db.session.refresh(table)
        raise Stale(expected_version if expected_version is not None else table.version - 1, table.version) from None
    if isinstance(logged, Deal):
        rounds.put(key, before.number)  # the rounds dealt before this one
    return table_state(table) if undoes_deal else state


@dataclass(frozen=True)
class Posted:
    """What a posted event did: logged (201, the new state), sent before (200, the entry the tap
    logged the first time), or refused (403, 409, 422, with the message); the table's version."""

    status: int
    version: int
    message: str = ""
    state: BankedState | None = None
    again: BankedEntry | None = None


def post(table: BankedTable, event: Mapping[str, Any], user: User | None, expected_version: int | None,
         tap_id: str | None) -> Posted:
    """One event posted to the table (the tablet's form or tap, a JSON client): the one
    implementation of a post. A tap sent again is answered with its first entry, whatever the table's
    version is now; the floor's word is never posted (403: the dispute page logs it, sealed); then
    :func:`append`'s checks: the role (403), the version (409), the rules (422)."""
    again = tapids.find(BankedEntry, table.id, tap_id)
    if again is not None:  # a tap sent again (the contract, part four): the entry it logged the first time
        return Posted(200, table.version, again=again)
    try:
        kind = EVENTS.type_of(event.get("type"))
        if kind.by is Who.FLOOR:
            return Posted(403, table.version, f"a {kind.kind.replace('_', ' ')} is logged by the floor's dispute page "
                                              "(Call the floor), not from the tablet")
        state = append(table, event, user, expected_version, tap_id)
    except NotYours as exc:
        return Posted(403, table.version, str(exc))
    except Stale as exc:
        again = tapids.find(BankedEntry, table.id, tap_id)
        if again is not None:  # the same tap posted twice at once: the other post logged it
            return Posted(200, table.version, again=again)
        return Posted(409, table.version, str(exc))
    except RulesError as exc:
        return Posted(422, table.version, str(exc))
    return Posted(201, table.version, state=state)
