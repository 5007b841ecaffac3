"""A tournament's tables are seated by the desk only (issue 31; docs/players.md): a
dealer's ``sit``, ``add_chips`` or ``leave`` at a tournament's table is refused by the server naming the
desk, from the JSON API and from the tablet's own tap; the tablet offers none of them there; a rebuy
outside the structure's rebuy levels or add-on is refused at the desk; no deal during a break, the
refusal saying when play resumes. Chips in play are checked after each refusal: nothing was made."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from floor.tournament import service
from tests.conftest import csrf_token_from, login
from tests.tourney_play import Api

FREEZEOUT = {
    "levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100},
               {"break": 10},
               {"minutes": 20, "ante": 20, "small_bet": 100, "big_bet": 200}],
    "starting_chips": 1000, "buy_in": 50, "payouts": [70, 30],
}


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 23, 19, 0, 0)  # 19:00 UTC; the test room's zone is UTC

    def __call__(self):
        return self.now

    def wait(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock(app, monkeypatch):
    app.config["FLOOR_TIMEZONE"] = "UTC"
    c = Clock()
    monkeypatch.setattr(service, "utcnow", c)
    return c


def freezeout(api, structure=FREEZEOUT, entries=4):
    event = api.post("/api/events", {"name": "Freezeout", "structure": structure}, status=201)["id"]
    table = api.post(f"/api/events/{event}/tables", {"name": "Final", "seats": 6}, status=201)["id"]
    for n in range(entries):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1}"}, status=201)
    api.post(f"/api/events/{event}/draw", status=200)
    return event, table


def chips_in_play(api, event):
    return api.get(f"/api/events/{event}/clock")["chips_in_play"]


def an_empty_and_a_taken_seat(api, table):
    seats = {int(s) for s in api.table(table)["seats"]}
    return min(set(range(1, 7)) - seats), min(seats)


@pytest.mark.parametrize("kind", ["sit", "add_chips", "leave"])
def test_a_dealers_seating_at_a_tournament_table_is_refused_naming_the_desk(api, kind):
    """Issue 31: the tablet seated "Intruder" with 99,999 chips on a freezeout's table and sold a
    rebuy the structure does not have; the server refuses each from a dealer (403), naming the desk."""
    event, table = freezeout(api)
    empty, taken = an_empty_and_a_taken_seat(api, table)
    before, version = chips_in_play(api, event), api.get(f"/api/tables/{table}")["version"]
    event_of = {"sit": {"type": "sit", "seat": empty, "player": "Intruder", "chips": 99_999},
                "add_chips": {"type": "add_chips", "seat": taken, "amount": 99_999},
                "leave": {"type": "leave", "seat": taken}}[kind]
    answer = api.call("POST", f"/api/tables/{table}/events", "dealer", json=event_of)
    assert answer.status_code == 403, answer.get_json()
    message = answer.get_json()["message"]
    assert "tournament desk" in message and "Freezeout" in message
    assert chips_in_play(api, event) == before == 4 * 1000
    assert api.get(f"/api/tables/{table}")["version"] == version  # nothing logged


def test_the_floor_posting_a_sit_at_a_tournament_table_is_sent_to_the_desk(api):
    """The floor and the director seat through the desk, which keeps the entries: a raw ``sit`` is 422."""
    event, table = freezeout(api)
    empty, taken = an_empty_and_a_taken_seat(api, table)
    for role in ("floor", "director"):
        answer = api.call("POST", f"/api/tables/{table}/events", role,
                          json={"type": "sit", "seat": empty, "player": "Intruder", "chips": 99_999})
        assert answer.status_code == 422 and "tournament desk" in answer.get_json()["message"]
        answer = api.call("POST", f"/api/tables/{table}/events", role, json={"type": "add_chips", "seat": taken, "amount": 500})
        assert answer.status_code == 422 and "rebuys and add-on" in answer.get_json()["message"]
    assert chips_in_play(api, event) == 4 * 1000


def test_the_tablets_own_tap_is_refused_and_the_tablet_offers_no_seating(app, api):
    """The tablet's tap endpoint is the same server check; its page has no sit form, no rebuy, no leave there."""
    event, table = freezeout(api)
    empty, taken = an_empty_and_a_taken_seat(api, table)
    dealer = login(app.test_client(), "dee")
    page = dealer.get(f"/dealer/tables/{table}").get_data(as_text=True)
    assert "Sit a player" not in page and 'data-seat-action="add_chips"' not in page
    assert 'data-seat-action="leave"' not in page and 'data-seat-action="sit"' not in page
    assert 'data-seat-action="sit_out"' in page  # the dealer still sits a player out
    assert "the tournament desk seats" in page
    tap = api.call("POST", f"/dealer/tables/{table}/taps", "dealer",
                   json={"type": "sit", "seat": empty, "player": "Intruder", "chips": 99_999})
    assert tap.status_code == 403 and "tournament desk" in tap.get_json()["message"]
    assert chips_in_play(api, event) == 4 * 1000


def test_a_cash_table_still_seats_from_the_tablet(app, api, table_id):
    """The desk's rule is the tournament's: a cash game's dealer seats and rebuys as before."""
    page = login(app.test_client(), "dee").get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Sit a player" in page and 'data-seat-action="add_chips"' in page
    api.log(table_id, {"type": "sit", "seat": 6, "player": "Eve", "chips": 300})


def test_a_rebuy_the_structure_does_not_have_is_refused_at_the_desk(api):
    """rebuy_levels / add_on: a freezeout sells neither; the desk says so (422) and the pool is unchanged."""
    event, table = freezeout(api)
    for kind, words in (("rebuy", "no rebuys"), ("add_on", "no add-on")):
        answer = api.call("POST", f"/api/events/{event}/buys", "floor", json={"player": "Player 1", "kind": kind})
        assert answer.status_code == 422 and words in answer.get_json()["message"]
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 4 * 50


def test_a_rebuy_after_the_rebuy_levels_is_refused(api, clock):
    """rebuy_levels 1: once level 1 has ended (the break after it on), a rebuy is refused naming the level."""
    event, table = freezeout(api, {**FREEZEOUT, "rebuy_levels": 1})
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=21)  # the break
    clock.wait(minutes=10)  # level 2
    answer = api.call("POST", f"/api/events/{event}/buys", "floor", json={"player": "Player 1", "kind": "rebuy"})
    assert answer.status_code == 422 and "rebuys ended with level 1" in answer.get_json()["message"]


def test_no_deal_during_a_break_the_refusal_says_when_play_resumes(app, api, clock):
    """Issue 31: the tablet dealt during a break. A deal there is refused (422) with the time play
    resumes; the tablet shows the break instead of the Deal button; once the break is over it deals."""
    event, table = freezeout(api)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=23)  # 19:23, the break runs 19:20 to 19:30
    answer = api.call("POST", f"/api/tables/{table}/events", "dealer", json={"type": "deal"})
    assert answer.status_code == 422
    assert "on a break; play resumes at 19:30 (7 min from now)" in answer.get_json()["message"]
    page = login(app.test_client(), "dee").get(f"/dealer/tables/{table}").get_data(as_text=True)
    assert 'data-type="deal"' not in page and "play resumes at 19:30" in page
    api.post(f"/api/events/{event}/clock", {"action": "pause"}, role="floor", status=200)
    answer = api.call("POST", f"/api/tables/{table}/events", "floor", json={"type": "deal"})
    assert answer.status_code == 422 and "7 min after the director resumes" in answer.get_json()["message"]
    api.post(f"/api/events/{event}/clock", {"action": "resume"}, role="floor", status=200)
    clock.wait(minutes=7)
    dealt = api.log(table, {"type": "deal"})
    assert dealt["entry"]["event"]["small_bet"] == 100  # level 2's stakes, written into the deal



def test_the_floors_line_ups_move_no_player_into_or_out_of_a_tournament_table(app, api, table_id):
    """The line-ups' move is a leave and a sit: at a tournament's table the desk's to make. It moved
    a cash player with the cash stack into a freezeout (and a tournament player out of it, the
    desk none the wiser); now it is refused naming the desk, nothing is logged at either table, and
    the tournament's seats offer no "move…"."""
    event, table = freezeout(api)
    empty, taken = an_empty_and_a_taken_seat(api, table)
    floor = login(app.test_client(), "fred")
    versions = {t: api.get(f"/api/tables/{t}")["version"] for t in (table, table_id)}
    for from_table, from_seat, to_table, to_seat in ((table_id, 1, table, empty), (table, taken, table_id, 6)):
        token = csrf_token_from(floor.get("/floor/lineups").data)
        answer = floor.post("/floor/move", data={"csrf_token": token, "from_table": from_table, "from_seat": from_seat,
                                                 "to_table": to_table, "to_seat": to_seat})
        assert answer.status_code == 422 and "tournament desk" in answer.get_data(as_text=True)
    assert chips_in_play(api, event) == 4 * 1000
    assert {t: api.get(f"/api/tables/{t}")["version"] for t in versions} == versions
    page = floor.get("/floor/lineups").get_data(as_text=True)
    assert f"from_table={table}&amp;" not in page and f"from_table={table_id}&amp;" in page
