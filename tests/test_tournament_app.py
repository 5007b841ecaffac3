"""The tournament floor in the app (issue 13): roles per action, the draw, the clock (pause, resume,
advance, restart survival, the level reaching the next deal), eliminations and places, balancing
and breaking carried out through the API, payouts, the results PDF and CSV. Procedures are those
written in rules/tournament/ (named in each test's docstring)."""

from __future__ import annotations

import csv
import html
import io
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from pypdf import PdfReader

from floor.tournament import service
from rules import jackpot
from tests.conftest import PASSWORD, SETUP, csrf_token_from, login
from tests.tourney_play import Api, bust, play_hand

STRUCTURE = {
    "levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100},
               {"minutes": 20, "ante": 20, "small_bet": 100, "big_bet": 200},
               {"break": 10},
               {"minutes": 20, "ante": 50, "small_bet": 200, "big_bet": 400}],
    "starting_chips": 100, "buy_in": 50, "payouts": [50, 30, 20],
}


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


class Clock:
    """The server's "now", moved by the test (service.utcnow is what the tournament reads)."""

    def __init__(self):
        self.now = datetime(2026, 11, 23, 19, 0, 0)

    def __call__(self):
        return self.now

    def wait(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(service, "utcnow", c)
    return c


def make_event(api, entries=20, tables=3, seats=8, structure=STRUCTURE, draw=True):
    event = api.post("/api/events", {"name": "Sunday draw", "structure": structure}, status=201)["id"]
    ids = [api.post(f"/api/events/{event}/tables", {"name": f"Table {n}", "seats": seats}, status=201)["id"]
           for n in range(1, tables + 1)]
    for n in range(entries):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, status=201)
    if draw:
        api.post(f"/api/events/{event}/draw", status=200)
    return event, ids


def all_chips(api, ids):
    total = 0
    for table_id in ids:
        state = api.table(table_id)
        total += state["pot"] + sum(x["stack"] for x in state["seats"].values())
    return total


# --------------------------------------------------------------------------- roles


@pytest.mark.parametrize("method, path, role, body", [
    ("POST", "/api/events", "floor", {"name": "x", "structure": STRUCTURE}),
    ("POST", "/api/events/{e}/entries", "dealer", {"player": "Zed"}),
    ("POST", "/api/events/{e}/tables", "floor", {"name": "T", "seats": 8}),
    ("POST", "/api/events/{e}/draw", "dealer", {}),
    ("POST", "/api/events/{e}/clock", "dealer", {"action": "start"}),
    ("POST", "/api/events/{e}/balance", "dealer", {"moves": []}),
])
def test_each_action_needs_its_role(api, method, path, role, body):
    """Roles per action (docs/contract.md, "The tournament desk"): the director sets events and
    their tables up; the floor enters, draws, runs the clock and carries out moves, a dealer none of it; 403 saying why."""
    event, _ = make_event(api, entries=4, tables=1)
    response = api.call(method, path.format(e=event), role=role, json=body)
    assert response.status_code == 403
    assert "needs the" in response.get_json()["message"]


def test_every_role_reads_the_clock_results_chips_and_balance(api):
    """GET also for dealers (docs/contract.md, "Tournaments")."""
    event, _ = make_event(api, entries=4, tables=1)
    for what in ("clock", "results", "chips", "balance"):
        api.get(f"/api/events/{event}/{what}", role="dealer")


def test_pages_check_the_role_of_each_action(app, api):
    """Pages: a floor person runs the clock but may not write the structure nor add a table; a dealer
    may not see the floor's page nor run the clock."""
    event, _ = make_event(api, entries=4, tables=1)
    floor = login(app.test_client(), "fred")
    assert floor.post(f"/tournament/{event}/clock", data={"action": "start"}).status_code == 302
    assert floor.post(f"/tournament/{event}/structure", data={"preset": "turbo"}).status_code == 403
    assert floor.post(f"/tournament/{event}/tables", data={"name": "T", "seats": 8}).status_code == 403
    dealer = login(app.test_client(), "dee")
    assert dealer.get(f"/tournament/{event}/floor").status_code == 403
    assert dealer.get(f"/tournament/{event}/wall").status_code == 200


def test_a_structure_the_rules_refuse_is_not_stored(api):
    """Structure: a payout table that does not add up to 100 is refused with the reason (422)."""
    response = api.call("POST", "/api/events", json={"name": "Bad", "structure": {**STRUCTURE, "payouts": [50, 30]}})
    assert response.status_code == 422
    assert "add up to 80, not 100" in response.get_json()["message"]


# --------------------------------------------------------------------------- the draw


def test_the_draw_seats_every_entry_once_spread_evenly_with_the_starting_chips(api):
    """Draw: 20 entries at three 8-seat tables: each seated once, 7/7/6, each with the starting chips."""
    event, ids = make_event(api)
    seen = {}
    for table_id in ids:
        state = api.table(table_id)
        for seat, x in state["seats"].items():
            assert x["player"] not in seen
            seen[x["player"]] = (table_id, seat)
            assert x["stack"] == 100
        assert state["button"] in {int(s) for s in state["seats"]}
    assert sorted(seen) == [f"Player {n:02d}" for n in range(1, 21)]
    assert sorted(len([1 for t, _ in seen.values() if t == i]) for i in ids) == [6, 7, 7]
    chips = api.get(f"/api/events/{event}/chips")
    assert len(chips) == 20 and {c["stack"] for c in chips} == {100}


def test_the_draw_can_be_made_again_only_until_the_first_hand(api):
    """Draw: made again before any hand is logged; refused after, saying late entries are seated by the balance."""
    event, ids = make_event(api, entries=6, tables=2)
    api.post(f"/api/events/{event}/draw", status=200)
    api.log(ids[0], {"type": "deal"})
    response = api.call("POST", f"/api/events/{event}/draw")
    assert response.status_code == 422 and "hands are logged already" in response.get_json()["message"]


def test_a_late_entry_is_seated_at_the_table_with_fewest_players(api):
    """Late entry: after the draw, seated at once at the table with fewest players, with the starting chips."""
    event, ids = make_event(api, entries=13, tables=2)
    counts = {i: len(api.table(i)["seats"]) for i in ids}
    short = min(ids, key=lambda i: (counts[i], ids.index(i)))
    seated = api.post(f"/api/events/{event}/entries", {"player": "Late Larry"}, status=201)["seated"]
    assert seated["table"] == short
    state = api.table(short)
    assert state["seats"][str(seated["seat"])] == {**state["seats"][str(seated["seat"])], "player": "Late Larry",
                                                   "stack": 100}
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 14 * 50


# --------------------------------------------------------------------------- the clock


def test_clock_start_pause_resume_advance_back_through_the_api(api, clock):
    """Clock: start, pause, resume, advance, back, read by GET; a move it cannot make is refused (422)."""
    event, _ = make_event(api, entries=4, tables=1)
    url = f"/api/events/{event}/clock"
    assert api.get(url)["running"] is False and api.get(url)["seconds_left"] == 1200
    api.post(url, {"action": "start"}, status=200)
    clock.wait(minutes=5)
    assert api.get(url)["seconds_left"] == 900
    api.post(url, {"action": "pause"}, status=200)
    clock.wait(minutes=30)
    got = api.get(url)
    assert (got["running"], got["seconds_left"], got["level"]) == (False, 900, 1)
    api.post(url, {"action": "resume"}, status=200)
    clock.wait(minutes=16)
    got = api.get(url)
    assert (got["level"], got["seconds_left"], got["ante"], got["small_bet"]) == (2, 1140, 20, 100)
    api.post(url, {"action": "advance"}, status=200)
    got = api.get(url)
    assert (got["on_break"], got["level"], got["seconds_left"], got["next"]["small_bet"]) == (True, None, 600, 200)
    api.post(url, {"action": "back"}, status=200)
    assert (api.get(url)["level"], api.get(url)["seconds_left"]) == (2, 1200)
    response = api.call("POST", url, json={"action": "resume"})
    assert response.status_code == 422 and "it is running" in response.get_json()["message"]
    assert api.get(url)["players_left"] == 4 and api.get(url)["average_stack"] == 100


def test_the_clock_survives_a_restart(tmp_path, api, app, clock):
    """Clock: a second app on the same database (a restart) reads the same clock: it is kept as moves."""
    from floor import create_app

    event, _ = make_event(api, entries=4, tables=1)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, status=200)
    clock.wait(minutes=3)
    api.post(f"/api/events/{event}/clock", {"action": "pause"}, status=200)
    before = api.get(f"/api/events/{event}/clock")
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
                           instance_path=app.instance_path)  # the same host, restarted
    clock.wait(minutes=10)
    after = Api(restarted.test_client(), api.tokens).get(f"/api/events/{event}/clock")
    # everything but the time of day stands still on a paused clock, across the restart
    assert datetime.fromisoformat(after.pop("now")) - datetime.fromisoformat(before.pop("now")) == timedelta(minutes=10)
    assert after == before and after["seconds_left"] == 17 * 60 and after["level_ends_at"] is None
    from floor.extensions import db
    with restarted.app_context():
        db.engine.dispose()  # the restarted app's connections closed (PostgreSQL: no connection left open)


def test_a_level_change_reaches_each_table_at_its_next_deal_written_into_the_deal(api, clock):
    """Clock: the level in force sets the stakes at a table's next deal, written into the deal event,
    so the log replays to the same stakes without the clock."""
    event, ids = make_event(api, entries=6, tables=2)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, status=200)
    first = api.log(ids[0], {"type": "deal"})
    assert first["entry"]["event"] == {"type": "deal"}  # level 1 is the table's setup already
    clock.wait(minutes=21)  # level 2 now
    for event_type in ("pass", "pass", "pass"):
        state = api.table(ids[0])
        api.log(ids[0], {"type": "pass", "seat": state["to_act"]})
    assert api.table(ids[0])["phase"] == "between_deals"  # nobody opened: the pot carries
    second = api.log(ids[0], {"type": "deal"})
    assert second["entry"]["event"] == {"type": "deal", "ante": 20, "small_bet": 100, "big_bet": 200}
    state = api.table(ids[0])
    assert (state["ante"], state["small_bet"], state["big_bet"]) == (20, 100, 200)
    events = [e["event"] for e in api.get(f"/api/tables/{ids[0]}/events")["events"]]
    setup = api.get(f"/api/tables/{ids[0]}")["setup"]
    assert jackpot.replay(setup, events)["small_bet"] == 100  # no clock needed
    # The other table deals at level 2 from its first deal; a director's explicit stakes are left alone.
    assert api.log(ids[1], {"type": "deal"})["entry"]["event"]["ante"] == 20


# --------------------------------------------------------------------------- eliminations and places


def seat_of(api, ids, player):
    for table_id in ids:
        for seat, x in api.table(table_id)["seats"].items():
            if x["player"] == player:
                return table_id, int(seat)
    raise AssertionError(player)


def play_bust(api, table_id, winner, loser):
    return bust(lambda: api.table(table_id), lambda e: api.log(table_id, e), winner, loser)


def test_a_player_with_no_chips_once_a_pot_is_won_is_out_with_a_place_at_once(api):
    """Eliminations: when the pot is won, the loser (no chips, no claim) is out with the last place and the time."""
    event, ids = make_event(api, entries=6, tables=1)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    play_bust(api, ids[0], seats[0], seats[1])
    loser = state["seats"][str(seats[1])]["player"]
    results = api.get(f"/api/events/{event}/results")
    out = [r for r in results if r["place"] is not None]
    assert [(r["player"], r["place"], r["prize"]) for r in out] == [(loser, 6, 0)]
    assert out[0]["table"] == "Table 1"
    # the time out in UTC, marked as every time the API gives (it was bare: read as local time by a client)
    out_at = datetime.fromisoformat(out[0]["out_at"])
    assert out[0]["out_at"].endswith("Z") and abs(datetime.now(UTC) - out_at) < timedelta(minutes=5)
    info = api.get(f"/api/events/{event}/clock")
    assert info["players_left"] == 5 and info["average_stack"] == 120


def test_two_players_out_in_one_hand_are_placed_by_their_chips_at_its_start(api):
    """Places: two busted in one hand: the one who began it with more chips finishes higher."""
    structure = {**STRUCTURE, "starting_chips": 100}
    event, ids = make_event(api, entries=4, tables=1, structure=structure)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    w, a, b, c = seats
    # a correction between pots (the floor's word) gives seat b 40 more chips than seat a first
    api.log(ids[0], {"type": "correction", "moves": [{"seat": c, "amount": -40}, {"seat": b, "amount": 40}],
                     "reason": "chips miscounted at the draw"}, role="floor")
    play_bust(api, ids[0], w, (a, b))
    results = {r["player"]: r["place"] for r in api.get(f"/api/events/{event}/results")}
    name = {s: state["seats"][str(s)]["player"] for s in seats}
    assert results[name[b]] == 3 and results[name[a]] == 4


def test_the_last_player_standing_is_first_and_the_prizes_sum_to_the_pool(api):
    """Places and payouts: down to one player, the places are 1..n and the prizes sum to the prize pool."""
    event, ids = make_event(api, entries=4, tables=1)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    for loser in seats[1:]:
        play_bust(api, ids[0], seats[0], loser)
    results = api.get(f"/api/events/{event}/results")
    assert [r["place"] for r in results] == [1, 2, 3, 4]
    assert results[0]["player"] == state["seats"][str(seats[0])]["player"]
    assert [r["prize"] for r in results] == [100, 60, 40, 0]
    assert sum(r["prize"] for r in results) == api.get(f"/api/events/{event}/clock")["prize_pool"] == 200


# --------------------------------------------------------------------------- balancing, breaking, the whole event


def carry_out_everything(api, event):
    """The floor taps every suggestion, one move per request, until the plan has none."""
    for _ in range(40):
        plan = api.get(f"/api/events/{event}/balance")
        if not plan["moves"]:
            return plan
        api.post(f"/api/events/{event}/balance", {"moves": plan["moves"][:1]}, role="floor", status=200)
    raise AssertionError("the plan never settled")


def test_balancing_moves_a_player_to_the_short_table_in_one_transaction(api):
    """Balancing: two busts at the 6-player table leave 7/7/4: two moves, each from the largest table
    (ties: the one that breaks sooner) to the smallest, one tap each; every chip is still on the tables."""
    event, ids = make_event(api)
    total = all_chips(api, ids)
    short = min(ids, key=lambda i: len(api.table(i)["seats"]))
    seats = sorted(int(s) for s in api.table(short)["seats"])
    for loser in seats[1:3]:
        play_bust(api, short, seats[0], loser)
    plan = api.get(f"/api/events/{event}/balance")
    assert plan["break_table"] is None and len(plan["moves"]) == 2
    assert [m["to_table"] for m in plan["moves"]] == [short, short]
    assert [m["from_table"] for m in plan["moves"]] == [max(set(ids) - {short}), min(set(ids) - {short})]
    move = plan["moves"][0]
    done = api.post(f"/api/events/{event}/balance", {"moves": [move]}, role="floor", status=200)
    assert done["plan"]["moves"] == plan["moves"][1:]
    assert api.table(short)["seats"][str(move["to_seat"])]["player"] == move["player"]
    assert str(move["from_seat"]) not in api.table(move["from_table"])["seats"]
    assert all_chips(api, ids) == total
    # the same move again is refused: the player is not there any more
    again = api.call("POST", f"/api/events/{event}/balance", role="floor", json={"moves": [move]})
    assert again.status_code == 422 and "is not in seat" in again.get_json()["message"]
    api.post(f"/api/events/{event}/balance", {"moves": plan["moves"][1:]}, role="floor", status=200)
    assert sorted(sum(1 for x in api.table(i)["seats"].values() if x["stack"]) for i in ids) == [6, 6, 6]
    assert all_chips(api, ids) == total


def assert_places(results, entries):
    """Places 1..entries: players tied for a place k share it, and the next place is k + their number."""
    places = sorted(r["place"] for r in results)
    assert len(places) == entries and places[0] == 1
    at = 0
    while at < entries:
        tied = places.count(places[at])
        assert places[at] == at + 1, places
        at += tied


def test_a_player_with_a_claim_on_a_carried_pot_is_not_moved_until_it_is_won(api):
    """Balancing: a move between tables waits while the player has chips in a carried pot (leaving
    would give them up); the refusal says so, and nothing is written at either table."""
    event, ids = make_event(api, entries=9, tables=2)
    source = max(ids, key=lambda i: len(api.table(i)["seats"]))
    target = min(ids, key=lambda i: len(api.table(i)["seats"]))
    api.log(source, {"type": "deal"})
    while api.table(source)["phase"] != "between_deals":  # everybody passes: the pot carries
        api.log(source, {"type": "pass", "seat": api.table(source)["to_act"]})
    seat, x = next(iter(api.table(source)["seats"].items()))
    free = next(s for s in range(1, 9) if str(s) not in api.table(target)["seats"])
    versions = [api.get(f"/api/tables/{i}")["version"] for i in ids]
    response = api.call("POST", f"/api/events/{event}/balance", role="floor", json={"moves": [
        {"player": x["player"], "from_table": source, "from_seat": int(seat), "to_table": target, "to_seat": free}]})
    assert response.status_code == 422
    assert "chips in the pot carried at" in response.get_json()["message"]
    assert [api.get(f"/api/tables/{i}")["version"] for i in ids] == versions


@pytest.mark.parametrize("seed", [1, 3])  # 3 once met a ring at a full final table
def test_a_whole_event_down_to_the_final_table_and_the_payouts(api, monkeypatch, seed):
    """The whole event through the API: 20 entries drawn at three tables; hands played until
    eliminations force balancing and the third table to break, then the final table's redraw,
    down to one player. Places 1..20 (players out in one hand with equal chips tie); prizes sum to
    the pool; chips conserved throughout. Seeded draws, so a failure can be replayed."""
    monkeypatch.setattr(service, "RANDOM", random.Random(seed))
    event, ids = make_event(api)
    total = all_chips(api, ids)
    broke, redrawn, hands = [], False, 0
    while api.get(f"/api/events/{event}/clock")["players_left"] > 1:
        hands += 1
        assert hands < 400, "the event did not end"
        table_id = next(i for i in ids if sum(1 for x in api.table(i)["seats"].values() if x["stack"]) >= 2)
        live = {int(s): x for s, x in api.table(table_id)["seats"].items() if x["stack"]}
        winner = max(live, key=lambda s: live[s]["stack"])
        loser = min(live, key=lambda s: live[s]["stack"])
        play_hand(lambda: api.table(table_id), lambda e: api.log(table_id, e), winner, loser)
        plan = api.get(f"/api/events/{event}/balance")
        if plan["break_table"] is not None:
            broke.append(plan["break_table"])
            redrawn = redrawn or plan["final_redraw"]
        carry_out_everything(api, event)
        assert all_chips(api, ids) == total
        live_counts = [sum(1 for x in api.table(i)["seats"].values() if x["stack"]) for i in ids]
        in_play = [n for n in live_counts if n]
        assert max(in_play) - min(in_play) <= 1 or len(in_play) == 1
    assert broke[0] == ids[2] and ids[1] in broke and redrawn
    assert [sum(1 for x in api.table(i)["seats"].values() if x["stack"]) for i in ids] == [1, 0, 0]
    results = api.get(f"/api/events/{event}/results")
    assert_places(results, 20)
    assert sum(r["prize"] for r in results) == 1000
    assert results[0]["place"] == 1 and results[0]["prize"] >= 500


# --------------------------------------------------------------------------- pages, prints


def test_results_pdf_and_csv_list_places_and_prizes(app, api):
    """Results: the PDF (WeasyPrint) and the CSV list the places and prizes."""
    event, ids = make_event(api, entries=4, tables=1)
    seats = sorted(int(s) for s in api.table(ids[0])["seats"])
    for loser in seats[1:]:
        play_bust(api, ids[0], seats[0], loser)
    pages = login(app.test_client(), "dee")
    pdf = pages.get(f"/tournament/{event}/results.pdf")
    assert pdf.mimetype == "application/pdf"
    assert "attachment" in pdf.headers["Content-Disposition"] and f"results-{event}.pdf" in pdf.headers["Content-Disposition"]
    text = " ".join(PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text().split())
    assert "Results: Sunday draw" in text and "prize pool 200" in text
    rows = list(csv.DictReader(io.StringIO(pages.get(f"/tournament/{event}/results.csv").get_data(as_text=True))))
    assert [(r["place"], r["prize"]) for r in rows] == [("1", "100"), ("2", "60"), ("3", "40"), ("4", "0")]
    winner = rows[0]["player"]
    assert winner in text


def test_the_seating_list_prints_every_player(app, api):
    """Draw: the printable seating list (page and PDF) names every entry with table and seat."""
    event, _ = make_event(api, entries=9, tables=2)
    pages = login(app.test_client(), "fred")
    html = pages.get(f"/tournament/{event}/seating").get_data(as_text=True)
    assert all(f"Player {n:02d}" in html for n in range(1, 10))
    pdf = pages.get(f"/tournament/{event}/seating.pdf")
    text = " ".join(PdfReader(io.BytesIO(pdf.data)).pages[0].extract_text().split())
    assert "Player 01" in text and "Table 2" in text


def test_the_director_writes_a_structure_in_the_form(app, api):
    """Structure form: levels a line each, a break, payouts; saved and read back by the API."""
    event, _ = make_event(api, entries=2, tables=1, draw=False)
    director = login(app.test_client(), "dana")
    response = director.post(f"/tournament/{event}/structure", data={
        "levels": "15 5 10 20\nbreak 5\n15 10 20 40", "starting_chips": 500, "buy_in": 20, "fee": 2,
        "payouts": "70 30", "rebuy": "20 500 1 2", "add_on": ""})
    assert response.status_code == 302
    got = api.get(f"/api/events/{event}")["structure"]
    assert got["levels"][1] == {"break": 5} and got["payouts"] == [70, 30]
    assert got["rebuy"] == {"price": 20, "chips": 500, "until_level": 1, "max": 2}
    bad = director.post(f"/tournament/{event}/structure", data={
        "levels": "15 5 ten", "starting_chips": 500, "buy_in": 20, "fee": 0, "payouts": "standard"})
    assert bad.status_code == 400 and b"Structure not saved" in bad.data
    director.post(f"/tournament/{event}/structure", data={"preset": "turbo"})
    assert api.get(f"/api/events/{event}")["structure"]["starting_chips"] == 1000


def test_a_structure_the_form_cannot_save_is_refused_in_the_forms_words(app, api):
    """The director reads why a structure was not saved in the words of the form's labels, never the
    JSON keys the API uses (until_level, color_up[0], small_bet); nothing is saved."""
    event, _ = make_event(api, entries=2, tables=1, draw=False)
    before = api.get(f"/api/events/{event}")["structure"]
    director = login(app.test_client(), "dana")
    good = {"levels": "15 5 10 20\n15 10 20 40", "starting_chips": 500, "buy_in": 20, "fee": 0,
            "payouts": "standard"}
    cases = {  # what the director typed: what the page must say
        "levels": ({"levels": "15 5"}, "write the minutes, the ante, the small bet and the big bet"),
        "rebuy past the levels": ({"rebuy": "20 500 9 2"}, "rebuys: last level 9, but the structure has 2 levels"),
        "rebuy short": ({"rebuy": "20"}, "rebuys: write the price, the chips, the last level"),
        "add-on past the levels": ({"add_on": "20 1000 7"}, "add-on: level 7, but the structure has 2 levels"),
        "a race": ({"color_up": "5"}, "chip race 1: write the level and the chip raced off"),
        "payouts": ({"payouts": "120"}, "payouts, first place: a percentage"),
    }
    for name, (typed, said) in cases.items():
        page = director.post(f"/tournament/{event}/structure", data={**good, **typed})
        text = html.unescape(" ".join(page.get_data(as_text=True).split()))
        assert page.status_code == 400 and "Structure not saved" in text, name
        flash = text[text.index("Structure not saved"):].split("<", 1)[0]  # the message, to its markup's end
        assert said in flash, (name, flash)
        assert not re.search(r"\b[a-z]+_[a-z_]+\b|\[\d+\]", flash), (name, flash)  # no JSON keys
    assert api.get(f"/api/events/{event}")["structure"] == before


def test_the_clock_form_needs_the_csrf_token(csrf_app):
    """Forms: the clock's buttons post with the CSRF token: without it 400, with the page's token 302."""
    with csrf_app.app_context():
        event = service.create("Guarded", STRUCTURE).event_id
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").data)
    client.post("/login", data={"username": "dana", "password": PASSWORD, "csrf_token": token})
    assert client.post(f"/tournament/{event}/clock", data={"action": "start"}).status_code == 400
    token = csrf_token_from(client.get(f"/tournament/{event}/").data)
    assert client.post(f"/tournament/{event}/clock", data={"action": "start", "csrf_token": token}).status_code == 302
    with csrf_app.app_context():
        assert service.clock(service.get(event)).running


def test_a_rebuy_puts_a_busted_player_back_in(api):
    """Rebuys: within the rebuy levels a busted player buys back in: the entry is in again and the pool grows."""
    structure = {**STRUCTURE, "rebuy": {"price": 50, "chips": 100, "until_level": 2, "max": 1}}
    event, ids = make_event(api, entries=4, tables=1, structure=structure)
    state = api.table(ids[0])
    seats = sorted(int(s) for s in state["seats"])
    play_bust(api, ids[0], seats[0], seats[1])
    name = state["seats"][str(seats[1])]["player"]
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3
    api.post(f"/api/events/{event}/buys", {"player": name, "kind": "rebuy"}, role="floor", status=201)
    info = api.get(f"/api/events/{event}/clock")
    assert (info["players_left"], info["prize_pool"]) == (4, 250)
    assert api.table(ids[0])["seats"][str(seats[1])]["stack"] == 100
    second = api.call("POST", f"/api/events/{event}/buys", role="floor", json={"player": name, "kind": "rebuy"})
    assert second.status_code == 422 and "the 1 rebuys allowed" in second.get_json()["message"]


def test_an_add_on_is_once_per_player_at_its_level(api, clock):
    """Add-on: during its level (or the break after it), once per player still in; the chips go to the stack."""
    structure = {**STRUCTURE, "add_on": {"price": 25, "chips": 150, "at_level": 2}}
    event, ids = make_event(api, entries=3, tables=1, structure=structure)
    name = next(iter(api.table(ids[0])["seats"].values()))["player"]
    early = api.call("POST", f"/api/events/{event}/buys", role="floor", json={"player": name, "kind": "add_on"})
    assert early.status_code == 422 and "only during level 2" in early.get_json()["message"]
    api.post(f"/api/events/{event}/clock", {"action": "start"}, status=200)
    clock.wait(minutes=41)  # the break after level 2
    api.post(f"/api/events/{event}/buys", {"player": name, "kind": "add_on"}, role="floor", status=201)
    stacks = {x["player"]: x["stack"] for x in api.table(ids[0])["seats"].values()}
    assert stacks[name] == 250
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 3 * 50 + 25
    again = api.call("POST", f"/api/events/{event}/buys", role="floor", json={"player": name, "kind": "add_on"})
    assert again.status_code == 422 and "one per player" in again.get_json()["message"]


def test_the_floor_page_signals_an_open_floor_call_at_a_tournament_table(app, api):
    """Floor page: its panel (polled by the page) counts the open floor calls at the event's tables."""
    from floor.extensions import db
    from floor.models import FloorCall, User

    event, ids = make_event(api, entries=4, tables=1)
    floor = login(app.test_client(), "fred")
    assert b'data-calls="0"' in floor.get(f"/tournament/{event}/floor/panel").data
    with app.app_context():
        dealer = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        db.session.add(FloorCall(table_id=ids[0], issue="false_openers", seat=2, called_by_id=dealer.id))
        db.session.commit()
    panel = floor.get(f"/tournament/{event}/floor/panel").get_data(as_text=True)
    assert 'data-calls="1"' in panel and "Table 1 (false openers)" in panel


def level_line(page):
    """The tablet's tournament line as a person reads it (tags and line breaks gone)."""
    found = re.search(r'id="tournament-level"[^>]*>(.*?)</p>', page, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else None


def test_the_dealers_tablet_shows_the_level_its_stakes_and_when_they_start(app, api, clock):
    """Clock: the dealer sees the tournament's level, its stakes and the time left on the tablet,
    and that a new level's stakes come in at the next deal (the server writes them in)."""
    event, ids = make_event(api, entries=6, tables=2)
    dealer = login(app.test_client(), "dee")
    page = level_line(dealer.get(f"/dealer/tables/{ids[0]}").get_data(as_text=True))
    assert page == "Tournament level 1 (clock not started) · antes of 10 · bets 50/100"
    api.post(f"/api/events/{event}/clock", {"action": "start"}, status=200)
    api.log(ids[0], {"type": "deal"})
    clock.wait(minutes=5)
    page = level_line(dealer.get(f"/dealer/tables/{ids[0]}/panel").get_json()["html"])
    assert page == "Tournament level 1 · antes of 10 · bets 50/100 · 15 min left"
    clock.wait(minutes=16)  # level 2 now, the deal in play at level 1's stakes
    page = level_line(dealer.get(f"/dealer/tables/{ids[0]}/panel").get_json()["html"])
    assert page == "Tournament level 2 · antes of 20 · bets 100/200 · 19 min left · from the next deal"
    api.post(f"/api/events/{event}/clock", {"action": "pause"}, status=200)
    assert level_line(dealer.get(f"/dealer/tables/{ids[0]}/panel").get_json()["html"]).endswith(
        "19 min left (clock paused) · from the next deal")
    # A table of no tournament shows no such line.
    other = api.post("/api/tables", {"name": "Cash 1", **SETUP}, status=201)["id"]
    assert "tournament-level" not in dealer.get(f"/dealer/tables/{other}").get_data(as_text=True)
