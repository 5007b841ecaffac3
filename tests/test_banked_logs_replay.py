"""Banked logs recorded by the code before issue 34 replay identically on the engine's pattern
(rules.banked.events, play, round): states, the cards the picker greys, the undo offered, the words
of the log, and every refusal's message.

``tests/data/banked_logs.jsonl`` was written by the code of commit c5576e7 (the if-chain of
``rules/banked/round.py`` and the tablet's helpers of ``floor/banked/tablet.py``): the banked table of
``make night --quick`` (seed 2024, its database kept), the demo's banked table played through the app
(forms, JSON with antes as text and boxes as strings, an undo, two floor rulings, a deal withdrawn),
and 30 random tables of 1-5 boxes in five profiles (exchanges, folds, bets, undos, rulings on the
dealer's hand and on payouts, and refused events: out of turn, a box of no table, a card seen
twice, a wrong draw, an undo of the wrong entry or of a ruling). For each entry it holds a digest of
what the old code showed after it: the whole log's state, the round's state as the tablet replays it
(from the round's deal), the cards seen and the entry an undo would withdraw; and the entry's words.

Three differences are deliberate, checked as such: the words of a deal whose antes a JSON client
sent as text showed the text read as units (an ante of "0.6" as 0.1), and an undo's refusal named
the deal it would withdraw with its antes in units ("ante 3" for 0.3): both now write money as the
table does (the recorder read a deal's words on its antes in units, so the rest of the old words is
compared as is). And an event with two faults, one in its fields and one against the round, now
names the fault of its fields first (its fields are read once, at the edge, before the rules take
it): a floor ruling with a box_net that is no amount, for a box not settled this round.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

import rules
from rules import RulesError
from rules.banked.events import Setup, parse_event
from rules.banked.round import BankedState

LOGS = Path(__file__).parent / "data" / "banked_logs.jsonl"


def _digest(view: dict) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _attempt(setup, entries):
    try:
        return BankedState.replay(setup, entries), None
    except RulesError as exc:
        return None, f"{type(exc).__name__}: {exc}"


def tablet_round(setup, entries) -> BankedState:
    """The round as the tablet replays it: the entries from its deal on (earlier rounds were
    settled when logged), the floor's ``round_start``."""
    day = BankedState.replay(setup, entries)
    start = day.entries[0][0] if day.entries else 0
    return BankedState.replay(setup, [(s, p) for s, p in entries if s >= start])


def view(setup, entries) -> dict:
    day, day_error = _attempt(setup, entries)
    rnd = tablet_round(setup, entries) if day is not None else None
    undo = rnd.withdrawable if rnd is not None else None
    return {"day": day.to_dict() if day else None, "day_error": day_error,
            "round": rnd.to_dict() if rnd else None, "round_error": None,
            "seen": rnd.seen_cards() if rnd else {}, "undo": undo[0] if undo else None}


def recorded() -> list[dict]:
    logs: list[dict] = []
    for line in LOGS.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if "name" in record:
            logs.append({**record, "entries": [], "refusals": []})
        elif "refused" in record:
            logs[record["log"]]["refusals"].append(record)
        else:
            logs[record["log"]]["entries"].append(record)
    return logs


LOGGED = recorded()


def test_the_corpus_covers_every_event_type_and_refusals():
    kinds = {e["event"]["type"] for log in LOGGED for e in log["entries"]}
    assert kinds == {"deal", "fold", "bet", "exchange", "reveal", "dealer_draw", "ruling", "void"}
    assert sum(len(log["entries"]) for log in LOGGED) > 800 and sum(len(log["refusals"]) for log in LOGGED) > 90


@pytest.mark.parametrize("log", LOGGED, ids=[log["name"] for log in LOGGED])
def test_a_recorded_log_replays_as_it_did(log):
    setup = log["setup"]
    money = Setup.read(setup).options.money
    entries: list[tuple[int, dict]] = []
    assert _digest(view(setup, entries)) == log["view"]
    for entry in log["entries"]:
        entries.append((entry["seq"], entry["event"]))
        assert _digest(view(setup, entries)) == entry["view"], f"after entry {entry['seq']}: {entry['event']}"
        assert parse_event(entry["event"], Setup.read(setup)).words(money) == entry["words"]


UNDO_REFUSED = re.compile(r"^(RulesError: undo withdraws only the last entry standing, entry (\d+)) \(.*\), (not entry .*)$")


@pytest.mark.parametrize("log", LOGGED, ids=[log["name"] for log in LOGGED])
def test_a_recorded_refusal_is_refused_as_it_was(log):
    setup = log["setup"]
    money = Setup.read(setup).options.money
    for refusal in log["refusals"]:
        before = [(e["seq"], e["event"]) for e in log["entries"] if e["seq"] <= refusal["after"]]
        state = tablet_round(setup, before)
        with pytest.raises(RulesError) as refused:
            state.apply(refusal["event"], refusal["after"] + 1)
        old_type, old_message = refusal["refused"].split(": ", 1)
        assert isinstance(refused.value, getattr(rules, old_type)), refusal
        event = refusal["event"]
        if event["type"] == "ruling" and not isinstance(event.get("box_net"), int):  # the field's fault first
            assert old_message in (f"B5: a payout ruling is for a box settled this round, not box {event['box']}",
                                   f"B5: a payout ruling gives box_net in the smallest unit, not {event['box_net']!r}")
            old_message = f"B5: a payout ruling gives box_net in the smallest unit, not {event['box_net']!r}"
        undo = UNDO_REFUSED.match(refusal["refused"])
        if undo:  # the entry is named in the table's money now
            seq = int(undo.group(2))
            words = parse_event(dict(before)[seq], Setup.read(setup)).words(money)
            old_message = f"{undo.group(1).split(': ', 1)[1]} ({words}), {undo.group(3)}"
        assert str(refused.value) == old_message, refusal


@pytest.mark.parametrize("log", LOGGED, ids=[log["name"] for log in LOGGED])
def test_what_the_log_stores_now_replays_the_same(log):
    """The app stores the rules' reading of an event (``to_dict()``: boxes as numbers, cards and
    antes as the table writes them, no key the rules do not read), not the client's payload: read
    back, it is the same event, and the log of those replays to the same states."""
    setup = log["setup"]
    stored: list[tuple[int, dict]] = []
    for entry in log["entries"]:
        event = parse_event(entry["event"], Setup.read(setup))
        assert parse_event(event.to_dict(), Setup.read(setup)) == event
        stored.append((entry["seq"], event.to_dict()))
        assert _digest(view(setup, stored)) == entry["view"], f"after entry {entry['seq']}: {event.to_dict()}"
