"""Deals and the tournament's money (issue 29): what a deal does with the bounties, the deal sheet,
and every unit paid in accounted for: the results' prizes plus their bounties are what was paid in
(fees aside), whatever the deal. Through the contract's HTTP API, with hands played at the table."""

from __future__ import annotations

import pytest

from tests.test_tournament_desk import STRUCTURE, make_event, play_bust, seats_of
from tests.tourney_play import Api

BOUNTY = {**STRUCTURE, "bounty": 10}  # buy-in 50: 40 to the prize pool, 10 on the player's head


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def five_down_to_three(api):
    """Five entries at one table: the first seat busts the second in a hand (its bounty won), the
    floor busts out the third by hand (its bounty nobody's). Three left, the winner the chip leader."""
    event, ids = make_event(api, entries=5, tables=1, seats=6, structure=BOUNTY)
    seats = seats_of(api, ids[0])
    order = sorted(seats)
    names = {s: x["player"] for s, x in seats.items()}
    play_bust(api, ids[0], order[0], order[1])
    api.post(f"/api/events/{event}/eliminate", {"player": names[order[2]], "reason": "left the event"},
             role="floor", status=201)
    left = [names[s] for s in order if s not in order[1:3]]
    return event, ids, names[order[0]], left


def money(api, event):
    rows = api.get(f"/api/events/{event}/results")
    return {r["player"]: (r["prize"], r["bounties"]) for r in rows}


def test_after_an_icm_deal_the_bounties_nobody_won_are_shared_by_the_chips_not_the_leader_s(api):
    """Deal bounties, kept (the default): each player in the deal keeps the bounty on their own head;
    the one nobody won (a manual bust-out) goes by the chips, as the champion's chance does, not to the
    chip leader alone (the old results credited the leader with every unclaimed bounty). Prizes and
    bounties sum to the 5 x 50 paid in."""
    event, _, leader, left = five_down_to_three(api)
    offer = api.get(f"/api/events/{event}/chop?method=icm", role="floor")
    stacks = {r["player"]: r["stack"] for r in offer}
    assert offer[0]["player"] == leader and stacks == {leader: 230, left[1]: 90, left[2]: 90}
    # each keeps its own 10; the unclaimed 10 by the chips: 230/410 of it is 5.6, 90/410 is 2.2
    assert {r["player"]: r["bounty"] for r in offer} == {leader: 10 + 6, left[1]: 10 + 2, left[2]: 10 + 2}
    assert {r["player"]: r["bounties_won"] for r in offer} == {leader: 10, left[1]: 0, left[2]: 0}
    api.post(f"/api/events/{event}/chop", {"method": "icm", "agreed": left}, role="floor", status=201)
    paid = money(api, event)
    assert paid[leader][1] == 10 + 16  # the bounty won in play, then the deal's
    assert [paid[p][1] for p in left[1:]] == [12, 12]
    assert sum(p for p, _ in paid.values()) == 5 * 40 and sum(b for _, b in paid.values()) == 5 * 10


@pytest.mark.parametrize("bounties", ["kept", "shared", "custom"])
def test_prizes_and_bounties_sum_to_what_was_paid_in_whatever_the_deal(api, bounties):
    """Every deal's bounty rule: the deal pays the bounties not yet won (three heads and one nobody
    won: 40), no more and no less; results' prizes plus bounties are what the buy-ins paid."""
    event, _, leader, left = five_down_to_three(api)
    body = {"method": "chip", "agreed": left, "bounties": bounties}
    if bounties == "custom":
        body["bounties"] = {leader: 20, left[1]: 10, left[2]: 9}
        refused = api.call("POST", f"/api/events/{event}/chop", role="floor", json=body)
        assert refused.status_code == 422 and "add up to 39" in refused.get_json()["message"]
        body["bounties"] = {leader: 20, left[1]: 10, left[2]: 10}
    rows = api.post(f"/api/events/{event}/chop", body, role="floor", status=201)
    assert sum(r["bounty"] for r in rows) == 40
    if bounties == "shared":  # 40 by the chips 230/90/90: 22.4, 8.8, 8.8
        assert {r["player"]: r["bounty"] for r in rows} == {leader: 22, left[1]: 9, left[2]: 9}
    paid = money(api, event)
    assert sum(p for p, _ in paid.values()) + sum(b for _, b in paid.values()) == 5 * 50


def test_a_deal_waits_for_the_pots_in_play(api):
    """A deal counts the chips in front of the players: refused while a hand is played or a pot is
    carried at a table (those chips are nobody's yet)."""
    event, ids, leader, left = five_down_to_three(api)
    api.log(ids[0], {"type": "deal"})
    refused = api.call("GET", f"/api/events/{event}/chop?method=icm", role="floor")
    assert refused.status_code == 422 and "is in a hand" in refused.get_json()["message"]
    state = api.table(ids[0])
    while state["phase"] != "between_deals":  # everyone passes: the pot is carried
        state = api.log(ids[0], {"type": "pass", "seat": state["to_act"]})["state"]
    assert state["pot"] == 3 * 10  # the level's antes
    refused = api.call("POST", f"/api/events/{event}/chop", role="floor", json={"method": "icm", "agreed": left})
    assert refused.status_code == 422 and "a pot of 30 is carried" in refused.get_json()["message"]


def test_a_deal_is_refused_when_the_chips_changed_since_the_sheet(api):
    """``seen``: the chips on the sheet the players signed; a recount since then voids the sheet."""
    event, ids, leader, left = five_down_to_three(api)
    seen = {r["player"]: r["stack"] for r in api.get(f"/api/events/{event}/chop?method=icm", role="floor")}
    api.post(f"/api/events/{event}/counts", {"player": leader, "stack": 190, "reason": "recount"}, role="floor",
             status=201)
    refused = api.call("POST", f"/api/events/{event}/chop", role="floor",
                       json={"method": "icm", "agreed": left, "seen": seen})
    assert refused.status_code == 422 and "changed since the sheet" in refused.get_json()["message"]
    seen[leader] = 190
    api.post(f"/api/events/{event}/chop", {"method": "icm", "agreed": left, "seen": seen}, role="floor", status=201)


def test_after_a_deal_the_event_is_over_on_the_clock(api):
    """After a deal nothing is in play: the clock says the event ended with the deal and refuses to run."""
    event, _, _, left = five_down_to_three(api)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    api.post(f"/api/events/{event}/chop", {"method": "icm", "agreed": left}, role="floor", status=201)
    info = api.get(f"/api/events/{event}/clock")
    assert info["running"] is False and info["ended"]["by"] == "deal" and info["ended"]["method"] == "icm"
    refused = api.call("POST", f"/api/events/{event}/clock", role="floor", json={"action": "resume"})
    assert refused.status_code == 422 and "ended with a deal" in refused.get_json()["message"]


# --------------------------------------------------------------------------- the deal page


def test_the_floor_settles_a_custom_deal_from_the_page_as_the_api_does(app, api):
    """The deal page: the players' own figures (custom prizes and bounties) are drawn up, reviewed and
    settled by the floor with every player's signature; the results read what the API would have
    recorded. Refused, saying why, when a player has not signed or the figures do not add up; a
    dealer may not settle (403)."""
    from tests.conftest import login

    event, _, leader, left = five_down_to_three(api)
    floor = login(app.test_client(), "fred")
    offer = floor.get(f"/tournament/{event}/deal?method=custom&bounties=custom").get_data(as_text=True)
    assert f'name="prize:{leader}"' in offer and f'name="bounty:{leader}"' in offer and "Review the deal" in offer
    figures = {"method": "custom", "bounties": "custom", f"prize:{leader}": "80", f"prize:{left[1]}": "60",
               f"prize:{left[2]}": "60", f"bounty:{leader}": "20", f"bounty:{left[1]}": "10", f"bounty:{left[2]}": "10"}
    review = floor.get(f"/tournament/{event}/deal/review", query_string=figures).get_data(as_text=True)
    assert "Settle the deal" in review and "has signed" in review
    seen = api.get(f"/api/events/{event}/chop?method=icm", role="floor")
    form = {**figures, "seen": '{' + ", ".join(f'"{r["player"]}": {r["stack"]}' for r in seen) + '}'}
    unsigned = floor.post(f"/tournament/{event}/deal", data={**form, "agreed": left[:2]})
    assert unsigned.status_code == 422 and f"not agreed: {left[2]}" in unsigned.get_data(as_text=True)
    wrong = floor.post(f"/tournament/{event}/deal", data={**form, f"prize:{leader}": "81", "agreed": left})
    assert wrong.status_code == 422 and "the prizes add up to 201; what is left to pay is 200" in wrong.get_data(as_text=True)
    dealer = login(app.test_client(), "dee")
    assert dealer.post(f"/tournament/{event}/deal", data={**form, "agreed": left}).status_code == 403
    done = floor.post(f"/tournament/{event}/deal", data={**form, "agreed": left})
    assert done.status_code == 302
    sheet = floor.get(f"/tournament/{event}/deal").get_data(as_text=True)
    assert "Settled" in sheet and "Signature" in sheet
    paid = money(api, event)
    assert paid[leader] == (80, 10 + 20) and paid[left[1]] == (60, 10) and paid[left[2]] == (60, 10)
    assert sum(p for p, _ in paid.values()) + sum(b for _, b in paid.values()) == 5 * 50
    again = floor.get(f"/tournament/{event}/deal/review?method=icm")
    assert again.status_code == 302  # settled: the review goes back to the sheet
    show = floor.get(f"/tournament/{event}/").get_data(as_text=True)
    assert "Ended with a deal" in show and 'value="resume"' not in show
    assert "ended (deal)" in floor.get("/tournament/").get_data(as_text=True)


def test_after_a_deal_nothing_is_bought_nor_moved(api):
    """After a deal the money is shared out: a rebuy or an add-on would pay into a pool already paid
    out (the results would no longer add up), so they are refused, as are balancing moves."""
    structure = {**BOUNTY, "rebuy_levels": 2, "add_on": {"chips": 100, "price": 50}}
    event, ids = make_event(api, entries=3, tables=1, structure=structure)
    players = [x["player"] for x in api.table(ids[0])["seats"].values()]
    api.post(f"/api/events/{event}/chop", {"method": "chip", "agreed": players}, role="floor", status=201)
    for kind in ("rebuy", "add_on"):
        refused = api.call("POST", f"/api/events/{event}/buys", role="floor", json={"player": players[0], "kind": kind})
        assert refused.status_code == 422 and "ended with a deal" in refused.get_json()["message"], kind
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 3 * 40
    paid = money(api, event)
    assert sum(p for p, _ in paid.values()) + sum(b for _, b in paid.values()) == 3 * 50
