"""Issue 34: the database's record of the room's witness (``witness_reach``) at a tap. A worker that
wrote the record last, with the witness not moved since, moves it on without reading it: the update
names every column of the row it wrote. Changed outside the app in any of them, the record is read
and checked as before: the tap is refused, the change named, and the changed row never overwritten
(``flask verify`` names it: before, verify did not check the record's seal at all)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from floor.extensions import db
from floor.witness import WitnessReach
from tests.conftest import SETUP, bearer, statements_run
from tests.test_history_seals import tamper, verify
from tests.test_tamper import _play

REACH = WitnessReach.__table__


def reach(app):
    with app.app_context():
        return db.session.execute(sa.select(REACH)).one()._asdict()


def test_a_workers_next_tap_moves_the_record_on_without_reading_it(app, tokens):
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 2)
    with statements_run(app) as statements:
        _play(client, table_id, tokens["dealer"], 1)
    writes = [s for s in statements if "witness_reach" in s]
    assert len(writes) == 1 and writes[0].lstrip().upper().startswith("UPDATE"), writes
    code, output = verify(app)
    assert code == 0, output


@pytest.mark.parametrize("change", [
    {"checkpoint": 0},
    {"seal": "0" * 64},
    {"pending": []},
    {"link": "f" * 64},
])
def test_the_record_changed_outside_the_app_between_two_taps_is_named_never_overwritten(app, tokens, change):
    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 3)
    tamper(app, REACH.update().values(**change))
    changed = reach(app)
    to_act = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json["state"]["to_act"]
    refused = client.post(f"/api/tables/{table_id}/events", json={"type": "pass", "seat": to_act},
                          headers=bearer(tokens["dealer"]))
    assert refused.status_code in (409, 503), refused.json
    assert "witness" in refused.json["message"]
    assert reach(app) == changed
    code, output = verify(app)
    assert code == 1 and "witness_reach) does not match its seal" in output, output
