"""Benchmark: the room's witness at a server's start and in ``flask verify``, at 10,000, 100,000 and
1,000,000 lines (issue 30).

Issue 30 measured every worker reading the whole witness at its start (715 ms and 62 MB per 100,000
lines: a busy room's year, minutes and gigabytes per restart), and verify reading it whole too.
Now a reader resumes at the last checkpoint (found by reading the live segment backwards).

For each size this builds an instance folder whose witness holds that many lines, as the app
writes them (one log entry per line over 200 tables, a checkpoint every 1,000 lines, segments of
20,000 lines: the app's defaults), and the database rows they speak of (the tables at their
reach, the checkpoints, the database's record of the witness), then measures, each in a fresh
process:

- ``start``: a server process's first read of the witness (what a worker does at its first
  request, and every check after reads on from there);
- ``verify``: verify's check of the database against the witness (``witness_problems``: the
  witness from its resume point, each line's place and link, each checkpoint, the database held
  against the tally);
- ``full``: ``flask verify --full``'s read, every segment from line 1, streamed;
- ``whole``, the peer: the whole witness read into one tally, as issue 20's code did at each start.

Time is wall-clock, the median of 5 runs; memory is the peak of Python's allocations
(``tracemalloc``) in a run of its own. The database's chains are not built (verify's walk of the
tables' logs is linear in the entries and streamed, as before; it is not the witness's cost).

Targets: ``start`` and ``verify`` flat within 1.5x from 10,000 to 1,000,000 lines.

    .venv/bin/python bench/bench_witness.py [--sizes 10000 100000] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from floor import create_app
from floor.extensions import db
from floor.models import Role
from floor.seals import seal_key

TABLES = 200
CHECKPOINT_LINES = 1_000
RUNS = 5
KINDS = ("start", "verify", "full", "whole")


def _app(folder: Path):
    return create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI":
                       f"sqlite:///{folder / 'bench.sqlite'}"}, instance_path=str(folder / "instance"))


def build(folder: Path, size: int) -> None:
    """An instance folder whose witness holds ``size`` lines, and the database they speak of."""
    from floor.accounts import create_user
    from floor.witness import room
    from floor.witness.anchor import WitnessCheckpoint, WitnessReach, database_state, reach_seal
    from floor.witness.lines import APPEND, CHECKPOINT, START, Seen, chain, encode

    folder.mkdir(parents=True, exist_ok=True)
    app = _app(folder)
    with app.app_context():
        db.create_all()
        for name, role in (("dana", Role.director), ("fred", Role.floor), ("dee", Role.dealer)):
            create_user(name, role, "bench password")  # the first commit starts the witness
        connection = db.session.connection()
        for n in range(1, TABLES + 1):
            connection.execute(text("INSERT INTO tables (id, name, setup, version, created_at, head_digest, "
                                    "head_seal) VALUES (:id, :name, '{}', 0, :at, '', '')"),
                               {"id": n, "name": f"T{n}", "at": datetime.now(UTC).replace(tzinfo=None)})
        db.session.commit()
        connection = db.session.connection()
        key, store = seal_key(), room().store
        head = room().read_on()
        tally = Seen(key, checking=False)
        for line in [json.loads(raw) for raw in store.everything()]:
            tally.take(line)
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        # the tables set up: one epoch saying so (as an upgrade would), then the appends
        lines = chain([{"kind": START, "source": "bench", "state": database_state(connection, key)}], head.n,
                      head.link, stamp, key)
        store.append([encode(lines[0])])
        tally.take(lines[0])
        seqs = dict.fromkeys(range(1, TABLES + 1), 0)
        checkpoints: list[dict] = []
        while tally.n < size:
            # periods of 999 appends and a checkpoint; the last ends 999 lines after its checkpoint,
            # the most a reader ever reads past one (the worst case for a start and a verify)
            last = size - tally.n <= CHECKPOINT_LINES
            batch = []
            for _ in range(min(CHECKPOINT_LINES - 1, size - tally.n)):
                table_id = len(batch) % TABLES + 1
                seqs[table_id] += 1
                batch.append({"kind": APPEND, "table": table_id, "seq": seqs[table_id],
                              "digest": f"{table_id:08x}{seqs[table_id]:056x}"})
            batch = chain(batch, tally.n, tally.link, stamp, key)
            for line in batch:
                tally.take(line)
            if last:
                store.append([encode(line) for line in batch])
                break
            checkpoint = chain([{"kind": CHECKPOINT, "state": tally.state()}], tally.n, tally.link, stamp, key)[0]
            tally.take(checkpoint)
            store.append([encode(line) for line in batch], encode(checkpoint))
            checkpoints.append(checkpoint)
        for table_id, seq in seqs.items():
            digest = f"{table_id:08x}{seq:056x}"
            connection.execute(text("UPDATE tables SET version = :v, head_digest = :d WHERE id = :id"),
                               {"v": seq, "d": digest, "id": table_id})
            connection.execute(text("INSERT INTO log_entries (table_id, seq, payload, logged_at, prev_digest, digest) "
                                    "VALUES (:t, :s, '{}', :at, '', :d)"),
                               {"t": table_id, "s": seq, "d": digest, "at": datetime.now(UTC).replace(tzinfo=None)})
        moment = datetime.now(UTC).replace(tzinfo=None)
        for line in [lines[0], *checkpoints]:
            connection.execute(WitnessCheckpoint.__table__.insert().values(n=line["n"], kind=line["kind"], at=moment,
                                                                           link=line["link"], line=line))
        final = {"n": tally.n, "link": tally.link}
        resume = (checkpoints[-1] if checkpoints else lines[0])["n"]
        connection.execute(WitnessReach.__table__.update().values(
            n=final["n"], link=final["link"], checkpoint=resume, pending=[], at=moment,
            seal=reach_seal(final["n"], final["link"], resume, [], key)))
        db.session.commit()


def measure(folder: Path, kind: str, trace: bool) -> dict[str, float]:
    """One measurement in this process (a fresh one): seconds, and the peak of allocations when ``trace``."""
    from floor.verify_record import begin_snapshot, witness_problems
    from floor.witness import room
    from floor.witness.lines import Seen, parse

    app = _app(folder)
    with app.app_context():
        seal_key()
        if trace:
            tracemalloc.start()
        began = time.perf_counter()
        if kind == "start":
            tally = room().read_on()
        elif kind in ("verify", "full"):
            begin_snapshot()
            problems, _ = witness_problems(full=kind == "full")
            assert not problems, problems[:3]
            tally = room().read_on()
        else:  # the peer: the whole witness read into memory and into one tally, as each start did before
            store = room().store
            data = b"".join(Path(p).read_bytes() for p in [*store.segments(), store.live])
            tally = Seen(seal_key(), checking=False)
            for raw in data.splitlines():
                tally.take(parse(raw) or {})
        seconds = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1] if trace else 0
        assert tally.n >= 1
    return {"seconds": seconds, "peak_mb": peak / 2**20}


def _run(folder: Path, kind: str, trace: bool) -> dict[str, float]:
    return _run_kinds(folder, [kind], trace)[kind]


def _run_kinds(folder: Path, kinds: list[str], trace: bool) -> dict[str, dict[str, float]]:
    """Each kind measured in turn in one fresh process (``make bench``: one kind a process, its
    figures its own; a smoke run: the four in one, a process importing the app costs more than
    what it measures there)."""
    done = subprocess.run([sys.executable, __file__, "--measure", *kinds, "--folder", str(folder)]
                          + (["--trace"] if trace else []), capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    figures = [json.loads(line) for line in done.stdout.strip().splitlines()[-len(kinds):]]
    return dict(zip(kinds, figures, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--measure", choices=KINDS, nargs="+")
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    if args.smoke:  # one size: a second would run the same code again
        args.sizes = [1_500]
    if args.measure:
        for kind in args.measure:
            print(json.dumps(measure(args.folder, kind, args.trace)), flush=True)
        return
    rows = {}
    with tempfile.TemporaryDirectory(prefix="bench-witness-") as tmp:
        for size in args.sizes:
            folder = Path(tmp) / str(size)
            began = time.perf_counter()
            build(folder, size)
            segments = len(list((folder / "instance" / "witness").glob("*.log")))
            print(f"built {size:,} lines ({segments} closed segments) in {time.perf_counter() - began:.1f} s",
                  flush=True)
            # a smoke run's figures mean nothing: one process measures the four kinds, traced, and
            # its times stand for the timed runs (each process imports the app: 16 of them were
            # 32 s of CPU in `make test`; one a kind, 7 s)
            smoke = _run_kinds(folder, list(KINDS), True) if args.smoke else {}
            for kind in KINDS:
                traced = smoke[kind] if args.smoke else _run(folder, kind, True)
                timed = [traced["seconds"]] if args.smoke else [_run(folder, kind, False)["seconds"]
                                                                for _ in range(RUNS)]
                rows[(size, kind)] = (statistics.median(timed), traced["peak_mb"])
                seconds, peak_mb = rows[(size, kind)]
                print(f"  {kind:7} median {seconds * 1000:9.1f} ms   peak {peak_mb:8.1f} MB", flush=True)
    print("\nwitness lines     start (ms, MB)     verify (ms, MB)     full (ms, MB)     whole, the peer (ms, MB)")
    for size in args.sizes:
        cells = "   ".join(f"{rows[(size, k)][0] * 1000:8.1f} {rows[(size, k)][1]:7.1f}" for k in KINDS)
        print(f"{size:>13,}   {cells}")
    first, last = args.sizes[0], args.sizes[-1]
    for kind in ("start", "verify"):
        ratio = rows[(last, kind)][0] / rows[(first, kind)][0]
        memory = rows[(last, kind)][1] / max(rows[(first, kind)][1], 1e-9)
        print(f"{kind}: {last:,} / {first:,} lines: time x{ratio:.2f}, memory x{memory:.2f} "
              f"(target: within 1.5x){'' if ratio <= 1.5 and memory <= 1.5 else '  MISSED'}")
    whole = rows[(last, "whole")][0] / rows[(last, "start")][0]
    print(f"at {last:,} lines the start reads the witness {whole:.0f}x faster than reading it whole")


if __name__ == "__main__":
    main()
