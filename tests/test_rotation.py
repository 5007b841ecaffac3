"""Dealer rotation (issue 31; docs/players.md, "Dealer rotation") through HTTP: who may make the
schedule and move a dealer by hand; the push schedule round by round; in a room that rotates a
dealer's tap at a table not theirs is refused with the reason, the floor's and the director's never;
the tablet and the board show each dealer's next table and when."""

from __future__ import annotations

from datetime import timedelta

import pytest

from floor.accounts import create_user
from floor.extensions import db
from floor.models import Role
from floor.rotation import Rotation
from tests.conftest import SETUP, bearer, login
from tests.tourney_play import Api


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


@pytest.fixture
def room(app, api, table_id):
    """Three tables, three dealers: dee, dot and dan."""
    with app.app_context():
        for name in ("dot", "dan"):
            create_user(name, Role.dealer, "long enough password")
        db.session.commit()
    others = [api.post("/api/tables", {"name": f"Table {n}", "setup": SETUP}, status=201)["id"] for n in (2, 3)]
    return [table_id, *others]


def later(app, rounds, minutes=30):
    """The clock moved on ``rounds`` rounds (the schedule's start moved back)."""
    with app.app_context():
        rotation = db.session.scalars(db.select(Rotation).where(Rotation.ended_at.is_(None))).one()
        rotation.start -= timedelta(minutes=minutes * rounds)
        db.session.commit()


def where(slots, now_only=True):
    first = min(s["from"] for s in slots)
    return {s["dealer"]: s["table"] for s in slots if s["from"] == first or not now_only}


@pytest.mark.parametrize("role, status", [("dealer", 403), ("floor", 201), ("director", 201)])
def test_who_may_make_the_rotation(api, room, role, status):
    api.post("/api/rotation", {"dealers": ["dee", "dot", "dan"], "tables": room, "minutes": 30}, role=role,
             status=status)
    assert isinstance(api.get("/api/rotation", role="dealer"), list)


def test_a_dealer_may_not_move_a_dealer_by_hand(api, room):
    api.post("/api/rotation/assign", {"dealer": "dee", "table": room[1]}, role="dealer", status=403)


def test_the_rotation_is_checked(api, room):
    def refused(body):
        return api.post("/api/rotation", body, role="floor", status=422)["message"]

    assert "no dealer 'zed'" in refused({"dealers": ["dee", "zed"], "tables": room[:2], "minutes": 30})
    assert "no table 99" in refused({"dealers": ["dee"], "tables": [99], "minutes": 30})
    assert "minutes is a whole number from 10 to 120" in refused({"dealers": ["dee"], "tables": room[:1], "minutes": 5})
    assert "3 tables need 3 dealers" in refused({"dealers": ["dee", "dot"], "tables": room, "minutes": 30})
    assert "named twice" in refused({"dealers": ["dee", "dee"], "tables": room[:1], "minutes": 30})
    assert api.get("/api/rotation") == []


def test_the_push_schedule_round_by_round(app, api, room):
    """Four dealers over three tables: each pushes the next; the fourth rests, in turn."""
    with app.app_context():
        create_user("dix", Role.dealer, "long enough password")
        db.session.commit()
    a, b, c = room
    slots = api.post("/api/rotation", {"dealers": ["dee", "dot", "dan", "dix"], "tables": room, "minutes": 30},
                     role="floor", status=201)
    assert set(slots[0]) >= {"dealer", "table", "from", "until"}
    assert where(slots) == {"dee": a, "dot": b, "dan": c}
    nxt = [s for s in slots if s["from"] != min(x["from"] for x in slots)]
    assert {s["dealer"]: s["table"] for s in nxt} == {"dee": b, "dot": c, "dix": a}
    assert nxt[0]["from"] == slots[0]["until"]
    later(app, 1)
    assert where(api.get("/api/rotation")) == {"dee": b, "dot": c, "dix": a}
    later(app, 1)
    assert where(api.get("/api/rotation")) == {"dee": c, "dan": a, "dix": b}


def test_a_dealer_logs_only_at_the_table_the_rotation_gives_them(app, api, room):
    a, b, _ = room
    api.log(b, {"type": "sit_out", "seat": 1})  # before the room rotates, anywhere
    api.post("/api/rotation", {"dealers": ["dee", "dot", "dan"], "tables": room, "minutes": 30}, role="floor",
             status=201)
    refused = api.post(f"/api/tables/{b}/events", {"type": "sit_in", "seat": 1}, role="dealer", status=403)
    assert refused["message"].startswith("rotation: Table 2 is not your table now: you deal at Table 1 until ")
    assert "the floor may move you by hand" in refused["message"]
    api.log(a, {"type": "sit_out", "seat": 1})
    for role in ("floor", "director"):  # never refused for it
        api.post(f"/api/tables/{b}/events", {"type": "sit_in" if role == "floor" else "sit_out", "seat": 1},
                 role=role, status=201)
    later(app, 1)  # dee pushes on to Table 2
    api.post(f"/api/tables/{a}/events", {"type": "sit_in", "seat": 1}, role="dealer", status=403)
    api.log(b, {"type": "sit_in", "seat": 1})


def test_the_floor_moves_a_dealer_by_hand(api, room):
    a, b, c = room
    api.post("/api/rotation", {"dealers": ["dee", "dot", "dan"], "tables": room, "minutes": 30}, role="floor",
             status=201)
    slots = api.post("/api/rotation/assign", {"dealer": "dee", "table": c}, role="floor", status=200)
    assert [s for s in slots if s["dealer"] == "dee" and s["by_hand"]][0]["table"] == c
    api.log(c, {"type": "sit_out", "seat": 1})
    assert "you deal at Table 3" in api.post(f"/api/tables/{a}/events", {"type": "sit_out", "seat": 2},
                                             role="dealer", status=403)["message"]
    assert "no table 99" in api.post("/api/rotation/assign", {"dealer": "dee", "table": 99}, role="floor",
                                     status=422)["message"]


def test_a_dealer_on_a_break_is_told_where_next(app, api, room):
    with app.app_context():
        create_user("dix", Role.dealer, "long enough password")
        db.session.commit()
    api.post("/api/rotation", {"dealers": ["dix", "dot", "dan", "dee"], "tables": room, "minutes": 30},
             role="floor", status=201)  # dee rests first, then takes Table 1
    refused = api.post(f"/api/tables/{room[0]}/events", {"type": "sit_out", "seat": 1}, role="dealer", status=403)
    assert "you are on a break; next Table 1 at " in refused["message"]


def test_the_tablet_and_the_board_show_the_next_table(app, api, room):
    api.post("/api/rotation", {"dealers": ["dee", "dot", "dan"], "tables": room, "minutes": 30}, role="floor",
             status=201)
    dealer = app.test_client()
    login(dealer, "dee")
    for page in (dealer.get("/dealer/"), dealer.get(f"/dealer/tables/{room[0]}")):
        html = page.get_data(as_text=True)
        assert "You deal at <strong>Table 1</strong> until" in html
        assert f'next: <strong data-next-table="{room[1]}">Table 2</strong> at' in html
    board = app.test_client().get("/board").get_data(as_text=True)
    assert 'id="dealers"' in board
    assert "dee: Table 1 · next Table 2 at" in board and "dan: Table 3 · next Table 1 at" in board
    api.post("/api/rotation/end", role="floor", status=200)
    assert api.get("/api/rotation") == [] and 'id="dealers"' not in app.test_client().get("/board").get_data(as_text=True)
    api.log(room[2], {"type": "sit_out", "seat": 1})  # the room no longer rotates



def test_a_move_by_hand_in_a_room_that_does_not_rotate_holds_that_dealer_only(app, client, api, room):
    a, b, _ = room
    with app.app_context():
        _, token = create_user("dot2", Role.dealer, "long enough password")
        db.session.commit()
    api.post("/api/rotation/assign", {"dealer": "dee", "table": b}, role="floor", status=200)
    assert "you deal at Table 2" in api.post(f"/api/tables/{a}/events", {"type": "sit_out", "seat": 1},
                                             role="dealer", status=403)["message"]
    api.log(b, {"type": "sit_out", "seat": 1})
    other = client.post(f"/api/tables/{a}/events", json={"type": "sit_out", "seat": 2}, headers=bearer(token))
    assert other.status_code == 201, other.get_json()  # another dealer, not moved: anywhere


def test_the_tablet_of_a_dealer_the_rotation_sends_elsewhere_logs_nothing(app, api, room):
    """The tablet's tap reads the table with the rotation's question in one statement, as the API's
    does (floor.rotation.table_to_tap): refused with the same words, nothing logged; at the table
    the rotation gives, logged."""
    from tests.conftest import csrf_token_from

    a, b, _ = room
    api.post("/api/rotation", {"dealers": ["dee", "dot", "dan"], "tables": room, "minutes": 30}, role="floor",
             status=201)
    tablet = login(app.test_client(), "dee")
    csrf = {"X-CSRFToken": csrf_token_from(tablet.get(f"/dealer/tables/{a}").data)}
    refused = tablet.post(f"/dealer/tables/{b}/taps", json={"type": "sit_out", "seat": 1}, headers=csrf)
    assert refused.status_code == 403
    assert refused.json["message"].startswith("rotation: Table 2 is not your table now: you deal at Table 1 until ")
    assert api.get(f"/api/tables/{b}")["version"] == 0
    assert tablet.post(f"/dealer/tables/{a}/taps", json={"type": "sit_out", "seat": 1}, headers=csrf).status_code == 201
