"""The night (issue 24): its referee's evaluator against brute force and against the engine, its
verdicts on awards, and a quick night through the production server (exit status, last line,
export)."""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from night import referee
from rules.hands import evaluate
from rules.openers import qualifies

ROOT = Path(__file__).resolve().parent.parent
LAST_LINE = re.compile(r"^night: (\d+) tables, (\d+) pots, (\d+) rulings, (\d+) entries; chip discrepancies (\d+), "
                       r"wrong verdicts (\d+), verify (clean|FAILED), p99 (\d+) ms$")


def brute(hand: list[str], wild: str) -> tuple:
    """Truth by substitution: every wild card tried as every card not in the hand (distinct cards),
    the bug only as an ace or where it makes a straight or a flush (H2), five of a kind where the
    natural cards are all of one rank (H2: four aces and the bug; H4: any rank with wild cards)."""
    wilds = [c for c in hand if referee.is_wild(c, wild)]
    naturals = [c for c in hand if c not in wilds]
    if not wilds:
        return referee.value(hand)
    best: tuple = ()
    if len({c[0] for c in naturals}) <= 1:
        rank = naturals[0][0] if naturals else "A"
        if wild != "bug" or rank == "A":
            best = (9, referee.RANKS[rank])
    others = [c for c in referee.deck(False) if c not in naturals]
    for fills in product(others, repeat=len(wilds)):
        if len(set(fills)) < len(fills):
            continue
        v = referee.value(naturals + list(fills))
        if wild == "bug" and fills[0][0] != "A" and v[0] not in (4, 5, 8):
            continue
        best = max(best, v)
    return best


def random_hands(n: int, joker: bool, seed: int, wild_card: str | None = None) -> list[list[str]]:
    """Random five-card hands from shuffled decks, half of them holding a wild card when asked."""
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        deck = referee.deck(joker)
        rng.shuffle(deck)
        hand = deck[:5]
        if wild_card == "Jk" and i % 2 and "Jk" not in hand:
            hand[0] = "Jk"
        hands.append(hand)
    return hands


@pytest.mark.parametrize("wild", ["bug", "deuces"])
def test_referee_evaluator_agrees_with_brute_force_substitution(wild):
    """H2 (the bug) and H4 (deuces): the referee's rank-by-rank search gives what trying every card does."""
    hands = random_hands(300, wild == "bug", 24, "Jk" if wild == "bug" else None)
    hands += [["Jk", "As", "Ah", "Ad", "Ac"], ["9h", "9d", "7c", "7s", "Jk"], ["Ah", "Th", "9h", "8h", "Jk"],
              ["2s", "2d", "Ks", "Kh", "Kc"], ["2s", "2d", "2h", "Ts", "Js"], ["Jk", "Ks", "Qs", "Js", "Ts"]]
    checked = 0
    for hand in hands:
        if sum(referee.is_wild(c, wild) for c in hand) > 2:
            continue  # brute force over three wild cards is 100,000 hands each; the engine test covers them
        assert referee.value(hand, wild) == brute(hand, wild), hand
        checked += 1
    assert checked > 250


@pytest.mark.parametrize("wild", ["none", "bug", "deuces"])
def test_referee_orders_hands_as_the_engine_does(wild):
    """H5: on 600 pairs of shuffled hands the referee and rules.hands agree on the category and on
    which hand wins (two evaluators written apart; neither is checked by the other's code)."""
    hands = random_hands(1200, wild == "bug", 7, "Jk" if wild == "bug" else None)
    for a, b in zip(hands[::2], hands[1::2]):
        ea, eb = evaluate(" ".join(a), wild=wild), evaluate(" ".join(b), wild=wild)
        ra, rb = referee.value(a, wild), referee.value(b, wild)
        assert referee.category_name(ra) == ea.category, (a, ea.describe())
        assert (ra > rb) == (ea > eb) and (ra == rb) == (ea == eb), (a, b)


def test_referee_openers_are_jacks_or_better():
    """O1: jacks or better, two small pairs qualify, the bug with an ace is a pair of aces."""
    assert referee.qualifies("Jh Jd 4c 5s 9h", "bug")
    assert not referee.qualifies("Th Td Ac Ks Qh", "bug")
    assert referee.qualifies("3h 3d 2c 2s 9h", "bug")
    assert referee.qualifies("Jk Ad 4c 5s 9h", "bug")
    assert not referee.qualifies("Jk Qd 4c 5s 9h", "bug")
    assert referee.qualifies("2s Qd 4c 5h 9h", "deuces", "Q")
    for hand in random_hands(400, True, 3, "Jk"):
        assert referee.qualifies(hand, "bug") == qualifies(" ".join(hand), wild="bug"), hand


def test_referee_kept_cards_hold_openers_as_h2_reads_the_bug():
    """O1 and H2 on the cards an opener kept: the bug pairs only an ace, so the bug beside a small pair
    is that pair with an ace kicker, not two pair nor trips. (The full night's seed 1 once saw the
    referee call Jk 4c 4d openers and blame the engine, which had rightly found the opener dead.)"""
    cards = referee.cards_of
    assert not referee.holds_openers(cards("Jk 4c 4d"), "bug")
    assert not referee.holds_openers(cards("Jk Td Ts"), "bug")
    assert referee.holds_openers(cards("Jk Ad 7c"), "bug")
    assert referee.holds_openers(cards("Jk 4c 4d Ad"), "bug")
    assert referee.holds_openers(cards("Jk Qd Qs"), "bug")
    assert referee.holds_openers(cards("4c 4d 9s 9h"), "bug")
    assert not referee.kept_could_open(cards("Jk 4c 4d 6d 5s"), 2, "bug")


def test_referee_awards_split_ties_and_hold_trips_to_win():
    """H5 ties split; D9: no hand of trips or better, no winner; a wrong winner is a wrong verdict."""
    pots = [{"amount": 101, "eligible": [1, 2, 3]}]
    shown = {1: referee.value("Ah Ad 4c 5s 9h"), 2: referee.value("As Ac 4d 5h 9d"), 3: referee.value("Kh Kd 4h 5d 9s")}
    expected = referee.expected_awards(pots, shown)
    assert expected == {1: (50, 51), 2: (50, 51)}
    assert referee.awards_match(expected, {1: 51, 2: 50}, 101)
    assert not referee.awards_match(expected, {1: 101}, 101)
    assert not referee.awards_match(expected, {1: 50, 3: 51}, 101)
    assert referee.expected_awards(pots, shown, trips_to_win=True) is None
    assert referee.awards_match(None, {}, 101) and not referee.awards_match(None, {1: 101}, 101)
    side = [{"amount": 30, "eligible": [1, 2, 3]}, {"amount": 40, "eligible": [2, 3]}]
    assert referee.expected_awards(side, shown) == {1: (15, 15), 2: (55, 55)}
    # D9 with a side pot (referee.SIDE_POT_TRIPS): its claimants show no trips, the all-in seat does
    trips = {1: referee.value("Qh Qd Qs 3c 3h"), 2: referee.value("Th Td 9c 7s Jc"), 3: referee.value("4h 4d 6c 5c Kh")}
    # the all-in seat 1 wins the main pot with trips; nobody wins the side pot by their hand: seats 2
    # and 3, its claimants, share it (seat 1 never wins chips it did not match)
    assert referee.expected_awards(side, trips, trips_to_win=True) == {1: (30, 30), 2: (20, 20), 3: (20, 20)}
    trips[2] = referee.value("Th Td Tc 7s Jc")
    assert referee.expected_awards(side, trips, trips_to_win=True) == {1: (30, 30), 2: (40, 40)}


#: The simulated dealer, its players and its irregularities read the moves the server lists as the engine's move
#: values (the API's JSON read back, issue 34); nothing else of the night imports the project.
MOVE_READERS = ("dealer.py", "players.py", "irregular.py")


def test_the_referee_and_the_simulator_import_nothing_of_rules_or_floor():
    """The judge is written apart: no module of night/ imports floor, and none imports rules but the
    dealer's reading of the server's legal moves (rules.jackpot's move values): the referee, which
    gives every verdict, the floor person's walk, the server and the run import nothing of rules."""
    for path in (ROOT / "night").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                top = name.split(".")[0]
                moves = path.name in MOVE_READERS and name.startswith("rules.jackpot.")
                assert top != "floor" and (top != "rules" or moves), f"{path.name} imports {name}"


@pytest.mark.slow  # a gunicorn and a whole quick night: a minute (make test runs it, make test-fast not)
def test_quick_night_through_the_production_server(tmp_path):
    """`make night NIGHT_ARGS=--quick`: exit 0, the contract's last line with no discrepancy, and one
    export line per pot whose cards are real deals (five distinct cards a seat, no card twice)."""
    export = tmp_path / "night.jsonl"
    done = subprocess.run([sys.executable, "-m", "night", "--quick", "--seed", "7", "--export", str(export),
                           "--out", str(tmp_path)], cwd=str(ROOT), capture_output=True, text=True, timeout=300)
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    m = LAST_LINE.match(last)
    assert m, last
    tables, pots = int(m[1]), int(m[2])
    assert tables >= 4 and pots >= 20 and m[5] == "0" and m[6] == "0" and m[7] == "clean"
    records = [json.loads(line) for line in export.read_text().splitlines()]
    assert len(records) == pots
    for r in records:
        assert set(r) >= {"table", "deal", "profile", "dealt", "drawn", "final", "awards", "rulings"}
        cards = [c for hand in r["dealt"].values() for c in hand] + [c for h in r["drawn"].values() for c in h]
        # H6, D8: a hand dealt four or six cards stays so in the export only when it was ruled dead
        assert all(len(h) == 5 or "HAND_DEAD_CARD_COUNT" in r["rulings"] for h in r["dealt"].values()), r
        assert len(cards) == len(set(cards)), r
    assert any(r["awards"] for r in records)
    # The floor manager's shift report of the night, from the app, saved beside the export.
    assert (tmp_path / "shift-report.pdf").read_bytes().startswith(b"%PDF")
    assert "verify: " in done.stdout and "floor: " in done.stdout
    out, ruled = done.stdout, Counter(x for r in records for x in r["rulings"])
    # H6, D8: wrong card counts were injected, each called to the floor and ruled through the app
    counts = re.search(r"^wrong card counts: (\d+) called to the floor, (\d+) ruled dead, (\d+) put right", out, re.M)
    assert counts, out[-2000:]
    called, dead, corrected = map(int, counts.groups())
    assert called >= 4 and called == dead + corrected
    assert (ruled["HAND_DEAD_CARD_COUNT"], ruled["CARD_COUNT_CORRECTED"]) == (dead, corrected)
    assert dead and corrected  # after the draw (dead) and before it (put right, or dead at the Foster table)
    # O6, F7: all-in ante openers were dealt, and those without openers ruled barred by the floor
    allin = re.search(r"^all-in ante openers: (\d+) \((\d+) with openers, O6; (\d+) without, (\d+) barred", out, re.M)
    assert allin, out[-2000:]
    assert int(allin[1]) >= 2 and int(allin[4]) >= 1 and ruled["ALL_IN_OPENER_BARRED"] == int(allin[4])
    # the floor person's phone walked the tree question by question: every card count, some false openers
    walked = re.search(r"^floor phone: (\d+) disputes walked question by question on /rulings/new "
                       r"\((\d+) false openers by hand, (\d+) questions answered\)", out, re.M)
    assert walked, out[-2000:]
    assert int(walked[1]) == called + int(walked[2]) and int(walked[2]) >= 1 and int(walked[3]) > int(walked[1])
    # nothing was flagged tonight, and the shift report says so
    assert "findings: 0 filed" in out
    # the shift change in the middle of the night (issue 34, session 44): the closed shift's PDF was
    # served while tables dealt (a report never served, or an error, is a discrepancy above)
    assert re.search(r"^shift change: the report of the shift just ended asked for with \d+ tables still "
                     r"dealing; first answer in [\d.]+ s, the PDF in [\d.]+ s", out, re.M), out[-2000:]
    pdf = subprocess.run(["pdftotext", str(tmp_path / "shift-report.pdf"), "-"], capture_output=True, text=True,
                         check=True).stdout
    assert "Flagged" in pdf and "Nothing flagged." in pdf
    # the house's money (issue 32) is played in the quick night too: the raked, time-collected and
    # high-hand tables took something, the referee checked each pot's rake and drop (a wrong one
    # would be a wrong verdict above), and the shift report's "house's take" adds up to the room's
    take = re.search(r"^room: .*the house's take (\d+)$", out, re.M)
    assert take and int(take[1]) > 0, out[-2000:]
    total = re.search(r"^\s*All tables\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$",
                      subprocess.run(["pdftotext", "-layout", str(tmp_path / "shift-report.pdf"), "-"],
                                     capture_output=True, text=True, check=True).stdout, re.M)
    assert total, pdf[-2000:]
    rake, time_, drop, in_all = map(int, total.groups())
    assert rake > 0 and time_ > 0 and drop > 0 and in_all == rake + time_ + drop == int(take[1])
    # issue 32 (docs/house.md): a hand below the high hand's qualifier was put to the app and refused
    assert re.search(r"^promotions: .* [1-9]\d* hand\(s\) below the qualifier refused", out, re.M), out[-2000:]


def test_the_referees_docstring_examples_hold():
    """The referee's examples (H2, O1, S2) run as doctests: the pytest run collects rules/ only."""
    import doctest

    import night.referee
    import night.run
    import night.walk

    for module in (night.referee, night.run, night.walk):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


@pytest.mark.slow  # a gunicorn, a night of one table and the shift report's PDF (make test runs it)
def test_what_the_referee_flags_is_filed_and_listed_in_the_nights_shift_report(tmp_path, monkeypatch, capsys):
    """A wrong verdict of the referee (planted: the referee disagrees with the first pot it judges)
    makes the night exit 1, is filed through POST /api/findings, and the shift report's "Flagged"
    section lists it with its table and pot (deal), as a floor manager reads it."""
    from night import run

    planted: list[int] = []

    def disagree_once(expected, actual, total):
        if not planted:
            planted.append(total)
            return False
        return original(expected, actual, total)

    original = referee.awards_match
    monkeypatch.setattr(referee, "awards_match", disagree_once)
    # one gunicorn worker: what is checked here is the filing and the report, not several processes
    # (the quick night above serves with three); each worker imports the app, 1.5 s of CPU
    status = run.main(["--tables", "1", "--deals", "3", "--entries", "0", "--banked", "0", "--rate", "0",
                       "--seed", "5", "--workers", "1", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1 and planted, out[-2000:]
    assert "WRONG Cash 1 deal 1: the engine gave" in out and "findings: 1 filed" in out
    assert out.strip().splitlines()[-1].startswith("night: 1 tables") and "wrong verdicts 1" in out
    pdf = subprocess.run(["pdftotext", "-layout", str(tmp_path / "shift-report.pdf"), "-"], capture_output=True,
                         text=True, check=True).stdout
    flagged = pdf[pdf.index("Flagged"):pdf.index("Tables and pots")]
    assert "1 thing flagged" in flagged and "wrong verdict" in flagged and "Cash 1 · deal 1" in flagged
    assert "night referee, seed 5" in flagged and "Nothing flagged." not in pdf


def test_the_nights_server_leaves_no_folder_behind_unless_asked():
    """The throwaway instance (database, witness, keys; under /dev/shm on most machines, so memory)
    is removed when the night or the load test ends; ``--keep`` leaves it for a look. Every night
    and every make test used to leave one or two behind."""
    from night.server import Server

    gone, kept = Server(name="night"), Server(name="night")
    for server in (gone, kept):
        (Path(server.instance) / "night.sqlite").write_bytes(b"")
    gone.cleanup()
    kept.cleanup(keep=True)
    assert not Path(gone.instance).exists() and Path(kept.instance, "night.sqlite").exists()
    kept.cleanup()
    assert not Path(kept.instance).exists()


@pytest.mark.slow  # two processes importing the app: about three seconds of CPU (make test runs it)
def test_the_nights_set_up_runs_each_flask_command_and_stops_at_the_first_that_fails():
    """``night.commands`` runs the server's set-up (``flask init-db``, then ``create-user`` per user)
    in one process: each command's own output comes back (the API token a dealer's tablet uses), and
    a command that fails stops the set-up, naming itself and its message (issue 34, session 41)."""
    from night.server import CommandFailed, Server

    server = Server(name="night")
    server.url = f"sqlite:///{server.instance}/night.sqlite"
    try:
        with pytest.raises(CommandFailed, match=r"(?s)flask create-user exited 1: .*exists already") as failed:
            server.flask_commands([["init-db"],
                                   ["create-user", "dee", "--role", "dealer", "--password", "password-1"],
                                   ["create-user", "Dee", "--role", "dealer", "--password", "password-2"],
                                   ["create-user", "fred", "--role", "floor", "--password", "password-3"]])
        made = failed.value.outputs  # the commands before the one that failed, each with its own output
        assert len(made) == 2, made
        assert made[0].startswith("Database ready: ") and made[1].startswith("Created dee (dealer). API token")
        # fred was never made: the set-up stopped at the command before
        assert server.flask_commands([["create-user", "fred", "--role", "floor", "--password", "password-3"]])[0] \
            .startswith("Created fred (floor).")
    finally:
        server.cleanup()
