"""Benchmark: what the tournament's screens ask, on a three-table event of 20 players.

Prints the median and p99 (ms) of ``GET /api/events/<id>/clock`` (the wall's poll: the clock, players
left, average stack over every table, prize pool), ``GET /api/events/<id>/balance`` (the floor's
plan) and of a ``deal`` appended at a tournament table (with the hook that writes the level in force
into it). Target: the wall's poll under 50 ms at p99 (a poll every 3 s per screen).

    .venv/bin/python bench/bench_tournament.py [N] [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from benchkit import bench_app, percentile

from floor.accounts import create_user
from floor.models import Role

STRUCTURE = {"levels": [{"minutes": 20, "ante": 10, "small_bet": 50}, {"minutes": 20, "ante": 20, "small_bet": 100}],
             "starting_chips": 10_000, "buy_in": 50, "payouts": "standard"}


def timed(call, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main(n: int = 200) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = bench_app(tmp)
        with app.app_context():
            _, director = create_user("director", Role.director, "bench-password")
        client = app.test_client()
        auth = {"Authorization": f"Bearer {director}"}
        event = client.post("/api/events", json={"name": "Bench cup", "structure": STRUCTURE}, headers=auth).json["id"]
        tables = [client.post(f"/api/events/{event}/tables", json={"name": f"T{k}", "seats": 8}, headers=auth).json["id"]
                  for k in (1, 2, 3)]
        for k in range(20):
            client.post(f"/api/events/{event}/entries", json={"player": f"P{k}"}, headers=auth)
        client.post(f"/api/events/{event}/draw", headers=auth)
        client.post(f"/api/events/{event}/clock", json={"action": "start"}, headers=auth)

        def deal_and_pass() -> None:  # everyone passes: the pot carries, the table stays between deals
            client.post(f"/api/tables/{tables[0]}/events", json={"type": "deal"}, headers=auth)
            while True:
                state = client.get(f"/api/tables/{tables[0]}", headers=auth).json["state"]
                if state["phase"] == "between_deals":
                    return
                client.post(f"/api/tables/{tables[0]}/events", json={"type": "pass", "seat": state["to_act"]},
                            headers=auth)

        for _ in range(5):
            deal_and_pass()
        rows = [("GET clock (the wall's poll)", timed(lambda: client.get(f"/api/events/{event}/clock", headers=auth), n)),
                ("GET balance (the floor's plan)", timed(lambda: client.get(f"/api/events/{event}/balance", headers=auth), n)),
                ("POST deal at a tournament table", [])]
        for _ in range(n // 4):
            start = time.perf_counter()
            client.post(f"/api/tables/{tables[0]}/events", json={"type": "deal"}, headers=auth)
            rows[2][1].append((time.perf_counter() - start) * 1000)
            while True:
                state = client.get(f"/api/tables/{tables[0]}", headers=auth).json["state"]
                if state["phase"] == "between_deals":
                    break
                client.post(f"/api/tables/{tables[0]}/events", json={"type": "pass", "seat": state["to_act"]},
                            headers=auth)
        for name, samples in rows:
            print(f"{name:34} median {statistics.median(samples):6.1f} ms  p99 {percentile(samples, 99):6.1f} ms"
                  f"  ({len(samples)} requests)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="?", default=200, help="requests of each kind (default 200)")
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    args = parser.parse_args()
    main(8 if args.smoke else args.n)
