"""Benchmark: does a table get slower or heavier as its day grows? (issue 10)

Builds one table's log up to 100, 1,000 and 10,000 events of realistic pots (a pass, an opening,
a call, folds, the draw, checks; every other deal an opener who cannot prove openers and a ruling
at the showdown, the pot carried to the next deal, which the opener wins with openers: a pot of
two deals, as a card room's day has them), and at each size times 60 appends through ``POST /api/tables/<id>/events`` (the test
client in process: routing, bearer auth, JSON, the rules, the SQLite commit), and measures the
answer's size. Then, at 10,000 events, it empties the process's state cache, as a restart does,
and times the first append.

Targets: append median and answer size flat within 1.5x from 100 to 10,000 events; the first
append after a restart at 10,000 events within 3x a warm one.

    .venv/bin/python bench/bench_growth.py [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time

from flask import Flask

from benchkit import bench_app, percentile

from floor import tables
from floor.accounts import create_user
from floor.extensions import db
from floor.models import Role, Table

SETUP = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
         "seats": [{"seat": n, "player": f"P{n}", "stack": 10_000_000} for n in range(1, 5)]}
SIZES = (100, 1_000, 10_000)
SAMPLES = 60


def pot_events(state: dict, step: int, memo: dict) -> dict:
    """The next event of the scripted pot, from the table's state."""
    seat = state["to_act"]
    phase = state["phase"]
    if phase == "between_deals":
        return {"type": "deal"}
    if phase == "predraw" and not state["jackpot"]["opened"]:
        if state["passed"]:
            memo["opener"] = seat
            return {"type": "open", "seat": seat}
        return {"type": "pass", "seat": seat}
    if phase == "predraw":
        if "caller" not in memo or memo["caller"] is None:
            memo["caller"] = seat
            return {"type": "call", "seat": seat}
        return {"type": "fold", "seat": seat}
    if phase == "draw":
        return {"type": "draw", "seat": seat, "count": 1}
    if phase == "postdraw":
        return {"type": "check", "seat": seat}
    if seat == memo.get("opener"):
        memo["false"] = not memo.get("false")
        if memo["false"]:  # no openers: a ruling (F1, F8), and the pot carries to the next deal
            return {"type": "show", "seat": seat, "cards": "Ts 9d 7h 4c 2c"}
        return {"type": "show", "seat": seat, "cards": "Js Jd 3c 4h 9h"}  # openers: the pot is won
    memo["caller"] = None
    return {"type": "show", "seat": seat, "cards": "8s 8d 3c 4h 5h"}


def main(sizes: tuple[int, ...] = SIZES, samples: int = SAMPLES) -> int:
    with tempfile.TemporaryDirectory(prefix="bench-growth-") as folder:
        return grow(bench_app(folder), sizes, samples)


def grow(app: Flask, sizes: tuple[int, ...], samples: int) -> int:
    with app.app_context():
        _, token = create_user("bench", Role.director, "bench password")
        table = tables.create_table("Growth", SETUP)
        table_id = table.id
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    memo: dict = {}
    rows = []
    warm_last = 0.0
    with app.app_context():
        table = db.session.get(Table, table_id)
        for size in sizes:
            while table.version < size:  # grow the log (directly: the same append, without HTTP)
                tables.append(table, pot_events(tables.state_of(table), table.version, memo), None)
            times, answers = [], []
            for _ in range(samples):
                state = tables.state_of(table)
                body = {"event": pot_events(state, table.version, memo), "expected_version": table.version}
                start = time.perf_counter()
                response = client.post(f"/api/tables/{table_id}/events", json=body, headers=headers)
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 201, response.json
                answers.append(len(response.data))
                db.session.refresh(table)
            median = statistics.median(times)
            rows.append((size, median, percentile(times, 99), statistics.median(answers)))
            warm_last = median
        # a restart: the process's cache is gone; the first append replays from a snapshot
        restarts = []
        for _ in range(5):
            tables.cache.clear()
            db.session.expire_all()
            state_version = table.version
            body_event = pot_events(tables.state_of(table), state_version, memo)
            tables.cache.clear()
            start = time.perf_counter()
            response = client.post(f"/api/tables/{table_id}/events",
                                   json={"event": body_event, "expected_version": state_version}, headers=headers)
            restarts.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 201, response.json
            db.session.refresh(table)
        db.engine.dispose()  # before the folder goes
    print(f"Append through the API as a table's day grows (median of {samples}, p99, answer size):")
    print(f"  {'events':>7}  {'median':>9}  {'p99':>9}  {'answer':>9}")
    for size, median, p99, answer in rows:
        print(f"  {size:>7,}  {median:7.2f} ms  {p99:7.2f} ms  {answer:7,.0f} B")
    first, last = rows[0], rows[-1]
    print(f"  {last[0]:,} vs {first[0]:,}: median x{last[1] / first[1]:.2f}, answer x{last[3] / first[3]:.2f} "
          "(target <= 1.5)")
    restart = statistics.median(restarts)
    print(f"First append after a restart at {last[0]:,} events (median of 5): {restart:.2f} ms, "
          f"x{restart / warm_last:.2f} a warm append (target <= 3)")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    sys.exit(main((20, 40), 3) if parser.parse_args().smoke else main())
