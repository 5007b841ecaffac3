"""A pot carried over deal after deal, with a ruling every deal (issue 23): the answer to a tap
carries the rulings of the deal on the table, not every ruling of the pot, so it stays the same
size at the 5th and the 40th deal; the pot's rulings stay counted in the state and listed in full
on the table's rulings page (F2: false openers found before the draw, nobody reopens, the pot
stays for the next deal)."""

from __future__ import annotations

import dataclasses
import json

from rules import jackpot
from tests.conftest import bearer

SETUP = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
         "seats": [{"seat": n, "player": f"P{n}", "stack": 100_000} for n in range(1, 5)]}


def deal_with_false_openers(log):
    """The events of one deal: the first to act opens, false openers are found before the draw,
    every eligible player declines to reopen; the pot carries over with its ruling (F2, F3)."""
    def post(event):
        state = log(event)
        return state
    state = post({"type": "deal"})
    opener = state["to_act"]
    post({"type": "open", "seat": opener})
    state = post({"type": "false_openers", "seat": opener})
    while state["phase"] != "between_deals":
        state = post({"type": "pass", "seat": state["to_act"]})
    return state


def test_F2_a_carried_pot_answers_with_this_deals_ruling_and_counts_the_rest(app, tokens):
    client = app.test_client()
    table = client.post("/api/tables", json={"name": "Carry", **SETUP}, headers=bearer(tokens["director"])).json
    floor = bearer(tokens["floor"])
    sizes = {}
    last = {}

    def log(event):
        response = client.post(f"/api/tables/{table['id']}/events", json=event, headers=floor)
        assert response.status_code == 201, response.json
        last.update(response.json)
        return response.json["state"]

    for deal in range(1, 41):
        state = deal_with_false_openers(log)
        assert state["pot"] == 30 * deal, "F2: the pot stays for the next deal"
        # the state names this deal's ruling only, and counts the pot's
        assert [r["deal"] for r in state["rulings"]] == [deal]
        assert state["rulings"][0]["outcome"] == "POT_CARRIES_OVER"
        assert state["rulings_in_pot"] == deal
        if deal in (5, 40):
            sizes[deal] = len(json.dumps(last))
    # the answer does not grow with the pot's rulings (a few bytes for longer numbers at most)
    assert abs(sizes[40] - sizes[5]) < 200, sizes

    # the next deal of the same pot: no ruling of its own yet, the pot's forty still counted
    state = log({"type": "deal"})
    assert state["rulings"] == [] and state["rulings_in_pot"] == 40

    # every ruling of the pot is on the table's rulings page, newest first
    page = client.get(last["rulings_url"] + "?limit=200", headers=floor).json
    assert len(page["rulings"]) == 40 and page["next"] is None
    assert {r["outcome"] for r in page["rulings"]} == {"POT_CARRIES_OVER"}
    assert client.get(f"/api/tables/{table['id']}", headers=floor).json["rulings_url"] == last["rulings_url"]


def test_F2_the_engine_keeps_every_ruling_of_the_pot_and_compares_them():
    """The engine's state still holds the pot's rulings (``pot_rulings``); two states that differ
    only in an earlier deal's ruling are not equal, though to_dict() shows this deal's alone."""
    state = jackpot.replay_state(SETUP, [])

    def log(event):
        nonlocal state
        state = state.apply(event)
        return state.to_dict()

    for _ in range(12):
        deal_with_false_openers(log)
    assert [r["deal"] for r in state.pot_rulings] == list(range(1, 13))
    assert [r["deal"] for r in state.deal_rulings()] == [12]
    changed = state._t.copy()
    changed.rulings = (state.pot_rulings[0], {**state.pot_rulings[1], "outcome": "REOPENED"}, *state.pot_rulings[2:])
    other = dataclasses.replace(state, _t=changed)
    assert other.to_dict() == state.to_dict() and other != state
