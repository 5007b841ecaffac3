"""Players as records (issue 31; docs/players.md) through HTTP:
roles per action (who may create, find, ban, seat), a seat's player by name or by ``{"id": n}``
with ``player_id`` in the state, the same person at two tables and in a tournament as one record,
a banned player refused at a seat and an entry with the reason, and the player's night (tables,
entries, buy-ins, cash-outs, hours seated) read from the log."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from floor.players import service
from tests.conftest import SETUP
from tests.tourney_play import Api

STRUCTURE = {"levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100}],
             "starting_chips": 1000, "buy_in": 50, "payouts": [100]}


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


def new_player(api, name, role="floor", **more):
    return api.post("/api/players", {"name": name, **more}, role=role, status=201)


def a_table(api, name="Table 9", seats=None):
    setup = {**SETUP, "seats": seats if seats is not None else SETUP["seats"]}
    return api.post("/api/tables", {"name": name, "setup": setup}, status=201)["id"]


def seats(api, table):
    return {int(k): v for k, v in api.table(table)["seats"].items()}


# --------------------------------------------------------------------------- roles per action


@pytest.mark.parametrize("role, status", [("dealer", 403), ("floor", 201), ("director", 201)])
def test_who_may_create_a_player(api, role, status):
    """The floor creates a player on the spot; a dealer finds, never creates a record by the API."""
    api.post("/api/players", {"name": "Gus", "card": "7001"}, role=role, status=status)


@pytest.mark.parametrize("role, status", [("dealer", 403), ("floor", 403), ("director", 200)])
def test_who_may_ban_and_lift_a_ban(api, role, status):
    """Banning is the director's, and so is lifting it."""
    gus = new_player(api, "Gus")
    api.call("POST", f"/api/players/{gus['id']}/ban", role, json={"reason": "abuse of a dealer"}, status=status)
    api.call("DELETE", f"/api/players/{gus['id']}/ban", role, status=status)


def test_a_dealer_finds_players_by_name_or_card_and_reads_one(api):
    """GET /api/players?q= by a part of the name (any case) or the start of the card number."""
    gus = new_player(api, "Gus Grissom", card="7001")
    new_player(api, "Augusta Ada", card="8002")
    new_player(api, "Bea")
    found = api.get("/api/players?q=gus")
    assert [p["name"] for p in found] == ["Augusta Ada", "Gus Grissom"]
    assert [p["name"] for p in api.get("/api/players?q=70")] == ["Gus Grissom"]
    assert api.get("/api/players?q=zz") == []
    one = api.get(f"/api/players/{gus['id']}")
    assert one["name"] == "Gus Grissom" and one["card"] == "7001" and one["banned"] is False
    assert one["night"] == {"tables": [], "lists": [], "entries": [], "promotions": [], "buy_ins": 0, "cash_outs": 0,
                            "hours_seated": 0}
    api.call("GET", "/api/players/999999", "dealer", status=404)


def test_a_new_player_is_checked(api):
    """A name is needed; a card number is another's once; unknown fields are named."""
    new_player(api, "Gus", card="7001")
    assert "name" in api.post("/api/players", {"name": " "}, role="floor", status=422)["message"]
    assert "already another player's" in api.post("/api/players", {"name": "Hal", "card": "7001"},
                                                  role="floor", status=422)["message"]
    assert "unknown field" in api.post("/api/players", {"name": "Hal", "chips": 5}, role="floor", status=400)["message"]


# --------------------------------------------------------------------------- seats name records


def test_a_sit_names_the_player_by_id_and_the_state_carries_player_id(api, table_id):
    """A seat's player may be {"id": n}: the log keeps the record's name and id; the state's seat
    carries player_id beside player."""
    gus = new_player(api, "Gus", card="7001")
    logged = api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": gus["id"]}, "chips": 300})
    assert logged["entry"]["event"] == {"type": "sit", "seat": 6, "player": "Gus", "chips": 300, "player_id": gus["id"]}
    assert seats(api, table_id)[6] | {} and seats(api, table_id)[6]["player_id"] == gus["id"]
    refused = api.call("POST", f"/api/tables/{table_id}/events", "dealer",
                       json={"type": "sit", "seat": 7, "player": {"id": 999999}, "chips": 300})
    assert refused.status_code == 422 and "no player #999999" in refused.get_json()["message"]


def test_the_same_name_at_two_tables_and_in_a_tournament_is_one_player(api):
    """Issue 31: "the same name at two tables, in a tournament and at a cash game, is three strangers
    to the app". A name with one record links to it, whatever its case and spacing."""
    one = a_table(api, "One")
    two = a_table(api, "Two", seats=[{"seat": 1, "player": "Zed", "stack": 500}, {"seat": 2, "player": "Yan", "stack": 500}])
    api.log(two, {"type": "sit", "seat": 3, "player": "  ann ", "chips": 200})
    event = api.post("/api/events", {"name": "Cup", "structure": STRUCTURE}, status=201)["id"]
    entered = api.post(f"/api/events/{event}/entries", {"player": "ANN"}, role="floor", status=201)
    ann = seats(api, one)[1]["player_id"]
    assert seats(api, two)[3]["player_id"] == ann == entered["player_id"]
    assert seats(api, two)[3]["player"] == "Ann" and entered["player"] == "Ann"
    assert [p["id"] for p in api.get("/api/players?q=ann")] == [ann]


def test_a_name_two_players_have_is_refused_until_one_is_picked(api, table_id):
    """Two records of one name: a sit by the name is refused naming both; by id it is taken."""
    first = new_player(api, "John Smith", card="1")
    second = new_player(api, "John Smith", card="2")
    refused = api.call("POST", f"/api/tables/{table_id}/events", "dealer",
                       json={"type": "sit", "seat": 6, "player": "john smith", "chips": 100})
    message = refused.get_json()["message"]
    assert refused.status_code == 422 and f"#{first['id']} (card 1)" in message and f"#{second['id']} (card 2)" in message
    api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": second["id"]}, "chips": 100})
    assert seats(api, table_id)[6]["player_id"] == second["id"]


def test_a_setup_names_its_players_by_id(api):
    gus = new_player(api, "Gus")
    table = a_table(api, seats=[{"seat": 1, "player": {"id": gus["id"]}, "stack": 500},
                                {"seat": 2, "player": "Bea", "stack": 500}])
    got = seats(api, table)
    assert got[1]["player"] == "Gus" and got[1]["player_id"] == gus["id"] and got[2]["player_id"] > 0


def test_a_setup_that_seats_one_player_twice_is_refused(app, api):
    """As a ``sit`` is refused for a player seated already, a setup naming one person in two seats
    (the same name in two cases, or the record and the name) is refused, nothing made: one seat
    would be paid the other's promotion, and the rules cannot tell them apart."""
    gus = new_player(api, "Gus")
    for second in ("gus", {"id": gus["id"]}):
        refused = api.post("/api/tables", {"name": "Twice", "setup": {**SETUP, "seats": [
            {"seat": 1, "player": "Gus", "stack": 500}, {"seat": 3, "player": second, "stack": 500}]}}, status=422)
        assert "setup: seat 3: Gus already sits in seat 1" in refused["message"], refused
    from floor.extensions import db
    from floor.models import Table

    with app.app_context():
        assert db.session.scalars(db.select(Table.name)).all() == []


# --------------------------------------------------------------------------- bans


def test_a_banned_player_is_refused_at_a_seat_and_an_entry_with_the_reason(app, api, table_id):
    """A ban (director) holds at every seat and every entry, by id or by name, saying why and until
    when; lifted, the player sits again. Nothing is logged by a refusal."""
    gus = new_player(api, "Gus", card="7001")
    api.post(f"/api/players/{gus['id']}/ban", {"reason": "abuse of a dealer", "until": "2099-12-31"}, status=200)
    shown = api.get(f"/api/players/{gus['id']}")
    assert shown["banned"] and shown["banned_reason"] == "abuse of a dealer" and shown["banned_until"].startswith("2099-12-3")
    version = api.get(f"/api/tables/{table_id}")["version"]
    for player in ({"id": gus["id"]}, "gus"):
        refused = api.call("POST", f"/api/tables/{table_id}/events", "dealer",
                           json={"type": "sit", "seat": 6, "player": player, "chips": 100})
        assert refused.status_code == 422
        assert refused.get_json()["message"].startswith("sit: Gus is banned until 2099-12-31")
        assert "abuse of a dealer" in refused.get_json()["message"]
    assert api.get(f"/api/tables/{table_id}")["version"] == version
    event = api.post("/api/events", {"name": "Cup", "structure": STRUCTURE}, status=201)["id"]
    refused = api.post(f"/api/events/{event}/entries", {"player": {"id": gus["id"]}}, role="floor", status=422)
    assert "entry: Gus is banned" in refused["message"] and "abuse of a dealer" in refused["message"]
    created = api.call("POST", "/api/tables", "director", json={"name": "T", "setup": {
        **SETUP, "seats": [{"seat": 1, "player": "Gus", "stack": 100}, {"seat": 2, "player": "Bea", "stack": 100}]}})
    assert created.status_code == 422 and "Gus is banned" in created.get_json()["message"]
    api.call("DELETE", f"/api/players/{gus['id']}/ban", "director", status=200)
    api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": gus["id"]}, "chips": 100})
    api.post(f"/api/events/{event}/entries", {"player": {"id": gus["id"]}}, role="floor", status=201)


def test_a_ban_is_checked(api, monkeypatch):
    """A ban needs a reason; its end is a date in the future; a ban whose end has passed holds no more."""
    gus = new_player(api, "Gus")
    assert "reason" in api.post(f"/api/players/{gus['id']}/ban", {"reason": ""}, status=422)["message"]
    assert "future" in api.post(f"/api/players/{gus['id']}/ban", {"reason": "x", "until": "2001-01-01"},
                                status=422)["message"]
    assert "not a date" in api.post(f"/api/players/{gus['id']}/ban", {"reason": "x", "until": "soon"},
                                    status=422)["message"]
    api.post(f"/api/players/{gus['id']}/ban", {"reason": "one night", "until": "2099-01-01T06:00"}, status=200)
    from floor.players import models

    monkeypatch.setattr(models, "utcnow", lambda: datetime(2099, 1, 2))
    assert api.get(f"/api/players/{gus['id']}")["banned"] is False


# --------------------------------------------------------------------------- the player's night


def test_the_players_night_from_the_log(api, table_id, monkeypatch):
    """GET /api/players/<id>: each stint at each table with what came in and went out at the
    player's seat (a sit's chips, a rebuy, the stack taken away), the hours seated, the entries."""
    gus = new_player(api, "Gus")
    clock = [datetime(2026, 11, 27, 20, 0)]
    import floor.players.night
    import floor.tables

    for module in (floor.tables, floor.players.night):  # the log's times and the night's "now"
        monkeypatch.setattr(module, "utcnow", lambda: clock[0])
    api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": gus["id"]}, "chips": 300})
    clock[0] += timedelta(minutes=30)
    api.log(table_id, {"type": "add_chips", "seat": 6, "amount": 100})
    api.log(table_id, {"type": "move_seat", "seat": 6, "to": 7})
    clock[0] += timedelta(minutes=60)
    api.log(table_id, {"type": "leave", "seat": 7})
    clock[0] += timedelta(minutes=30)
    other = a_table(api, "Two", seats=[{"seat": 1, "player": "Zed", "stack": 500}, {"seat": 2, "player": "Yan", "stack": 500}])
    api.log(other, {"type": "sit", "seat": 4, "player": "Gus", "chips": 250})
    clock[0] += timedelta(minutes=90)
    event = api.post("/api/events", {"name": "Cup", "structure": STRUCTURE}, status=201)["id"]
    api.post(f"/api/events/{event}/entries", {"player": "Gus"}, role="floor", status=201)
    night = api.get(f"/api/players/{gus['id']}")["night"]
    first, second = night["tables"]
    assert first["table_id"] == table_id and first["stints"] == [
        {"seat": 7, "from": "2026-11-27T20:00:00Z", "until": "2026-11-27T21:30:00Z", "bought_in": 400, "cashed_out": 400}]
    assert first["hours_seated"] == 1.5
    assert second["stints"][0]["until"] is None and second["stints"][0]["bought_in"] == 250
    assert second["hours_seated"] == 1.5  # still seated: until now
    assert night["buy_ins"] == 650 and night["cash_outs"] == 400 and night["hours_seated"] == 3.0
    assert [e["event"] for e in night["entries"]] == ["Cup"]


def test_the_night_counts_an_undone_sit_as_nothing(api, table_id):
    """An undo of the sit (the dealer's mistake) takes its chips back out of the player's night."""
    gus = new_player(api, "Gus")
    logged = api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": gus["id"]}, "chips": 300})
    api.log(table_id, {"type": "void", "event": logged["entry"]["index"]})
    night = api.get(f"/api/players/{gus['id']}")["night"]
    assert night["buy_ins"] == 0 and night["cash_outs"] == 0


def test_flask_verify_checks_the_link_of_an_entry_to_its_player(app, api):
    """The record beside a sealed name is checked against the name: a link changed outside the app is named."""
    event = api.post("/api/events", {"name": "Cup", "structure": STRUCTURE}, status=201)["id"]
    api.post(f"/api/events/{event}/entries", {"player": "Gus"}, role="floor", status=201)
    bea = new_player(api, "Bea")
    runner = app.test_cli_runner()
    assert runner.invoke(args=["verify"]).exit_code == 0
    from floor.extensions import db
    from floor.models import Entry

    with app.app_context():
        db.session.execute(db.update(Entry).values(player_id=bea["id"]))
        db.session.commit()
        assert service.link_problems() == [f"entry #1 (Gus): its player record #{bea['id']} is not the player "
                                           "named in the sealed row (the link was changed outside the app)"]
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1 and "its player record" in result.output


# --------------------------------------------------------------------------- the picker on the pages


def test_the_tablets_sit_form_and_the_desks_entry_form_carry_the_picker(app, api, table_id, as_role):
    """The tablet's sit form finds players (the picker) and only the floor's has "New player"; the
    desk's entry form enters the player the picker found (player_id), a banned one refused."""
    import re

    dealer_page = as_role("dealer").get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    assert "data-player-picker" in dealer_page and "playerpicker.js" in dealer_page
    assert "data-player-create" not in dealer_page
    assert "data-player-create" in as_role("floor").get(f"/dealer/tables/{table_id}").get_data(as_text=True)
    event = api.post("/api/events", {"name": "Cup", "structure": STRUCTURE}, status=201)["id"]
    gus, hal = new_player(api, "Gus Grissom", card="7001"), new_player(api, "Hal")
    api.post(f"/api/players/{hal['id']}/ban", {"reason": "cheating"}, status=200)
    floor = as_role("floor")
    page = floor.get(f"/tournament/{event}/").get_data(as_text=True)
    assert "data-player-picker" in page and "data-player-create" in page
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    form = {"csrf_token": token.group(1) if token else "", "players": "", "player": "Gus Grissom · card 7001 · #1",
            "player_id": str(gus["id"])}
    floor.post(f"/tournament/{event}/entries", data=form)
    floor.post(f"/tournament/{event}/entries", data={**form, "player": "Hal", "player_id": str(hal["id"])})
    entries = api.get(f"/api/events/{event}")["entries"]
    assert [(e["player"], e["player_id"]) for e in entries] == [("Gus Grissom", gus["id"])]
    said = floor.get(f"/tournament/{event}/").get_data(as_text=True)
    assert "Hal is banned" in said and "cheating" in said
