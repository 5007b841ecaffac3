"""Players come and go in the app (issue 12): the tablet's seat menus, the floor's line-ups and moves
between tables, the per-table and per-player histories. The engine's side is tests/test_seating.py."""

from __future__ import annotations

import re

import pytest

from floor import tables
from floor.extensions import db
from floor.models import LogEntry, Table
from tests.conftest import SETUP, csrf_token_from
from tests.test_dealer import dead_deal

SEATING_EVENTS = ("sit", "add_chips", "sit_out", "sit_in", "move_seat", "leave")


@pytest.fixture
def table_id(app):
    with app.app_context():
        return tables.create_table("Table 1", {**SETUP, "max_buy_in": 1000}).id


@pytest.fixture
def two_tables(app):
    with app.app_context():
        one = tables.create_table("Table 1", SETUP)
        two = tables.create_table("Table 2", {**SETUP, "seats": [
            {"seat": 1, "player": "Zed", "stack": 300}, {"seat": 3, "player": "Yan", "stack": 300}]})
        return one.id, two.id


def post(client, table_id, event, token=None):
    """Post one event as the tablet does (its tap endpoint: session, X-CSRFToken, the current version)."""
    token = token or csrf_token_from(client.get("/dealer/").data)
    version = client.get(f"/api/tables/{table_id}").json["version"]
    return client.post(f"/dealer/tables/{table_id}/taps", json={"event": event, "expected_version": version},
                       headers={"X-CSRFToken": token})


def state(client, table_id):
    return client.get(f"/api/tables/{table_id}").json["state"]


def menus(html: str) -> dict[int, list[str]]:
    """The seat menus on the panel: seat → the seating actions offered there."""
    out: dict[int, list[str]] = {}
    for seat, body in re.findall(r'<details class="seat-menu" data-menu="(\d+)">(.*?)</details>', html, re.S):
        out[int(seat)] = re.findall(r'data-seat-action="(\w+)"', body)
    return out


# --------------------------------------------------------------------------- the tablet's seat menus

def test_between_deals_every_seat_has_its_menu_and_the_empty_seats_take_a_newcomer(as_role, table_id):
    html = as_role("dealer").get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    found = menus(html)
    for seat in (1, 2, 3, 4):
        assert found[seat] == ["add_chips", "sit_out", "leave", "move_seat"]
    for seat in (5, 6, 7, 8):  # the default capacity is 8 seats
        assert found[seat] == ["sit"]
    assert len(re.findall(r"data-empty", html)) == 4
    assert "buy-in up to 1000" in html


def test_during_a_deal_there_is_no_seat_menu(as_role, table_id):
    dealer = as_role("dealer")
    assert post(dealer, table_id, {"type": "deal"}).status_code == 201
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert menus(html) == {} and "data-empty" not in html


@pytest.mark.parametrize("kind", SEATING_EVENTS)
def test_the_dealer_logs_each_seating_action_and_the_panel_shows_it(as_role, app, table_id, kind):
    dealer = as_role("dealer")
    steps = {
        "sit": [({"type": "sit", "seat": 6, "player": "Eve", "chips": 300}, lambda s: s["seats"][6]["stack"] == 300)],
        "add_chips": [({"type": "add_chips", "seat": 2, "amount": 200}, lambda s: s["seats"][2]["stack"] == 700)],
        "sit_out": [({"type": "sit_out", "seat": 3}, lambda s: s["seats"][3]["sitting_out"])],
        "sit_in": [({"type": "sit_out", "seat": 3}, None),
                   ({"type": "sit_in", "seat": 3}, lambda s: not s["seats"][3]["sitting_out"])],
        "move_seat": [({"type": "move_seat", "seat": 4, "to": 7},
                       lambda s: 4 not in s["seats"] and s["seats"][7]["player"] == "Dev")],
        "leave": [({"type": "leave", "seat": 1}, lambda s: 1 not in s["seats"] and s["ledger"]["chips_out"] == 500)],
    }[kind]
    for event, check in steps:
        response = post(dealer, table_id, event)
        assert response.status_code == 201, response.json
        logged = dict(response.json["entry"]["event"])
        if kind == "sit":  # the log names the player's record beside the name (issue 31): a walk-in's new one
            assert logged.pop("player_id") == response.json["state"]["seats"]["6"]["player_id"] > 0
        assert logged == event
        if check is not None:
            got = {int(k): v for k, v in response.json["state"]["seats"].items()}
            assert check({**response.json["state"], "seats": got})
    panel = response.json["panel"]
    assert 'id="ledger"' in panel
    with app.app_context():
        entry = db.session.scalars(db.select(LogEntry).order_by(LogEntry.id.desc())).first()
        assert entry.payload["type"] == kind and entry.logged_by.username == "dee"


@pytest.mark.parametrize("events, message", [
    ([{"type": "sit", "seat": 1, "player": "Eve", "chips": 100}], "sit: seat 1 is taken by Ann"),
    ([{"type": "sit", "seat": 6, "player": "ann", "chips": 100}], "sit: Ann already sits in seat 1 at this table"),  # the record's name
    ([{"type": "sit", "seat": 6, "player": "Eve", "chips": 1500}], "over this table's maximum buy-in of 1000"),
    ([{"type": "add_chips", "seat": 2, "amount": 600}], "at most 500 more"),
    ([{"type": "add_chips", "seat": 2, "amount": 0}], "add_chips"),
    ([{"type": "sit_in", "seat": 2}], "sit_in: seat 2 is not sitting out"),
    ([{"type": "deal"}, {"type": "leave", "seat": 2}], "leave: only between deals"),
])
def test_a_refused_seating_action_is_shown_with_the_engines_message_and_logs_nothing(as_role, table_id, events,
                                                                                      message):
    dealer = as_role("dealer")
    for event in events[:-1]:
        assert post(dealer, table_id, event).status_code == 201
    before = state(dealer, table_id)
    response = post(dealer, table_id, events[-1])
    assert response.status_code == 422
    assert message in response.json["message"]
    after = state(dealer, table_id)
    assert (after["version"], after["ledger"]) == (before["version"], before["ledger"])


@pytest.mark.parametrize("kind", SEATING_EVENTS)
def test_nobody_logged_in_may_log_a_seating_action(client, table_id, kind):
    event = {"type": kind, "seat": 1, "player": "Eve", "chips": 100, "amount": 5, "to": 6}
    response = client.post(f"/api/tables/{table_id}/events", json={"event": event})
    assert response.status_code == 401
    assert client.get(f"/api/tables/{table_id}/events").status_code == 401


def test_a_seating_action_is_undone_by_the_dealer_until_the_next_deal(as_role, table_id):
    """Later changes to the line-up are entries of the log: the tablet's undo withdraws them."""
    dealer = as_role("dealer")
    post(dealer, table_id, {"type": "sit", "seat": 5, "player": "Eve", "chips": 200})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "Undo entry 1: seat 5: Eve sits down with 200" in html
    response = post(dealer, table_id, {"type": "void", "event": 0})
    assert response.status_code == 201
    after = state(dealer, table_id)
    assert "5" not in after["seats"] and after["ledger"] == {"chips_in": 0, "chips_out": 0}
    assert "withdrawn" in response.json["panel"]
    # after the next deal the seating entry is no longer the dealer's to withdraw
    post(dealer, table_id, {"type": "add_chips", "seat": 1, "amount": 50})
    post(dealer, table_id, {"type": "deal"})
    refused = post(dealer, table_id, {"type": "void", "event": 2})
    assert refused.status_code == 422 and "cannot withdraw entry 3" in refused.json["message"]


def test_the_tablet_shows_a_sitting_out_player_and_deals_around_them(as_role, table_id):
    dealer = as_role("dealer")
    post(dealer, table_id, {"type": "sit_out", "seat": 2})
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "sitting out" in html and menus(html)[2] == ["add_chips", "sit_in", "leave", "move_seat"]
    dealt = post(dealer, table_id, {"type": "deal"}).json["state"]
    assert dealt["dealt"] == [3, 4, 1] and dealt["seats"]["2"]["stack"] == 500


# --------------------------------------------------------------------------- the floor's line-ups and moves

def move_form(client, **fields):
    token = csrf_token_from(client.get("/floor/lineups").data)
    return client.post("/floor/move", data={"csrf_token": token, **fields})


def chips(client, table_id):
    s = state(client, table_id)
    return sum(x["stack"] for x in s["seats"].values()) + s["pot"]


def test_the_floor_page_shows_every_tables_line_up_with_the_ledger(as_role, two_tables):
    floor = as_role("floor")
    html = floor.get("/floor/lineups").get_data(as_text=True)
    for name in ("Ann", "Bob", "Cleo", "Dev", "Zed", "Yan"):
        assert f">{name}</a>" in html
    assert html.count('class="lineup"') == 2 and "data-chips-in>0<" in html
    assert "/floor/lineups" in floor.get("/floor/").get_data(as_text=True)


def test_the_floor_moves_a_player_between_tables_in_one_step(as_role, app, two_tables):
    one, two = two_tables
    floor = as_role("floor")
    total = chips(floor, one) + chips(floor, two)
    response = move_form(floor, from_table=one, from_seat=2, to_table=two, to_seat=5)
    assert response.status_code == 302
    assert "Bob moved from Table 1 seat 2 to Table 2 seat 5" in floor.get("/floor/lineups").get_data(as_text=True)
    a, b = state(floor, one), state(floor, two)
    assert "2" not in a["seats"] and b["seats"]["5"] == {**b["seats"]["5"], "player": "Bob", "stack": 500}
    assert chips(floor, one) + chips(floor, two) == total
    assert (a["ledger"]["chips_out"], b["ledger"]["chips_in"]) == (500, 500)
    with app.app_context():
        entries = db.session.scalars(db.select(LogEntry).order_by(LogEntry.id)).all()
        assert [(e.table_id, e.payload["type"], e.logged_by.username) for e in entries] == [
            (one, "leave", "fred"), (two, "sit", "fred")]


@pytest.mark.parametrize("to_seat, busy, message", [
    (3, None, "sit: seat 3 is taken by Yan"),
    (5, "target", "sit: only between deals"),
    (5, "source", "leave: only between deals"),
])
def test_a_refused_move_is_shown_and_the_chips_stay_where_they_were(as_role, app, two_tables, to_seat, busy, message):
    one, two = two_tables
    floor = as_role("floor")
    if busy:
        post(floor, one if busy == "source" else two, {"type": "deal"})
    versions = (state(floor, one)["version"], state(floor, two)["version"])
    total = chips(floor, one) + chips(floor, two)
    response = move_form(floor, from_table=one, from_seat=2, to_table=two, to_seat=to_seat)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Not moved, nothing was logged at either table" in html and message in html
    assert (state(floor, one)["version"], state(floor, two)["version"]) == versions
    assert chips(floor, one) + chips(floor, two) == total
    assert state(floor, one)["seats"]["2"]["player"] == "Bob"


def test_a_move_to_the_same_table_is_refused_with_the_way_to_do_it(as_role, two_tables):
    one, _ = two_tables
    response = move_form(as_role("floor"), from_table=one, from_seat=2, to_table=one, to_seat=6)
    assert response.status_code == 422 and "log move_seat" in response.get_data(as_text=True)


@pytest.mark.parametrize("method, url", [("get", "/floor/lineups"), ("post", "/floor/move"),
                                         ("get", "/floor/tables/{one}/history"), ("get", "/floor/players/Bob")])
def test_the_line_ups_moves_and_histories_are_the_floors(as_role, two_tables, method, url):
    one, two = two_tables
    dealer = as_role("dealer")
    data = {"from_table": one, "from_seat": 2, "to_table": two, "to_seat": 5} if method == "post" else None
    response = getattr(dealer, method)(url.format(one=one), data=data)
    assert response.status_code == 403
    assert "floor" in response.get_data(as_text=True).lower()
    assert "5" not in state(dealer, two)["seats"]


# --------------------------------------------------------------------------- histories

def won_hand(client, table_id, token):
    """A deal whose first player opens and everyone else folds: the opener shows queens and wins."""
    post(client, table_id, {"type": "deal"}, token)
    opener = state(client, table_id)["to_act"]
    assert post(client, table_id, {"type": "open", "seat": opener}, token).status_code == 201
    while (now := state(client, table_id))["phase"] == "predraw":
        assert post(client, table_id, {"type": "fold", "seat": now["to_act"]}, token).status_code == 201
    shown = post(client, table_id, {"type": "show", "seat": opener, "cards": "Qc Qd 4h 5s 7c"}, token)
    assert shown.status_code == 201, shown.json
    return opener


def a_night(client, one, two):
    """Two tables: hands played, a newcomer, a rebuy, a player leaving, a move between tables."""
    token = csrf_token_from(client.get("/dealer/").data)
    for event in [*dead_deal([2, 3, 4, 1]), {"type": "sit", "seat": 6, "player": "Eve", "chips": 250},
                  {"type": "add_chips", "seat": 1, "amount": 100}]:
        assert post(client, one, event, token).status_code == 201, event
    assert won_hand(client, one, token) == 3  # the button moved to seat 2: Cleo opens
    assert post(client, one, {"type": "leave", "seat": 4}, token).status_code == 201
    assert move_form(client, from_table=one, from_seat=6, to_table=two, to_seat=4).status_code == 302
    post(client, two, {"type": "deal"}, token)
    while (now := state(client, two))["phase"] == "predraw":
        assert post(client, two, {"type": "pass", "seat": now["to_act"]}, token).status_code == 201


def test_the_table_history_nets_add_up_to_minus_the_pot(as_role, app, two_tables):
    one, two = two_tables
    floor = as_role("floor")
    a_night(floor, one, two)
    from floor.floorpages.lineups import history_of
    with app.app_context():
        for table_id in (one, two):
            table = db.session.get(Table, table_id)
            history, now = history_of(table), tables.state_of(table)
            assert sum(p.net for p in history.players) + now["pot"] == 0
            assert sum(p.bought_in for p in history.players) == now["ledger"]["chips_in"]
            assert sum(p.taken_away for p in history.players) == now["ledger"]["chips_out"]
        first = history_of(db.session.get(Table, one))
        cleo, ann, dev = first.player("Cleo"), first.player("Ann"), first.player("Dev")
        # a dead deal (5 each, the pot of 20 carries), then Cleo opens for 10 and takes the antes of five
        # players (20 + 25) and her bet back: 55 won, 20 of it her own
        assert (cleo.hands, cleo.net, cleo.won) == (2, 35, 55)
        assert (ann.hands, ann.bought_in, ann.stack, ann.net) == (2, 100, 590, -10)
        assert (dev.taken_away, dev.stack, dev.net) == (490, None, -10)
        eve = first.player("Eve")
        assert (eve.hands, eve.bought_in, eve.taken_away, eve.net) == (1, 250, 245, -5)
    html = floor.get(f"/floor/tables/{one}/history").get_data(as_text=True)
    assert re.search(r'data-player="Cleo">.*?class="net">\+35<', html, re.S)
    assert "Eve sits in seat 6 with 250" in html and "Dev (seat 4) leaves" in html


def test_the_player_history_sums_the_tables(as_role, two_tables):
    one, two = two_tables
    floor = as_role("floor")
    a_night(floor, one, two)
    html = floor.get("/floor/players/Eve").get_data(as_text=True)
    # Eve: 250 in at Table 1, one hand (ante 5), moved with 245 to Table 2, one dead deal there (ante 5)
    assert re.search(r'id="total-hands">2<', html)
    assert re.search(r'id="total-in">495<', html) and re.search(r'id="total-out">245<', html)
    assert re.search(r'id="total-net">-10<', html)
    assert floor.get("/floor/players/Nobody").status_code == 404


# --------------------------------------------------------------------------- the director's seating

def test_the_director_sets_the_seats_and_the_maximum_buy_in_and_the_seating_starts_the_night(app, as_role):
    from tests.test_director import make_event, new_table_id, table_form

    event_id = make_event(app)
    director = as_role("director")
    refused = director.post(f"/director/events/{event_id}/tables/new",
                            data={**table_form(seats={1: ("Ann", 500), 7: ("Bob", 500)}), "capacity": "6"})
    assert refused.status_code == 400 and "seat 7 is beyond the table&#39;s 6 seats" in refused.get_data(as_text=True)
    response = director.post(f"/director/events/{event_id}/tables/new",
                             data={**table_form(), "capacity": "6", "max_buy_in": "800"})
    assert response.status_code == 302
    table_id = new_table_id(response)
    with app.app_context():
        setup = db.session.get(Table, table_id).setup
    assert (setup["capacity"], setup["max_buy_in"]) == (6, 800)
    dealer = as_role("dealer")
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert sorted(menus(html)) == [1, 2, 3, 4, 5, 6] and "buy-in up to 800" in html
    assert post(dealer, table_id, {"type": "sit", "seat": 4, "player": "Dev", "chips": 800}).status_code == 201
    assert "maximum of 800" in post(dealer, table_id, {"type": "add_chips", "seat": 4, "amount": 1}).json["message"]
    page = director.get(f"/director/tables/{table_id}").get_data(as_text=True)
    assert "The starting line-up" in page and f"/floor/tables/{table_id}/history" in page
    assert "Dev" not in page  # the director's seating stays what was entered; Dev's arrival is in the log
    assert "Dev sits in seat 4 with 800" in director.get(f"/floor/tables/{table_id}/history").get_data(as_text=True)


def test_a_line_up_row_links_to_the_move_form_filled_in(as_role, two_tables):
    one, _ = two_tables
    floor = as_role("floor")
    html = floor.get("/floor/lineups").get_data(as_text=True)
    assert f"/floor/lineups?from_table={one}&amp;from_seat=2#move" in html
    form = floor.get(f"/floor/lineups?from_table={one}&from_seat=2").get_data(as_text=True)
    assert re.search(r'id="from_seat"[^>]*value="2"', form)
    assert re.search(rf'<option selected value="{one}">Table 1</option>', form)


def test_the_leave_button_says_a_claim_on_the_carried_pot_stays(as_role, table_id):
    dealer = as_role("dealer")
    for event in dead_deal([2, 3, 4, 1]):  # nobody opens: the pot of 20 carries, 5 of it Bob's
        post(dealer, table_id, event)
    html = dealer.get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "If Bob leaves, the 5 put into the pot in play stays in it." in html
    left = post(dealer, table_id, {"type": "leave", "seat": 2})
    assert left.json["state"]["pot"] == 20 and left.json["state"]["ledger"]["chips_out"] == 495
