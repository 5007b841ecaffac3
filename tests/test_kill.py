"""Kill pots (issue 32): the house's ``kill`` {after, times}. Once a player has won ``after`` pots in
a row alone, the next pot is a kill pot: its bets are ``times`` the table's and the killer puts in a
kill of one small bet of it; openers and antes stay (docs/house.md)."""

from __future__ import annotations

import pytest

from rules import IllegalAction, ProfileError
from rules.jackpot import start
from rules.jackpot.betting import RaiseMove
from rules.profiles import get_profile
from tests.conftest import SETUP, bearer

# kill = {after = 2, times = 2}
KILL = {"after": 2, "times": 2}


def table(profile):
    return start({"profile": {"wild": "none", **profile}, "ante": 5, "small_bet": 10, "big_bet": 20, "button": 3,
                  "seats": [{"seat": s, "player": p, "stack": 500} for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]})


def seat_wins(t, w):
    """A deal that seat ``w`` opens and wins uncalled (everyone else folds or passes)."""
    t = t.apply({"type": "deal"})
    while t.to_act != w:
        t = t.apply({"type": "pass", "seat": t.to_act})
    t = t.apply({"type": "open", "seat": w})
    while t.to_dict()["phase"] == "predraw":
        t = t.apply({"type": "fold", "seat": t.to_act})
    return t.apply({"type": "show", "seat": w, "cards": "Qs Qd 9c 8h 2s"})


def test_kill_option_is_checked_by_the_profile_schema() -> None:
    """kill = {after, times}: bounds named; not with spread limit."""
    assert get_profile({"kill": KILL}).kill.times == 2
    for bad, words in (({"after": 1, "times": 2}, "kill.after: 1 is less than any card room plays"),
                       ({"after": 2, "times": 9}, "kill.times: 9 is more"),
                       ({"after": 2}, "kill: times is missing")):
        with pytest.raises(ProfileError, match=words):
            get_profile({"kill": bad})
    with pytest.raises(ProfileError, match="kill: not with spread limit"):
        get_profile({"kill": KILL, "betting": "spread", "spread": [5, 20]})


def test_kill_after_two_pots_in_a_row_the_next_pot_is_killed_at_twice_the_bets() -> None:
    """kill = {after = 2, times = 2}: seat 1 wins two pots alone; the next pot's bets are 20/40 and
    seat 1 puts in a kill of 20 beside its ante; the raise there is 20 over the opening of 20."""
    t = seat_wins(seat_wins(table({"kill": KILL}), 1), 1)
    assert t.to_dict()["kill"] == {"seat": None, "streak": {"seat": 1, "pots": 2}}
    t = t.apply({"type": "deal"})
    d = t.to_dict()
    assert d["kill"]["seat"] == 1 and t.stakes == {"ante": 5, "small_bet": 20, "big_bet": 40}
    assert "a kill pot: seat 1 has won 2 pots in a row and puts in a kill of 20" in d["message"]
    assert d["pot"] == 15 + 20 and d["seats"][1]["put"] == 25 and d["seats"][1]["committed"] == 0
    while t.to_act != 2:
        t = t.apply({"type": "pass", "seat": t.to_act})
    t = t.apply({"type": "open", "seat": 2})  # openers unchanged: the opening is the kill's small bet
    assert t.to_dict()["pot"] == 35 + 20
    r = next(m for m in t.legal() if isinstance(m, RaiseMove))
    assert r.amount == 40
    with pytest.raises(IllegalAction):
        t.apply({"type": "open", "seat": 3})
    while t.to_dict()["phase"] == "predraw":
        t = t.apply({"type": "fold", "seat": t.to_act})
    t = t.apply({"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"})
    d = t.to_dict()
    # the kill pot is won by seat 2: the run is seat 2's now, and the bets are the table's again
    assert d["kill"] == {"seat": None, "streak": {"seat": 2, "pots": 1}}
    assert t.stakes == {"ante": 5, "small_bet": 10, "big_bet": 20}


def test_kill_a_split_pot_ends_the_run() -> None:
    """kill: a pot split between two hands is no pot won alone; the run starts again."""
    t = seat_wins(table({"kill": KILL}), 1).apply({"type": "deal"})
    while t.to_act != 2:
        t = t.apply({"type": "pass", "seat": t.to_act})
    t = t.apply({"type": "open", "seat": 2}).apply({"type": "call", "seat": 3})
    t = t.apply({"type": "fold", "seat": 1}) if t.to_act == 1 else t
    while t.to_dict()["phase"] != "postdraw":
        t = t.apply({"type": "draw", "seat": t.to_act, "count": 0})
    while t.to_dict()["phase"] == "postdraw":
        t = t.apply({"type": "check", "seat": t.to_act})
    hands = {2: "Qs Qd 9c 8h 2s", 3: "Qh Qc 9d 8s 2d"}
    while t.to_dict()["phase"] == "showdown":
        t = t.apply({"type": "show", "seat": t.to_act, "cards": hands[t.to_act]})
    assert len(t.to_dict()["awards"]) == 2
    assert t.to_dict()["kill"]["streak"] == {"seat": None, "pots": 0}


def test_a_kill_table_through_the_api(client, tokens) -> None:
    """kill through HTTP: the state names the run, and the kill pot's stakes."""
    created = client.post("/api/tables", json={"name": "K", **SETUP, "profile": {"base": "cardroom", "kill": KILL}},
                          headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    tid, headers = created.json["id"], bearer(tokens["dealer"])
    won = [{"type": "open", "seat": 2}, {"type": "fold", "seat": 3}, {"type": "fold", "seat": 4},
           {"type": "fold", "seat": 1}, {"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"}]
    # the button on seat 1, then on seat 2: seat 2 opens first, then after the others pass
    events = [{"type": "deal"}, *won, {"type": "deal"}, *({"type": "pass", "seat": s} for s in (3, 4, 1)), *won]
    for version, event in enumerate(events):
        r = client.post(f"/api/tables/{tid}/events", json={**event, "expected_version": version}, headers=headers)
        assert r.status_code in (200, 201), r.json
    version = len(events)
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    assert state["kill"]["streak"] == {"seat": 2, "pots": 2}
    r = client.post(f"/api/tables/{tid}/events", json={"type": "deal", "expected_version": version}, headers=headers)
    assert r.status_code in (200, 201), r.json
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    assert state["kill"]["seat"] == 2 and state["seats"]["2"]["put"] == 5 + 20
