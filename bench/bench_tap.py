"""Benchmark (issue 23): what a tap costs, side by side with what it could cost, in one run.

1. The app's CPU per tap (``POST /api/tables/<id>/events`` through the test client: routing,
   bearer auth, the rules, the seal, the witness, the SQLite commit) beside a bare ``sqlite3``
   insert and commit of the same log entry (same pragmas: WAL, synchronous=FULL), and beside the
   stack's floor: a Flask app of one route that writes the same entry with ``sqlite3``, through its
   own test client. The three in turn, request by request (:func:`tap_beside_floor`). CPU time
   (``time.process_time``), not wall time: the fsync they all wait for is the disk's, not the app's.
   Goal (issue 34): within 2x of the floor. In the same turns, two yardsticks of what that goal
   leaves: the app's own login and hooks on a route that does no table work, and the tap at its
   leanest (:mod:`lean_tap`: the tap's every read, check, seal, write and line in one bare route,
   its answers checked equal to the app's). ``--only tap`` runs this part alone; ``--profile``
   prints where a tap's CPU goes (cProfile on the CPU clock over the same taps).
2. A sealed ruling's PDF, warm (after its first request), beside a rendering of the same page by
   WeasyPrint (what every request cost before prints were stored). Goal: < 50 ms.
3. A pot carried over deal after deal with a ruling every deal (false openers, nobody reopens,
   F2/F3): a tap at its 10th and at its 1,000th deal, and the size of the answer. Goal: within 1.5x.
4. Text card input: ``rules.hands.evaluate("As Kd ...")`` against treys reading the same text
   (``Card.new`` per card, then ``evaluate``), and both against Card input. Goal: >= treys.

Medians throughout. ``.venv/bin/python bench/bench_tap.py [--quick | --smoke] [--only tap] [--profile]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from bench_hands import rates
from benchkit import bench_app, next_event
from lean_tap import LeanTap

from floor.accounts import create_user
from floor.models import Role

SETUP = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": n, "player": f"P{n}", "stack": 10_000_000} for n in range(1, 5)],
}


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class Bench:
    """An app on a throwaway SQLite file with a director, a floor person and a dealer."""

    def __init__(self, folder: str) -> None:
        self.app = bench_app(folder)
        with self.app.app_context():
            _, director = create_user("director", Role.director, "bench-password")
            _, floor = create_user("floor", Role.floor, "bench-password")
            _, dealer = create_user("dealer", Role.dealer, "bench-password")
        self.stack_floor = _stack_floor(self.app)
        self.hooks_only = _hooks_only(self.app)
        self.client = self.app.test_client()
        self.director = {"Authorization": f"Bearer {director}"}
        self.floor = {"Authorization": f"Bearer {floor}"}
        self.dealer = {"Authorization": f"Bearer {dealer}"}

    def table(self, name: str) -> dict[str, Any]:
        response = self.client.post("/api/tables", json={"name": name, **SETUP}, headers=self.director)
        assert response.status_code == 201, response.json
        return response.json  # type: ignore[no-any-return]

    def tap(self, table_id: int, event: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        response = self.client.post(f"/api/tables/{table_id}/events", json=event, headers=headers)
        assert response.status_code == 201, response.json
        return response.json  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- 1. a tap beside SQLite

def profile_taps(bench: Bench, taps: int, lines: int = 40) -> None:
    """Where a tap's CPU goes: cProfile on the CPU clock over ``taps`` taps (after a few to warm
    the caches), the functions with the most cumulative time first."""
    import cProfile
    import pstats

    table = bench.table("Profiled")
    state, version = table["state"], 0
    profile = cProfile.Profile(time.process_time)
    for n in range(taps + 20):
        event = {**next_event(state), "expected_version": version}
        if n >= 20:
            profile.enable()
        last = bench.tap(table["id"], event, bench.dealer)
        profile.disable()
        state, version = last["state"], last["version"]
    pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(lines)


def _stack_floor(app: Any) -> str:
    """A route of the app's own (bench-only, added before its first request) that reads the JSON
    body and answers it, behind the same bearer login as the tap (:func:`floor.jsonapi.api_role`),
    with every hook of the app around it: what the app's login and hooks cost before a tap does any
    work at the table. Its URL."""
    from floor.jsonapi import answer, api_role, json_body

    @app.post("/bench/logged-in")
    @api_role(Role.dealer)
    def logged_in() -> Any:
        return answer({"entry": json_body()}, 201)

    return "/bench/logged-in"


def _hooks_only(app: Any) -> str:
    """A route of the app's own (bench-only) that reads the JSON body and answers it as the tap
    answers, with every hook of the app around it but no login and no database: what the app's
    hooks cost above a bare Flask route (:class:`FlaskEcho`). Its URL."""
    from floor.jsonapi import answer, json_body

    @app.post("/bench/hooks-only")
    def hooks_only() -> Any:
        return answer({"entry": json_body()}, 201)

    return "/bench/hooks-only"


class FlaskEcho:
    """A bare Flask app's one route that reads the JSON body and answers it (orjson, as the tap's
    answer is written), through its own test client: the floor without its ``sqlite3`` write, what
    Flask and the test client cost any request of this stack."""

    def __init__(self) -> None:
        import orjson
        from flask import Flask, request

        peer = Flask("flask-echo")

        @peer.post("/echo")
        def echo() -> Any:
            return peer.response_class(orjson.dumps({"entry": request.get_json()}), status=201,
                                       mimetype="application/json")

        self.client = peer.test_client()

    def request(self, entry: dict[str, Any]) -> float:
        """One request answering ``entry``'s event: its CPU time."""
        start = time.process_time()
        response = self.client.post("/echo", json=entry["event"])
        spent = time.process_time() - start
        assert response.status_code == 201
        return spent


class FlaskFloor:
    """The floor under any tap in this stack: a Flask app with nothing but one route, which reads
    the JSON body and inserts and commits the same entry with ``sqlite3`` (same pragmas), called
    through its test client as the tap is. No login, no rules, no seal, no ORM."""

    def __init__(self, folder: str) -> None:
        from flask import Flask, jsonify, request

        self.con = con = _bare_log(Path(folder) / "flask-floor.sqlite")
        peer = Flask("flask-floor")
        seq = iter(range(1, 10**9))

        @peer.post("/log")
        def log() -> Any:
            event = request.get_json()
            con.execute("BEGIN")
            con.execute("INSERT INTO log (table_id, seq, payload, logged_by_id, logged_at, prev_digest, digest) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)", (1, next(seq), json.dumps(event), 3,
                                                         request.args["at"], "0" * 64, "f" * 64))
            con.execute("COMMIT")
            return jsonify(entry=event), 201

        self.client = peer.test_client()

    def request(self, entry: dict[str, Any]) -> float:
        """One request writing ``entry``: its CPU time."""
        start = time.process_time()
        response = self.client.post("/log", json=entry["event"], query_string={"at": entry["logged_at"]})
        spent = time.process_time() - start
        assert response.status_code == 201
        return spent


def _bare_log(path: Path) -> sqlite3.Connection:
    """A log table like the app's, on a connection with the app's pragmas (WAL, synchronous=FULL)."""
    con = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE log (id INTEGER PRIMARY KEY, table_id INTEGER, seq INTEGER, payload TEXT, "
                "logged_by_id INTEGER, logged_at TEXT, prev_digest TEXT, digest TEXT, UNIQUE (table_id, seq))")
    return con


class BareCommit:
    """A bare insert and commit of the same entry (its payload as JSON text, its digests)."""

    def __init__(self, folder: str) -> None:
        self.con = _bare_log(Path(folder) / "bare.sqlite")
        self.seq = 0

    def insert(self, entry: dict[str, Any]) -> float:
        """One insert and commit of ``entry``: its CPU time."""
        self.seq += 1
        start = time.process_time()
        payload = json.dumps(entry["event"])
        self.con.execute("BEGIN")
        self.con.execute("INSERT INTO log (table_id, seq, payload, logged_by_id, logged_at, prev_digest, digest) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", (1, self.seq, payload, 3, entry["logged_at"], "0" * 64,
                                                          "f" * 64))
        self.con.execute("COMMIT")
        return time.process_time() - start


def tap_beside_floor(bench: Bench, folder: str, taps: int, block: int = 30) -> dict[str, list[float]]:
    """The tap, the bare commit and the stack's floor in turn, ``block`` requests of each at a time
    (the bare commit and the floor writing the entries the tap just logged), until each has made
    ``taps``: on a machine shared with other work the three meet the same load (run one after the
    other, a burst of load elsewhere that fell on one of them moved their ratio by 2x). The first
    few requests of each block are not counted: they find the CPU's caches full of the other's
    code (request by request, the floor measured 2.5x its cost run alone). CPU time per request."""
    bare, floor = BareCommit(folder), FlaskFloor(folder)
    table = bench.table("Taps")
    state, version = table["state"], 0
    lean = LeanTap(folder, table["setup"])  # the setup as the app stored it (players' records named)
    echo = FlaskEcho()
    samples: dict[str, list[float]] = {"tap": [], "bare": [], "floor": [], "login": [], "lean": [], "hooks": [],
                                       "flask": []}

    def app_route(url: str) -> Callable[[dict[str, Any]], float]:
        def request(entry: dict[str, Any]) -> float:
            start = time.process_time()
            response = bench.client.post(url, json=entry["event"], headers=bench.dealer)
            spent = time.process_time() - start
            assert response.status_code == 201
            return spent

        return request

    warm = max(1, block // 6)
    while len(samples["tap"]) < taps:
        entries = []
        for n in range(block + warm):
            event = {**next_event(state), "expected_version": version}
            start = time.process_time()
            last = bench.tap(table["id"], event, bench.dealer)
            spent = time.process_time() - start
            state, version = last["state"], last["version"]
            entries.append({**last["entry"], "state": last["state"]})  # the yardstick checks its answer by it
            if n >= warm:
                samples["tap"].append(spent)
        for name, write in (("bare", bare.insert), ("floor", floor.request), ("login", app_route(bench.stack_floor)),
                            ("lean", lean.request), ("hooks", app_route(bench.hooks_only)), ("flask", echo.request)):
            spent_each = [write(entry) for entry in entries]
            samples[name] += spent_each[warm:]
    bare.con.close()
    floor.con.close()
    lean.con.close()
    return samples


def tap_figures(bench: Bench, folder: str, taps: int, block: int) -> None:
    samples = tap_beside_floor(bench, folder, taps, block)
    tap, bare, floor, login, lean, hooks, flask = (statistics.median(samples[k]) for k in (
        "tap", "bare", "floor", "login", "lean", "hooks", "flask"))
    print(f"1. a tap, CPU per request (median of {taps}; tap, bare commit and floor in turn, {block} at a time): app {tap * 1000:.2f} ms, "
          f"bare SQLite insert+commit of the same entry {bare * 1000:.3f} ms: {tap / bare:.1f}x; "
          f"the stack's floor, a Flask app of one route writing the same entry with sqlite3 (no login, "
          f"rules, seal or ORM) {floor * 1000:.2f} ms: {floor / bare:.1f}x bare SQLite, the tap {tap / floor:.2f}x it "
          f"(goal <= 2x)")
    print(f"   the app's own login and hooks on a route that reads the body and answers it (no table, no "
          f"write): {login * 1000:.2f} ms, {login / floor:.2f}x the floor; what the tap spends beyond it "
          f"{(tap - login) * 1000:.2f} ms, against the floor's {floor * 1000:.2f} ms in all")
    print(f"   the tap at its leanest (bench/lean_tap.py: the same reads, checks, seals, writes, commit, witness "
          f"line and state answered, in one bare Flask route on sqlite3): {lean * 1000:.2f} ms, "
          f"{lean / floor:.2f}x the floor; the app's tap {tap / lean:.2f}x it")
    # The same in steps from a bare Flask route (issue 34, session 44): where the tap's time goes,
    # and what the goal leaves for the work at the table once the app has logged the dealer in.
    work, lean_work = tap - login, lean - flask
    print(f"   in steps: a bare Flask route answering the body {flask * 1000:.3f} ms; the app's hooks "
          f"+{(hooks - flask) * 1000:.3f}; its database connection and bearer login "
          f"+{(login - hooks) * 1000:.3f} (= the login route); the tap's work at the table +{work * 1000:.3f} ms. "
          f"The lean tap's login and work together +{lean_work * 1000:.3f} ms. At 2x the floor the tap's "
          f"work would have {(2 * floor - login) * 1000:.3f} ms: {(2 * floor - login) / lean_work:.2f}x "
          f"the lean tap's login and work, against {work / lean_work:.2f}x now")
    sys.stdout.flush()


# --------------------------------------------------------------------------- 2. the ruling PDF

def ruling_pdf(bench: Bench, requests: int) -> tuple[float, float, list[float]]:
    facts = {"issue": "false_openers", "found": "after_draw", "opener": 2, "opener_all_in": False,
             "callers": 1, "raise_before_draw": False, "drawn_to": True}
    body = bench.client.post("/api/rulings", json={"facts": facts, "profile": "foster"}, headers=bench.floor).json
    url = body["pdf_url"]
    start = time.perf_counter()
    first = bench.client.get(url, headers=bench.dealer)
    cold = time.perf_counter() - start
    assert first.status_code == 200 and first.mimetype == "application/pdf"
    warm = []
    for _ in range(requests):
        start = time.perf_counter()
        response = bench.client.get(url, headers=bench.dealer)
        warm.append(time.perf_counter() - start)
        assert response.status_code == 200
    # what each request cost before: the same page laid out by WeasyPrint every time
    from flask import render_template
    from flask_weasyprint import HTML

    from floor.models import IssuedRuling
    from floor.extensions import db
    from floor.rulings.views import ruling_context

    renders = []
    with bench.app.test_request_context(url):
        row = db.session.get(IssuedRuling, body["id"])
        for _ in range(max(3, requests // 3)):
            start = time.perf_counter()
            HTML(string=render_template("rulings/print.html", **ruling_context(row))).write_pdf()
            renders.append(time.perf_counter() - start)
    return cold, statistics.median(renders), warm


# --------------------------------------------------------------------------- 3. a carried pot

def carried_pot(bench: Bench, deals: tuple[int, ...], sample: int) -> dict[int, tuple[float, int, int]]:
    """Per deal in ``deals``: the median tap (CPU time, as in 1: the fsync is the disk's and the same
    at every deal) over the events of ``sample`` deals starting there, the answer's size in bytes,
    and the rulings the pot holds."""
    table = bench.table("Carried")
    tid = table["id"]
    out: dict[int, tuple[float, int, int]] = {}
    times: list[float] = []
    size = 0
    deal = 0

    def tap(event: dict[str, Any], measure: bool) -> dict[str, Any]:
        nonlocal size
        start = time.process_time()
        response = bench.client.post(f"/api/tables/{tid}/events", json=event, headers=bench.floor)
        if measure:
            times.append(time.process_time() - start)
            size = max(size, len(response.data))
        assert response.status_code == 201, response.json
        return response.json["state"]  # type: ignore[no-any-return]

    while deal < max(deals) + sample:
        deal += 1
        measure = any(d <= deal < d + sample for d in deals)
        state = tap({"type": "deal"}, measure)
        opener = state["to_act"]
        tap({"type": "open", "seat": opener}, measure)
        state = tap({"type": "false_openers", "seat": opener}, measure)
        while state["phase"] != "between_deals":
            state = tap({"type": "pass", "seat": state["to_act"]}, measure)
        for d in deals:
            if deal == d + sample - 1:
                held = state["rulings_in_pot"]
                out[d] = (statistics.median(times), size, held)
                times, size = [], 0
    return out


# --------------------------------------------------------------------------- 4. text input

def text_input(hands: int, repeats: int) -> dict[str, float]:
    from treys import Card as TreysCard  # type: ignore[import-untyped]
    from treys import Evaluator

    from rules.cards import deck
    from rules.hands import evaluate

    rng = random.Random(20261124)
    natural = list(deck())
    cards = [tuple(rng.sample(natural, 5)) for _ in range(hands)]
    texts = [" ".join(map(str, h)) for h in cards]
    evaluate(cards[0], "none")  # the table is built before timing
    treys = Evaluator()

    def rules_text() -> None:
        for text in texts:
            evaluate(text, "none")

    def rules_cards() -> None:
        for hand in cards:
            evaluate(hand, "none")

    def treys_text() -> None:
        new, ev = TreysCard.new, treys.evaluate
        for text in texts:
            a, b, c, d, e = text.split()
            ev([new(a), new(b)], [new(c), new(d), new(e)])

    runs: dict[str, Callable[[], None]] = {"treys, text": treys_text, "rules, text": rules_text,
                                           "rules, Card values": rules_cards}
    return rates(runs, hands, repeats)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples and a pot of 200 deals")
    parser.add_argument("--smoke", action="store_true", help="tiny counts: does it run to its end (make bench-smoke)")
    parser.add_argument("--only", choices=("tap",), help="part 1 only (the tap beside the bare commit and the "
                        "floor): to run two checkouts alternately in the same minutes")
    parser.add_argument("--profile", action="store_true", help="then where a tap's CPU goes (cProfile)")
    args = parser.parse_args(argv)
    taps, pdfs, far, hands = ((10, 2, 12, 500) if args.smoke else (100, 5, 200, 50_000) if args.quick
                              else (300, 15, 1000, 200_000))

    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(tmp)
        tap_figures(bench, tmp, taps, 10 if args.smoke else 30)
        if args.profile:
            profile_taps(bench, taps)
        if args.only == "tap":
            with bench.app.app_context():
                from floor.extensions import db

                db.engine.dispose()
            return

        cold, render, warm = ruling_pdf(bench, pdfs)
        print(f"2. a sealed ruling's PDF: warm {median_ms(warm):.1f} ms (median of {pdfs}; goal < 50 ms); "
              f"first request {cold * 1000:.0f} ms; WeasyPrint rendering it {render * 1000:.0f} ms "
              f"(every request before prints were stored): {render / statistics.median(warm):.0f}x")

        pot = carried_pot(bench, (10, far), 5)
        (t10, s10, r10), (tfar, sfar, rfar) = pot[10], pot[far]
        print(f"3. a pot carried over with a ruling every deal, CPU per tap: at deal 10 {t10 * 1000:.2f} ms "
              f"(answer {s10 / 1000:.1f} KB, {r10} rulings in the pot), at deal {far:,} {tfar * 1000:.2f} ms "
              f"(answer {sfar / 1000:.1f} KB, {rfar:,} rulings): {tfar / t10:.2f}x (goal <= 1.5x)")
        with bench.app.app_context():
            from floor.extensions import db

            db.engine.dispose()  # before the folder goes

    rates = text_input(hands, 5)
    base = rates["treys, text"]
    print(f"4. text card input, {hands:,} random hands (median of 5):")
    for name, rate in rates.items():
        print(f"   {name:<22}{rate:>12,.0f} hands/s {rate / base:>6.2f}x treys")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
