"""Benchmark: append one event through the HTTP API on SQLite, and replay a long log.

Prints the median and p99 of N appends through ``POST /api/tables/<id>/events`` (test client in
process: routing, bearer auth, JSON, the rules' replay, the SQLite commit), on a table whose log
grows to N events. Targets (issue 4): append p99 under 50 ms.

    .venv/bin/python bench/bench_append.py [N] [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from benchkit import bench_app, next_event, percentile

from floor.accounts import create_user
from floor.models import Role

SETUP = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": n, "player": f"P{n}", "stack": 100_000} for n in range(1, 7)],
}


def main(n: int = 500) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp)
        with app.app_context():
            _, director = create_user("director", Role.director, "bench-password")
            _, dealer = create_user("dealer", Role.dealer, "bench-password")
        client = app.test_client()
        table = client.post("/api/tables", json={"name": "Bench", **SETUP},
                            headers={"Authorization": f"Bearer {director}"}).json
        state, version, samples = table["state"], 0, []
        headers = {"Authorization": f"Bearer {dealer}"}
        for _ in range(n):
            event = next_event(state)
            start = time.perf_counter()
            response = client.post(f"/api/tables/{table['id']}/events",
                                   json={**event, "expected_version": version}, headers=headers)
            samples.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 201, response.json
            state, version = response.json["state"], response.json["version"]

        from rules import jackpot

        events, after = [], 0
        while after is not None:  # the log comes a page at a time (500 entries by default)
            page = client.get(f"/api/tables/{table['id']}/events?after={after}", headers=headers).json
            events += [e["event"] for e in page["events"]]
            after = page["next"]
        replays = []
        for _ in range(30):
            start = time.perf_counter()
            jackpot.replay(table["setup"], events)
            replays.append((time.perf_counter() - start) * 1000)

    print(f"append through the API, {n} events on SQLite: median {statistics.median(samples):.2f} ms, "
          f"p99 {percentile(samples, 99):.2f} ms, last 50 median {statistics.median(samples[-50:]):.2f} ms "
          f"(target p99 < 50 ms)")
    print(f"replay of the {len(events)}-event log: median {statistics.median(replays):.2f} ms, "
          f"p99 {percentile(replays, 99):.2f} ms (target < 20 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=500, help="appends (default 500)")
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    main(20 if args.smoke else args.n)
