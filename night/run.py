"""``python -m night``: a simulated card-room night through the production server, checked.

    python -m night [--quick] [--seed N] [--db sqlite|postgresql] [--export FILE] [--tables N]
                    [--deals N] [--workers N] [--prints every|kinds] [--out DIR]

Serves the app with gunicorn on a throwaway database, plays cash tables on several house rules
(cardroom; pagat with trips to win; foster with the age; a deuces-wild game) from real shuffled
decks through the HTTP API, each table a dealer's tablet in its own thread. The referee
(``night.referee``, apart from ``rules/``) judges every pot from the real cards; chips are
checked after every tap per table and for the room at the end; ``flask verify`` runs over the
whole history. The last line is the contract's; the exit status is 0 only when there is no chip
discrepancy, no wrong verdict and verify is clean.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from night import promotions
from night.banked import BankedNight
from night.cashfloor import CashFloor
from night.dealer import Dealer, Tally, Unproven, chips_on_table, guarded, house_take
from night.floorperson import FloorPerson
from night.server import Server
from night.shiftchange import ShiftChange
from night.tournament import Tournament

RAKE = {"percent": 10, "cap": 5, "min_pot": 20}
DROP = {"amount": 1, "pool": "high_hand"}
# The cash games of the night: the profile sent to the server, and what the simulator and the
# referee need to know of it (the base profiles' values: bug in cardroom and pagat, none in foster).
# A quick night deals one table of each (the one `make test` runs), so the house's money (issue 32:
# rake, time, the high-hand drop and its promotion) is played through the server there too: the
# deuces table is also the time-collected raked one.
GAMES: list[dict[str, Any]] = [
    {"label": "cardroom", "profile": "cardroom", "wild": "bug", "max_draw": 5},
    {"label": "pagat trips to win", "profile": {"name": "pagat", "trips_to_win": True}, "wild": "bug",
     "max_draw": 3, "trips_to_win": True},
    {"label": "foster with the age", "profile": {"name": "foster", "age": True}, "wild": "none", "max_draw": 5,
     "false_openers": "foster", "wrong_count_before_draw": "dead"},
    {"label": "deuces wild, time collected, raked",
     "profile": {"name": "cardroom", "wild": "deuces", "time_charge": {"amount": 3, "minutes": 5},
                 "rake": {"percent": 5, "cap": 3}},
     "wild": "deuces", "max_draw": 5, "rake": {"percent": 5, "cap": 3}},
    {"label": "pot limit, raked", "profile": {"name": "cardroom", "betting": "pot", "rake": RAKE, "drop": DROP},
     "wild": "bug", "max_draw": 5, "rake": RAKE, "drop": DROP},
]
USERS = {"night-director": "director", "night-floor": "floor", "night-dealer": "dealer", "night-dealer-2": "dealer"}


def percentile(samples: list[float], p: float) -> float:
    """Nearest-rank percentile.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 99)
    (3.0, 5.0)
    """
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else 0.0


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m night", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short night (one table of each game, a few pots each)")
    parser.add_argument("--seed", type=int, default=2024, help="the night's seed: the same seed deals the same cards")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--export", metavar="FILE", help="one JSON line per pot for a referee outside the project")
    parser.add_argument("--tables", type=int, help="cash tables (default 5 quick, one of each game; 10 full)")
    parser.add_argument("--deals", type=int, help="deals per cash table (default 12 quick, 40 full)")
    parser.add_argument("--entries", type=int, help="tournament entries (default 12 quick, 200 full; 0: none)")
    parser.add_argument("--rounds", type=int, help="tournament rounds at most (a deal at every table each)")
    parser.add_argument("--banked", type=int, help="rounds at the banked table (default 10 quick, 40 full; 0: none)")
    parser.add_argument("--minutes", type=float, help="play time at most; then every table stops after its deal "
                        "(default 1.5 quick, 8 full)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--rate", type=float, default=0.15, help="how often an irregularity is injected")
    parser.add_argument("--out", metavar="DIR", help="where to save the night's artefacts (the shift report)")
    parser.add_argument("--prints", choices=["every", "kinds"],
                        help="the floor prints every ruling, or one of each kind (default: kinds quick, every full)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the night's instance folder (database, witness, keys) and print where it is")
    args = parser.parse_args(argv)
    args.tables = args.tables or (len(GAMES) if args.quick else 10)
    args.deals = args.deals or (12 if args.quick else 40)
    args.entries = (12 if args.quick else 200) if args.entries is None else args.entries
    args.minutes = args.minutes or (1.5 if args.quick else 8.0)
    args.banked = (10 if args.quick else 40) if args.banked is None else args.banked
    args.rounds = args.rounds or (30 if args.quick else 80)
    args.prints = args.prints or ("kinds" if args.quick else "every")
    return args


def seats_for(n: int, rng: random.Random) -> list[dict[str, Any]]:
    count = rng.randint(4, 6)
    return [{"seat": s, "player": f"T{n} P{s}", "stack": 500} for s in range(1, count + 1)]


def fetch_shift_report(floor: FloorPerson, since: datetime, out_dir: Path) -> str:
    """The floor manager's shift report of the night, from the app (``/floor/shift.pdf``), saved."""
    until = datetime.now(UTC) + timedelta(minutes=1)
    query = urlencode({"from": since.isoformat(timespec="seconds"), "to": until.isoformat(timespec="seconds")})
    status, data, headers = floor.web.raw("GET", f"/floor/shift.pdf?{query}")
    if status != 200 or not data.startswith(b"%PDF"):
        return f"shift report: not served ({status})"
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "shift-report.pdf"
    path.write_bytes(data)
    return f"shift report: {path} ({len(data) // 1024} KB)"


FINDING_DEAL = re.compile(r"\bdeal (\d+)\b")


def findings_of(tally: Tally) -> list[dict[str, Any]]:
    """The findings the shift report lists for one table: each discrepancy and wrong verdict with
    the table and the deal (the pot) it names.

    >>> t = Tally("Cash 2", "cardroom", table_id=7, wrong=["Cash 2 deal 5: the engine gave {1: 40}"])
    >>> [(f["kind"], f["table_id"], f["deal"]) for f in findings_of(t)]
    [('wrong_verdict', 7, 5)]
    """
    out = []
    for kind, texts in (("discrepancy", tally.discrepancies), ("wrong_verdict", tally.wrong)):
        for text in texts:
            found = FINDING_DEAL.search(text)
            out.append({"kind": kind, "text": text[:2000], "table_id": tally.table_id,
                        "deal": int(found.group(1)) if found else None})
    return out


def file_findings(client: Any, tallies: list[Tally], extra: list[tuple[str, str]], source: str) -> int:
    """File every finding through ``POST /api/findings`` (the floor's token); how many were filed.
    A finding the app refuses is itself a discrepancy of the night."""
    filed = 0
    rows = [f for t in tallies for f in findings_of(t)]
    rows += [{"kind": kind, "text": text[:2000], "table_id": None, "deal": None} for kind, text in extra]
    for row in rows[:500]:  # bounded: a night that breaks everywhere files its first 500
        status, body = client.request("POST", "/api/findings", {**row, "source": source})
        if status == 201:
            filed += 1
        elif tallies:
            tallies[0].discrepancies.append(f"the app refused a finding: {status} {body.get('message', body)}")
    return filed


def flagged(part: Tally | Tournament | BankedNight | CashFloor, indent: str = "  ") -> list[str]:
    """The summary's lines for what the referee flagged at one part of the night.

    >>> flagged(Tally("Cash 1", "cardroom", discrepancies=["deal 2: chips"], wrong=["deal 3: awards"]))
    ['  DISCREPANCY deal 2: chips', '  WRONG deal 3: awards']
    """
    return [f"{indent}DISCREPANCY {d}" for d in part.discrepancies] + [f"{indent}WRONG {w}" for w in part.wrong]


@dataclass
class Night:
    """One night as it went: the server, the parts that played (the cash tables' tallies, the
    tournament, the banked table, the cash floor) and what the room's checks found, for the report."""

    args: argparse.Namespace
    server: Server
    began: float = field(default_factory=time.monotonic)
    unproven: Unproven = field(default_factory=Unproven)  # the night's, not the process's (a test may run two)
    tallies: list[Tally] = field(default_factory=list)
    event: Tournament | None = None
    banked: BankedNight | None = None
    cash_floor: CashFloor | None = None
    shift_change: ShiftChange | None = None
    floor: FloorPerson | None = None
    walks: list[Any] = field(default_factory=list)
    room: dict[str, int] = field(default_factory=dict)
    promotion_line: str = "promotions: not checked"
    confirmed: int = 0
    filed: int = 0
    shift_report: str = "shift report: not fetched"
    verify_ok: bool = False
    verify_text: str = "not run"

    @property
    def every(self) -> list[Tally]:
        """The tallies of every table: the cash tables' and the tournament's."""
        return self.tallies + (self.event.tallies if self.event is not None else [])

    @property
    def parts(self) -> list[Any]:
        """Everything whose findings count: the tables, the tournament's desk, the banked table, the cash floor."""
        return [*self.every, *(p for p in (self.event, self.banked, self.cash_floor, self.shift_change)
                               if p is not None)]

    @property
    def discrepancies(self) -> int:
        return sum(len(p.discrepancies) for p in self.parts)

    @property
    def wrong(self) -> int:
        return sum(len(p.wrong) for p in self.parts)


def run_night(args: argparse.Namespace) -> int:
    """Play the night through the production server, have the referee check it, print the report;
    0 when nothing was flagged and verify is clean."""
    night = Night(args, Server(args.db, args.workers))
    night_began = datetime.now(UTC) - timedelta(minutes=1)
    try:
        play(night, random.Random(args.seed), night_began)
    finally:
        night.server.stop()
        try:
            if night.server.url:
                night.verify_ok, night.verify_text = night.server.verify()
        except Exception as exc:  # noqa: BLE001 - reported as verify FAILED
            night.verify_text = str(exc)
        night.server.cleanup(keep=args.keep)
    if args.export:
        with open(args.export, "w", encoding="utf-8") as out:
            for tally in night.every:
                for record in tally.export:
                    out.write(json.dumps(record, sort_keys=True) + "\n")
    print("\n".join(report(night)), flush=True)
    return 0 if (night.discrepancies == 0 and night.wrong == 0 and night.verify_ok) else 1


def play(night: Night, rng: random.Random, night_began: datetime) -> None:
    """The night itself: the cash tables, the banked table and the tournament dealt at once until the
    deadline, then the cash floor's work, the room counted, the referee's findings filed and the
    shift report fetched."""
    args, server = night.args, night.server
    out_dir = Path(args.out) if args.out else Path(tempfile.gettempdir()) / f"night-{args.seed}"
    server.start(USERS)
    director = server.client("night-director")
    floor = FloorPerson(server.port, "night-floor")
    floor.print_every = args.prints == "every"
    floor.login()
    night.floor = floor
    night.walks = floor.walks
    tablet = FloorPerson(server.port, "night-dealer")  # the dealers' tablet pages (calling the floor)
    tablet.login()
    dealers = open_tables(night, director, floor, tablet, rng)
    deadline = time.monotonic() + 60 * args.minutes
    for d in dealers:
        d.deadline = deadline
    errors: list[str] = []
    threads = [guarded(d.run, errors, d.tally.name) for d in dealers]
    if args.banked:
        night.banked = BankedNight(server.port, server.client("night-dealer"), "night-director",
                                   random.Random(rng.getrandbits(64)), args.banked)
        night.banked.deadline = deadline
        threads.append(guarded(night.banked.run, night.banked.discrepancies, "banked"))
    if args.entries:
        night.event = Tournament(director, server.client("night-floor"), server.client("night-dealer"), floor,
                                 args.entries, random.Random(rng.getrandbits(64)), args.rounds, args.rate,
                                 night.unproven)
        night.event.deadline = deadline
        threads.append(guarded(night.event.run, night.event.discrepancies, "tournament"))
    if dealers:
        # the floor manager going off asks for the shift just ended while the tables deal
        manager = FloorPerson(server.port, "night-floor")
        manager.login()
        night.shift_change = ShiftChange(manager, night_began, dealers, deadline)
        threads.append(guarded(night.shift_change.run, night.shift_change.discrepancies, "shift change"))
    for thread in threads:
        thread.start()
    for thread in threads:
        # bounded: the deadline stops new deals; a deal in play gets a few minutes more at most
        thread.join(timeout=max(30.0, deadline + 240.0 - time.monotonic()))
        if thread.is_alive():
            errors.append("a table did not finish in time")
    night.tallies[0].discrepancies.extend(errors)
    # The cash-game floor once the tables are done: a rotation would hold the night's one dealer
    # account to one table.
    night.cash_floor = CashFloor(director, server.client("night-floor"), server.client("night-dealer"),
                                 server.client("night-dealer-2"), ("night-dealer", "night-dealer-2"), web=floor)
    night.cash_floor.run()
    night.room = count_the_room(dealers)
    if night.room["start"] + night.room["chips_in"] != night.room["chips_out"] + night.room["on_tables"] + night.room["house"]:
        night.tallies[0].discrepancies.append(f"the room: {night.room} does not add up")
    # the high-hand pool: the drops set aside less the promotions the floor paid (in cash, off the tables)
    night.promotion_line, owed = promotions.check_pool(server.client("night-floor"), dealers)
    night.tallies[0].discrepancies.extend(owed)
    night.confirmed = floor.confirm_pending()
    # What the referee flagged goes to the app, filed under the floor's name, so that the shift
    # report (the app's, for any real night too) lists it in its "Flagged" section.
    extra = [(kind, text) for part in (night.event, night.banked, night.cash_floor) if part is not None
             for kind, texts in (("discrepancy", part.discrepancies), ("wrong_verdict", part.wrong))
             for text in texts]
    night.filed = file_findings(server.client("night-floor"), night.every, extra, f"night referee, seed {args.seed}")
    night.shift_report = fetch_shift_report(floor, night_began, out_dir)


def open_tables(night: Night, director: Any, floor: FloorPerson, tablet: FloorPerson,
                rng: random.Random) -> list[Dealer]:
    """The director opens the cash tables, one game of :data:`GAMES` each in turn; a dealer (with the
    floor's API and the tablet's pages) deals each."""
    args, server = night.args, night.server
    dealers: list[Dealer] = []
    for n in range(args.tables):
        game = GAMES[n % len(GAMES)]
        status, body = director.request("POST", "/api/tables", {
            "name": f"Cash {n + 1}", "profile": game["profile"], "ante": 5, "small_bet": 10, "big_bet": 20,
            "button": 1, "seats": seats_for(n + 1, rng)})
        if status != 201:
            raise RuntimeError(f"table {n + 1} ({game['label']}) refused: {status} {body}")
        tally = Tally(name=f"Cash {n + 1}", profile=game["label"])
        night.tallies.append(tally)
        dealers.append(Dealer(server.client("night-dealer"), floor, body["id"], tally, game,
                              random.Random(rng.getrandbits(64)), args.deals, args.rate, unproven=night.unproven))
        dealers[-1].floor_api = server.client("night-floor")
        dealers[-1].tablet = tablet
    return dealers


def count_the_room(dealers: list[Dealer]) -> dict[str, int]:
    """The room's chips as the tables stand at the end: what they started with, bought in and cashed
    out, what is on them and the house's take (chips in = chips out + on the tables + the take)."""
    room = {"start": 0, "chips_in": 0, "chips_out": 0, "on_tables": 0, "house": 0}
    for dealer in dealers:
        dealer.refresh()
        room["on_tables"] += chips_on_table(dealer.state)
        room["house"] += house_take(dealer.state)
        room["chips_in"] += dealer.state["ledger"]["chips_in"]
        room["chips_out"] += dealer.state["ledger"]["chips_out"]
        room["start"] += dealer.tally.start_chips
    return room


def report(night: Night) -> list[str]:
    """The night's report: a line a table (and its findings), the taps' times, the room, then the
    totals, the last line the one a reader looks at first."""
    return [*table_lines(night), *tap_lines(night), *summary_lines(night)]


def table_lines(night: Night) -> list[str]:
    """Each table's pots, rulings and findings: the cash tables, the tournament's and its desk, the
    banked table, the cash floor."""
    lines: list[str] = []
    for tally in night.tallies:
        lines.append(f"table {tally.name} ({tally.profile}): {tally.pots} pots, {tally.won} won, "
                     f"rulings {tally.rulings}, split openers {tally.splits}, corrections {tally.corrections}, "
                     f"{len(tally.discrepancies)} chip discrepancies, {len(tally.wrong)} wrong verdicts")
        lines.extend(flagged(tally))
        lines.extend(f"  note: {n}" for n in tally.notes[:5])
        lines.extend(f"  STUCK (a table that could not deal; a newcomer was seated to go on): {n}"
                     for n in tally.stuck)
    event, banked, cash_floor = night.event, night.banked, night.cash_floor
    if event is not None:
        for tally in event.tallies:
            lines.append(f"table {tally.name} (tournament): {tally.pots} pots, {tally.won} won, "
                         f"{len(tally.discrepancies)} chip discrepancies, {len(tally.wrong)} wrong verdicts")
            lines.extend(flagged(tally))
        lines.extend(event.lines)
        lines.extend(f"tournament desk: {p}: exercised" for p in event.passed)
        lines.extend(event.skipped)
        lines.extend(flagged(event, indent=""))
    if banked is not None:
        lines.append(f"table Banked 1 (banked joker game): {banked.played} rounds, house total {banked.house_total} "
                     f"(tenths), {len(banked.discrepancies)} discrepancies, {len(banked.wrong)} wrong verdicts")
        lines.extend(flagged(banked))
    if cash_floor is not None:
        lines.extend(cash_floor.lines)
        lines.extend(flagged(cash_floor, indent=""))
    return lines


def taps_of(night: Night) -> dict[str, list[float]]:
    """Every tap's time (ms) by kind, over the tables and the banked table."""
    taps: dict[str, list[float]] = {}
    for timed in [t.taps for t in night.every] + ([night.banked.taps] if night.banked is not None else []):
        for kind, samples in timed.items():
            taps.setdefault(kind, []).extend(samples)
    return taps


def tap_lines(night: Night) -> list[str]:
    taps = taps_of(night)
    return [f"tap {kind}: {len(taps[kind])} taps, p50 {percentile(taps[kind], 50):.1f} ms, "
            f"p99 {percentile(taps[kind], 99):.1f} ms" for kind in sorted(taps)]


def summary_lines(night: Night) -> list[str]:
    """The room, the promotions, verify, the rules met tonight, the floor's work, and the night's line."""
    args, room, every = night.args, night.room, night.every
    lines: list[str] = []
    if room:
        lines.append(f"room: started {room['start']}, chips in {room['chips_in']}, chips out {room['chips_out']}, "
                     f"on the tables {room['on_tables']}, the house's take {room.get('house', 0)}")
    lines.append(night.promotion_line)
    lines.append(f"verify: {night.verify_text.splitlines()[-1] if night.verify_text else ''}")
    for kind, answer in night.unproven.served.items():
        if answer is True:
            lines.append(f"{kind}: exercised {night.unproven.used[kind]} times")
        elif answer is None:
            lines.append(f"{kind}: not met tonight")
        else:
            lines.append(f"{kind}: {answer}")
    corrections = sum(t.corrections for t in every)
    allin = {k: sum(t.allin[k] for t in every) for k in ("honest", "false", "barred", "held", "came_back")}
    counts = {k: sum(t.counts[k] for t in every) for k in ("called", "dead", "corrected")}
    lines.append(f"all-in ante openers: {allin['honest'] + allin['false']} ({allin['honest']} with openers, O6; "
                 f"{allin['false']} without, {allin['barred']} barred by the floor, F7; the bar held on "
                 f"{allin['held']} later deals while the player had chips again; {allin['came_back']} times a barred "
                 "player left and bought in again at another seat and stayed dealt out)")
    lines.append(f"wrong card counts: {counts['called']} called to the floor, {counts['dead']} ruled dead, "
                 f"{counts['corrected']} put right (H6, D8)")
    walked = sum(t.walked for t in every)
    lines.append(f"floor phone: {walked} disputes walked question by question on /rulings/new "
                 f"({sum(t.walked_false for t in every)} false openers by hand, "
                 f"{sum(len(w.asked) for w in night.walks)} questions answered); "
                 f"{sum(t.false_calls for t in every)} false openers reported before the draw")
    lines.append(f"findings: {night.filed} filed for the shift report's Flagged section")
    floor = night.floor
    printed = (f"{len(floor.pdfs)} rulings printed ({len(floor.kinds_printed)} kinds"
               + (f"; {floor.unprinted} more of a kind already printed, not printed" if floor.unprinted else "")
               + ")") if floor is not None else "no rulings printed"
    lines.append(f"floor: {printed}, {night.confirmed} rulings of the rules confirmed on the floor page, "
                 f"{corrections} chip corrections")
    if floor is not None:
        lines.append(f"rulings printed, by kind: {'; '.join(sorted(floor.kinds_printed)) or 'none'}")
    if night.shift_change is not None:
        lines.append(night.shift_change.line)
    lines.append(night.shift_report)
    pots = sum(t.pots for t in every)
    rulings = sum(t.rulings + t.corrections for t in every)
    entries = night.event.buy_ins if night.event is not None else 0
    everything = [x for samples in taps_of(night).values() for x in samples]
    lines.append(f"wall time {time.monotonic() - night.began:.1f} s on {args.db}, seed {args.seed}")
    if args.keep:
        lines.append(f"kept: {night.server.instance} (the night's database, witness and keys)")
    lines.append(f"night: {len(every) + (1 if night.banked is not None else 0)} tables, {pots} pots, {rulings} rulings, "
                 f"{entries} entries; chip discrepancies {night.discrepancies}, wrong verdicts {night.wrong}, "
                 f"verify {'clean' if night.verify_ok else 'FAILED'}, p99 {percentile(everything, 99):.0f} ms")
    return lines


def main(argv: list[str] | None = None) -> int:
    return run_night(parse(argv))


if __name__ == "__main__":
    sys.exit(main())
