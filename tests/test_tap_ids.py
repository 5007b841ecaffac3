"""A tap is sent once (DESIGN part four, issue 33): the same ``tap_id`` posted again at the same
table answers 200 with the entry it logged the first time; never logged twice, never reported as
not logged: after the table moved on, from another session of the same dealer (a second tab, a
login that ended and began again), and when two posts of the same tap arrive at once."""

from __future__ import annotations

import threading
import uuid

import pytest

from floor.extensions import db
from floor.models import FloorCall, LogEntry
from tests.conftest import bearer, csrf_token_from


def entries(app, table_id):
    with app.app_context():
        return [(e.seq, e.payload, e.tap_id) for e in db.session.scalars(
            db.select(LogEntry).where(LogEntry.table_id == table_id).order_by(LogEntry.seq))]


def token(client, table_id) -> str:
    """The session's CSRF token, as the tablet's page carries it (read once per client)."""
    if not hasattr(client, "csrf"):
        client.csrf = csrf_token_from(client.get(f"/dealer/tables/{table_id}").data)
    return client.csrf


def tap(client, table_id, event, version, tap_id):
    """One tap as the tablet posts it (session, X-CSRFToken, expected_version, tap_id)."""
    return client.post(f"/dealer/tables/{table_id}/taps", headers={"X-CSRFToken": token(client, table_id)},
                       json={"event": event, "expected_version": version, "tap_id": tap_id})


def test_a_tap_sent_again_is_answered_with_its_entry_and_logged_once(app, dealer, table_id):
    first_tap = str(uuid.uuid4())
    first = tap(dealer, table_id, {"type": "deal"}, 0, first_tap)
    assert first.status_code == 201 and first.json["entry"]["seq"] == 1
    # the table moves on (the next seat passes) before the tablet sends the deal again
    assert tap(dealer, table_id, {"type": "pass", "seat": 2}, 1, str(uuid.uuid4())).status_code == 201
    again = tap(dealer, table_id, {"type": "deal"}, 0, first_tap)
    assert again.status_code == 200, again.json
    assert again.json["entry"] == first.json["entry"] and again.json["repeated"] is True
    assert again.json["version"] == 2 and "Logged once, as entry 1" in again.json["message"]
    assert "panel" in again.json  # the tablet swaps in the table as it is now
    assert [(seq, payload["type"]) for seq, payload, _ in entries(app, table_id)] == [(1, "deal"), (2, "pass")]
    assert entries(app, table_id)[0][2] == first_tap


def test_the_same_tap_from_another_session_or_through_the_api_is_the_same_entry(app, as_role, tokens, table_id):
    """A second tab shares the first's cookie; a login that ended and began again is a new session;
    a client of the API posts the same id: each gets the entry the first post logged."""
    tap_id = str(uuid.uuid4()).upper()  # any spelling of the UUID: stored in one
    assert tap(as_role("dealer"), table_id, {"type": "deal"}, 0, tap_id).status_code == 201
    again = tap(as_role("dealer"), table_id, {"type": "deal"}, 0, tap_id)  # a new login of the same dealer
    assert again.status_code == 200 and again.json["entry"]["seq"] == 1
    api = app.test_client().post(f"/api/tables/{table_id}/events",
                                 json={"type": "deal", "expected_version": 0, "tap_id": tap_id.lower()},
                                 headers=bearer(tokens["dealer"]))  # a client of the API, with its token
    assert api.status_code == 200 and api.json["entry"]["seq"] == 1 and "panel" not in api.json
    assert len(entries(app, table_id)) == 1


def test_a_tap_id_is_per_table_and_a_new_tap_is_logged_as_before(app, dealer, table_id):
    from floor import tables
    from tests.conftest import SETUP

    with app.app_context():
        other = tables.create_table("Table 2", SETUP).id
    tap_id = str(uuid.uuid4())
    assert tap(dealer, table_id, {"type": "deal"}, 0, tap_id).status_code == 201
    assert tap(dealer, other, {"type": "deal"}, 0, tap_id).status_code == 201  # another table: another tap
    # without a tap id a post is logged as ever (an older client): a stale version is still 409
    assert dealer.post(f"/dealer/tables/{table_id}/taps", json={"event": {"type": "pass", "seat": 2},
                                                                "expected_version": 0},
                       headers={"X-CSRFToken": token(dealer, table_id)}).status_code == 409


def test_a_tap_id_that_is_not_a_uuid_is_refused_and_nothing_is_logged(app, dealer, table_id):
    response = tap(dealer, table_id, {"type": "deal"}, 0, "tap-1")
    assert response.status_code == 400 and "'tap_id' must be a UUID" in response.json["message"]
    response = tap(dealer, table_id, {"type": "deal"}, 0, 12)
    assert response.status_code == 400
    assert entries(app, table_id) == []


def test_the_tap_id_is_never_part_of_the_logged_event(app, dealer, table_id):
    tap_id = str(uuid.uuid4())
    response = dealer.post(f"/dealer/tables/{table_id}/taps", json={"event": {"type": "deal", "tap_id": tap_id},
                                                                   "expected_version": 0},
                           headers={"X-CSRFToken": token(dealer, table_id)})
    assert response.status_code == 201
    assert entries(app, table_id) == [(1, {"type": "deal"}, tap_id)]


def test_a_refused_tap_sent_again_is_refused_again_and_a_stale_one_is_still_409(app, dealer, table_id):
    tap_id = str(uuid.uuid4())
    refused = tap(dealer, table_id, {"type": "pass", "seat": 2}, 0, tap_id)
    assert refused.status_code == 422
    assert tap(dealer, table_id, {"type": "pass", "seat": 2}, 0, tap_id).status_code == 422
    assert tap(dealer, table_id, {"type": "deal"}, 0, str(uuid.uuid4())).status_code == 201
    # the refused tap's id never logged anything: sent again at a stale version it is a conflict
    assert tap(dealer, table_id, {"type": "deal"}, 0, tap_id).status_code == 409
    assert len(entries(app, table_id)) == 1


def test_a_dealers_report_sent_again_is_the_same_call(app, dealer, table_id):
    for n, event in enumerate([{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
                               {"type": "call", "seat": 4}, {"type": "call", "seat": 1}]):
        assert tap(dealer, table_id, event, n, str(uuid.uuid4())).status_code == 201, event
    tap_id = str(uuid.uuid4())
    first = tap(dealer, table_id, {"type": "false_openers", "seat": 3}, 5, tap_id)
    assert first.status_code == 202
    again = tap(dealer, table_id, {"type": "false_openers", "seat": 3}, 5, tap_id)
    assert again.status_code == 200 and again.json["call"]["id"] == first.json["call"]["id"]
    assert "Reported to the floor once" in again.json["message"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(FloorCall)) == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_posts_of_the_same_tap_at_once_make_one_entry_and_both_say_logged(app, tokens, table_id, attempt):
    """The tablet resends while the first post is still on its way: the log's unique tap id keeps one."""
    tap_id = str(uuid.uuid4())
    barrier = threading.Barrier(2)
    answers: list[int] = []

    def send() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(f"/api/tables/{table_id}/events",
                               json={"type": "deal", "expected_version": 0, "tap_id": tap_id},
                               headers=bearer(tokens["dealer"]))
        answers.append(response.status_code)
        assert response.json["entry"]["seq"] == 1

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200, 201]
    assert len(entries(app, table_id)) == 1


BANKED_DEAL = {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}


def test_a_banked_tap_sent_again_is_answered_with_its_entry(as_role):
    from floor.banked.models import BankedEntry

    director = as_role("director")
    response = director.post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
    table_id = int(response.location.rsplit("/", 1)[1])
    dealer = as_role("dealer")
    tap_id = str(uuid.uuid4())
    form = {"type": "deal", "version": "0", "ante_1": "0.3", "cards_1": "Ah Ad 9c 6s 2h", "tap_id": tap_id}
    first = dealer.post(f"/banked/tables/{table_id}/events?tap=1", data=form)
    assert first.status_code == 201
    again = as_role("dealer").post(f"/banked/tables/{table_id}/events?tap=1", data=form)  # a new login
    assert again.status_code == 200 and again.json["seq"] == 1 and again.json["repeated"] is True
    json_again = dealer.post(f"/banked/tables/{table_id}/events", json={**BANKED_DEAL, "expected_version": 0,
                                                                        "tap_id": tap_id})
    assert json_again.status_code == 200
    bad = dealer.post(f"/banked/tables/{table_id}/events?tap=1", data={**form, "tap_id": "nope"})
    assert bad.status_code == 400
    with dealer.application.app_context():
        logged = list(db.session.scalars(db.select(BankedEntry).where(BankedEntry.table_id == table_id)))
    assert [(e.seq, e.tap_id) for e in logged] == [(1, tap_id)] and "tap_id" not in logged[0].payload
