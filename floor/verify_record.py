"""``flask verify``'s check of the room's record beyond the chains: the sealed rows, the database
against the room's witness, and the checkpoints the collector holds (issue 30).

**Bounded by default.** The witness is read from its resume point (the live segment's first line,
or the last checkpoint: see :mod:`floor.witness.store`), each line's place and link checked, each
checkpoint checked to add up to the lines before it; the database is then held against the fold
exactly: every table's reach, every user's row, the rulings waiting for a floor person, and for
every other kind of sealed row the keyed sum of their seals. Only when a sum does not match is the
whole witness read (``--full`` reads it always), to name each row removed, added or put back.

**One moment.** The database is read in one snapshot (a repeatable-read transaction), its record
of the witness first; the witness is read up to that record (and the lines the database holds for
it: a commit whose line was not yet appended). The witness holding more than the database's
record as committed *after* the read means the database was rolled back.

**Collected checkpoints** (``--checkpoints FILE``, the collector's file): each must be a line of
the witness, with the link collected, and held by the database; the database must extend each
taken since the last epoch (every table's log reaching at least as far, with the entry there the
one the checkpoint saw).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from flask import current_app
from sqlalchemy import bindparam, text

from floor.extensions import db
from floor.seals import SealBroken, same, seal_key, set_member
from floor.witness import room
from floor.witness.anchor import reach_row, reach_seal, set_rows
from floor.witness.collector import collected
from floor.witness.lines import EPOCHS, RESUME, SETS, Seen, link_of, parse

#: How a kind of row is named in a problem: its name, and what the witness saw done to it.
WORDS = {"rulings": ("ruling", "issued"), "banked_rulings": ("banked ruling", "issued"),
         "confirms": ("the floor's confirmation of ruling", "made"), "users": ("user", "written"),
         "tournaments": ("tournament", "written"),
         "tournament_entries": ("tournament entry", "written"), "tournament_clock_moves": ("clock move", "written"),
         "tournament_desk_actions": ("desk action", "written"), "tournament_bounties": ("bounty", "written"),
         "promotion_awards": ("promotion award", "written")}


def begin_snapshot() -> None:
    """Read the database at one moment for the rest of the session's transaction (a new one)."""
    db.session.rollback()
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
    elif connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN")  # pysqlite opens no transaction for reads: WAL's snapshot begins here
        connection.execute(text("SELECT 1 FROM witness_reach LIMIT 1")).all()


def row_problems() -> list[str]:
    """Every sealed row's own seal (:mod:`floor.sealed`), and each tournament's sum of children."""
    from floor.shift_store import ShiftReport
    from floor.models import Tournament, User
    from floor.promotions import PromotionAward
    from floor.rulings.printed import RulingPrint
    from floor.sealed import check_tournament

    problems = []
    for user in db.session.scalars(db.select(User).order_by(User.id)):
        if not user.row_seal_intact:
            problems.append(f"user {user.username} (#{user.id}): the account's record does not match its seal: its "
                            "role, state, password or token was changed outside the app")
    for row in db.session.scalars(db.select(RulingPrint).order_by(RulingPrint.id).execution_options(yield_per=50)):
        if not row.row_seal_intact:
            problems.append(f"the stored print of {row.kind} ruling #{row.ruling_id} does not match its seal: it was "
                            "replaced outside the app (the app prints the ruling afresh, never serves it)")
    for report in db.session.scalars(db.select(ShiftReport).order_by(ShiftReport.id).execution_options(yield_per=20)):
        if not report.row_seal_intact:
            problems.append(f"the stored shift report of {report.start:%Y-%m-%d %H:%M} to {report.end:%Y-%m-%d %H:%M} "
                            "(UTC) does not match its seal: it was replaced outside the app (the app builds the "
                            "report afresh, never serves it)")
    for award in db.session.scalars(db.select(PromotionAward).order_by(PromotionAward.id)):
        if not award.row_seal_intact:
            problems.append(f"promotion award #{award.id} ({award.pool}, {award.amount}) does not match its seal: "
                            "it was changed outside the app (its pool is withheld)")
    for tournament in db.session.scalars(db.select(Tournament).order_by(Tournament.id)):
        try:
            check_tournament(tournament)
        except SealBroken as exc:
            problems.append(str(exc).split(" Nothing of it is shown")[0])
    return problems


def _fold_witness(reach: Any, full: bool) -> tuple[Seen, Seen | None, dict[int, str]]:
    """The witness folded from its resume point (from its first line when ``full``) to its end,
    and the fold as it stood at the database's record (``reach``), with the checkpoints seen."""
    the_room = room()
    fold = Seen(seal_key(), checking=True, detail=full)
    target = reach.n if reach is not None else 0
    at_target = fold.clone(detail=full) if target == 0 else None
    resumes: dict[int, str] = {}
    source: Iterable[bytes] = the_room.store.everything() if full else the_room.store.reader().read_new()
    for raw in source:
        line = parse(raw)
        if line is None:
            fold.broken.append(f"the witness holds a line after line {fold.n} that is no record")
            continue
        fold.take(line)
        if line.get("kind") in RESUME:
            resumes[fold.n] = fold.link
        if fold.n == target:
            at_target = fold.clone(detail=full)
    for line in (reach.pending or []) if reach is not None else []:
        if line.get("n", 0) == fold.n + 1:  # committed, its line not yet appended (or lost in a crash)
            fold.take(line)
            if fold.n == target:
                at_target = fold.clone(detail=full)
    return fold, at_target, resumes


def witness_problems(full: bool = False) -> tuple[list[str], list[str]]:
    """The database (read in the snapshot) against the room's witness (see the module)."""
    from floor.extensions import db as database

    the_room = room()
    connection = database.session.connection()
    reach = reach_row(connection)
    fold, at_target, resumes = _fold_witness(reach, full)
    with database.engine.connect() as fresh:
        now = reach_row(fresh)
    problems, notes = list(fold.broken), [f"the room's witness ({the_room.store.name}) was read from line "
                                          f"{fold.began or 1} to line {fold.n}"]
    notes += [f"the room's witness {_epoch_words(e)} at line {e['n']}, {e['at']}: checked from there on"
              for e in fold.epochs]
    notes += [f"the room's witness lacks {gap}: the record before is vouched for by the checkpoints collected "
              "(flask verify --checkpoints FILE)" for gap in fold.gaps]
    if reach is not None and not same(reach.seal, reach_seal(reach.n, reach.link, reach.checkpoint,
                                                             reach.pending or [], seal_key())):
        # what every commit refuses to write on (floor.witness.anchor): named here too
        problems.append("the database's record of the room's witness (witness_reach) does not match its seal: it "
                        "was changed outside the app")
    target = reach.n if reach is not None else 0
    if reach is None and fold.n == 0:
        from floor.witness.anchor import holds_records

        if holds_records():
            return problems + ["the database holds sealed records but no record of the room's witness, and the "
                               "witness is empty: both were removed"], notes
        return problems, notes + ["the room's witness has not begun: it starts, recording the database as it "
                                  "stands, at the next commit"]
    if target > fold.n:
        return problems + [f"the room's witness ({the_room.store.name}) ends at line {fold.n}, but the database "
                           f"remembers it reaching line {target}: it was removed, cut back or replaced"], notes
    compare = at_target or fold
    if fold.n > (now.n if now is not None else 0):
        problems.append(f"the database's record of the room's witness ends at line {now.n if now else 0}, the "
                        f"witness at line {fold.n}: the database was rolled back, or a backup put back without "
                        "`flask restore`")
        compare = fold
    elif reach is not None and at_target is not None and not same(reach.link, at_target.link):
        problems.append(f"the room's witness is not the one the database remembers: its line {target} differs")
    sums, waiting = _db_sums(connection)
    problems += _tables(connection, compare) + _users(connection, compare) + _pending(waiting, compare)
    problems += _checkpoints(connection, compare, resumes)
    mismatched = [kind for kind in SETS if kind != "users" and sums[kind] != (
        compare.sums.get(kind, 0) % 2**256, compare.counts.get(kind, 0))]
    if mismatched:
        named = _name_rows(connection, mismatched, target if compare is not fold else fold.n) if not full else \
            _diff_rows(connection, mismatched, compare)
        problems += named
    if compare.checkpoint:
        notes.append(f"the last sealed checkpoint: line {compare.checkpoint['n']} ({compare.checkpoint['at']}), "
                     f"link {compare.checkpoint['link']}")
    if not current_app.config.get("FLOOR_CHECKPOINT_SYSLOG"):
        notes.append("no collector is configured (FLOOR_CHECKPOINT_SYSLOG): the checkpoints stay on this machine "
                     "and on the prints (docs/record.md)")
    return problems, notes


def _epoch_words(epoch: dict[str, Any]) -> str:
    kind = epoch["kind"]
    if kind == "start":
        return "started"
    what = {"restore": "accepted a restore", "adopt": "was begun anew on this host (adopted)",
            "upgrade": "recorded the upgrade"}.get(kind, kind)
    return f"{what} ({epoch.get('source')}{', by ' + str(epoch['by']) if epoch.get('by') else ''})"


def _tables(connection: Any, fold: Seen) -> list[str]:
    problems = []
    for kind, logs, name, entries in (("table", fold.tables, "tables", "log_entries"),
                                      ("banked table", fold.banked, "banked_tables", "banked_entries")):
        rows = {i: (v, d, t) for i, v, d, t in connection.execute(text(f"SELECT id, version, head_digest, name "
                                                                       f"FROM {name}"))}
        # the entry at each table's end, read in one statement (not one per table)
        ends = dict(connection.execute(text(f"SELECT e.table_id, e.digest FROM {entries} e JOIN {name} t ON "
                                            "e.table_id = t.id AND e.seq = t.version")).all())
        for table_id, (seq, digest, line) in sorted(logs.items()):
            if table_id not in rows:
                problems.append(f"{kind} #{table_id} was deleted, with its log: the room's witness saw it (line {line}"
                                f"{f', its log at entry {seq}' if seq else ''})")
                continue
            version, head, title = rows[table_id]
            where = f"{kind} #{table_id} ({title})"
            if version < seq:
                problems.append(f"{where}: its log was cut back to entry {version}, but the room's witness saw it "
                                f"reach entry {seq} (line {line}): rolled back, or an old backup put back without "
                                "`flask restore`")
            elif version > seq:
                problems.append(f"{where}: its log holds entries {seq + 1} to {version}, which the room's witness never "
                                "saw: written outside the app")
            elif seq and not same(ends.get(table_id), digest):
                problems.append(f"{where}: entry {seq} is not the one the room's witness saw (line {line}): the log "
                                "was cut back and written again")
        for table_id in sorted(set(rows) - set(logs)):
            problems.append(f"{kind} #{table_id} ({rows[table_id][2]}) is not in the room's witness: it was set up "
                            "outside the app, or put back from elsewhere")
    return problems


def _users(connection: Any, fold: Seen) -> list[str]:
    rows = {i: (s, n) for i, s, n in connection.execute(text("SELECT id, row_seal, username FROM users"))}
    problems = []
    for user_id, digest in sorted(fold.users.items()):
        if user_id not in rows:
            problems.append(f"user #{user_id} was deleted: the room's witness saw the account")
        elif not same(rows[user_id][0], digest):
            problems.append(f"user {rows[user_id][1]} (#{user_id}): the account's record is not the one the room's "
                            "witness saw: put back as it was before (a role, a password, a token), or written outside "
                            "the app")
    for user_id in sorted(set(rows) - set(fold.users)):
        problems.append(f"user {rows[user_id][1]} (#{user_id}) is not in the room's witness: the account was made "
                        "outside the app")
    return problems


def _pending(waiting: set[int], fold: Seen) -> list[str]:
    problems = [f"ruling #{i}: the floor's confirmation the room's witness saw is gone from the database"
                for i in sorted(waiting - fold.pending)]
    problems += [f"ruling #{i}: its confirmation is one the room's witness never saw (written outside the app)"
                 for i in sorted(fold.pending - waiting)]
    return problems


def _checkpoints(connection: Any, fold: Seen, resumes: dict[int, str]) -> list[str]:
    """The database keeps every checkpoint since the last epoch, each the witness's."""
    since = max((e["n"] for e in fold.epochs), default=fold.began)
    stored = {n: link for n, link in connection.execute(text(
        "SELECT n, link FROM witness_checkpoints WHERE n >= :since AND n <= :upto"), {"since": since, "upto": fold.n})}
    problems = [f"the database does not hold the witness's checkpoint at line {n}: it was removed, or the database "
                "rolled back" for n in sorted(set(resumes) - set(stored)) if since <= n <= fold.n]
    problems += [f"the database's checkpoint at line {n} is not the witness's (the witness's line {n} "
                 f"{'differs' if n in resumes else 'is no checkpoint'})"
                 for n, link in sorted(stored.items()) if not same(resumes.get(n), link) and n >= fold.began]
    return problems


def _db_sums(connection: Any) -> tuple[dict[str, tuple[int, int]], set[int]]:
    """Each kind's keyed sum and count as the database holds them, and the rulings waiting for a
    floor person's confirmation; the rulings read once for three of them."""
    key = seal_key()
    totals = {kind: [0, 0] for kind in SETS}
    waiting = set()

    def add(kind: str, row_id: int, digest: str) -> None:
        totals[kind][0] += set_member(kind, row_id, digest, key)
        totals[kind][1] += 1

    for row_id, digest, by_rules, confirmed, confirmation in connection.execute(text(
            "SELECT id, digest, by_rules, confirmed_by_id, confirmation_digest FROM rulings")):
        if digest:
            add("rulings", row_id, digest)
        if confirmed is not None:
            add("confirms", row_id, confirmation)
        elif by_rules:
            waiting.add(row_id)
    for kind in SETS:
        if kind not in ("rulings", "confirms", "users"):
            for row_id, digest in set_rows(connection, kind):
                add(kind, row_id, digest)
    return {kind: (total % 2**256, count) for kind, (total, count) in totals.items()}, waiting


def _name_rows(connection: Any, kinds: list[str], target: int) -> list[str]:
    """Read the whole witness (as ``--full`` does) to name the rows that make a sum differ."""
    fold = Seen(seal_key(), checking=False, detail=True)
    for raw in room().store.everything():
        line = parse(raw)
        if line is None:
            continue
        fold.take(line)
        if fold.n >= target:
            break
    return _diff_rows(connection, kinds, fold)


def _diff_rows(connection: Any, kinds: list[str], fold: Seen) -> list[str]:
    problems = []
    for kind in kinds:
        name, done = WORDS[kind]
        held = {int(i): d for i, d in set_rows(connection, kind)}
        saw = {row_id: v for (of, row_id), v in fold.rows.items() if of == kind}
        found = []
        for row_id, (digest, line) in sorted(saw.items()):
            if row_id not in held:
                found.append(f"{name} #{row_id} was deleted: the room's witness saw it {done} (line {line})"
                             if kind != "confirms" else
                             f"ruling #{row_id}: the floor's confirmation the room's witness saw (line {line}) is gone")
            elif not same(held[row_id], digest):
                found.append(f"{name} #{row_id} is not the one the room's witness saw {done} (line {line}): it was put "
                             "back as it was before, or replaced")
        found += [f"{name} #{row_id} is not in the room's witness: written outside the app"
                  for row_id in sorted(set(held) - set(saw))]
        problems += found or [f"the {kind.replace('_', ' ')} do not add up to what the room's witness saw: a row was "
                              "removed, added or put back (the witness's lines that would name it are not on this host)"]
    return problems


def collected_problems(path: Path) -> tuple[list[str], list[str]]:
    """Every checkpoint in the collector's file: the witness's, the database's, extended by the database."""
    checkpoints = collected(path.read_text(encoding="utf-8", errors="replace"))
    if not checkpoints:
        return [f"{path} holds no checkpoint (lines 'floor-checkpoint {{...}}')"], []
    the_room, key = room(), seal_key()
    connection = db.session.connection()
    last_epoch = connection.execute(text("SELECT max(n) FROM witness_checkpoints WHERE kind IN :kinds")
                                    .bindparams(bindparam("kinds", expanding=True)), {"kinds": sorted(EPOCHS)}
                                    ).scalar() or 0
    problems, extended = [], 0
    for item in checkpoints:
        n, link = item["n"], item["link"]
        line = the_room.store.find(n)
        if line is None:
            problems.append(f"checkpoint {n} (collected, {item.get('at')}) is not in the room's witness: the witness "
                            "and the database were rolled back together, or the witness was cut back")
            continue
        if not same(line.get("link"), link) or not same(line.get("link"), link_of(line, key)):
            problems.append(f"checkpoint {n} (collected, {item.get('at')}) is not the witness's line {n}: the witness "
                            "was rewritten")
            continue
        stored = connection.execute(text("SELECT link FROM witness_checkpoints WHERE n = :n"), {"n": n}).scalar()
        if n >= last_epoch and not same(stored, link):
            problems.append(f"checkpoint {n} (collected) is not held by the database: it was removed, or the database "
                            "rolled back")
        if n < last_epoch:
            continue  # before a restore or an adopt: the database began anew from there
        problems += _extends(connection, n, line.get("state") or {})
        extended += 1
    notes = [f"{len(checkpoints)} checkpoint(s) collected in {path.name}: {extended} since the last epoch held "
             "against the database"]
    return problems, notes


def _extends(connection: Any, n: int, state: dict[str, Any]) -> list[str]:
    problems = []
    for kind, name, entries in (("tables", "tables", "log_entries"), ("banked", "banked_tables", "banked_entries")):
        for table_id, (seq, digest) in (state.get(kind) or {}).items():
            version = connection.execute(text(f"SELECT version FROM {name} WHERE id = :t"), {"t": int(table_id)}).scalar()
            if version is None or version < seq:
                problems.append(f"{name[:-1].replace('_', ' ')} #{table_id}: the collected checkpoint {n} saw its log "
                                f"reach entry {seq}; the database holds {'no such table' if version is None else version}")
            elif seq and not same(connection.execute(text(f"SELECT digest FROM {entries} WHERE table_id = :t AND "
                                                          "seq = :s"), {"t": int(table_id), "s": seq}).scalar(), digest):
                problems.append(f"{name[:-1].replace('_', ' ')} #{table_id}: entry {seq} is not the one the collected "
                                f"checkpoint {n} saw")
    return problems
