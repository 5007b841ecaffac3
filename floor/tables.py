"""A table's log and its state: the one place that appends events.

The state is always ``rules.jackpot.replay(setup, events)`` over the log. Appending applies the
new event to the state first; only an event the rules accept is written, in the same
transaction that bumps the table's version, so a refused or conflicting event leaves nothing
behind. States are cached by ``(table id, version, setup)``: the log is append-only and the version
counts its entries, so with the setup a version names exactly one state; and ``replay`` is by definition the
fold of ``apply`` over the log, so applying one event to the cached state of version n is the
replay of version n + 1 (the engine's property tests check that equality).

A state is only ever replayed from the sealed log (issue 20): on a cache miss the entries are
checked against their seals and links up to the table's sealed head (:func:`sealed_entries`), a pot
snapshot is resumed from only when its own seal binds it to this history, and a table whose log is
behind what the room's witness saw (:mod:`floor.witness`) is refused. Either failure answers 409
with the reason; nothing is shown or logged there until a director puts the record right.

Several server processes (gunicorn workers) append to the same tables, each with its own cache, so
a state is cached under the version it was computed for (``TableState.version``, never the table
row read again after a commit: another worker may have moved it on), a replay reads the log only
up to the version it names, and a cached state whose own version is not the one asked for is
never trusted.

A worker whose cached state of a table is a few versions behind (the other workers logged the
taps in between: with several workers, most taps land on a worker that did not log the one
before) catches up from it rather than from the pot snapshot: it reads the sealed entries after
the version it holds, checked as a replay's are and linked to the digest of the entry its state
ends on, and applies them (issue 23: a tap on the server path cost a snapshot resumed and a pot
replayed in about two taps of three, the largest part of its CPU there). Applying the events one
by one onto the state of version n is by definition the replay of the later version.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from flask import current_app
from sqlalchemy import bindparam
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from floor import rows, witness
from floor.cache import LRU
# the sealed log's readers; other modules read CALL_THE_DIRECTOR, log_page and sealed_entries here
from floor.chain import CALL_THE_DIRECTOR as CALL_THE_DIRECTOR
from floor.chain import log_page as log_page
from floor.chain import sealed_entries as sealed_entries
from floor.chain import check_record, prefix_checked, sealed_events
from floor.seals import SealBroken, Spelled, setup_spelled, spelled, taken
from floor.extensions import db
from floor.house_profiles import resolve_profile
from floor.players import service as players
from floor.prepared import Prepared
from floor.models import CardRoomEvent, FloorCall, IssuedRuling, LogEntry, PotSnapshot, Role, Table, User, utcnow
from floor.security import check_stored_json
from rules import IllegalAction, RulesError, jackpot
from rules.jackpot.events import EVENTS, FLOOR_ACTS as ENGINE_FLOOR_ACTS, FLOOR_WORD, Event, parse_event

#: The tables a tap writes and a replay reads, as Core tables (issue 23: a tap's statements are built
#: once and run without the ORM's unit of work or its objects). Read from the metadata, where they
#: are typed as tables (``__table__`` is typed as any FROM clause).
_TABLES, _LOG = Table.metadata.tables[Table.__tablename__], LogEntry.metadata.tables[LogEntry.__tablename__]


#: Events only a floor person (or a director) may log: the floor's word, as each event type declares
#: it (``by``, rules.jackpot.events). A dealer reports false openers (a floor call carrying the
#: rules' proposal); the floor person who confirms logs them.
FLOOR_EVENTS = FLOOR_WORD


#: Other parts of the app that take part in logging (the tournament floor registers both):
#: ``amend(table, event) -> event`` may add fields to an event before the rules read it (a
#: tournament's stakes on a ``deal``: written into the event, so a replay never needs the clock);
#: ``after(table, entry, state)`` is told of each event :func:`append` committed (eliminations).
AMENDERS: list[Callable[[Table, dict[str, Any]], dict[str, Any]]] = []
AFTER_APPEND: list[Callable[[Table, LogEntry, jackpot.TableState], None]] = []
#: Checks of an event a person posts at the table (the tablet's tap, ``POST /api/tables/<id>/events``),
#: made before it is logged: ``check(table, event, user)`` raises :class:`NotYours` (403) or
#: ``rules.IllegalAction`` (422) with the reason. The desks' own appends (:func:`append` called by the
#: tournament desk) are not posted events. The tournament registers one: its tables are seated by
#: its desk only (floor.tournament.floorwork.desk_only).
POSTED_CHECKS: list[Callable[[Table, dict[str, Any], User | None], None]] = []


def check_posted(table: Table, event: dict[str, Any], user: User | None) -> None:
    """Ask every check of :data:`POSTED_CHECKS` of ``event`` at ``table`` by ``user``: what every
    event a person logs at a table passes, the tap's and the floor's pages' alike (a list's seat, a
    move between tables, a must-move game). Raises as the checks do."""
    for check in POSTED_CHECKS:
        check(table, event, user)


class NotYours(Exception):
    """The user's role may not log this kind of event (a dealer logging a ruling)."""


class StaleVersion(Exception):
    """The client logged against an older version of the table: someone else logged first."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the table moved on: you were at version {expected}, it is now at {current}. "
            "Refresh and log again if it is still right."
        )
        self.expected = expected
        self.current = current


#: Replayed states by :func:`cache_key` (a few per table: 200 tables and their recent versions).
cache: LRU[tuple[int, int, str], jackpot.TableState] = LRU(1024)
#: Per table id, the latest state this process cached: its version, the digest of the log entry it
#: ends on (its link to the entries after it) and its setup, the key of :data:`cache`'s entry.
heads: LRU[int, tuple[int, str, str]] = LRU(1024)
#: At most this many entries are applied to catch a cached state up; further behind, the pot
#: snapshot is nearer.
CATCH_UP = 64


def events_of(table: Table) -> list[dict[str, Any]]:
    """The log's events up to the table's version as read, oldest first (for a replay; pages read
    :func:`log_page`). Entries another process logged since are not this version's. Each is checked
    against its seal (:func:`sealed_entries`): a replay is only ever of the sealed log."""
    return [entry.payload for entry in sealed_entries(table)]


def cache_key(table: Table, version: int | None = None) -> tuple[int, int, str]:
    """A state is named by its table, its version and its setup (a director may still edit the
    setup of a table whose log is empty). ``version`` defaults to the table's as last read."""
    return table.id, table.version if version is None else version, setup_spelled(table)


def _remember(key: tuple[int, int, str], state: jackpot.TableState, digest: str) -> None:
    """Cache ``state`` under ``key`` only when it is the state of the version the key names;
    ``digest`` is the digest of the log entry at that version (its link to the next)."""
    if state.version == key[1]:
        cache.put(key, state)
        known = heads.get(key[0])
        if known is None or known[0] <= key[1] or known[2] != key[2]:
            heads.put(key[0], (key[1], digest or "", key[2]))


def _caught_up(table: Table, key: tuple[int, int, str]) -> jackpot.TableState | None:
    """The state of the table's version from this process's latest cached state of it and the
    sealed entries logged since (:func:`sealed_entries`: each checked against its seal and linked
    from the cached state's entry to the table's sealed head), or None when there is no such state
    within :data:`CATCH_UP` entries (or the rules refuse an entry: the replay says why)."""
    known = heads.get(table.id)
    if known is None or known[2] != key[2] or not 0 <= table.version - known[0] <= CATCH_UP:
        return None
    state = cache.get((table.id, known[0], known[2]))
    if state is None or state.version != known[0]:
        return None
    try:
        for event in sealed_events(table, known[0], known[1]):
            state = jackpot.apply(state, event)
    except SealBroken:
        return None  # not linked to what this process holds (a deleted table's id handed out again): replay
    except (RulesError, ValueError, KeyError, TypeError) as exc:
        current_app.logger.warning("table %s: catching up from version %s failed (%s); replaying the log",
                                   table.id, known[0], exc)
        return None
    return state if state.version == table.version else None


def table_state(table: Table) -> jackpot.TableState:
    """The table's immutable engine state at its version as read: from the cache, else replayed
    from the latest pot snapshot (one pot of events), else from the whole log."""
    key = cache_key(table)
    state = cache.get(key)
    if state is None or state.version != table.version:
        witness.seen()  # read on what other processes witnessed since (a restart comes here too)
        # the head (and the witness) checked once here; each way below reads only entries linked up to it
        check_record(table)
        state = (_caught_up(table, key) or _from_snapshot(table)
                 or jackpot.replay_state(table.setup, sealed_events(table, 0, "")))
        _remember(key, state, table.head_digest)
    # never a state of a log cut back behind what the room's witness saw (floor.witness)
    witness.check_not_behind("table", table.id, table.version, table.head_digest)
    return state


def forget() -> None:
    """Drop every state this process cached (the database changed under it: a restore)."""
    cache.clear()
    heads.clear()


witness.RELOAD.append(forget)


#: A table's record that cannot be read (issue 20): it does not match its seals, or its log is behind
#: what the room's witness saw. Nothing is served from it; a page of many tables names it on its line.
BROKEN_RECORD: tuple[type[Exception], ...] = (SealBroken, witness.RolledBack)


def _from_snapshot(table: Table) -> jackpot.TableState | None:
    """The state resumed from the table's latest pot snapshot and the events logged after it, or
    None (no snapshot, or one this version of the rules cannot read: the log is the truth)."""
    snap = db.session.scalars(db.select(PotSnapshot).where(PotSnapshot.table_id == table.id,
                                                           PotSnapshot.version <= table.version)
                              .order_by(PotSnapshot.version.desc()).limit(1)).first()
    if snap is None:
        return None
    # Derived data never outranks the log: only a snapshot sealed on this very history (the digest
    # of the entry at its version, the setup) is resumed from; any other is ignored (`flask verify`
    # names it) and the state is replayed from the sealed log.
    at = "" if snap.version == 0 else db.session.scalar(
        db.select(LogEntry.digest).where(LogEntry.table_id == table.id, LogEntry.seq == snap.version))
    if at is None or not snap.intact(at, table.setup):
        current_app.logger.warning("table %s: the pot snapshot at version %s does not match its seal; "
                                   "replaying the log", table.id, snap.version)
        return None
    prefix_checked(table, snap.version, at)  # an entry edited before the snapshot stops the table too
    after = sealed_events(table, snap.version, at)
    try:
        return jackpot.resume(table.setup, snap.data, after)
    except (RulesError, ValueError, KeyError, TypeError, AssertionError) as exc:
        current_app.logger.warning("table %s: snapshot at version %s ignored (%s); replaying the log",
                                   table.id, snap.version, exc)
        return None


def state_of(table: Table) -> dict[str, Any]:
    """The table's state now, as the plain data of the contract."""
    return table_state(table).to_dict()


def create_table(name: str, setup: dict[str, Any], event_id: int | None = None, user: User | None = None) -> Table:
    """Check a setup against the rules (replaying no events) and store the table, each seat's
    player named by the record (:func:`floor.players.service.amend_setup`: a banned player refused)."""
    setup = dict(setup)
    if event_id is not None and (isinstance(event_id, bool) or not isinstance(event_id, int)
                                 or not 0 < event_id < 2**63 or db.session.get(CardRoomEvent, event_id) is None):
        raise ValueError(f"event_id: there is no event {event_id!r} (create the event first, or leave event_id out)")
    setup["profile"] = resolve_profile(setup.get("profile", "cardroom"))
    jackpot.replay(setup, [])  # raises RulesError/ValueError with the reason if the setup is bad
    setup = players.amend_setup(setup, user)
    table = Table(name=name.strip() or "Table", setup=setup, event_id=event_id)
    db.session.add(table)
    db.session.commit()
    return table


def may_log(kind: str, user: User | None) -> bool:
    """Whether ``user`` may log an event of this type. Dealers report what happens at the table;
    a ruling, a correction of chips and the finding of false openers are the floor's word (a
    dealer's report of false openers goes to the floor as a call, see :func:`report`). The CLI and
    the demo log without a user."""
    if user is None or kind not in FLOOR_EVENTS:
        return True
    return user.may(Role.floor)


def check_role(kind: str, user: User | None) -> None:
    if not may_log(kind, user):
        assert user is not None
        reported = kind in EVENTS and EVENTS[kind].reported
        raise NotYours(f"a {kind.replace('_', ' ')} is the floor's word: {user.username} is a {user.role.name} "
                       "and may not log it" + (" (call the floor: the report waits for a floor person)"
                                               if reported else ""))


#: The events that are the floor's acts when a floor person or a director logs them: who sits
#: where and with what chips (a tournament move or balancing is a ``leave`` and a ``sit``, a seat
#: change ``move_seat``, a rebuy ``add_chips``), and the floor's word (a recount or any correction,
#: a ruling, false openers). The play of a hand (deal, pass, bet, draw, show...) a floor person taps
#: while standing in at a dealer's tablet stays the table's play, which the dealer may undo.
#: Each event type declares it (``floor_act``, rules.jackpot.events).
FLOOR_ACTS = ENGINE_FLOOR_ACTS


def floor_act(entry: LogEntry) -> str | None:
    """Why a dealer may not withdraw ``entry``, or None: it is the floor's act when a floor person
    or a director logged it and it is one of :data:`FLOOR_ACTS`, or when it carries a floor
    person's ruling or the rules' ruling a floor person confirmed. The barrier is per entry and
    the server's (:func:`check_undo`): no page hides it."""
    who = entry.logged_by
    kind = str(entry.payload.get("type", "event")).replace("_", " ")
    # An entry of no one's is the app's own act for the floor (the tournament desk clearing a busted
    # player's seat after the dealer's tap, the demo's seating): a dealer never logs without a login.
    if entry.payload.get("type") in FLOOR_ACTS and (who is None or who.may(Role.floor)):
        by = "the tournament desk" if who is None else f"{who.username} ({who.role.name})"
        return (f"event #{entry.seq - 1} ({kind}) was logged by {by}: a dealer's "
                "undo never withdraws the floor's act; call the floor if it is wrong")
    ruled = db.session.scalars(db.select(IssuedRuling).where(
        IssuedRuling.table_id == entry.table_id, IssuedRuling.log_seq == entry.seq,
        (IssuedRuling.by_rules.is_(False)) | IssuedRuling.confirmed_by_id.is_not(None))).first()
    if ruled is not None:
        by = ruled.ruled_by.username if ruled.ruled_by is not None else "the floor"
        return (f"event #{entry.seq - 1} ({kind}) carries ruling #{ruled.id} of {by}: a dealer's undo never "
                "withdraws the floor's ruling; call the floor if it is wrong")
    return None


def check_undo(table: Table, payload: dict[str, Any], user: User | None) -> None:
    """Refuse (:class:`NotYours`, with the reason) a dealer's void of an entry that is the floor's act."""
    if payload.get("type") != "void" or user is None or user.may(Role.floor):
        return
    index = payload.get("event")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < table.version:
        return  # no such entry: the rules refuse the void, saying which they would take (issue 30: 2**63 was a 500)
    target = db.session.scalars(db.select(LogEntry).where(
        LogEntry.table_id == table.id, LogEntry.seq == index + 1)).first()
    reason = floor_act(target) if target is not None else None
    if reason is not None:
        raise NotYours(f"undo refused: {reason}")


def canonical_event(event: dict[str, Any] | Event) -> dict[str, Any]:
    """The event as the log stores it: the engine's own reading of it (``rules.jackpot.events.parse_event``
    then ``Event.to_dict()``; an event already read is taken as it is), never the client's payload:
    no unknown keys, seats and chips as numbers, cards as card texts. Raises
    ``rules.IllegalAction`` for an event of the wrong shape."""
    return jsonable((event if isinstance(event, Event) else parse_event(event)).to_dict())


def append(
    table: Table, event: dict[str, Any], user: User | None, expected_version: int | None = None,
    reported_by: User | None = None, fresh: bool = False,
    with_it: Callable[[LogEntry], None] | None = None, tap_id: str | None = None,
) -> tuple[LogEntry, jackpot.TableState]:
    """Log one event; returns the entry and the new state (the engine's typed value: a JSON answer
    makes its plain data, ``to_dict()``, at the edge).

    What is stored and applied is :func:`canonical_event` (the engine's reading of ``event``), so
    the log replays exactly to the state returned. Raises :class:`NotYours` when the user's role
    may not log this kind of event (the floor's word: a ruling or a correction),
    :class:`StaleVersion` when ``expected_version`` is not the table's version, and
    ``rules.IllegalAction`` (or another ``ValueError``) when the rules refuse the event. In every
    case nothing is written. ``reported_by`` names the dealer whose report a floor person logs
    (false openers confirmed from a floor call). ``fresh`` says the caller read ``table`` in this
    request just before (the API's tap): it is not read again (issue 23: one read of the table a
    tap). Either way a version another device logged meanwhile is refused: the log's ``(table,
    seq)`` is unique, so the commit fails and :class:`StaleVersion` is raised. ``with_it(entry)``
    adds more rows to the same transaction: the event and those rows are committed together or not
    at all (a tournament's manual bust-out: the player's ``leave`` and the place given).
    ``tap_id`` is the tablet's id of the tap (:mod:`floor.tapids`), stored with the entry; the
    log's unique ``(table, tap_id)`` refuses a second entry of the same tap as it refuses a second
    entry of the same number (:class:`StaleVersion`: the caller looks the tap up again).
    """
    entries = append_all(table, [event], user, expected_version, reported_by, fresh, with_it, tap_id)
    return entries[-1]


def append_all(
    table: Table, events: list[dict[str, Any]], user: User | None, expected_version: int | None = None,
    reported_by: User | None = None, fresh: bool = False,
    with_it: Callable[[LogEntry], None] | None = None, tap_id: str | None = None,
) -> list[tuple[LogEntry, jackpot.TableState]]:
    """Log ``events`` one after the other as one tap, each checked by the rules against the state
    the one before left, and committed together or not at all (a deal thrown in with one tap: the
    passes of every seat still to speak). Returns each entry with the state after it. Raises as
    :func:`append` does; ``expected_version`` is the version the first event follows, ``tap_id``
    is stored with the last entry (the one a tap sent again is answered with), ``with_it`` is
    given the last entry."""
    if not events:
        raise IllegalAction("nothing to log: a tap logs one event or more")
    logged: list[tuple[LogEntry, jackpot.TableState]] = []
    try:
        for n, event in enumerate(events):
            last = n == len(events) - 1
            logged.append(_stage(table, event, user, expected_version if n == 0 else None, reported_by,
                                 fresh or n > 0, tap_id if last else None, logged[-1][1] if logged else None))
        if with_it is not None:
            with_it(logged[-1][0])
        # Named before the commit: afterwards the table row reads whatever version it has then.
        key = cache_key(table, logged[-1][0].seq)
        _commit_as_written()
    except (_Moved, IntegrityError):
        # Another device logged between our read and our write.
        db.session.rollback()
        db.session.refresh(table)
        raise StaleVersion(expected_version if expected_version is not None else table.version,
                           table.version) from None
    except Exception:
        db.session.rollback()
        raise
    _remember(key, logged[-1][1], logged[-1][0].digest)
    for entry, after in logged:
        for hook in AFTER_APPEND:
            hook(table, entry, after)
    return logged


def _commit_as_written() -> None:
    """Commit without expiring the session's rows: the answer to a tap is the entry, the table and
    the user as this request wrote them (the version it committed, not a later one another device
    may have logged since), so nothing is read back after the commit (issue 23: a tap's cost)."""
    session = db.session()
    expire, session.expire_on_commit = session.expire_on_commit, False
    try:
        session.commit()
    finally:
        session.expire_on_commit = expire


def _stage(table: Table, event: dict[str, Any], user: User | None, expected_version: int | None,
           reported_by: User | None, fresh: bool = False, tap_id: str | None = None,
           state: jackpot.TableState | None = None) -> tuple[LogEntry, jackpot.TableState]:
    """Check ``event`` against the table and add its entry (and the rulings it produced) to the
    session, uncommitted; the caller commits, once, for everything it staged. ``state`` is the
    table's state at its version when the caller holds it (the event staged before this one)."""
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise IllegalAction("an event is a JSON object with a 'type' (deal, pass, open, call, ...)")
    check_role(event["type"], user)
    if not fresh:
        db.session.refresh(table)
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(expected_version, table.version)
    for amend in AMENDERS:
        event = amend(table, event)
    # a sit names its player's record (issue 31): the log keeps the record's name and id
    event = players.amend_sit(event, user)
    before = state if state is not None else table_state(table)
    event = stamp_minute(table, event, before)
    # Read once: the engine applies the value it read, and the log stores that value as data
    # (its to_dict() reads back to the same value: the replay applies the same event).
    parsed = parse_event(event)
    payload = canonical_event(parsed)
    check_undo(table, payload, user)
    after = jackpot.apply(before, parsed)
    # The entry's row, sealed to the one before it (the table's head): floor.seals. Its values are
    # sealed and written from here, not read back from the entry object (each read of a mapped
    # attribute goes through the ORM's instrumentation: issue 34, session 43).
    row = {"table_id": table.id, "seq": table.version + 1, "payload": payload,
           "logged_by_id": user.id if user is not None else None, "logged_at": utcnow(),
           "prev_digest": table.head_digest or "", "tap_id": tap_id}
    # one canonical JSON of the payload: its size checked, its seal taken, its row stored (issue 34)
    text = spelled(payload)
    row["digest"] = LogEntry.digest_of(SimpleNamespace(**row), text)
    # table_id, not table=: assigning the relationship would load the whole log into the session.
    # (made as a query's loading makes an object: the statements below write it, not the ORM)
    entry = rows.transient(LogEntry, logged_by=user, **row)
    if payload["type"] == "deal" and before.new_pot and before.version == table.version:
        # a new pot begins: keep the state it begins from, so a restart replays from here; sealed to
        # the entry it follows (the table's head as read), so it is good for this history only
        snap = PotSnapshot(table_id=table.id, version=table.version, data=jackpot.snapshot(before))
        snap.seal = snap.compute_seal(table.head_digest or "", table.setup)
        db.session.add(snap)
    _write_entry(table, row, text)
    _record_rulings(table, entry, after.added, user, reported_by)
    return entry, after


def stamp_minute(table: Table, event: dict[str, Any], state: jackpot.TableState) -> dict[str, Any]:
    """Where the house collects time (``time_charge``), a ``deal`` or a ``time`` is logged with the
    minutes since the table opened (rules.jackpot.collection): written into the event, so the
    replay knows the period from the log alone and never reads the clock."""
    if event.get("type") not in ("deal", "time") or event.get("minute") is not None \
            or state.profile.time_charge is None:
        return event
    return {**event, "minute": max(0, int((utcnow() - table.created_at).total_seconds() // 60))}


class _Moved(Exception):
    """The table's version in the database is no longer the one the entry follows."""


#: The two statements of a tap (issue 23: without the ORM's unit of work), built once and run on the
#: DB-API's cursor (issue 34, :mod:`floor.prepared`): the table's head moved on from the version the
#: entry follows, and the entry.
_MOVE_HEAD = Prepared(_TABLES.update()
                      .where(_TABLES.c.id == bindparam("table"), _TABLES.c.version == bindparam("follows"))
                      .values(version=bindparam("seq"), head_digest=bindparam("digest"), head_seal=bindparam("seal")))
_INSERT_ENTRY = Prepared(_LOG.insert().values({name: bindparam(name) for name in (
    "table_id", "seq", "payload", "logged_by_id", "logged_at", "prev_digest", "digest", "tap_id")}))


def _write_entry(table: Table, entry: dict[str, Any], payload: Spelled) -> None:
    """Write the log entry ``entry`` (its row's values, by column, its ``digest`` among them) and move
    the table's head to it, in the session's transaction, uncommitted.

    Two statements, not the ORM's unit of work (issue 23: a flush cost a tap more than everything
    else it does): the table's row moves from the version the entry follows to the entry's, or
    :class:`_Moved` when another device logged in between (the ``WHERE version`` is the check; the
    log's unique ``(table, seq)`` stays the backstop); then the entry is inserted. What the flush's
    listeners did for these rows is done here: the payload's size is checked
    (:func:`floor.security.check_stored_json`), the head is re-sealed when the seal read was good
    (else it stays broken for ``flask verify`` to report: :func:`floor.models._seal_tables`), and
    the witness is told of the append (:func:`floor.witness.note`). The entry's object stays out of
    the session: it is the answer, as written. ``payload`` is the entry's payload spelled as its
    seal spelled it: the row stores that text (:class:`floor.seals.Spelled`)."""
    check_stored_json("event", payload)
    seq, digest = entry["seq"], entry["digest"]
    if table.head_seal_intact:
        head_seal = table.compute_head_seal(seq, digest)
        taken(head_seal, table.head_covered(seq, digest))  # the next tap reads this very head
    else:
        head_seal = table.head_seal  # stays broken, for `flask verify` to name
    connection = db.session.connection()
    moved = _MOVE_HEAD.rowcount(connection, {"table": table.id, "follows": seq - 1, "seq": seq,
                                             "digest": digest, "seal": head_seal})
    if moved != 1:
        raise _Moved()
    _INSERT_ENTRY.rowcount(connection, {**entry, "payload": payload})
    # the row as now written (the ORM must not write it again, nor think it changed)
    for key, value in (("version", seq), ("head_digest", digest), ("head_seal", head_seal)):
        set_committed_value(table, key, value)
    witness.note(db.session(), {"kind": witness.APPEND, "table": table.id, "seq": seq, "digest": digest})


def move_player(source: Table, seat: int, target: Table, to_seat: int, user: User | None) -> tuple[LogEntry, LogEntry]:
    """Move a player from one table to another, between deals: ``leave`` here and ``sit`` there
    with the same chips, in one database transaction, so the chips are never on both tables and
    never on neither. Raises like :func:`append` (nothing is written when either table refuses).
    """
    if source.id == target.id:
        raise IllegalAction("move: to change seats at the same table, log move_seat")
    player = table_state(source).seats.get(seat)
    if player is None:
        raise IllegalAction(f"move: nobody sits in seat {seat} at {source.name}")
    try:
        left, after_source = _stage(source, {"type": "leave", "seat": seat}, user, None, None)
        sat, after_target = _stage(target, {"type": "sit", "seat": to_seat, "player": player.player,
                                            "player_id": player.player_id, "chips": player.stack}, user, None, None)
        keys = cache_key(source, left.seq), cache_key(target, sat.seq)
        db.session.commit()
    except (_Moved, IntegrityError):
        db.session.rollback()
        raise StaleVersion(source.version, source.version) from None
    except Exception:
        db.session.rollback()
        raise
    _remember(keys[0], after_source, left.digest)
    _remember(keys[1], after_target, sat.digest)
    return left, sat


def _record_rulings(table: Table, entry: LogEntry, added: tuple[Any, ...], user: User | None,
                    reported_by: User | None) -> None:
    """Store, sealed, the rulings the event produced (``TableState.added``): the engine's own (false
    openers, a failed proof at the show), a correction of chips, and a floor ruling logged as a
    raw event. A ruling a floor person issued through the dispute pages was stored before it was
    logged (its event carries the stored id) and is not stored twice.

    A ruling the rules made on a dealer's tap applies at once and is marked ``by_rules``: it waits
    on the floor's page until a floor person confirms it or corrects it.
    """
    if user is None:
        return
    for record in added:
        if record.get("id") is not None:
            continue
        ruler, reporter, note = user, reported_by, "Applied by the rules engine when the event was logged."
        if record.get("kind") == "correction":
            note = "Chips moved by the floor between deals."
        if record.get("issue") == "false_openers" and entry.payload.get("type") != "false_openers":
            # the last answer to a reopen offer (F3) concludes the false openers the floor logged:
            # the ruling is that floor person's, the dealer's tap only closed the offer
            finding = _latest_finding(table)
            if finding is not None and finding.logged_by is not None and finding.logged_by.may(Role.floor):
                ruler, reporter = finding.logged_by, None
                note = f"Concluded when the reopen offer ended (logged by {user.username})."
        by_rules = not ruler.may(Role.floor)
        if by_rules:
            note = "Applied by the rules when the event was logged; it waits for a floor person to confirm it."
        ruling = IssuedRuling(
            table=table, deal=record.get("deal"), log_seq=entry.seq,
            profile=str(record.get("profile", table.profile_name)), outcome=str(record.get("outcome")),
            facts=record.get("facts", {}), record=jsonable(record), issued_by=ruler, reported_by=reporter,
            by_rules=by_rules, note=note,
        )
        db.session.add(ruling)
        db.session.flush()  # the id is part of the sealed content
        ruling.seal()
        if not by_rules:
            FloorCall.answer(ruling)


def _latest_finding(table: Table) -> LogEntry | None:
    """The table's latest ``false_openers`` entry (within the current deal's last entries)."""
    recent = db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table.id)
                                .order_by(LogEntry.seq.desc()).limit(64))
    return next((e for e in recent if e.payload.get("type") == "false_openers"), None)


def jsonable(value: Any) -> Any:
    """Plain JSON data: tuples as lists, seat keys as the strings JSON gives back anyway."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
