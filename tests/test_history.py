"""rules.reports.history: a table's night by player, read from the log, checked against the ledger and the
conservation law (docs/contract.md, "Players come and go") over seeded random nights with undos."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import IllegalAction
from rules.reports.history import table_history
from rules.jackpot import replay, start
from tests.notation import table

CARDS = ["As Kd Qh 9c 5s", "Ad Kh Qc 8d 4s", "Ah Ks Qd 7c 3h", "Ac Kc Qs 6d 2h", "Js Td 9h 8c 7s", "Jd Tc 9s 8h 6c",
         "Jh Th 7d 6h 5c", "Jc Ts 7h 6s 5d"]


def random_night(rng: random.Random, n_events: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table's log: deals played out by random legal taps, players sitting down, rebuying, sitting
    out and back, changing seats and leaving, and now and then the dealer's undo."""
    setup = table(5, stack=300)
    state, events, names = start(setup), [], iter(f"N{k}" for k in range(10_000))
    while len(events) < n_events:
        now = state.to_dict()
        if now["undo"] is not None and rng.random() < 0.05:
            event: dict[str, Any] = {"type": "void", "event": now["undo"]["event"]}
        elif now["phase"] != "between_deals":
            move = rng.choice(now["legal"])
            event = {"type": move["type"], "seat": now["to_act"]}
            if move["type"] == "draw":
                event["count"] = rng.randint(0, 3)
            elif move["type"] == "show":
                event["cards"] = CARDS[now["to_act"] - 1]
        else:
            seated = list(now["seats"])
            empty = [s for s in range(1, now["capacity"] + 1) if s not in now["seats"]]
            roll = rng.random()
            if roll < 0.5 or not seated:
                event = {"type": "deal"}
            elif roll < 0.6 and empty:
                event = {"type": "sit", "seat": rng.choice(empty), "player": next(names),
                         "chips": rng.choice([100, 250])}
            elif roll < 0.7:
                event = {"type": "add_chips", "seat": rng.choice(seated), "amount": rng.choice([50, 100])}
            elif roll < 0.8:
                seat = rng.choice(seated)
                event = {"type": "sit_in" if now["seats"][seat]["sitting_out"] else "sit_out", "seat": seat}
            elif roll < 0.87 and empty:
                event = {"type": "move_seat", "seat": rng.choice(seated), "to": rng.choice(empty)}
            else:
                event = {"type": "leave", "seat": rng.choice(seated)}
        try:
            state = state.apply(event)
        except IllegalAction:
            continue
        events.append(event)
    return setup, events


def hands_dealt_independently(setup: dict[str, Any], events: list[dict[str, Any]]) -> int:
    """Seats dealt in, summed over the deals the log still holds (a withdrawn deal is no hand)."""
    voided = {int(e["event"]) for e in events if e["type"] == "void"}  # a void itself is never withdrawn
    return sum(len(replay(setup, events[:i + 1])["dealt"]) for i, e in enumerate(events)
               if e["type"] == "deal" and i not in voided)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_nets_of_a_night_add_up_to_minus_the_pot_and_the_ledger_by_player(seed: int) -> None:
    setup, events = random_night(random.Random(seed), 250)
    assert any(e["type"] == "void" for e in events) and any(e["type"] == "leave" for e in events)
    final = replay(setup, events)
    for cut in (len(events) // 3, 2 * len(events) // 3, len(events)):
        history, now = table_history(setup, events[:cut]), replay(setup, events[:cut])
        assert sum(p.net for p in history.players) + now["pot"] == 0
        assert sum(p.bought_in for p in history.players) == now["ledger"]["chips_in"]
        assert sum(p.taken_away for p in history.players) == now["ledger"]["chips_out"]
        assert sum(p.start for p in history.players) == 1500
        assert {p.player: p.stack for p in history.players if p.stack is not None} == {
            x["player"]: x["stack"] for x in now["seats"].values()}
    history = table_history(setup, events)
    assert sum(p.hands for p in history.players) == hands_dealt_independently(setup, events)
    assert history.ledger == final["ledger"]


def test_a_withdrawn_buy_in_and_a_withdrawn_leave_are_not_on_anyones_line() -> None:
    setup = table(3)
    events = [{"type": "sit", "seat": 5, "player": "Eve", "chips": 200}, {"type": "void", "event": 0},
              {"type": "leave", "seat": 2}, {"type": "void", "event": 2}]
    history = table_history(setup, events)
    assert history.player("Eve").bought_in == 0
    assert (history.player("P2").taken_away, history.player("P2").stack) == (0, 500)
    assert [s.voided for s in history.seating] == [True, True]
