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


def test_a_taps_seals_are_the_seals_of_their_content_as_floor_seals_spells_it(app, tokens):
    """The tap spells a payload and a setup once and seals the texts (floor.seals.Spelled): the seals
    it writes are still those of the record's canonical JSON, as every earlier installation computed
    them, and the stored payload is that JSON."""
    from floor.models import LogEntry, Table
    from floor.seals import canonical, entry_content, head_content, keyed_digest

    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 4)
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert table.head_seal == keyed_digest(head_content(table.id, table.version, table.head_digest, table.setup))
        entries = db.session.scalars(sa.select(LogEntry).where(LogEntry.table_id == table_id)).all()
        assert len(entries) == 4
        for entry in entries:
            assert entry.digest == keyed_digest(entry_content(entry.table_id, entry.seq, entry.payload,
                                                              entry.logged_by_id, entry.logged_at, entry.prev_digest))
        stored = db.session.execute(sa.text("SELECT payload FROM log_entries WHERE table_id = :t ORDER BY seq"),
                                    {"t": table_id}).scalars().all()
        assert [s if isinstance(s, str) else canonical(s) for s in stored] == [canonical(e.payload) for e in entries]


def test_a_process_folds_its_own_lines_as_a_fresh_reader_of_the_witness_reads_them(tmp_path):
    """A commit folds the lines it has just appended as it wrote them, without reading them back
    (floor.witness.room.Room.read_own): what the process then knows of the witness (its head, every
    table's reach, every user's seal) is what a reader of the whole witness finds, across
    checkpoints (every 4 lines here: those are read back as before) and taps of another process."""
    from floor import create_app
    from floor.seals import seal_key
    from floor.witness import room
    from floor.witness.lines import Seen, parse
    from tests.conftest import _APPS, make_app, user

    app = make_app(tmp_path, FLOOR_CHECKPOINT_LINES=4)
    # a second server process on the same database and witness, with a fold of its own
    other = create_app({**app.config, "FLOOR_CHECKPOINT_LINES": 4}, instance_path=app.instance_path)
    _APPS.append(other)
    with app.app_context():
        token, director = user("dee").new_api_token(), user("dana").new_api_token()
        db.session.commit()
    client, elsewhere = app.test_client(), other.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(director)).json["id"]
    for n in range(9):
        _play(elsewhere if n % 4 == 3 else client, table_id, token, 1)
    with app.app_context():
        the_room = room()
        known = the_room.fold
        fresh = Seen(seal_key())
        for raw in the_room.store.everything():
            fresh.take(parse(raw))
    assert not fresh.broken
    assert (known.n, known.link) == (fresh.n, fresh.link)
    assert known.state() == fresh.state()
    assert known.tables[table_id][:2] == fresh.tables[table_id][:2]


def test_a_reader_moves_past_its_own_append_only_when_it_had_read_everything_before_it(tmp_path):
    """The file store's reader skips the bytes its own process has just appended only when they
    begin where it stopped reading; a line another process appended before them is read, then
    they are (floor.witness.store.FileReader.read_own)."""
    from floor.witness.store import FileStore

    store, other = FileStore(str(tmp_path)), FileStore(str(tmp_path))
    reader = store.reader()
    store.append([b'{"n":1}\n'])
    assert reader.read_new() == [b'{"n":1}']
    store.append([b'{"n":2}\n'])
    assert reader.read_own(*store.own)
    assert reader.read_new() == []
    other.append([b'{"n":3}\n'])  # another process's line, not read yet
    store.append([b'{"n":4}\n'])
    assert not reader.read_own(*store.own)
    assert reader.read_new() == [b'{"n":3}', b'{"n":4}']


def test_a_line_the_witness_file_did_not_take_is_written_by_the_next_tap_from_the_databases_record(
        app, tokens, monkeypatch):
    """A crash (here: a write that fails) between a tap's commit and its witness line: the database
    holds the line (witness_reach.pending, spelled as the file spells it), and the next tap appends
    it first, byte for byte, then its own. Nothing acknowledged is lost and verify is clean."""
    import json

    from floor.witness.store import FileStore
    from tests.test_tamper_record import _lines

    client = app.test_client()
    table_id = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json["id"]
    _play(client, table_id, tokens["dealer"], 2)
    before = _lines(app)
    write = FileStore._write
    failed = []

    def fails_once(store, raws):
        if not failed:
            failed.append(raws)
            raise OSError("no space left on device")
        return write(store, raws)

    monkeypatch.setattr(FileStore, "_write", fails_once)
    _play(client, table_id, tokens["dealer"], 1)  # answered: the database holds its line
    assert failed and _lines(app) == before
    with app.app_context():
        pending = db.session.execute(sa.text("SELECT n, CAST(pending AS TEXT) FROM witness_reach")).one()
    assert pending.n == json.loads(before[-1])["n"] + 1
    assert pending[1] == "[" + failed[0][0].decode().rstrip("\n") + "]"  # the line the file did not take
    _play(client, table_id, tokens["dealer"], 1)
    after = _lines(app)
    assert after[:len(before)] == before and after[len(before)] == failed[0][0]
    assert [json.loads(line)["n"] for line in after[len(before):]] == [pending.n, pending.n + 1]
    code, output = verify(app)
    assert code == 0, output
