"""Load test: 50 tables logged at once through the production server (gunicorn), on SQLite and
on PostgreSQL (issue 11).

One client thread per table plays like a dealer's tablet: it posts the next event (deals that
everyone passes, the pot carrying over) with ``expected_version``, as fast as the server answers,
for a bounded time. Then it counts what the server acknowledged against what the tables' logs
hold (lost events), and runs ``flask --app floor verify`` over the whole history.

    .venv/bin/python bench/bench_server.py [--db sqlite|postgresql|both] [--tables 50] [--seconds 20]
                                           [--workers N] [--think 0] [--smoke]

``--think 0`` (the default) measures capacity: every tablet taps again the moment it has its
answer, so latency is mostly the queue of 50 tablets before the workers (one per core by default,
as ``make run``). ``--think 2`` is a busy card room: each dealer taps about every 2 s (uniformly 1
to 3 s).

PostgreSQL is a throwaway server started like the tests' (tests/pg.py: Debian's postgresql
package, unix socket), or the one ``FLOOR_TEST_PG_URL`` names. Prints events/s, p50/p99 latency,
errors and lost events per database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

from benchkit import next_event, percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The throwaway server (instance, database, users, gunicorn, stop) is the night's: one way to start
# the production server for a run, plain process and HTTP code.
from night.server import Server  # noqa: E402

SEATS = [{"seat": n, "player": f"P{n}", "stack": 100_000} for n in range(1, 7)]
LABELS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) the server's worker processes have used so far (Linux /proc):
    read before and after the run, divided by the events, it is the server's cost of a tap, which
    the latency hides when the machine is busy with something else."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def run(db: str, tables: int, seconds: float, workers: int, think: float = 0.0) -> dict:
    """One run on ``db`` (``sqlite``, or ``postgresql``: a throwaway server, or ``FLOOR_TEST_PG_URL``)."""
    server = Server(db, workers=workers, backlog=2048, name="bench")
    try:
        return _run(server, tables, seconds, think)
    finally:
        server.cleanup()


def _run(server: Server, tables: int, seconds: float, think: float) -> dict:
    try:
        server.start({"director": "director", "dealer": "dealer"})
        admin = server.client("director")
        ids = []
        for n in range(tables):
            status, body = admin.request("POST", "/api/tables", {
                "name": f"T{n + 1}", "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20,
                "button": 1, "seats": SEATS})
            assert status == 201, body
            ids.append(body["id"])

        latencies: list[float] = []
        acknowledged = {table_id: 0 for table_id in ids}
        errors: list[str] = []
        lock = threading.Lock()
        start_gate = threading.Event()
        deadline = [0.0]

        def tablet(table_id: int) -> None:
            client = server.client("dealer")
            status, body = client.request("GET", f"/api/tables/{table_id}")
            state, version = body["state"], body["version"]
            mine, errs = [], []
            start_gate.wait()
            while time.monotonic() < deadline[0]:
                if think:
                    time.sleep(think * (0.5 + random.random()))  # a dealer between two taps
                event = next_event(state)
                began = time.perf_counter()
                try:
                    status, body = client.request("POST", f"/api/tables/{table_id}/events",
                                                  {"event": event, "expected_version": version})
                except OSError as exc:
                    errs.append(f"table {table_id}: {exc}")
                    continue
                mine.append((time.perf_counter() - began) * 1000)
                if status == 201:
                    state, version = body["state"], body["version"]
                    acknowledged[table_id] += 1
                else:
                    errs.append(f"table {table_id}: {status} {body.get('message', '')[:80]}")
                    status, body = client.request("GET", f"/api/tables/{table_id}")
                    state, version = body["state"], body["version"]
            with lock:
                latencies.extend(mine)
                errors.extend(errs)

        threads = [threading.Thread(target=tablet, args=(table_id,)) for table_id in ids]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        assert server.process is not None
        began, cpu_before, client_before = time.monotonic(), server_cpu(server.process.pid), time.process_time()
        deadline[0] = began + seconds
        start_gate.set()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        cpu, client_cpu = server_cpu(server.process.pid) - cpu_before, time.process_time() - client_before

        stored = sum(admin.request("GET", f"/api/tables/{table_id}")[1]["version"] for table_id in ids)
        acked = sum(acknowledged.values())
    finally:
        server.stop()
    _, said = server.verify()  # its last line: the summary, or how many mismatches
    result = {
        "db": LABELS[server.db], "tables": tables, "workers": server.workers, "think": think,
        "seconds": round(elapsed, 1), "events": acked,
        "events_per_s": acked / elapsed, "p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "p99_ms": percentile(latencies, 99) if latencies else float("nan"), "errors": len(errors),
        "lost": acked - stored if stored <= acked else 0, "extra": max(0, stored - acked),
        "server_cpu_ms": cpu * 1000 / max(acked, 1), "client_cpu_ms": client_cpu * 1000 / max(acked, 1),
        "verify": said.splitlines()[-1] if said else "verify printed nothing",
    }
    if errors:
        result["first_errors"] = errors[:3]
    return result


def show(r: dict) -> None:
    pace = f"a tap every ~{r['think']:g} s per table" if r["think"] else "taps back to back"
    print(f"{r['db']:<10} {r['tables']} tables ({pace}), {r['workers']} gunicorn workers, {r['seconds']} s: "
          f"{r['events']} events, {r['events_per_s']:.0f} events/s, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, "
          f"errors {r['errors']}, lost {r['lost']}, unacknowledged but stored {r['extra']}")
    print(f"{'':<10} CPU per tap: the server's workers {r['server_cpu_ms']:.2f} ms, this load generator "
          f"{r['client_cpu_ms']:.2f} ms (on the same machine)")
    print(f"{'':<10} verify: {r['verify']}")
    for line in r.get("first_errors", []):
        print(f"{'':<10} error: {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2,
                        help="gunicorn workers (default: one per core, as make run)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a dealer takes between taps (0: back to back, the server's capacity)")
    parser.add_argument("--smoke", action="store_true",
                        help="tiny counts: does it run to its end (make bench-smoke): 2 tables for 0.3 s on "
                        "SQLite, one worker")
    args = parser.parse_args()
    if args.smoke:
        # each gunicorn worker imports and builds the app (1.7 s of CPU), and each second of taps is
        # two seconds of CPU (the tablets and the server): the smoke run's figures mean nothing
        args.db, args.tables, args.seconds, args.workers = "sqlite", 2, 0.3, 1
    for db in ("sqlite", "postgresql"):
        if args.db in (db, "both"):
            show(run(db, args.tables, args.seconds, args.workers, args.think))


if __name__ == "__main__":
    main()
