"""Waiting lists per game and stakes (issue 31; docs/players.md, "Waiting lists") through HTTP: roles
per action, the order and the times, a banned player refused at a list, a seat from the list
logging the ``sit`` at that table (the record's id on the seat) and taking the player off the list,
a table of other stakes or a tournament's table refused, the reasons of a removal."""

from __future__ import annotations

import pytest

from tests.conftest import SETUP
from tests.tourney_play import Api


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def a_list(api, game="cardroom", stakes="10/20", **more):
    return api.post("/api/lists", {"game": game, "stakes": stakes, **more}, role="floor", status=201)


def names(wl):
    return [p["name"] for p in wl["players"]]


@pytest.mark.parametrize("role, status", [("dealer", 403), ("floor", 201), ("director", 201)])
def test_who_may_open_a_list(api, role, status):
    api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role=role, status=status)


def test_a_dealer_may_not_join_call_seat_or_remove(api, table_id):
    wl = a_list(api)
    api.post(f"/api/lists/{wl['id']}/join", {"player": "Eve"}, role="floor", status=200)
    for action, body in (("join", {"player": "Gus"}), ("call", {"player": "Eve"}),
                         ("seat", {"player": "Eve", "table": table_id, "seat": 6, "chips": 200}),
                         ("remove", {"player": "Eve", "reason": "left"})):
        api.post(f"/api/lists/{wl['id']}/{action}", body, role="dealer", status=403)
    api.call("GET", "/api/lists", "dealer", status=403)
    assert names(api.get("/api/lists", role="floor")[0]) == ["Eve"]


def test_a_list_keeps_its_order_and_times_and_calls_a_player(api):
    wl = a_list(api)
    for player in ("Eve", "Gus", "Hal"):
        wl = api.post(f"/api/lists/{wl['id']}/join", {"player": player}, role="floor", status=200)
    assert names(wl) == ["Eve", "Gus", "Hal"]
    assert [p["since"] for p in wl["players"]] == sorted(p["since"] for p in wl["players"])
    assert all(p["player_id"] and p["called_at"] is None for p in wl["players"])
    called = api.post(f"/api/lists/{wl['id']}/call", {"player": "gus"}, role="floor", status=200)
    assert [p["called_at"] is not None for p in called["players"]] == [False, True, False]
    again = api.post(f"/api/lists/{wl['id']}/join", {"player": "Eve"}, role="floor", status=422)
    assert "on this list already" in again["message"]
    gone = api.post(f"/api/lists/{wl['id']}/remove", {"player": "Hal", "reason": "no_show"}, role="floor", status=200)
    assert names(gone) == ["Eve", "Gus"]
    bad = api.post(f"/api/lists/{wl['id']}/remove", {"player": "Eve", "reason": "bored"}, role="floor", status=422)
    assert "left, no_show, seated_elsewhere" in bad["message"]
    assert "not on the cardroom 10/20 list" in api.post(f"/api/lists/{wl['id']}/call", {"player": "Zed"},
                                                        role="floor", status=422)["message"]


def test_a_list_is_checked(api):
    a_list(api, stakes=" 10 / 20 ")
    assert "already" in api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role="floor", status=422)["message"]
    assert "stakes" in api.post("/api/lists", {"game": "cardroom", "stakes": "big"}, role="floor", status=422)["message"]
    assert "nosuchgame" in api.post("/api/lists", {"game": "nosuchgame", "stakes": "5/10"}, role="floor",
                                    status=422)["message"]
    interest = a_list(api, stakes="10/20", interest=True)
    assert interest["interest"] is True


def test_a_banned_player_is_refused_at_a_list(api):
    gus = api.post("/api/players", {"name": "Gus"}, role="floor", status=201)
    api.post(f"/api/players/{gus['id']}/ban", {"reason": "collusion"}, status=200)
    wl = a_list(api)
    refused = api.post(f"/api/lists/{wl['id']}/join", {"player": {"id": gus["id"]}}, role="floor", status=422)
    assert refused["message"] == "join: Gus is banned: collusion"
    assert api.get("/api/lists", role="floor")[0]["players"] == []


def test_seating_from_the_list_logs_the_sit_at_that_table(api, table_id):
    """seat {player, table, seat, chips}: the sit is logged at the table with the record's id; the
    player is off the list; a table of other stakes and a tournament's table are refused."""
    wl = a_list(api)
    api.post(f"/api/lists/{wl['id']}/join", {"player": "Eve"}, role="floor", status=200)
    other = api.post("/api/tables", {"name": "Big", "setup": {**SETUP, "small_bet": 50, "big_bet": 100}}, status=201)["id"]
    refused = api.post(f"/api/lists/{wl['id']}/seat", {"player": "Eve", "table": other, "seat": 6, "chips": 200},
                       role="floor", status=422)
    assert "plays cardroom 50/100, not this list's cardroom 10/20" in refused["message"]
    event = api.post("/api/events", {"name": "Cup", "structure": {
        "levels": [{"minutes": 20, "ante": 5, "small_bet": 10, "big_bet": 20}], "starting_chips": 100,
        "buy_in": 10, "payouts": [100]}}, status=201)["id"]
    cup = api.post(f"/api/events/{event}/tables", {"name": "Cup 1", "seats": 6}, status=201)["id"]
    refused = api.post(f"/api/lists/{wl['id']}/seat", {"player": "Eve", "table": cup, "seat": 1, "chips": 200},
                       role="floor", status=422)
    assert "tournament desk" in refused["message"]
    version = api.get(f"/api/tables/{table_id}")["version"]
    after = api.post(f"/api/lists/{wl['id']}/seat", {"player": "Eve", "table": table_id, "seat": 6, "chips": 200},
                     role="floor", status=200)
    assert after["players"] == []
    log = api.get(f"/api/tables/{table_id}/events?after={version}")["events"]
    eve = api.get("/api/players?q=Eve")[0]
    assert [e["event"] for e in log] == [{"type": "sit", "seat": 6, "player": "Eve", "chips": 200, "player_id": eve["id"]}]
    assert log[0]["logged_by"] == "fred"
    taken = api.post(f"/api/lists/{wl['id']}/join", {"player": "Gus"}, role="floor", status=200)
    refused = api.post(f"/api/lists/{wl['id']}/seat", {"player": "Gus", "table": table_id, "seat": 6, "chips": 200},
                       role="floor", status=422)
    assert "seat 6 is taken by Eve" in refused["message"] and names(api.get("/api/lists", role="floor")[0]) == ["Gus"]
    assert taken["players"][0]["name"] == "Gus"
    night = api.get(f"/api/players/{eve['id']}")["night"]  # the list is the player's night too
    assert [(x["game"], x["stakes"], x["reason"]) for x in night["lists"]] == [("cardroom", "10/20", "seated")]
    assert night["tables"][0]["stints"][0]["bought_in"] == 200
