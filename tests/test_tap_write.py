"""A tap's write (issue 23): two statements without the ORM's unit of work (floor.tables.
_write_entry). What the unit of work and its listeners did for a tap must still hold: a device that
logs on a version another device has just moved on is refused with nothing written, an event too
large to keep is refused, the head is sealed, and the room's witness is told of the append."""

from __future__ import annotations

from sqlalchemy import func

from floor import tables, witness
from floor.extensions import db
from floor.models import LogEntry, Table
from tests.conftest import SETUP, bearer, make_app, user


def entries(table_id: int) -> int:
    return db.session.scalar(db.select(func.count()).select_from(LogEntry).where(LogEntry.table_id == table_id))


def test_a_tap_on_a_version_another_device_moved_on_is_refused_and_writes_nothing(app):
    """Two tablets read the table at version 1; the second to write is told the table moved on
    (StaleVersion: 409 in the API), and the log, the head and the witness hold the first tap only."""
    with app.app_context():
        table_id = tables.create_table("T", SETUP).id
        tables.append(db.session.get(Table, table_id), {"type": "deal"}, user("dee"))
        db.session.remove()
        mine = db.session.get(Table, table_id)  # read at version 1 by this tablet
        to_act = tables.table_state(mine).to_act
        with app.app_context():  # meanwhile, another tablet logs the same turn
            theirs = db.session.get(Table, table_id)
            tables.append(theirs, {"type": "pass", "seat": to_act}, user("dee"), 1, fresh=True)
        seen_before = witness.seen().tables[table_id][0]
        try:
            tables.append(mine, {"type": "pass", "seat": to_act}, user("dee"), 1, fresh=True)
        except tables.StaleVersion as exc:
            assert (exc.expected, exc.current) == (1, 2)
        else:
            raise AssertionError("the second tap on version 1 was logged")
        db.session.remove()
        table = db.session.get(Table, table_id)
        assert (table.version, entries(table_id), table.head_seal_intact) == (2, 2, True)
        assert witness.seen().tables[table_id][0] == seen_before == 2


def test_an_event_too_large_to_keep_is_refused_and_nothing_is_written(tmp_path):
    """``FLOOR_JSON_MAX`` bounds every JSON value stored (floor.security): an event is no exception
    now that it is written without the unit of work's check."""
    app = make_app(tmp_path)
    client = app.test_client()
    with app.app_context():
        table_id = tables.create_table("T", {**SETUP, "seats": SETUP["seats"][:3]}).id
        token = user("dee").new_api_token()
        db.session.commit()
    app.config["FLOOR_JSON_MAX"] = 70  # the setup stored, a house that keeps less from now on
    # {"chips":500,"player":"Evangeline Montgomery","player_id":4,"seat":5,"type":"sit"}: 83 characters
    # (issue 31: a sit names the player's record)
    big = client.post(f"/api/tables/{table_id}/events",
                      json={"type": "sit", "seat": 5, "player": "Evangeline Montgomery", "chips": 500},
                      headers=bearer(token))
    assert big.status_code == 422 and "at most 70 are kept" in big.json["message"], big.json
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert (table.version, entries(table_id), table.head_seal_intact) == (0, 0, True)
    small = client.post(f"/api/tables/{table_id}/events",  # 64 characters
                        json={"type": "sit", "seat": 5, "player": "Eve", "chips": 500}, headers=bearer(token))
    assert small.status_code == 201, small.json
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert (table.version, entries(table_id), table.head_seal_intact) == (1, 1, True)


def test_what_a_tap_answers_is_what_the_sealed_log_holds(app, tokens):
    """The entry answered is the row written: same event, same seal, and the log replays to the
    state answered (the seal checked on the way: tables._sealed_events)."""
    client = app.test_client()
    with app.app_context():
        table_id = tables.create_table("T", SETUP).id
    answer = client.post(f"/api/tables/{table_id}/events", json={"type": "deal"}, headers=bearer(tokens["dealer"]))
    assert answer.status_code == 201
    with app.app_context():
        row = db.session.scalars(db.select(LogEntry).where(LogEntry.table_id == table_id)).one()
        assert row.payload == answer.json["entry"]["event"] and row.digest == row.compute_digest()
        table = db.session.get(Table, table_id)
        assert table.head_digest == row.digest and table.head_seal_intact
        tables.cache.clear()  # nothing cached: replayed from the log
        tables.heads.clear()
        replayed = tables.table_state(table).to_dict()
    assert tables.jsonable(replayed) == answer.json["state"]


def test_the_same_tap_written_twice_at_once_is_refused_by_the_log_and_writes_nothing(app):
    """The log's unique ``(table, tap_id)`` is the backstop when two posts of one tap pass the
    look-up together: the second insert fails in the database, and the append answers as for a
    table moved on (StaleVersion: the caller finds the first tap's entry), never with the driver's
    own error (the statements run on the DB-API's cursor, floor.prepared, raise SQLAlchemy's)."""
    with app.app_context():
        table_id = tables.create_table("T", SETUP).id
        tables.append(db.session.get(Table, table_id), {"type": "deal"}, user("dee"), tap_id="tap-one")
        db.session.remove()
        table = db.session.get(Table, table_id)
        to_act = tables.table_state(table).to_act
        try:
            tables.append(table, {"type": "pass", "seat": to_act}, user("dee"), 1, fresh=True, tap_id="tap-one")
        except tables.StaleVersion:
            pass
        else:
            raise AssertionError("a second entry of the same tap was logged")
        db.session.remove()
        assert entries(table_id) == 1 and db.session.get(Table, table_id).version == 1
