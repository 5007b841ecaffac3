"""The house's rake (issue 32): the profile's ``rake`` {percent, cap, min_pot}, taken when a pot is
won, never from a carried deal; from the pot before it is split, main pot first; a ruling that
awards the pot again rakes it once. The conservation law with the house's take: stacks + pot +
house == starting stacks + chips in - chips out, after every event and ruling (docs/house.md)."""

from __future__ import annotations

import pytest

from rules import ProfileError
from rules.jackpot import start
from rules.profiles import get_profile
from tests.conftest import SETUP, bearer

# rake = {percent = 10, cap = 8, min_pot = 20}
RAKE = {"percent": 10, "cap": 8, "min_pot": 20}


def table(rake, stacks=(500, 500, 500, 500), wild="none"):
    return start({"profile": {"rake": rake, "wild": wild}, "ante": 5, "small_bet": 10, "big_bet": 20,
                  "button": 4, "seats": [{"seat": i + 1, "player": n, "stack": s}
                                         for i, (n, s) in enumerate(zip(("Ann", "Bob", "Cy", "Dee"), stacks))]})


def law(state, start_chips):
    """The conservation law of contract part four: chips in = chips out + on the table + the house's take."""
    d = state.to_dict()
    on_table = sum(x["stack"] for x in d["seats"].values()) + d["pot"]
    house = d["house"]["rake"] + d["house"]["time"] + d["house"]["drop"]
    assert start_chips + d["ledger"]["chips_in"] == d["ledger"]["chips_out"] + on_table + house
    return d


def play(t, events, start_chips):
    for e in events:
        t = t.apply(e)
        law(t, start_chips)
    return t


#: A pot of 30 won by seat 2 alone: four antes of 5, the opening of 10, every other seat folding.
ONE_POT_WON = [{"type": "deal"}, {"type": "open", "seat": 2}, {"type": "fold", "seat": 3}, {"type": "fold", "seat": 4},
               {"type": "fold", "seat": 1}, {"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"}]


def win_one_pot_through_the_api(client, tid, headers) -> None:
    """Log :data:`ONE_POT_WON` at table ``tid`` through HTTP, each event logged."""
    for version, event in enumerate(ONE_POT_WON):
        r = client.post(f"/api/tables/{tid}/events", json={**event, "expected_version": version}, headers=headers)
        assert r.status_code in (200, 201), r.json


def test_rake_option_is_checked_by_the_profile_schema_with_bounds() -> None:
    """rake = {percent, cap, min_pot}: the schema refuses what no card room plays, naming the bound."""
    assert get_profile({"rake": RAKE}).rake.due(200) == 8
    assert get_profile({"rake": {"percent": 5, "cap": 3}}).rake.min_pot == 0
    for bad, words in (({"percent": 25, "cap": 5}, "rake.percent: 25 is more than any card room plays; at most 10"),
                       ({"percent": 0, "cap": 5}, "rake.percent: 0 is less than any card room plays"),
                       ({"percent": 5, "cap": 0}, "rake.cap: 0 is less"),
                       ({"percent": 5}, "rake: cap is missing"),
                       ({"percent": 5, "cap": 3, "drop": 1}, "rake: unknown field 'drop'"),
                       ({"percent": "5%", "cap": 3}, "rake: percent is a whole number"),
                       (5, "rake: a table of numbers")):
        with pytest.raises(ProfileError, match=words.replace("(", r"\(").replace(")", r"\)")):
            get_profile({"rake": bad})


def test_rake_the_house_takes_its_percent_of_a_pot_won_up_to_the_cap() -> None:
    """rake = {percent = 10, cap = 8, min_pot = 20}: a pot of 40 won gives the house 4."""
    t = table(RAKE)
    t = play(t, [{"type": "deal"}, {"type": "open", "seat": 1}, {"type": "call", "seat": 2},
                 {"type": "fold", "seat": 3}, {"type": "fold", "seat": 4}], 2000)
    t = play(t, [{"type": "draw", "seat": 1, "count": 0}, {"type": "draw", "seat": 2, "count": 0},
                 {"type": "check", "seat": 1}, {"type": "check", "seat": 2},
                 {"type": "show", "seat": 1, "cards": "As Ad 9c 8h 2s"},
                 {"type": "show", "seat": 2, "cards": "Ks Kd 9d 8d 3s"}], 2000)
    d = law(t, 2000)
    assert d["awards"] == {1: 36} and d["house"]["rake"] == 4 and d["house"]["last_rake"] == 4
    assert "the house rakes 4" in d["message"]


def test_rake_is_never_taken_from_a_carried_deal_and_once_when_the_pot_is_won() -> None:
    """rake: nobody opens, the pot of 20 carries untouched; won on the next deal, the whole jackpot
    of 50 is raked once (10 % of 50 = 5)."""
    t = table(RAKE)
    t = play(t, [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in (1, 2, 3, 4)], 2000)
    d = law(t, 2000)
    assert d["pot"] == 20 and d["house"]["rake"] == 0 and d["last_end"] == "throw_in"
    t = play(t, [{"type": "deal"}, {"type": "open", "seat": 2}, {"type": "fold", "seat": 3},
                 {"type": "fold", "seat": 4}, {"type": "fold", "seat": 1},
                 {"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"}], 2000)
    d = law(t, 2000)
    assert d["house"]["rake"] == 5 and d["awards"] == {2: 45}


def test_rake_min_pot_a_small_pot_is_not_raked() -> None:
    """rake min_pot = 20: a pot under 20 chips is paid whole."""
    t = start({"profile": {"rake": {"percent": 10, "cap": 8, "min_pot": 20}}, "ante": 2, "small_bet": 5,
               "button": 1, "seats": [{"seat": 1, "player": "A", "stack": 100}, {"seat": 2, "player": "B", "stack": 100}]})
    t = play(t, [{"type": "deal"}, {"type": "open", "seat": 2}, {"type": "fold", "seat": 1},
                 {"type": "show", "seat": 2, "cards": "Qs Qd 9c 8h 2s"}], 200)
    assert law(t, 200)["awards"] == {2: 9} and t.to_dict()["house"]["rake"] == 0


# The pot of the next three tests: seat 1 is all in for 15 (the ante and a call of the opening), so
# the main pot is 4 x 15 = 60 and the side pot 3 x 20 = 60; seats 2 and 3 tie with aces and kings.
ONE_POT = [{"type": "deal"}, {"type": "pass", "seat": 1}, {"type": "open", "seat": 2}, {"type": "call", "seat": 3},
           {"type": "call", "seat": 4}, {"type": "call", "seat": 1},
           *({"type": "draw", "seat": s, "count": 0} for s in (1, 2, 3, 4)),
           {"type": "bet", "seat": 2}, {"type": "call", "seat": 3}, {"type": "call", "seat": 4}]
HANDS = {1: "Qs Qd 5c 4h 2s", 2: "As Ad Kc Kh 7s", 3: "Ac Ah Ks Kd 7c", 4: "Js Jd 9c 8h 3s"}


def showdown(t, start_chips):
    while t.to_dict()["phase"] == "showdown":
        s = t.to_dict()["to_act"]
        t = play(t, [{"type": "show", "seat": s, "cards": HANDS[s]}], start_chips)
    return t


@pytest.mark.parametrize("rake, taken", [({"percent": 10, "cap": 8, "min_pot": 20}, 8),
                                         ({"percent": 5, "cap": 50}, 6),
                                         ({"percent": 10, "cap": 100, "min_pot": 500}, 0)])
def test_rake_one_pot_with_a_split_a_side_pot_and_a_ruling_takes_exactly_the_rake_the_option_gives(rake, taken):
    """rake: a pot of 120 (main 60, side 60) split between two tied hands, then a ruling on the last
    deal that kills one of the tied hands and gives the whole pot to the other. The house takes
    exactly rake.due(120): from the main pot, before the split; the ruling's new award replaces the
    first, raked once, and the law holds after every event."""
    stacks = (15, 500, 500, 500)
    t = play(table(rake, stacks), ONE_POT, sum(stacks))
    d = t.to_dict()
    assert d["pot"] == 120 and [p["amount"] for p in d["pots"]] == [60, 60]
    t = showdown(t, sum(stacks))
    d = law(t, sum(stacks))
    main, side = 60 - taken, 60  # the rake comes off the main pot first (never above its 60 here)
    assert d["house"]["rake"] == taken == get_profile({"rake": rake}).rake.due(120)
    # seats 2 and 3 split both pots; the odd chip of a pot goes to the first of them after the button
    assert d["awards"] == {2: (main + 1) // 2 + side // 2, 3: main // 2 + side // 2}
    assert d["seats"][1]["stack"] == 0
    before = {s: x["stack"] for s, x in d["seats"].items()}
    # the floor rules seat 3's hand dead (a wrong card count found at the show): the pot is settled
    # again among the others; seat 2 takes the main pot and the side pot
    t = play(t, [{"type": "ruling", "ruling": {"outcome": "HAND_DEAD_CARD_COUNT", "dead": [3], "pot_plays": True,
                                               "citations": ["D8"], "summary": "seat 3 had six cards"}}], sum(stacks))
    d = law(t, sum(stacks))
    assert d["house"]["rake"] == taken  # raked once, not twice
    # each seat gets the difference between the new settlement and the first
    assert d["seats"][2]["stack"] - before[2] == 120 - taken - ((main + 1) // 2 + side // 2)
    assert d["awards"] == {2: 120 - taken}
    assert d["seats"][2]["stack"] == 500 - 35 + 120 - taken and d["seats"][3]["stack"] == 500 - 35


def test_rake_a_ruling_that_carries_the_pot_gives_the_rake_back() -> None:
    """rake: a ruling between deals that leaves the last pot to carry (nobody wins it) gives the rake
    taken from it back to the pot: the house keeps no chip of a pot nobody won."""
    stacks = (15, 500, 500, 500)
    t = showdown(play(table(RAKE, stacks), ONE_POT, sum(stacks)), sum(stacks))
    assert t.to_dict()["house"]["rake"] == 8
    t = play(t, [{"type": "ruling", "ruling": {"outcome": "POT_CARRIES_OVER", "pot_plays": False,
                                               "citations": ["F4"], "summary": "the deal is void"}}], sum(stacks))
    d = law(t, sum(stacks))
    assert d["house"]["rake"] == 0 and d["pot"] == 120 and "the rake of 8 is given back" in d["message"]


def test_a_raked_table_through_the_api(client, tokens) -> None:
    """rake through HTTP: a profile with a rake out of bounds is 422 naming it; a raked table's state
    shows the house's take after a pot is won."""
    bad = client.post("/api/tables", json={"name": "R", **SETUP, "profile": {"base": "cardroom",
                                                                             "rake": {"percent": 50, "cap": 5}}},
                      headers=bearer(tokens["director"]))
    assert bad.status_code == 422 and "rake.percent: 50 is more than any card room plays" in bad.json["message"]
    created = client.post("/api/tables", json={"name": "R", **SETUP, "profile": {"base": "cardroom", "rake": RAKE}},
                          headers=bearer(tokens["director"]))
    assert created.status_code == 201, created.json
    tid, headers = created.json["id"], bearer(tokens["dealer"])
    win_one_pot_through_the_api(client, tid, headers)
    state = client.get(f"/api/tables/{tid}", headers=headers).json["state"]
    assert state["house"] == {"rake": 3, "time": 0, "drop": 0, "last_rake": 3, "last_drop": 0, "pool": None}  # 10 % of 30
    assert state["awards"] == {"2": 27}
    assert sum(x["stack"] for x in state["seats"].values()) + state["pot"] + state["house"]["rake"] == 2000
