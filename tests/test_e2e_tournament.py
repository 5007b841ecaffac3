"""The tournament floor in Debian's chromium: a three-table event, 20 entries drawn; the wall clock
on a big screen updates itself (the director's start and advance, players left) without a reload;
hands are driven through the API until eliminations call for balancing and a table breaks, and the
floor person carries out each move with one tap on the floor page (which refreshes itself); down to
the final table and the payouts. The wall is photographed (FLOOR_E2E_SHOTS set): /tmp/tournament-wall.png."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from floor.extensions import db
from floor.models import User
from floor.tournament import service
from tests.conftest import make_app
from tests.e2e import browser, live_server, open_page, screenshot  # noqa: F401 (fixtures)
from tests.tourney_play import Api, play_hand

pytestmark = pytest.mark.e2e

SCREENSHOT = "/tmp/tournament-wall.png"
STRUCTURE = {
    "levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100},
               {"minutes": 20, "ante": 20, "small_bet": 100, "big_bet": 200}],
    "starting_chips": 100, "buy_in": 50, "payouts": [50, 30, 20],
}


@pytest.fixture
def live_app(tmp_path):
    """The app as in production (CSRF on), with the wall and the floor page polling quickly."""
    from floor import tables

    app = make_app(tmp_path, WTF_CSRF_ENABLED=True, WALL_POLL_MS=300, FLOOR_POLL_MS=400)
    yield app
    tables.cache.clear()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def api(live_server):
    tokens = {}
    with live_server.app.app_context():
        for user in db.session.scalars(db.select(User)):
            tokens[user.role.name] = user.new_api_token()
        db.session.commit()
    return Api(live_server.app.test_client(), tokens)


def live_players(api, table_id):
    return {int(s): x for s, x in api.table(table_id)["seats"].items() if x["stack"]}


def test_a_three_table_event_on_the_wall_and_the_floor_down_to_the_payouts(api, live_server, open_page, monkeypatch):
    monkeypatch.setattr(service, "RANDOM", random.Random(1))  # the server's draws, seeded: a failure replays
    event = api.post("/api/events", {"name": "Thursday jackpots", "structure": STRUCTURE}, status=201)["id"]
    ids = [api.post(f"/api/events/{event}/tables", {"name": f"Table {n}", "seats": 8}, status=201)["id"]
           for n in (1, 2, 3)]
    for n in range(20):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, status=201)

    # The director draws the seats on the event page and sees the seating list.
    director = open_page("director")
    director.goto(f"{live_server.url}/tournament/{event}/")
    director.click("text=Draw the seats")
    director.wait_for_url(f"**/tournament/{event}/seating")
    assert director.locator("table.seating").first.locator("tr").count() == 21

    # The wall, on a big screen, before the start.
    wall = open_page("dealer", viewport={"width": 1600, "height": 900})
    wall.goto(f"{live_server.url}/tournament/{event}/wall")
    assert wall.locator("#level").inner_text() == "Level 1"
    assert wall.locator("#time").inner_text() == "20:00"
    assert wall.locator("#state").inner_text() == "Not started"
    assert wall.locator("#players_left").inner_text() == "20 / 20"
    assert wall.locator("#prize_pool").inner_text() == "1,000"

    # The director starts the clock: the wall runs without a reload.
    director.goto(f"{live_server.url}/tournament/{event}/")
    director.click("#clock button[value=start]")
    expect(wall.locator("#state")).to_have_text("")
    expect(wall.locator("#time")).not_to_have_text("20:00", timeout=5000)
    assert re.fullmatch(r"19:5\d", wall.locator("#time").inner_text())

    # Hands through the API; the floor page shows each suggestion by itself and the floor taps it.
    floor = open_page("floor")
    floor.goto(f"{live_server.url}/tournament/{event}/floor")
    taps, broke, hands = 0, set(), 0
    while api.get(f"/api/events/{event}/clock")["players_left"] > 1:
        hands += 1
        assert hands < 400
        table_id = next(i for i in ids if len(live_players(api, i)) >= 2)
        live = live_players(api, table_id)
        play_hand(lambda: api.table(table_id), lambda e: api.log(table_id, e),
                  max(live, key=lambda s: live[s]["stack"]), min(live, key=lambda s: live[s]["stack"]))
        plan = api.get(f"/api/events/{event}/balance")
        if plan["break_table"]:
            broke.add(plan["break_table"])
        while plan["moves"]:
            button = floor.locator("table.moves button").first
            button.wait_for()  # the page refreshed itself after the hand
            expect(floor.locator("table.moves button").first).to_have_text(f"Move {plan['moves'][0]['player']}")
            floor.locator("table.moves button").first.click()
            floor.wait_for_load_state()
            assert "moved from" in floor.locator(".flash").first.inner_text()
            taps += 1
            plan = api.get(f"/api/events/{event}/balance")
        if hands == 3:  # the wall follows the players left without a reload
            left = api.get(f"/api/events/{event}/clock")["players_left"]
            expect(wall.locator("#players_left")).to_have_text(f"{left} / 20")
    assert taps >= 3 and broke == {ids[2], ids[1]}
    assert [len(live_players(api, i)) for i in ids] == [1, 0, 0]

    # The director moves to level 2: the wall shows it, without a reload.
    director.goto(f"{live_server.url}/tournament/{event}/")
    director.click("#clock button[value=advance]")
    expect(wall.locator("#level")).to_have_text("Level 2")
    expect(wall.locator("#players_left")).to_have_text("1 / 20")
    assert wall.locator("#stakes").inner_text() == "ante 20 · bets 100/200"
    assert wall.locator("#average_stack").inner_text() == "2,000"
    screenshot(wall, SCREENSHOT)

    # The results: places and prizes summing to the pool.
    director.goto(f"{live_server.url}/tournament/{event}/results")
    rows = director.locator("table.results tr").all_inner_texts()[1:]
    assert len(rows) == 20 and rows[0].startswith("1\t")
    prizes = [int(r.split("\t")[2] or 0) for r in rows]
    assert sum(prizes) == 1000 and prizes[0] >= 500
