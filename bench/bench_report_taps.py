"""Benchmark (issue 34, session 44): the tablets' taps while a closed shift's report is put together.

Through gunicorn (``make run``'s server: sync workers, one per core, on SQLite), a night's worth of
log is filled first (``--tables`` tables of ``--events`` events, ``bench_shift.py``'s night), then
``--tappers`` tablets tap about once a second (``--think``), as a busy card room does. For
``--seconds`` nobody asks for a report; then the floor manager asks for the closed shift's PDF and
follows its "being put together" page until the PDF arrives, as a terminal does, while the
tablets go on tapping. Prints the taps' p50, p90, p99 and longest in each phase, the report's
times, and the workers' memory (VmRSS) before and after.

What it is for: the report's job (``floor/shift_jobs.py``) must not cost the tablets. Run in a
thread of the worker, it held the GIL in a worker the tablets tap (each tap waiting up to the
switch interval after each wait on I/O) and left the worker with the layout's memory for its life;
in a process of its own, at a lowered priority, neither. ``--smoke``: tiny counts, does it run.

    .venv/bin/python bench/bench_report_taps.py [--tables 10] [--events 1500] [--tappers 20]
                                                [--seconds 25] [--think 1] [--smoke]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

from benchkit import next_event, percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from night.floorperson import FloorPerson  # noqa: E402  (a logged-in floor terminal, plain HTTP)
from night.server import Server  # noqa: E402
from night.shiftchange import fetch_pdf  # noqa: E402  (the progress pages followed as a terminal does)

SEATS = [{"seat": n, "player": f"P{n}", "stack": 100_000} for n in range(1, 7)]


def workers_memory(server: Server) -> list[int]:
    """Each gunicorn worker's resident memory (MB, Linux /proc)."""
    assert server.process is not None
    pid = server.process.pid
    sizes = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        for line in Path(f"/proc/{child}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                sizes.append(int(line.split()[1]) // 1024)
    return sorted(sizes)


def figures(samples: list[float]) -> str:
    if not samples:
        return "no taps"
    return (f"{len(samples)} taps, p50 {statistics.median(samples):.1f} ms, p90 {percentile(samples, 90):.1f}, "
            f"p99 {percentile(samples, 99):.1f}, longest {max(samples):.0f}")


def run(args: argparse.Namespace) -> None:
    server = Server("sqlite", workers=args.workers, backlog=2048, name="bench-report")
    try:
        server.start({"director": "director", "night-floor": "floor", "dealer": "dealer"})
        os.environ["FLOOR_DATABASE_URL"] = server.url
        from bench_shift import fill

        from floor import create_app

        began = time.monotonic()
        fill(create_app(instance_path=server.instance), args.tables, args.events)
        filled = time.monotonic() - began
        window_end = datetime.now(UTC)
        director = server.client("director")
        ids = []
        for n in range(args.tappers):
            status, body = director.request("POST", "/api/tables", {
                "name": f"T{n + 1}", "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20,
                "button": 1, "seats": SEATS})
            assert status == 201, body
            ids.append(body["id"])
        taps: list[tuple[float, float]] = []  # (when, ms)
        lock, stop = threading.Lock(), threading.Event()

        def tablet(table_id: int) -> None:
            client = server.client("dealer")
            body = client.request("GET", f"/api/tables/{table_id}")[1]
            state, version = body["state"], body["version"]
            while not stop.wait(args.think * (0.5 + random.random())):
                start = time.perf_counter()
                status, body = client.request("POST", f"/api/tables/{table_id}/events",
                                              {"event": next_event(state), "expected_version": version})
                spent = (time.perf_counter() - start) * 1000
                with lock:
                    taps.append((time.monotonic(), spent))
                if status != 201:
                    body = client.request("GET", f"/api/tables/{table_id}")[1]
                state, version = body["state"], body["version"]

        threads = [threading.Thread(target=tablet, args=(table_id,), daemon=True) for table_id in ids]
        for thread in threads:
            thread.start()
        time.sleep(min(3.0, args.seconds))  # every tablet under way
        memory_before = workers_memory(server)
        quiet = time.monotonic()
        time.sleep(args.seconds)
        asked = time.monotonic()
        floor = FloorPerson(server.port, "night-floor")
        floor.login()
        query = urlencode({"from": (window_end - timedelta(hours=12)).isoformat(timespec="seconds"),
                           "to": window_end.isoformat(timespec="microseconds")})
        got = fetch_pdf(floor.web, f"/floor/shift.pdf?{query}")
        assert got.pdf, f"the shift report answered {got.status}: {got.data[:300]!r}"
        served = asked + got.seconds
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        memory_after = workers_memory(server)
    finally:
        server.stop()
        server.cleanup()
    before = [ms for when, ms in taps if quiet <= when < asked]
    during = [ms for when, ms in taps if asked <= when < served]
    print(f"A closed shift's report while {args.tappers} tablets tap (about every {args.think:g} s) through gunicorn "
          f"({args.workers} workers, SQLite); the night: {args.tables} tables of {args.events} events (filled in "
          f"{filled:.0f} s)")
    print(f"  the report: first answer {got.first:.1f} s, the PDF in hand {got.seconds:.1f} s after {got.pages} "
          f"'being put together' pages ({len(got.data) // 1024} KB)")
    print(f"  taps with no report ({args.seconds:g} s): {figures(before)}")
    print(f"  taps while the report is put together: {figures(during)}")
    print(f"  the workers' memory: {', '.join(map(str, memory_before))} MB before, "
          f"{', '.join(map(str, memory_after))} MB after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--events", type=int, default=1500, help="events per table of the night filled first")
    parser.add_argument("--tappers", type=int, default=20, help="tablets tapping at tables of their own")
    parser.add_argument("--seconds", type=float, default=25, help="the taps measured before the report is asked for")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a dealer takes between taps (about)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.events, args.tappers, args.seconds, args.think, args.workers = 2, 40, 2, 0.5, 0.2, 1
    run(args)


if __name__ == "__main__":
    main()
