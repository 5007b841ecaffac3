"""The director's pages: events, tables and seating, house profiles, users (issue 6)."""

from __future__ import annotations

import re

import pytest

from floor import tables
from floor.extensions import db
from floor.models import CardRoomEvent, HouseProfile, Role, Table, User
from tests.conftest import PASSWORD, SETUP, bearer, csrf_token_from, login


def seat_fields(seats):
    """Form fields for the seat rows: ``{1: ("Ann", 500), ...}``."""
    data = {}
    for number, (player, stack) in seats.items():
        data[f"seat{number}-player"] = player
        data[f"seat{number}-stack"] = str(stack)
    return data


def table_form(name="Table 1", profile="cardroom", ante=5, small=10, big=20, button=1, seats=None):
    seats = seats if seats is not None else {1: ("Ann", 500), 2: ("Bob", 500), 3: ("Cleo", 400)}
    return {"name": name, "profile": profile, "ante": str(ante), "small_bet": str(small), "big_bet": str(big),
            "button": str(button), **seat_fields(seats)}


def make_event(app, name="Friday jackpot", profile="cardroom"):
    with app.app_context():
        event = CardRoomEvent(name=name, profile=profile)
        db.session.add(event)
        db.session.commit()
        return event.id


def get_table(app, table_id):
    with app.app_context():
        table = db.session.get(Table, table_id)
        return {"name": table.name, "setup": table.setup, "version": table.version}


def new_table_id(response):
    match = re.search(r"/director/tables/(\d+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


# --------------------------------------------------------------------------- events

def test_a_director_creates_and_edits_an_event(app, as_role):
    client = as_role("director")
    assert b"New event" in client.get("/director/").data
    response = client.post("/director/events/new",
                           data={"name": "Friday jackpot", "starts_on": "2026-12-04", "profile": "pagat"})
    assert response.status_code == 302
    event_id = int(response.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)
    assert "Friday jackpot" in page and 'value="2026-12-04"' in page and "New table" in page
    response = client.post(f"/director/events/{event_id}",
                           data={"name": "Friday jackpot II", "starts_on": "", "profile": "foster"})
    assert response.status_code == 302
    with app.app_context():
        event = db.session.get(CardRoomEvent, event_id)
        assert (event.name, event.starts_on, event.profile) == ("Friday jackpot II", None, "foster")
    assert b"Friday jackpot II" in client.get("/director/").data


@pytest.mark.parametrize("data,message", [
    ({"name": "", "starts_on": "", "profile": "cardroom"}, "This field is required."),
    ({"name": "X", "starts_on": "next friday", "profile": "cardroom"}, "Not a valid date value."),
    ({"name": "X", "starts_on": "", "profile": "poker night"}, "Not a valid choice."),
    ({"name": "X" * 121, "starts_on": "", "profile": "cardroom"}, "cannot be longer than 120 characters"),
])
def test_an_invalid_event_is_shown_again_with_the_message_in_place(app, as_role, data, message):
    client = as_role("director")
    response = client.post("/director/events/new", data=data)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalars(db.select(CardRoomEvent)).first() is None


def test_event_form_with_csrf_on(csrf_app):
    client = login_csrf(csrf_app, "dana")
    assert client.post("/director/events/new", data={"name": "No token", "profile": "cardroom"}).status_code == 400
    token = csrf_token_from(client.get("/director/events/new").data)
    response = client.post("/director/events/new",
                           data={"name": "With token", "profile": "cardroom", "csrf_token": token})
    assert response.status_code == 302


def login_csrf(app, username):
    client = app.test_client()
    token = csrf_token_from(client.get("/login").data)
    response = client.post("/login", data={"username": username, "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    return client


# --------------------------------------------------------------------------- tables

def test_a_director_sets_up_a_table_of_an_event(app, as_role):
    event_id = make_event(app, profile="foster")
    client = as_role("director")
    page = client.get(f"/director/events/{event_id}/tables/new").get_data(as_text=True)
    assert '<option selected value="foster">' in page  # the event's default house rules
    assert "only while the table's log is empty" in page
    response = client.post(f"/director/events/{event_id}/tables/new",
                           data=table_form(profile="foster", button=2, seats={1: ("Ann", 500), 2: ("Bob", 300),
                                                                               5: ("Eve", 250)}))
    assert response.status_code == 302
    table = get_table(app, new_table_id(response))
    ids = [seat.pop("player_id") for seat in table["setup"]["seats"]]  # issue 31: each name a player's record
    assert len(set(ids)) == 3 and all(isinstance(n, int) for n in ids)
    assert table["setup"] == {
        "profile": "foster", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 2,
        "seats": [{"seat": 1, "player": "Ann", "stack": 500}, {"seat": 2, "player": "Bob", "stack": 300},
                  {"seat": 5, "player": "Eve", "stack": 250}],
    }
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)
    assert "Table 1" in page and "foster" in page


def test_a_setup_the_rules_refuse_shows_the_rules_message(app, as_role):
    event_id = make_event(app)
    client = as_role("director")
    response = client.post(f"/director/events/{event_id}/tables/new", data=table_form(button=7))
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "The rules refuse this setup" in text and "button must be on a seat" in text
    with app.app_context():
        assert db.session.scalars(db.select(Table)).first() is None


@pytest.mark.parametrize("change,message", [
    ({"seat4-player": "Dev"}, "Give this player&#39;s starting stack."),
    ({"seat4-stack": "300"}, "A stack needs a player"),
    ({"seat2-player": "ann"}, "seated twice"),
    ({"seat2-stack": "-5"}, "Number must be between 0 and"),
    ({"ante": "-1"}, "Number must be between 0 and"),
    ({"small_bet": "ten"}, "Not a valid integer value."),
    ({"button": "11"}, "Number must be between 1 and 10."),
    ({"profile": "../../etc/passwd"}, "Not a valid choice."),
    ({"name": ""}, "This field is required."),
])
def test_table_fields_are_checked_with_the_message_in_place(app, as_role, change, message):
    event_id = make_event(app)
    response = as_role("director").post(f"/director/events/{event_id}/tables/new", data={**table_form(), **change})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_no_seated_player_is_not_a_setup(app, as_role):
    event_id = make_event(app)
    response = as_role("director").post(f"/director/events/{event_id}/tables/new", data=table_form(seats={}))
    assert response.status_code == 400 and b"Seat the players" in response.data


def test_the_setup_is_editable_while_the_log_is_empty(app, as_role):
    event_id = make_event(app)
    client = as_role("director")
    table_id = new_table_id(client.post(f"/director/events/{event_id}/tables/new", data=table_form()))
    with app.app_context():
        tables.state_of(db.session.get(Table, table_id))  # caches the state of version 0
    response = client.post(f"/director/tables/{table_id}",
                           data=table_form(name="Table 9", ante=10, seats={1: ("Ann", 800), 2: ("Bob", 500)}))
    assert response.status_code == 302
    table = get_table(app, table_id)
    assert table["name"] == "Table 9" and table["setup"]["ante"] == 10
    assert [s["stack"] for s in table["setup"]["seats"]] == [800, 500]
    with app.app_context():
        state = tables.state_of(db.session.get(Table, table_id))
    assert sorted(str(k) for k in state["seats"]) == ["1", "2"]  # not the cached three-seat state


def test_seating_is_locked_once_the_table_has_events(app, as_role):
    event_id = make_event(app)
    client = as_role("director")
    table_id = new_table_id(client.post(f"/director/events/{event_id}/tables/new", data=table_form()))
    with app.app_context():
        table = db.session.get(Table, table_id)
        dana = db.session.scalars(db.select(User).where(User.username == "dana")).one()
        tables.append(table, {"type": "deal"}, dana)
    before = get_table(app, table_id)
    assert before["version"] == 1
    page = client.get(f"/director/tables/{table_id}").get_data(as_text=True)
    assert "Setup fixed." in page and "what the logged hands meant" in page
    assert 'name="seat1-player"' not in page and "Ann" in page  # shown, not editable
    response = client.post(f"/director/tables/{table_id}",
                           data=table_form(name="Renamed", ante=50, seats={1: ("Zed", 9000), 2: ("Bob", 500)}))
    assert response.status_code == 302
    after = get_table(app, table_id)
    assert after["name"] == "Renamed" and after["setup"] == before["setup"]


def test_a_table_page_shows_its_house_rules_with_rule_ids(app, as_role):
    event_id = make_event(app)
    client = as_role("director")
    table_id = new_table_id(client.post(f"/director/events/{event_id}/tables/new", data=table_form()))
    page = client.get(f"/director/tables/{table_id}").get_data(as_text=True)
    assert "House rules of this table: cardroom" in page
    assert "ante_deals" in page and "O4" in page and "postdraw_first" in page and "D4" in page


def test_unknown_ids_are_404_in_plain_words(as_role):
    client = as_role("director")
    for url in ("/director/events/99", "/director/tables/99", "/director/events/99/tables/new",
                "/director/profiles/99/edit", "/director/users/99", "/director/profiles/nope"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert b"Traceback" not in response.data


# --------------------------------------------------------------------------- house profiles

GOOD_TOML = 'base = "cardroom"\ntitle = "Main room"\nante_deals = 2\npostdraw_first = "left_of_button"\n'


def test_a_house_profile_is_checked_saved_and_shown(app, as_role):
    client = as_role("director")
    assert b'base = "cardroom"' in client.get("/director/profiles/new").data  # a starter text
    response = client.post("/director/profiles/new", data={"name": "main-room", "toml": GOOD_TOML})
    assert response.status_code == 302 and response.headers["Location"] == "/director/profiles/main-room"
    page = client.get("/director/profiles/main-room").get_data(as_text=True)
    assert "Main room" in page and "left_of_button" in page and "O4" in page and "Edit TOML" in page
    assert "main-room (house)" in client.get("/director/profiles/").get_data(as_text=True)


@pytest.mark.parametrize("toml,message", [
    ("ante_deals = ", "not valid TOML"),
    ('ante_deals = "three"', "ante_deals: must be at least 1 or &#34;none&#34; (no cap), not &#39;three&#39;"),
    ("ante_deals = 0", "ante_deals: must be at least 1"),
    ("lucky_sevens = true", "unknown option &#39;lucky_sevens&#39;"),
    ('base = "poker night"', "unknown profile &#39;poker night&#39;"),
    ('wild = "everything"', "wild: must be one of none, bug, deuces, joker"),
    ("max_draw = 7", "max_draw: 7 is more than any card room plays; at most 5 cards drawn"),
    ("[ante]\ndeals = 2", "unknown option &#39;ante&#39;"),
])
def test_house_profile_toml_errors_are_shown_in_place(app, as_role, toml, message):
    client = as_role("director")
    response = client.post("/director/profiles/new", data={"name": "bad", "toml": toml})
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert message in text
    assert 'class="field-error"' in text
    with app.app_context():
        assert db.session.scalars(db.select(HouseProfile)).first() is None


@pytest.mark.parametrize("name,message", [
    ("cardroom", "is a named profile"),
    ("Main Room", "Use lower-case letters"),
    ("x.pdf", "Use lower-case letters"),
    ("", "This field is required."),
])
def test_house_profile_names_are_checked(as_role, name, message):
    response = as_role("director").post("/director/profiles/new", data={"name": name, "toml": GOOD_TOML})
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_a_house_profile_name_is_taken_once(as_role):
    client = as_role("director")
    assert client.post("/director/profiles/new", data={"name": "main", "toml": GOOD_TOML}).status_code == 302
    response = client.post("/director/profiles/new", data={"name": "main", "toml": GOOD_TOML})
    assert response.status_code == 400 and b"already a house profile called main" in response.data


def test_editing_a_house_profile_keeps_tables_as_they_were_set_up(app, as_role):
    client = as_role("director")
    client.post("/director/profiles/new", data={"name": "main", "toml": GOOD_TOML})
    with app.app_context():
        house_id = db.session.scalars(db.select(HouseProfile)).one().id
    event_id = make_event(app, profile="main")
    assert '<option selected value="main">' in client.get(f"/director/events/{event_id}/tables/new").get_data(
        as_text=True)
    table_id = new_table_id(client.post(f"/director/events/{event_id}/tables/new", data=table_form(profile="main")))
    assert get_table(app, table_id)["setup"]["profile"]["ante_deals"] == 2
    bad = client.post(f"/director/profiles/{house_id}/edit", data={"name": "main", "toml": "ante_deals = -2"})
    assert bad.status_code == 400 and b"ante_deals: must be at least 1" in bad.data
    response = client.post(f"/director/profiles/{house_id}/edit",
                           data={"name": "renamed", "toml": GOOD_TOML.replace("ante_deals = 2", "ante_deals = 4")})
    assert response.status_code == 302
    with app.app_context():
        house = db.session.get(HouseProfile, house_id)
        assert house.name == "main" and "ante_deals = 4" in house.toml  # the name is fixed
    setup = get_table(app, table_id)["setup"]
    assert setup["profile"]["ante_deals"] == 2 and setup["profile"]["name"] == "main"
    assert "ante_deals" in client.get(f"/director/tables/{table_id}").get_data(as_text=True)


def test_every_named_profile_shows_its_options(as_role):
    client = as_role("director")
    for name in ("cardroom", "pagat", "foster"):
        page = client.get(f"/director/profiles/{name}").get_data(as_text=True)
        assert "false_openers" in page and "F9" in page and "named profile" in page


def test_house_profile_form_with_csrf_on(csrf_app):
    client = login_csrf(csrf_app, "dana")
    assert client.post("/director/profiles/new", data={"name": "a", "toml": GOOD_TOML}).status_code == 400
    token = csrf_token_from(client.get("/director/profiles/new").data)
    response = client.post("/director/profiles/new", data={"name": "a", "toml": GOOD_TOML, "csrf_token": token})
    assert response.status_code == 302


# --------------------------------------------------------------------------- users

def user_id(app, username):
    with app.app_context():
        return db.session.scalars(db.select(User).where(User.username == username)).one().id


def test_a_director_adds_a_user_who_can_log_in(app, as_role):
    client = as_role("director")
    response = client.post("/director/users/new", data={"username": "nina", "role": "floor",
                                                        "password": "long enough pw", "confirm": "long enough pw"})
    assert response.status_code == 302
    with app.app_context():
        nina = db.session.scalars(db.select(User).where(User.username == "nina")).one()
        assert nina.role is Role.floor and nina.token_digest is None  # no token until one is issued
    response = app.test_client().post("/login", data={"username": "nina", "password": "long enough pw"})
    assert response.headers["Location"] == "/floor/"


@pytest.mark.parametrize("data,message", [
    ({"username": "dee", "password": "long enough pw", "confirm": "long enough pw"}, "already a user called dee"),
    ({"username": "x y", "password": "long enough pw", "confirm": "long enough pw"}, "no spaces"),
    ({"username": "nina", "password": "short", "confirm": "short"}, "between 8 and 200 characters"),
    ({"username": "nina", "password": "long enough pw", "confirm": "other words"}, "The passwords differ."),
    ({"username": "nina", "role": "owner", "password": "long enough pw", "confirm": "long enough pw"},
     "Not a valid choice."),
])
def test_new_user_fields_are_checked(as_role, data, message):
    response = as_role("director").post("/director/users/new", data={"role": "dealer", **data})
    assert response.status_code == 400 and message in response.get_data(as_text=True)


def test_roles_change_and_accounts_are_deactivated_never_deleted(app, as_role):
    client = as_role("director")
    dee = user_id(app, "dee")
    assert client.post(f"/director/users/{dee}", data={"role": "floor", "active": "y"}).status_code == 302
    assert login(app.test_client(), "dee").get("/floor/").status_code == 200
    assert client.post(f"/director/users/{dee}", data={"role": "floor"}).status_code == 302  # box unticked
    with app.app_context():
        user = db.session.get(User, dee)
        assert user is not None and not user.active
    assert app.test_client().post("/login", data={"username": "dee", "password": PASSWORD}).status_code == 401
    assert b"deactivated" in client.get(f"/director/users/{dee}").data


def test_an_accounts_page_shows_its_role_selected(app, as_role):
    """The role box showed "dealer" for every account (none of its options was selected): a
    director who ticked "Active" off a floor person's page and saved demoted them to dealer."""
    client = as_role("director")
    for name, role in (("fred", "floor"), ("dana", "director"), ("dee", "dealer")):
        page = client.get(f"/director/users/{user_id(app, name)}").get_data(as_text=True)
        assert re.findall(r'<option selected value="(\w+)">', page) == [role], name
        token_page = client.post(f"/director/users/{user_id(app, name)}/token").get_data(as_text=True)
        assert re.findall(r'<option selected value="(\w+)">', token_page) == [role], name


def test_a_director_cannot_lock_themselves_out(app, as_role):
    client = as_role("director")
    dana = user_id(app, "dana")
    for data in ({"role": "dealer", "active": "y"}, {"role": "director"}):
        response = client.post(f"/director/users/{dana}", data=data)
        assert response.status_code == 400 and b"cannot demote or deactivate yourself" in response.data
    with app.app_context():
        assert db.session.get(User, dana).role is Role.director


def test_a_new_api_token_is_shown_once_and_replaces_the_old_one(app, as_role, tokens):
    client = as_role("director")
    fred = user_id(app, "fred")
    response = client.post(f"/director/users/{fred}/token")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    token = re.search(r'<code style="[^"]*">([A-Za-z0-9_-]{30,})</code>', response.get_data(as_text=True)).group(1)
    assert client.get(f"/director/users/{fred}").get_data(as_text=True).count(token) == 0
    api = app.test_client()
    assert api.get("/api/tables/1", headers=bearer(tokens["floor"])).status_code == 401  # the old one
    assert api.get("/api/tables/1", headers=bearer(token)).status_code == 404  # known user, no such table


def test_user_forms_with_csrf_on(csrf_app):
    client = login_csrf(csrf_app, "dana")
    data = {"username": "nina", "role": "dealer", "password": "long enough pw", "confirm": "long enough pw"}
    assert client.post("/director/users/new", data=data).status_code == 400
    token = csrf_token_from(client.get("/director/users/new").data)
    response = client.post("/director/users/new", data={**data, "csrf_token": token})
    assert response.status_code == 302
    page = response.headers["Location"]
    assert client.post(page, data={"role": "floor", "active": "y"}).status_code == 400
    token = csrf_token_from(client.get(page).data)
    assert client.post(page, data={"role": "floor", "active": "y", "csrf_token": token}).status_code == 302
    assert client.post(page + "/token").status_code == 400
    assert client.post(page + "/token", data={"csrf_token": token}).status_code == 200


def test_table_form_with_csrf_on(csrf_app):
    event_id = make_event(csrf_app)
    client = login_csrf(csrf_app, "dana")
    url = f"/director/events/{event_id}/tables/new"
    assert client.post(url, data=table_form()).status_code == 400
    token = csrf_token_from(client.get(url).data)
    response = client.post(url, data={**table_form(), "csrf_token": token})
    assert response.status_code == 302
    table_url = response.headers["Location"]
    assert client.post(table_url, data=table_form(name="T2")).status_code == 400
    assert client.post(table_url, data={**table_form(name="T2"), "csrf_token": token}).status_code == 302


def test_only_directors_reach_the_director_pages(as_role, client):
    assert client.get("/director/").status_code == 302
    for role in ("dealer", "floor"):
        response = as_role(role).post("/director/events/new", data={"name": "X", "profile": "cardroom"})
        assert response.status_code == 403


def test_the_api_can_still_create_tables_the_director_pages_show(client, tokens, as_role):
    response = client.post("/api/tables", json={"name": "From API", **SETUP}, headers=bearer(tokens["director"]))
    assert response.status_code == 201
    page = as_role("director").get("/director/").get_data(as_text=True)
    assert "Tables outside any event" in page and "From API" in page
