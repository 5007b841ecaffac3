"""The public board and the waiting lists on the floor's overview (issue 31; docs/players.md, "The
board") through HTTP: /board needs no login and shows the lists in order with waiting times, who is
called and the open seats per game, never a chip or a card; the floor calls and seats a listed
player from its overview, a dealer may not."""

from __future__ import annotations

import re

import pytest

from tests.conftest import login
from tests.tourney_play import Api


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def listed(api, *players):
    wl = api.post("/api/lists", {"game": "cardroom", "stakes": "10/20"}, role="floor", status=201)
    for player in players:
        api.post(f"/api/lists/{wl['id']}/join", {"player": player}, role="floor", status=200)
    return wl["id"]


def test_the_board_is_public_and_shows_lists_seats_and_calls_never_chips(app, api, table_id):
    wl = listed(api, "Eve", "Gus Grissom")
    api.post(f"/api/lists/{wl}/call", {"player": "Gus Grissom"}, role="floor", status=200)
    api.post("/api/lists", {"game": "cardroom", "stakes": "50/100", "interest": True}, role="floor", status=201)
    api.post("/api/lists/2/join", {"player": "Hal"}, role="floor", status=200)
    page = app.test_client().get("/board")  # nobody logged in
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert '<meta http-equiv="refresh"' in html
    main = html[html.index('data-game="cardroom 10/20"'):html.index('data-game="cardroom 50/100"')]
    assert re.findall(r'data-player="([^"]+)"', main) == ["Eve", "Gus Grissom"]
    assert re.search(r'class="called" data-player="Gus Grissom"', main)
    assert 'class="called" data-player="Eve"' not in main
    assert re.search(r'<strong class="open-seats">4</strong> open seats: Table 1', main)  # seats 5 to 8
    assert "0 min" in main
    interest = html[html.index('data-game="cardroom 50/100"'):]
    assert "not running yet" in interest and 'data-player="Hal"' in interest
    for secret in ("500", "stack", "chips", "pot", "♠", "♥", "♦", "♣", "Ann"):  # no chips, no cards, nobody seated
        assert secret not in html.split("<body>")[1].replace("Waiting lists", ""), secret


def test_the_board_leaves_out_a_tournaments_table(app, api, table_id):
    event = api.post("/api/events", {"name": "Cup", "structure": {
        "levels": [{"minutes": 20, "ante": 5, "small_bet": 10, "big_bet": 20}], "starting_chips": 100,
        "buy_in": 10, "payouts": [100]}}, status=201)["id"]
    api.post(f"/api/events/{event}/tables", {"name": "Cup 1", "seats": 6}, status=201)
    html = app.test_client().get("/board").get_data(as_text=True)
    assert "Table 1" in html and "Cup 1" not in html


def test_the_floor_calls_and_seats_from_its_overview(app, api, table_id):
    wl = listed(api, "Eve")
    floor = app.test_client()
    login(floor, "fred")
    page = floor.get("/floor/").get_data(as_text=True)
    assert 'id="lists"' in page and 'data-call="Eve"' in page and "Table 1 · seat 5" in page
    assert '<td class="open-seats">5, 6, 7, 8</td>' in page  # beside the tables
    eve = api.get("/api/lists", role="floor")[0]["players"][0]["player_id"]
    assert floor.post(f"/floor/lists/{wl}/call", data={"player_id": eve}).status_code == 302
    assert api.get("/api/lists", role="floor")[0]["players"][0]["called_at"] is not None
    floor.post(f"/floor/lists/{wl}/seat", data={"player_id": eve, "place": f"{table_id}:6", "chips": "abc"})
    assert api.table(table_id)["seats"].get("6") is None  # a buy-in in words: nothing logged
    page = floor.get("/floor/").get_data(as_text=True)
    assert "Not seated" in page
    floor.post(f"/floor/lists/{wl}/seat", data={"player_id": eve, "place": f"{table_id}:6", "chips": "300"})
    seat = api.table(table_id)["seats"]["6"]
    assert (seat["player"], seat["stack"], seat["player_id"]) == ("Eve", 300, eve)
    assert api.get("/api/lists", role="floor")[0]["players"] == []


def test_the_floor_puts_a_walk_in_on_a_list_from_its_overview(app, api, table_id):
    """The overview showed a game's open seats and let the floor call and seat a listed player, but
    nobody could be put on a list without the JSON API. The game's first walk-in starts its list;
    a name nobody has makes a record, a picked record is used as it is, and a refusal says why."""
    floor = app.test_client()
    login(floor, "fred")
    page = floor.get("/floor/").get_data(as_text=True)
    assert 'data-join="cardroom 10/20"' in page and "Nobody waiting" not in page  # a cash table, no list yet
    join = {"game": "cardroom", "stakes": "10/20"}
    assert floor.post("/floor/lists/join", data={**join, "player": "Eve"}).status_code == 302
    (wl,) = api.get("/api/lists", role="floor")
    eve = wl["players"][0]["player_id"]
    assert (wl["game"], wl["stakes"], [p["name"] for p in wl["players"]]) == ("cardroom", "10/20", ["Eve"])
    gus = floor.post("/floor/lists/join", data={**join, "player": "Gus"}, follow_redirects=True)
    assert "Gus is on the cardroom 10/20 list, number 2." in gus.get_data(as_text=True)
    said = floor.post("/floor/lists/join", data={**join, "player_id": str(eve)}, follow_redirects=True)
    assert "Not put on the list: join: Eve is on this list already" in said.get_data(as_text=True)
    page = floor.get("/floor/").get_data(as_text=True)
    assert 'data-call="Eve"' in page and 'data-call="Gus"' in page
    assert [p["name"] for p in api.get("/api/lists", role="floor")[0]["players"]] == ["Eve", "Gus"]
    empty = floor.post("/floor/lists/join", data=join, follow_redirects=True).get_data(as_text=True)
    assert "Not put on the list: name the player" in empty


def test_a_dealer_may_not_call_or_seat_from_the_floor_pages(app, api, table_id):
    wl = listed(api, "Eve")
    eve = api.get("/api/lists", role="floor")[0]["players"][0]["player_id"]
    dealer = app.test_client()
    login(dealer, "dee")
    assert dealer.post(f"/floor/lists/{wl}/call", data={"player_id": eve}).status_code == 403
    assert dealer.post("/floor/lists/join", data={"game": "cardroom", "stakes": "10/20", "player": "Zed"}).status_code == 403
    assert dealer.post(f"/floor/lists/{wl}/seat", data={"player_id": eve, "place": f"{table_id}:6",
                                                        "chips": "300"}).status_code == 403
    assert api.get("/api/lists", role="floor")[0]["players"][0]["called_at"] is None
    assert "6" not in api.table(table_id)["seats"]
