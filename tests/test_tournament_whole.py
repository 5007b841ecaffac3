"""A whole tournament through the HTTP API (issue 21): 30 entries drawn over 4 tables, levels and
a break on the clock, re-entries during late registration (refused after it, naming the cutoff),
bounties, tables broken by the balance, hand for hand at the bubble, the final table, an ICM deal
among the players left. After every step every table's conservation law holds and the chips on the
tables are the starting chips of every buy-in; at the end places run 1..30, the prizes sum to the
pool and the bounties to every bounty paid in. Seeded draws: a failure replays."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from floor.tournament import service
from tests.test_tournament_desk import conserved, finish
from tests.tourney_play import Api, play_hand

pytestmark = pytest.mark.slow

STRUCTURE = {
    "levels": [{"minutes": 20, "ante": 5, "small_bet": 25, "big_bet": 50},
               {"minutes": 20, "ante": 5, "small_bet": 50, "big_bet": 100},
               {"break": 10},
               {"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100},
               {"minutes": 20, "ante": 20, "small_bet": 100, "big_bet": 200}],
    "starting_chips": 100, "buy_in": 50, "bounty": 10, "reentry": 1, "late_registration_levels": 2,
    "payouts": [50, 30, 20],
}


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 23, 19, 0, 0)

    def __call__(self):
        return self.now

    def wait(self, **delta):
        self.now += timedelta(**delta)


def live_at(api, table_id):
    return {int(s): x for s, x in api.table(table_id)["seats"].items() if x["stack"]}


@pytest.mark.parametrize("seed", [3, 11])
def test_a_whole_tournament_with_reentries_a_break_hand_for_hand_and_an_icm_deal(client, tokens, monkeypatch, seed):
    monkeypatch.setattr(service, "RANDOM", random.Random(seed))
    clock = Clock()
    monkeypatch.setattr(service, "utcnow", clock)
    api = Api(client, tokens)
    event = api.post("/api/events", {"name": "The whole thing", "structure": STRUCTURE}, status=201)["id"]
    ids = [api.post(f"/api/events/{event}/tables", {"name": f"Table {n}", "seats": 8}, status=201)["id"]
           for n in (1, 2, 3, 4)]
    for n in range(30):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, role="floor", status=201)
    api.post(f"/api/events/{event}/draw", role="floor", status=200)
    assert sorted(len(live_at(api, i)) for i in ids) == [7, 7, 8, 8]
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)

    def check():
        info = api.get(f"/api/events/{event}/clock")
        assert conserved(api, ids) == info["chips_in_play"] == 100 * info["entries"]
        return info

    def balance():
        for _ in range(40):
            plan = api.get(f"/api/events/{event}/balance")
            if plan["break_table"] is not None:
                broke.add(plan["break_table"])
            if not plan["moves"]:
                return
            api.post(f"/api/events/{event}/balance", {"moves": plan["moves"][:1]}, role="floor", status=200)
            check()
        raise AssertionError("the plan never settled")

    def one_hand():
        table_id = next(i for i in ids if len(live_at(api, i)) >= 2)
        live = live_at(api, table_id)
        play_hand(lambda: api.table(table_id), lambda e: api.log(table_id, e),
                  max(live, key=lambda s: (live[s]["stack"], s)), min(live, key=lambda s: (live[s]["stack"], s)))
        check()
        balance()

    broke: set[int] = set()
    out: list[str] = []
    while len(out) < 4:  # level 1: the first players out
        one_hand()
        out = [r["player"] for r in api.get(f"/api/events/{event}/results") if r["place"] is not None]
    for player in out[:2]:  # two of them re-enter during late registration, each with a new seat
        seated = api.post(f"/api/events/{event}/entries", {"player": player}, role="floor", status=201)["seated"]
        assert live_at(api, seated["table"])[seated["seat"]]["player"] == player
        check()
    assert api.get(f"/api/events/{event}/clock")["entries"] == 32

    clock.wait(minutes=25)  # level 2, then the break: nobody deals; then level 3, registration closed
    assert api.get(f"/api/events/{event}/clock")["level"] == 2
    one_hand()
    clock.wait(minutes=16)
    info = check()
    assert info["on_break"] and info["next_break_seconds"] == 0 and not info["late_registration_open"]
    refused = api.call("POST", f"/api/events/{event}/entries", role="floor", json={"player": out[2]})
    assert refused.status_code == 422 and "closed at the end of level 2" in refused.get_json()["message"]
    clock.wait(minutes=10)
    assert api.get(f"/api/events/{event}/clock")["level"] == 3
    table_id = next(i for i in ids if len(live_at(api, i)) >= 2)
    deal = api.post(f"/api/tables/{table_id}/events", {"type": "deal"}, role="dealer", status=201)
    assert deal["state"]["ante"] == 10  # the level reaches the table at its next deal
    finish(api, table_id, *sorted(live_at(api, table_id))[:2])
    check()
    balance()

    while api.get(f"/api/events/{event}/clock")["players_left"] > 6:  # near the bubble (3 paid)
        one_hand()
    assert len(broke) >= 2  # tables broken on the way

    # the bubble: hand for hand, every table dealing together, the clock standing still
    h4h = api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor")
    assert h4h["on"] and not h4h["clock"]["running"]
    rounds = 0
    while api.get(f"/api/events/{event}/clock")["hand_for_hand"]:
        rounds += 1
        assert rounds < 60, (api.get(f"/api/events/{event}/clock"), [live_at(api, i) for i in ids])
        playing = [i for i in ids if len(live_at(api, i)) >= 2]
        for i in playing:
            api.post(f"/api/tables/{i}/events", {"type": "deal"}, role="dealer", status=201)
        for i in playing:
            live = live_at(api, i)
            finish(api, i, max(live, key=lambda s: (live[s]["stack"], s)), min(live, key=lambda s: (live[s]["stack"], s)))
        check()
        if api.get(f"/api/events/{event}/clock")["hand_for_hand"]:
            balance()
    info = check()
    assert rounds >= 1 and info["players_left"] <= 3 and info["running"]
    balance()
    assert [len(live_at(api, i)) for i in ids][1:] == [0, 0, 0]  # the final table

    # an ICM deal among the players left at the final table
    assert info["players_left"] >= 2
    offer = api.get(f"/api/events/{event}/chop?method=icm", role="floor")
    left_to_pay = sum(p["prize"] for p in info["payouts"][: info["players_left"]])
    assert sum(r["prize"] for r in offer) == left_to_pay
    api.post(f"/api/events/{event}/chop", {"method": "icm", "agreed": [r["player"] for r in offer]},
             role="floor", status=201)
    assert api.get(f"/api/events/{event}/clock")["running"] is False  # the deal ends the event
    results = api.get(f"/api/events/{event}/results")
    places = sorted(r["place"] for r in results)
    assert len(results) == 30 and places[0] == 1 and None not in places
    assert sum(r["prize"] for r in results) == info["prize_pool"] == 32 * 40
    assert sum(r["bounties"] for r in results) == 32 * 10
    bounties = api.get(f"/api/events/{event}/bounties")
    for b in bounties:  # every bounty traced to a hand of a table's log, a deal
        log = api.get(f"/api/tables/{b['table_id']}/events")
        entries = log["events"] if isinstance(log, dict) else log
        assert next(e for e in entries if e["seq"] == b["hand"])["event"]["type"] == "deal"

