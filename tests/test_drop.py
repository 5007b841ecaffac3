"""The drop for a promotion (issue 32): the profile's ``drop`` {amount, pool}, chips set aside from a
pot won for the high-hand or bad-beat pool, after the rake, never from a carried deal, once per pot
even when a ruling settles the pot again (docs/house.md)."""

from __future__ import annotations

import pytest

from rules import ProfileError
from rules.jackpot import start
from rules.profiles import get_profile
from tests.conftest import SETUP, bearer
from tests.test_rake import ONE_POT, law, play, showdown, win_one_pot_through_the_api

# drop = {amount = 2, pool = "high_hand"}; rake = {percent = 10, cap = 8, min_pot = 20}
DROP = {"amount": 2, "pool": "high_hand"}
RAKE = {"percent": 10, "cap": 8, "min_pot": 20}


def table(profile, stacks=(500, 500, 500, 500)):
    return start({"profile": {"wild": "none", **profile}, "ante": 5, "small_bet": 10, "big_bet": 20, "button": 4,
                  "seats": [{"seat": i + 1, "player": n, "stack": s}
                            for i, (n, s) in enumerate(zip(("Ann", "Bob", "Cy", "Dee"), stacks))]})


def test_drop_option_is_checked_by_the_profile_schema() -> None:
    """drop = {amount, pool}: a pool of the promotions, an amount within bounds."""
    assert get_profile({"drop": DROP}).drop.pool == "high_hand"
    for bad, words in (({"amount": 2, "pool": "jackpot"}, "drop: pool is one of high_hand, bad_beat"),
                       ({"amount": 0, "pool": "bad_beat"}, "drop.amount: 0 is less"),
                       ({"pool": "bad_beat"}, "drop: amount is missing")):
        with pytest.raises(ProfileError, match=words):
            get_profile({"drop": bad})


def test_drop_is_set_aside_after_the_rake_from_a_pot_won_never_from_a_carried_deal() -> None:
    """drop with rake: nobody opens, nothing is taken; the next deal's pot of 50 won gives the rake 5
    and the high-hand pool 2, the winner 43."""
    t = table({"drop": DROP, "rake": RAKE})
    t = play(t, [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in (1, 2, 3, 4)], 2000)
    assert t.to_dict()["house"]["drop"] == 0
    t = play(t, [{"type": "deal"}, {"type": "open", "seat": 2}, {"type": "fold", "seat": 3},
                 {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1},
                 {"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"}], 2000)
    d = law(t, 2000)
    assert d["house"] == {"rake": 5, "time": 0, "drop": 2, "last_rake": 5, "last_drop": 2, "pool": "high_hand"}
    assert d["awards"] == {2: 43} and "2 set aside for the high hand promotion" in d["message"]


def test_drop_one_pot_with_a_split_a_side_pot_and_a_ruling_sets_aside_the_drop_once() -> None:
    """drop and rake on the pot of 120 (main 60, side 60) split, then settled again by a ruling: the
    rake 8 and the drop 2 are taken once, from the main pot first."""
    stacks = (15, 500, 500, 500)
    t = showdown(play(table({"drop": DROP, "rake": RAKE}, stacks), ONE_POT, sum(stacks)), sum(stacks))
    d = law(t, sum(stacks))
    assert (d["house"]["rake"], d["house"]["drop"]) == (8, 2) and d["awards"] == {2: 25 + 30, 3: 25 + 30}
    t = play(t, [{"type": "ruling", "ruling": {"outcome": "HAND_DEAD_CARD_COUNT", "dead": [3], "pot_plays": True,
                                               "citations": ["D8"], "summary": "seat 3 had six cards"}}], sum(stacks))
    d = law(t, sum(stacks))
    assert (d["house"]["rake"], d["house"]["drop"]) == (8, 2) and d["awards"] == {2: 110}


def test_drop_without_a_rake_through_the_api(client, tokens) -> None:
    """drop = {amount = 3, pool = "bad_beat"} through HTTP: every pot won gives the pool 3."""
    created = client.post("/api/tables", json={"name": "BB", **SETUP, "profile": {
        "base": "cardroom", "drop": {"amount": 3, "pool": "bad_beat"}}}, headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    tid, headers = created.json["id"], bearer(tokens["dealer"])
    win_one_pot_through_the_api(client, tid, headers)
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    assert state["house"]["drop"] == 3 and state["house"]["pool"] == "bad_beat" and state["awards"] == {"2": 27}
