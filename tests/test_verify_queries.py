"""``flask verify`` reads the history in a bounded number of statements (issue 23, "no second
read"): a few per table and per kind of record, never one per log entry or per ruling, so that a
room's year of logs is checked in the time its rows take to read, not in one round trip each.

Counted with SQLAlchemy's ``before_cursor_execute`` event on the app's engine (SQLite, and
PostgreSQL with ``FLOOR_TEST_PG=1``, where each statement is a round trip to the server)."""

from __future__ import annotations

from floor.verify import verify_all
from tests.conftest import SETUP, bearer, statements_run


def _play(client, tokens, table_id: int, deals: int) -> None:
    """``deals`` deals that everyone passes (the pot carries over), each a deal and four passes."""
    dealer = bearer(tokens["dealer"])
    for _ in range(deals):
        assert client.post(f"/api/tables/{table_id}/events", json={"type": "deal"}, headers=dealer).status_code == 201
        for _ in range(len(SETUP["seats"])):
            seat = client.get(f"/api/tables/{table_id}", headers=dealer).json["state"]["to_act"]
            logged = client.post(f"/api/tables/{table_id}/events", json={"type": "pass", "seat": seat}, headers=dealer)
            assert logged.status_code == 201, logged.json


def _rule(client, tokens, count: int) -> None:
    for n in range(count):
        ruling = client.post("/api/rulings", json={"facts": {"issue": "caller_refund", "seat": 4}, "note": f"#{n}"},
                             headers=bearer(tokens["floor"]))
        assert ruling.status_code == 201, ruling.json


def _verify_counting(app) -> tuple[list[str], object]:
    with statements_run(app) as statements, app.app_context():
        report = verify_all()
    return statements, report


def test_verify_reads_a_long_log_and_many_rulings_in_as_many_statements_as_a_short_one(app, tokens):
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, tokens, table_id, 1)
    _rule(client, tokens, 1)
    few, report = _verify_counting(app)
    assert report.ok and (report.entries, report.rulings) == (5, 1), report.problems

    _play(client, tokens, table_id, 12)
    _rule(client, tokens, 15)
    many, report = _verify_counting(app)
    assert report.ok and (report.entries, report.rulings) == (65, 16), report.problems
    # 13 times the entries and 16 times the rulings, the same statements: nothing is read one by one
    assert len(many) == len(few), "\n".join(many)
    assert sum("FROM log_entries" in s for s in many) <= 3 and sum("FROM rulings" in s for s in many) <= 3
