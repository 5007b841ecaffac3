"""Checking the history: every table's hash chain and head seal, every ruling's seal (issue 11),
every sealed row and the database against the room's witness (issue 30: :mod:`floor.verify_record`).

``flask --app floor verify`` runs :func:`verify_all` and names each mismatch; a ruling's verify
page (``/rulings/<id>/verify``) shows :func:`ruling_problems`: the ruling's own seal, the floor's
confirmation (and what the room's witness saw of it), and the log of its table. What each finding
means is in its words; see :mod:`floor.seals` for what is sealed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from floor import witness
from floor.banked.models import BankedEntry, BankedTable, IssuedBankedRuling, logged_round_start
from floor.extensions import db
from floor.models import IssuedRuling, LogEntry, PotSnapshot, Table
from floor.players import service as players
from floor.seals import same
from floor.verify_record import begin_snapshot, collected_problems, row_problems, witness_problems


@dataclass
class Report:
    tables: int = 0
    entries: int = 0
    rulings: int = 0
    problems: list[str] = field(default_factory=list)
    #: What an auditor should know that is no mismatch: the witness's starts and restores, acts
    #: newer than the witness (a crash between a commit and its witness line).
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def table_problems(table: Table) -> tuple[int, list[str]]:
    """How many entries the table's log holds, and what does not match in it."""
    rows = db.session.execute(db.select(LogEntry).where(LogEntry.table_id == table.id).order_by(LogEntry.seq)
                              .execution_options(yield_per=1000)).scalars()
    where = f"table #{table.id} ({table.name})"
    count, problems = chain_problems(where, table, rows, same(table.head_seal, table.compute_head_seal()))
    return count, problems + snapshot_problems(where, table)


def snapshot_problems(where: str, table: Table) -> list[str]:
    """The table's pot snapshots whose seal does not match the entry at their version: the app
    ignores each (it replays the log instead); an auditor should know someone wrote them."""
    rows = db.session.execute(
        db.select(PotSnapshot, LogEntry.digest).outerjoin(
            LogEntry, (LogEntry.table_id == PotSnapshot.table_id) & (LogEntry.seq == PotSnapshot.version))
        .where(PotSnapshot.table_id == table.id).order_by(PotSnapshot.version))
    return [f"{where}: the pot snapshot at version {snap.version} does not match its seal: it was changed "
            "outside the app (or belongs to another history); the app ignores it and replays the log"
            for snap, digest in rows if not snap.intact("" if snap.version == 0 else (digest or "-"), table.setup)]


def chain_problems(where: str, table: Any, rows: Iterable[Any], head_sealed: bool) -> tuple[int, list[str]]:
    """Walk a log's hash chain (``rows``: its entries in order, each with ``seq``, ``prev_digest``,
    ``digest``, ``compute_digest()``) against its table's head (``version``, ``head_digest``) and
    whether the head's seal matched: a jackpot table's and a banked table's alike."""
    problems: list[str] = []
    prev, expected, count = "", 1, 0
    for entry in rows:
        count += 1
        if entry.seq != expected:
            problems.append(f"{where}: entry {entry.seq} follows entry {expected - 1}: "
                            f"{'entries are missing' if entry.seq > expected else 'an entry was inserted'} "
                            "in the log")
        if not same(entry.prev_digest, prev):
            problems.append(f"{where}: entry {entry.seq} does not follow the entry before it: the chain is "
                            "broken (an earlier entry was changed, removed or inserted)")
        if not same(entry.digest, entry.compute_digest()):
            problems.append(f"{where}: entry {entry.seq} was changed after it was logged "
                            f"(its seal does not match: {entry.payload.get('type', '?')} event)")
        prev, expected = entry.digest, entry.seq + 1
    if table.version != count:
        problems.append(f"{where}: the table counts {table.version} entries, its log holds {count}: "
                        + ("entries were removed" if table.version > count else "entries were added"))
    if not same(table.head_digest, prev):
        problems.append(f"{where}: the log does not end where the table's seal says: its last entries were "
                        "removed, replaced or added")
    if not head_sealed:
        problems.append(f"{where}: the table's seal does not match: its version, the end of its log or its "
                        "setup (seats, stacks, stakes, profile) were changed outside the app")
    return count, problems


def ruling_seal_problems(row: IssuedRuling) -> list[str]:
    """What does not match in the ruling's own seals."""
    problems = []
    if not row.seal_intact:
        problems.append(f"ruling #{row.id}: its content was changed after it was issued (its seal does not match)")
    if not row.confirmation_intact:
        problems.append(f"ruling #{row.id}: the floor's confirmation of it was changed (its seal does not match)")
    return problems


def ruling_problems(row: IssuedRuling) -> list[str]:
    """The ruling's seals, what the room's witness saw of it (a confirmation deleted) and the log of
    its table: what the ruling's verify page shows."""
    problems = ruling_seal_problems(row) + witness.ruling_problems(row)
    if row.table is not None:
        problems += table_problems(row.table)[1]
    return problems


def verify_all(full: bool = False, checkpoints: Path | None = None) -> Report:
    """Every table's chain and head, every ruling's seals (the banked tables' rulings too), every
    sealed row, the database against the room's witness (:mod:`floor.verify_record`: from the last
    checkpoint, or from the first line when ``full``), and the collected ``checkpoints``."""
    begin_snapshot()  # one moment of the database, its record of the witness first
    report = Report()
    for table in db.session.scalars(db.select(Table).order_by(Table.id)):
        count, problems = table_problems(table)
        report.tables += 1
        report.entries += count
        report.problems += problems
    for row in db.session.scalars(db.select(IssuedRuling).order_by(IssuedRuling.id)
                                  .execution_options(yield_per=500)):
        report.rulings += 1
        report.problems += ruling_seal_problems(row)

    for banked_table in db.session.scalars(db.select(BankedTable).order_by(BankedTable.id)):
        rows = db.session.execute(db.select(BankedEntry).where(BankedEntry.table_id == banked_table.id)
                                  .order_by(BankedEntry.seq).execution_options(yield_per=1000)).scalars()
        where = f"banked table #{banked_table.id} ({banked_table.name})"
        count, problems = chain_problems(where, banked_table, rows,
                                         same(banked_table.head_seal, banked_table.compute_head_seal()))
        logged = logged_round_start(banked_table)
        if banked_table.round_start != logged:
            problems.append(f"{where}: the round in play is said to begin at entry {banked_table.round_start}, "
                            f"but the log's last deal is entry {logged}: the round start was moved outside the app "
                            "(the app reads the round from the log's last deal)")
        report.tables += 1
        report.entries += count
        report.problems += problems

    for banked in db.session.scalars(db.select(IssuedBankedRuling).order_by(IssuedBankedRuling.id)
                                     .execution_options(yield_per=500)):
        report.rulings += 1
        if not banked.seal_intact:
            report.problems.append(f"banked ruling #{banked.id} (table #{banked.table_id}): its content was changed "
                                   "after it was issued (its seal does not match)")
    report.problems += row_problems()
    report.problems += players.link_problems()
    problems, notes = witness_problems(full)
    report.problems += problems
    report.notes += notes
    if checkpoints is not None:
        problems, notes = collected_problems(checkpoints)
        report.problems += problems
        report.notes += notes
    db.session.rollback()  # the snapshot's end
    return report
