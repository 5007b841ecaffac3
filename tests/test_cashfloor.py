"""Must-move games and seat-change requests (issue 31; docs/players.md, "Must-move games and seat
changes") through HTTP: roles per action; a seat opening at the main game calls the must-move
player who has waited longest, first on the main game's list; seating them moves them up with their
stack and opens their seat; seat changes honoured in order when a seat opens at that table."""

from __future__ import annotations

import pytest

from tests.conftest import SETUP
from tests.tourney_play import Api


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def a_table(api, name, seats):
    setup = {**SETUP, "capacity": 8, "seats": [{"seat": n, "player": p, "stack": 500} for n, p in seats]}
    return api.post("/api/tables", {"name": name, "setup": setup}, status=201)["id"]


def seats(api, table):
    return {int(n): s["player"] for n, s in api.table(table)["seats"].items()}


def test_who_may_set_feeds_and_ask_for_a_seat_change(api, table_id):
    feeder = a_table(api, "Must 1", [(1, "Kim"), (2, "Lou")])
    api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="dealer", status=403)
    api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Ann"}, role="dealer", status=403)
    api.call("GET", f"/api/tables/{table_id}/seat_changes", "dealer", status=403)
    assert api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="floor",
                    status=200) == {"table": feeder, "feeds": table_id}
    api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Ann"}, role="director", status=201)


def test_feeds_is_checked(api, table_id):
    feeder = a_table(api, "Must 1", [(1, "Kim")])
    big = api.post("/api/tables", {"name": "Big", "setup": {**SETUP, "small_bet": 50, "big_bet": 100}}, status=201)["id"]
    assert "feeds a main game of its own game and stakes" in api.post(
        f"/api/tables/{feeder}/feeds", {"table": big}, role="floor", status=422)["message"]
    assert "cannot feed itself" in api.post(f"/api/tables/{feeder}/feeds", {"table": feeder}, role="floor",
                                            status=422)["message"]
    assert "no table 999" in api.post(f"/api/tables/{feeder}/feeds", {"table": 999}, role="floor", status=422)["message"]
    api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="floor", status=200)
    other = a_table(api, "Must 2", [])
    assert "is a must-move game itself" in api.post(f"/api/tables/{other}/feeds", {"table": feeder}, role="floor",
                                                    status=422)["message"]
    assert "is a main game fed by a must-move game" in api.post(f"/api/tables/{table_id}/feeds", {"table": other},
                                                                role="floor", status=422)["message"]
    event = api.post("/api/events", {"name": "Cup", "structure": {
        "levels": [{"minutes": 20, "ante": 5, "small_bet": 10, "big_bet": 20}], "starting_chips": 100,
        "buy_in": 10, "payouts": [100]}}, status=201)["id"]
    cup = api.post(f"/api/events/{event}/tables", {"name": "Cup 1", "seats": 6}, status=201)["id"]
    assert "tournament desk" in api.post(f"/api/tables/{cup}/feeds", {"table": table_id}, role="floor",
                                         status=422)["message"]
    assert api.post(f"/api/tables/{feeder}/feeds", {"table": None}, role="floor", status=200)["feeds"] is None


def test_a_seat_opening_at_the_main_game_calls_the_must_move_player_who_has_waited_longest(api, table_id):
    """Main: Table 1 (Ann, Bob, Cleo, Dev). Must-move: Kim sat first, then Lou. A list player Eve
    waits too. Bob leaves the main game: Kim is called, first on the list; seating her moves her up
    with her stack, and her seat at the must-move game is open."""
    feeder = a_table(api, "Must 1", [])
    wl = api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role="floor", status=201)
    for player in ("Kim", "Lou", "Eve"):
        api.post(f"/api/lists/{wl['id']}/join", {"player": player}, role="floor", status=200)
    for seat, player, chips in ((3, "Kim", 300), (5, "Lou", 400)):  # seated from the main game's list
        api.post(f"/api/lists/{wl['id']}/seat", {"player": player, "table": feeder, "seat": seat, "chips": chips},
                 role="floor", status=200)
    api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="floor", status=200)
    before = api.get("/api/lists", role="floor")[0]
    assert [p["name"] for p in before["players"]] == ["Eve"]

    api.log(table_id, {"type": "leave", "seat": 2})  # Bob
    after = api.get("/api/lists", role="floor")[0]
    assert [(p["name"], p["called_at"] is not None, p["must_move_from"]) for p in after["players"]] == [
        ("Kim", True, feeder), ("Eve", False, None)]

    api.log(table_id, {"type": "leave", "seat": 3})  # Cleo: the next must-move player
    after = api.get("/api/lists", role="floor")[0]
    assert [p["name"] for p in after["players"]] == ["Kim", "Lou", "Eve"]

    api.post(f"/api/lists/{wl['id']}/seat", {"player": "Kim", "table": table_id, "seat": 2}, role="floor", status=200)
    assert seats(api, table_id)[2] == "Kim" and api.table(table_id)["seats"]["2"]["stack"] == 300
    assert seats(api, feeder) == {5: "Lou"}
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Lou", "Eve"]


def test_a_must_move_player_who_left_is_not_seated_from_the_list(api, table_id):
    feeder = a_table(api, "Must 1", [(1, "Kim")])
    wl = api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role="floor", status=201)
    api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="floor", status=200)
    api.log(table_id, {"type": "leave", "seat": 1})
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Kim"]
    api.log(feeder, {"type": "leave", "seat": 1})
    refused = api.post(f"/api/lists/{wl['id']}/seat", {"player": "Kim", "table": table_id, "seat": 1},
                       role="floor", status=422)
    assert "no longer at Must 1" in refused["message"] and 1 not in seats(api, table_id)


def test_seat_changes_are_honoured_in_order_when_a_seat_opens(api, table_id):
    """Ann asks for any seat, then Cleo for seat 2 (taken by Bob), then Dev for seat 6. Bob leaves
    seat 2: Ann, asking first, moves there; her seat 1 opens and Cleo (who wanted 2) waits; Ann's
    seat 1 goes to nobody who asked for it. Dev's seat 6 opens by nobody: he waits too."""
    for player, seat in (("Ann", None), ("Cleo", 2), ("Dev", 6)):
        asked = api.post(f"/api/tables/{table_id}/seat_changes", {"player": player, "seat": seat}, role="floor",
                         status=201)
        assert asked["outcome"] is None and asked["seat"] == seat
    assert "asked already" in api.post(f"/api/tables/{table_id}/seat_changes", {"player": "ann"}, role="floor",
                                       status=422)["message"]
    assert "not seated at Table 1" in api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Zed"},
                                               role="floor", status=422)["message"]
    assert "in seat 2 already" in api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Bob", "seat": 2},
                                           role="floor", status=422)["message"]
    assert "8 seats, no seat 11" in api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Bob", "seat": 11},
                                             role="floor", status=422)["message"]
    api.log(table_id, {"type": "leave", "seat": 2})
    assert seats(api, table_id) == {2: "Ann", 3: "Cleo", 4: "Dev"}
    log = api.get(f"/api/tables/{table_id}/events")["events"]
    assert [e["event"] for e in log[-2:]] == [{"type": "leave", "seat": 2}, {"type": "move_seat", "seat": 1, "to": 2}]
    assert log[-1]["logged_by"] == log[-2]["logged_by"]
    waiting = api.get(f"/api/tables/{table_id}/seat_changes", role="floor")
    assert [(r["name"], r["seat"]) for r in waiting] == [("Cleo", 2), ("Dev", 6)]
    api.log(table_id, {"type": "sit", "seat": 6, "player": "Hal", "chips": 200})
    api.log(table_id, {"type": "leave", "seat": 2})  # Ann goes: Cleo gets seat 2, her seat 3 opens
    assert seats(api, table_id) == {2: "Cleo", 4: "Dev", 6: "Hal"}
    assert [r["name"] for r in api.get(f"/api/tables/{table_id}/seat_changes", role="floor")] == ["Dev"]


def test_a_seat_change_of_a_player_who_left_is_dropped(api, table_id):
    api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Ann", "seat": 4}, role="floor", status=201)
    api.post(f"/api/tables/{table_id}/seat_changes", {"player": "Bob"}, role="floor", status=201)
    api.log(table_id, {"type": "leave", "seat": 1})  # Ann leaves: her request goes; Bob takes seat 1
    assert seats(api, table_id) == {1: "Bob", 3: "Cleo", 4: "Dev"}
    assert api.get(f"/api/tables/{table_id}/seat_changes", role="floor") == []


def test_a_must_move_player_taken_off_the_main_list_is_not_called_again(api, table_id):
    """docs/players.md, "Must-move games and seat changes": the floor takes Kim, called from the
    must-move game, off the main game's list (she would not move up): her claim ends. The next
    seat opening at the main game calls Lou, not Kim again; Kim, still at the must-move game, is not
    put back on the list. Once she leaves and sits down at the must-move game again, she has a
    new claim, after Lou's."""
    feeder = a_table(api, "Must 1", [(1, "Kim"), (2, "Lou")])
    wl = api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role="floor", status=201)
    api.post(f"/api/tables/{feeder}/feeds", {"table": table_id}, role="floor", status=200)
    api.log(table_id, {"type": "leave", "seat": 2})  # Bob: Kim is called
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Kim"]
    api.post(f"/api/lists/{wl['id']}/remove", {"player": "Kim", "reason": "no_show"}, role="floor", status=200)

    api.log(table_id, {"type": "leave", "seat": 3})  # Cleo: Lou, not Kim
    listed = api.get("/api/lists", role="floor")[0]["players"]
    assert [(p["name"], p["must_move_from"]) for p in listed] == [("Lou", feeder)]
    api.log(table_id, {"type": "leave", "seat": 4})  # Dev: nobody left with a claim
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Lou"]

    api.log(feeder, {"type": "leave", "seat": 1})  # Kim leaves and sits down again: a new claim
    api.log(feeder, {"type": "sit", "seat": 5, "player": "Kim", "chips": 200})
    api.log(table_id, {"type": "leave", "seat": 1})  # Ann
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Lou", "Kim"]
