"""The table API of the contract: create, read, log events with expected_version (issue 4)."""

from __future__ import annotations

import threading

import pytest

from floor.extensions import db
from floor.models import LogEntry
from tests.conftest import SETUP, bearer

TOTAL = sum(s["stack"] for s in SETUP["seats"])


def chips(state):
    """Every chip at the table: stacks plus the pot (the pot counts side pots too)."""
    return sum(seat["stack"] for seat in state["seats"].values()) + state["pot"]


def new_table(client, tokens, **overrides):
    response = client.post("/api/tables", json={"name": "T1", **SETUP, **overrides}, headers=bearer(tokens["director"]))
    assert response.status_code == 201, response.json
    return response.json


def post(client, token, table_id, event, version):
    return client.post(f"/api/tables/{table_id}/events", json={**event, "expected_version": version},
                       headers=bearer(token))


def test_a_director_creates_a_table_and_anyone_logged_in_reads_it(client, tokens):
    table = new_table(client, tokens)
    assert table["version"] == 0 and table["profile"] == "cardroom"
    assert table["state"]["phase"] == "between_deals"
    for role in ("dealer", "floor", "director"):
        response = client.get(f"/api/tables/{table['id']}", headers=bearer(tokens[role]))
        assert response.status_code == 200 and response.json["name"] == "T1"


def test_only_directors_create_tables(client, tokens):
    for role in ("dealer", "floor"):
        response = client.post("/api/tables", json=SETUP, headers=bearer(tokens[role]))
        assert response.status_code == 403 and "director" in response.json["message"]
    assert client.post("/api/tables", json=SETUP).status_code == 401


def test_a_setup_the_rules_refuse_is_422_with_the_reason_and_nothing_stored(client, tokens):
    response = client.post("/api/tables", json={**SETUP, "profile": "poker night"}, headers=bearer(tokens["director"]))
    assert response.status_code == 422
    assert "poker night" in response.json["message"]
    twice = [SETUP["seats"][0], SETUP["seats"][0]]
    response = client.post("/api/tables", json={**SETUP, "seats": twice}, headers=bearer(tokens["director"]))
    assert response.status_code == 422 and "seat 1 is listed twice" in response.json["message"]
    assert client.get("/api/tables/1", headers=bearer(tokens["dealer"])).status_code == 404


def test_logging_a_deal_takes_the_antes_and_bumps_the_version(client, tokens):
    table = new_table(client, tokens)
    response = post(client, tokens["dealer"], table["id"], {"type": "deal"}, 0)
    assert response.status_code == 201, response.json
    state = response.json["state"]
    assert response.json["version"] == 1 and response.json["entry"]["seq"] == 1
    assert response.json["entry"]["logged_by"] == "dee"
    assert state["pot"] == 4 * SETUP["ante"]
    assert all(seat["stack"] == 500 - SETUP["ante"] for seat in state["seats"].values())
    assert chips(state) == TOTAL
    # D1: the first to act sits left of the button.
    assert state["to_act"] == 2 and state["phase"] == "predraw"


def test_a_stale_version_gets_409_and_nothing_is_written(app, client, tokens):
    table = new_table(client, tokens)
    assert post(client, tokens["dealer"], table["id"], {"type": "deal"}, 0).status_code == 201
    response = post(client, tokens["floor"], table["id"], {"type": "pass", "seat": 2}, 0)
    assert response.status_code == 409
    assert response.json["version"] == 1
    assert "version 0" in response.json["message"] and "now at 1" in response.json["message"]
    log = client.get(f"/api/tables/{table['id']}/events", headers=bearer(tokens["dealer"])).json
    assert log["version"] == 1 and [e["event"]["type"] for e in log["events"]] == ["deal"]


def test_an_illegal_event_gets_422_with_the_rules_message_and_nothing_is_written(client, tokens):
    table = new_table(client, tokens)
    post(client, tokens["dealer"], table["id"], {"type": "deal"}, 0)
    before = client.get(f"/api/tables/{table['id']}", headers=bearer(tokens["dealer"])).json
    response = post(client, tokens["dealer"], table["id"], {"type": "pass", "seat": 4}, 1)
    assert response.status_code == 422
    assert "seat 2" in response.json["message"]  # it says whose turn it is
    after = client.get(f"/api/tables/{table['id']}", headers=bearer(tokens["dealer"])).json
    assert after == before
    response = post(client, tokens["dealer"], table["id"], {"type": "shuffle-up-and-deal"}, 1)
    assert response.status_code == 422 and "shuffle-up-and-deal" in response.json["message"]


def test_bad_bodies_are_400_not_500(client, tokens):
    table = new_table(client, tokens)
    url = f"/api/tables/{table['id']}/events"
    assert client.post(url, data="deal", headers=bearer(tokens["dealer"])).status_code == 400
    assert client.post(url, json=["deal"], headers=bearer(tokens["dealer"])).status_code == 400
    response = client.post(url, json={"type": "deal", "expected_version": "zero"}, headers=bearer(tokens["dealer"]))
    assert response.status_code == 400
    response = client.post(url, json={"expected_version": 0}, headers=bearer(tokens["dealer"]))
    assert response.status_code == 422 and "type" in response.json["message"]
    assert client.post("/api/tables/999/events", json={"type": "deal"}, headers=bearer(tokens["dealer"])).status_code == 404


def test_the_event_may_be_wrapped_and_expected_version_may_be_left_out(client, tokens):
    table = new_table(client, tokens)
    response = client.post(f"/api/tables/{table['id']}/events", json={"event": {"type": "deal"}},
                           headers=bearer(tokens["dealer"]))
    assert response.status_code == 201 and response.json["version"] == 1


def test_two_devices_logging_the_same_version_at_once_one_wins(app, client, tokens):
    table = new_table(client, tokens)
    post(client, tokens["dealer"], table["id"], {"type": "deal"}, 0)
    statuses = []
    barrier = threading.Barrier(2)

    def device(token):
        local = app.test_client()
        barrier.wait()
        statuses.append(post(local, token, table["id"], {"type": "pass", "seat": 2}, 1).status_code)

    threads = [threading.Thread(target=device, args=(tokens[r],)) for r in ("dealer", "floor")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201, 409]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(LogEntry)) == 2


def test_state_is_the_replay_of_the_log(app, client, tokens):
    """The cache never disagrees with a replay from scratch."""
    from rules import jackpot

    table = new_table(client, tokens)
    version = 0
    for event in [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10},
                  {"type": "call", "seat": 4}]:
        response = post(client, tokens["dealer"], table["id"], event, version)
        assert response.status_code == 201, response.json
        version = response.json["version"]
        assert chips(response.json["state"]) == TOTAL
    log = client.get(f"/api/tables/{table['id']}/events", headers=bearer(tokens["dealer"])).json["events"]
    replayed = jackpot.replay(table["setup"], [e["event"] for e in log])
    served = client.get(f"/api/tables/{table['id']}", headers=bearer(tokens["dealer"])).json["state"]
    assert served == app.json.loads(app.json.dumps(replayed))


def test_a_void_names_the_index_the_log_lists_and_takes_the_event_back(client, tokens):
    table = new_table(client, tokens)
    post(client, tokens["dealer"], table["id"], {"type": "deal"}, 0)
    post(client, tokens["dealer"], table["id"], {"type": "pass", "seat": 2}, 1)
    log = client.get(f"/api/tables/{table['id']}/events", headers=bearer(tokens["dealer"])).json["events"]
    assert [(e["seq"], e["index"]) for e in log] == [(1, 0), (2, 1)]
    # Only the latest live event may be withdrawn: the deal has the pass depending on it.
    response = post(client, tokens["dealer"], table["id"], {"type": "void", "event": log[0]["index"]}, 2)
    assert response.status_code == 422 and "latest" in response.json["message"]
    response = post(client, tokens["dealer"], table["id"], {"type": "void", "event": log[1]["index"]}, 2)
    assert response.status_code == 201
    assert response.json["state"]["to_act"] == 2 and 2 not in response.json["state"]["passed"]
    assert chips(response.json["state"]) == TOTAL


# --------------------------------------------------------------------------- the day, a page at a time (issue 10)

def next_dead_event(state):
    """The next entry of deals that everyone passes (the pot carries over; the log keeps growing)."""
    return {"type": "deal"} if state["phase"] == "between_deals" else {"type": "pass", "seat": state["to_act"]}


def dead_deals(client, tokens, table_id, count):
    """``count`` deals that everyone passes (5 entries each, four seats); returns the version."""
    state, version = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json["state"], 0
    for _ in range(5 * count):
        response = post(client, tokens["dealer"], table_id, next_dead_event(state), version)
        assert response.status_code == 201, response.json
        state, version = response.json["state"], response.json["version"]
        # the table's own answer carries the state, never the whole log
        assert "events" not in response.json and "log" not in state
    return version


def test_the_log_comes_a_page_at_a_time_with_a_cursor(app, client, tokens):
    table = new_table(client, tokens)
    version = dead_deals(client, tokens, table["id"], 3)  # 15 entries; the next deal rotates seats
    url = f"/api/tables/{table['id']}/events"
    whole = client.get(url, headers=bearer(tokens["dealer"])).json
    assert whole["version"] == version == 15 and whole["next"] is None and whole["limit"] == 500
    assert [e["seq"] for e in whole["events"]] == list(range(1, 16))
    pages, after = [], 0
    while after is not None:
        page = client.get(f"{url}?after={after}&limit=4", headers=bearer(tokens["dealer"])).json
        pages.append([e["seq"] for e in page["events"]])
        after = page["next"]
    assert pages == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15]]
    assert client.get(f"{url}?after=15", headers=bearer(tokens["dealer"])).json == {
        "version": 15, "events": [], "next": None, "limit": 500}


def test_the_default_page_of_the_log_is_500_entries(app, client, tokens):
    from floor import tables
    from floor.models import Table

    table = new_table(client, tokens)
    with app.app_context():
        row = db.session.get(Table, table["id"])
        state = tables.state_of(row)
        for _ in range(505):  # 101 dead deals, logged without the API to keep the test quick
            _, after = tables.append(row, next_dead_event(state), None)
            state = after.to_dict()
    url = f"/api/tables/{table['id']}/events"
    first = client.get(url, headers=bearer(tokens["dealer"])).json
    assert len(first["events"]) == 500 and first["next"] == 500
    rest = client.get(f"{url}?after={first['next']}", headers=bearer(tokens["dealer"])).json
    assert [e["seq"] for e in rest["events"]] == [501, 502, 503, 504, 505] and rest["next"] is None


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "limit=ten", "after=-1", "after=x", "limit=",
                                   "after=99999999999999999999999"])
def test_a_page_that_cannot_be_read_is_400(client, tokens, query):
    table = new_table(client, tokens)
    response = client.get(f"/api/tables/{table['id']}/events?{query}", headers=bearer(tokens["dealer"]))
    if query == "limit=":
        assert response.status_code == 200  # an empty value is the default
    else:
        assert response.status_code == 400 and ("after" in response.json["message"] or "limit" in response.json["message"])


def test_a_tables_rulings_come_newest_first_a_page_at_a_time(client, tokens):
    table = new_table(client, tokens)
    other = new_table(client, tokens, name="T2")
    facts = {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 6}
    ids = []
    for table_id in (table["id"], other["id"], table["id"], table["id"]):
        response = client.post("/api/rulings", json={"facts": facts, "table_id": table_id},
                               headers=bearer(tokens["floor"]))
        assert response.status_code == 201, response.json
        ids.append(response.json["id"])
    url = f"/api/tables/{table['id']}/rulings"
    everything = client.get(url, headers=bearer(tokens["dealer"])).json
    assert [r["id"] for r in everything["rulings"]] == [ids[3], ids[2], ids[0]] and everything["next"] is None
    assert everything["rulings"][0]["outcome"] == "HAND_DEAD_CARD_COUNT" and everything["rulings"][0]["intact"]
    first = client.get(f"{url}?limit=2", headers=bearer(tokens["dealer"])).json
    assert [r["id"] for r in first["rulings"]] == [ids[3], ids[2]] and first["next"] == ids[2]
    rest = client.get(f"{url}?limit=2&before={first['next']}", headers=bearer(tokens["dealer"])).json
    assert [r["id"] for r in rest["rulings"]] == [ids[0]] and rest["next"] is None
    assert client.get(f"{url}?limit=201", headers=bearer(tokens["dealer"])).status_code == 400
    assert client.get("/api/tables/99/rulings", headers=bearer(tokens["dealer"])).status_code == 404


# --------------------------------------------------------------------------- the log stores the canonical event

def test_the_log_stores_the_canonical_event_never_the_clients_payload(app, client, tokens):
    from floor.models import LogEntry

    table = new_table(client, tokens)
    sent = [
        {"type": "deal", "note": "dealer's comment", "button": 3},
        {"type": "pass", "seat": "2", "colour": "red"},
        {"type": "open", "seat": " 3 ", "amount": "10"},
    ]
    version = 0
    for event in sent:
        response = post(client, tokens["dealer"], table["id"], event, version)
        assert response.status_code == 201, response.json
        version = response.json["version"]
    assert response.json["entry"]["event"] == {"type": "open", "seat": 3, "amount": 10}
    with app.app_context():
        stored = [e.payload for e in db.session.scalars(db.select(LogEntry).order_by(LogEntry.seq))]
    assert stored == [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3, "amount": 10}]
    listed = client.get(f"/api/tables/{table['id']}/events", headers=bearer(tokens["dealer"])).json["events"]
    assert [e["event"] for e in listed] == stored


def test_a_201_carries_the_version_of_the_state_it_carries(app, tokens, monkeypatch):
    """Issue 20: another event logged right after (a tournament's hook, another device) must not
    make the answer pair this event's state with a later version. Decided (issue 21): the answer
    is then the table as it is now, its state and version read together, so the tablet's next tap
    carries the right expected version; ``entry`` is still the event this request logged."""
    from floor import tables as tables_module

    client = app.test_client()
    table = client.post("/api/tables", json={"name": "T", **SETUP}, headers=bearer(tokens["director"])).json

    def another_device(table_row, entry, state):
        if entry.payload["type"] == "deal":
            tables_module.append(table_row, {"type": "pass", "seat": state.to_dict()["to_act"]}, None)

    monkeypatch.setattr(tables_module, "AFTER_APPEND", [another_device])
    answer = client.post(f"/api/tables/{table['id']}/events", json={"type": "deal"}, headers=bearer(tokens["dealer"]))
    assert answer.status_code == 201
    assert answer.json["entry"]["seq"] == 1 and answer.json["entry"]["event"] == {"type": "deal"}
    assert answer.json["version"] == answer.json["state"]["version"] == 2
    now = client.get(f"/api/tables/{table['id']}", headers=bearer(tokens["dealer"])).json
    assert now["version"] == 2 and now["state"] == answer.json["state"]


def test_a_taps_answer_is_the_json_jsonify_writes(app, client, tokens):
    """A tap's answer is written by orjson (floor.jsonapi.answer): the same JSON as jsonify's, seat
    numbers as keys, text beyond ASCII, a time spelled as Flask spells it; a whole number beyond 64
    bits, which orjson cannot write, is answered by jsonify. Through the API, a player's accented
    name comes back as it was written."""
    import datetime
    import json

    from flask import jsonify

    from floor.jsonapi import answer

    body = {"seats": {1: {"player": "Zoë Ñandú", "stack": 500}, 2: None}, "at": datetime.datetime(2026, 11, 27, 9, 5),
            "legal": [{"type": "pass", "seat": 3}], "ok": True, "pot": 2.5}
    with app.test_request_context():
        for value in (body, {**body, "huge": 2**70}):
            response = answer(value, 201)
            assert (response.status_code, response.mimetype) == (201, "application/json")
            assert json.loads(response.get_data()) == json.loads(jsonify(value).get_data())
    setup = {**SETUP, "seats": [{**SETUP["seats"][0], "player": "Zoë Ñandú"}, *SETUP["seats"][1:]]}
    table = client.post("/api/tables", json={"name": "T1", **setup}, headers=bearer(tokens["director"])).json
    tapped = client.post(f"/api/tables/{table['id']}/events", json={"type": "deal", "expected_version": 0},
                         headers=bearer(tokens["dealer"]))
    assert tapped.status_code == 201
    assert tapped.json["state"]["seats"][str(SETUP["seats"][0]["seat"])]["player"] == "Zoë Ñandú"
