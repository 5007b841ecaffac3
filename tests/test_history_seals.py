"""A tamper-evident history (issue 11): each table's log is a keyed hash chain, each table's head
and each ruling are sealed with the installation's key, and ``flask --app floor verify`` and the
ruling's verify page name what was changed in the database behind the app's back.

Tampering is done the way someone with database access would: SQL statements (SQLAlchemy Core),
never the app's models, whose writes re-seal.
"""

from __future__ import annotations

import hashlib
import os
import pathlib

import sqlalchemy as sa

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, LogEntry, Table, canonical_json
from tests.conftest import SETUP, bearer

PLAY = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4}]


def history(app, tokens):
    """A table with a log, a ruling issued at it (applied to its log), and a second table."""
    client = app.test_client()
    table = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json
    for event in PLAY:
        assert client.post(f"/api/tables/{table['id']}/events", json=event,
                           headers=bearer(tokens["dealer"])).status_code == 201
    ruling = client.post("/api/rulings", json={"facts": {"issue": "caller_refund", "seat": 4}, "note": "by phone"},
                         headers=bearer(tokens["floor"]))
    assert ruling.status_code == 201, ruling.json
    client.post("/api/tables", json={"name": "T2", **SETUP}, headers=bearer(tokens["director"]))
    return table["id"], ruling.json["id"]


def verify(app):
    result = app.test_cli_runner().invoke(args=["verify"])
    return result.exit_code, result.output


def tamper(app, statement):
    with app.app_context():
        db.session.execute(statement)
        db.session.commit()
        tables.cache.clear()


def test_an_untouched_history_verifies(app, tokens):
    table_id, _ = history(app, tokens)
    with app.app_context():  # more of what the app does: a move between tables, a setup edit
        source, target = db.session.get(Table, table_id), db.session.scalars(
            db.select(Table).where(Table.name == "T2")).one()
        target.setup = {**target.setup, "ante": 10}  # a director's edit before the first deal
        db.session.commit()
        tables.append(source, {"type": "fold", "seat": 1}, None)
    code, output = verify(app)
    assert code == 0, output
    assert "2 tables" in output and "every chain and seal matches" in output
    with app.app_context():
        entries = db.session.scalars(db.select(LogEntry).order_by(LogEntry.seq)
                                     .where(LogEntry.table_id == table_id)).all()
        assert entries[0].prev_digest == "" and all(b.prev_digest == a.digest for a, b in zip(entries, entries[1:]))


def test_editing_a_stake_is_detected(app, tokens):
    table_id, _ = history(app, tokens)
    with app.app_context():
        setup = db.session.get(Table, table_id).setup
    tamper(app, sa.update(Table.__table__).where(Table.__table__.c.id == table_id)
           .values(setup={**setup, "small_bet": 100, "big_bet": 200}))
    code, output = verify(app)
    assert code != 0
    assert f"MISMATCH table #{table_id} (T1): the table's seal does not match" in output
    assert "stakes" in output


def test_editing_a_logged_event_is_detected(app, tokens):
    table_id, _ = history(app, tokens)
    log = LogEntry.__table__
    tamper(app, sa.update(log).where(log.c.table_id == table_id, log.c.seq == 3)
           .values(payload={"type": "open", "seat": 3, "amount": 20}))
    code, output = verify(app)
    assert code != 0 and f"table #{table_id} (T1): entry 3 was changed after it was logged" in output


def test_the_next_append_does_not_launder_a_tampered_table(app, tokens):
    table_id, _ = history(app, tokens)
    with app.app_context():
        setup = db.session.get(Table, table_id).setup
    tamper(app, sa.update(Table.__table__).where(Table.__table__.c.id == table_id).values(setup={**setup, "ante": 1}))
    refused = app.test_client().post(f"/api/tables/{table_id}/events", json={"type": "fold", "seat": 1},
                                     headers=bearer(tokens["dealer"]))
    # issue 20: nothing is logged (nor shown) on a record that does not match its seals
    assert refused.status_code == 409 and "the table's seal does not match" in refused.json["message"]
    code, output = verify(app)
    assert code != 0 and "the table's seal does not match" in output


def test_deleting_the_last_entry_is_detected_even_with_the_tracks_covered(app, tokens):
    table_id, _ = history(app, tokens)
    log, tab = LogEntry.__table__, Table.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq == len(PLAY)))
    code, output = verify(app)
    assert code != 0 and f"the table counts {len(PLAY)} entries, its log holds {len(PLAY) - 1}" in output
    # Set the version back and the head to the entry that is now last: the head's seal still tells.
    with app.app_context():
        last = db.session.scalars(db.select(LogEntry.digest).where(LogEntry.table_id == table_id)
                                  .order_by(LogEntry.seq.desc())).first()
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(version=len(PLAY) - 1, head_digest=last))
    code, output = verify(app)
    assert code != 0 and "the table's seal does not match" in output
    assert "counts" not in output  # the counts agree now: only the seal can tell


def test_a_ruling_edited_with_its_plain_sha256_recomputed_is_detected(app, tokens, as_role):
    _, ruling_id = history(app, tokens)
    rulings = IssuedRuling.__table__
    tamper(app, sa.update(rulings).where(rulings.c.id == ruling_id).values(note="never said"))
    with app.app_context():
        row = db.session.get(IssuedRuling, ruling_id)
        plain = hashlib.sha256(canonical_json(row.content()).encode()).hexdigest()
    tamper(app, sa.update(rulings).where(rulings.c.id == ruling_id).values(digest=plain))
    code, output = verify(app)
    assert code != 0 and f"ruling #{ruling_id}: its content was changed after it was issued" in output
    page = as_role("dealer").get(f"/rulings/{ruling_id}/verify").get_data(as_text=True)
    assert "DOES NOT MATCH" in page and "its content was changed after it was issued" in page


def test_the_verify_page_names_a_broken_log_of_the_rulings_table(app, tokens, as_role):
    client = app.test_client()
    table = client.post("/api/tables", json={"name": "T1", **SETUP}, headers=bearer(tokens["director"])).json
    for event in PLAY:
        client.post(f"/api/tables/{table['id']}/events", json=event, headers=bearer(tokens["dealer"]))
    ruling = client.post("/api/rulings", json={"table_id": table["id"], "facts": {"issue": "caller_refund", "seat": 4}},
                         headers=bearer(tokens["floor"])).json
    page = as_role("dealer").get(f"/rulings/{ruling['id']}/verify").get_data(as_text=True)
    assert "MATCHES" in page and "DOES NOT MATCH" not in page
    log = LogEntry.__table__
    tamper(app, sa.update(log).where(log.c.table_id == table["id"], log.c.seq == 2).values(
        payload={"type": "pass", "seat": 3}))
    page = as_role("dealer").get(f"/rulings/{ruling['id']}/verify").get_data(as_text=True)
    assert "DOES NOT MATCH" in page and "entry 2 was changed" in page


def test_the_seal_key_lives_in_instance_readable_by_the_owner_only(app, tokens):
    history(app, tokens)
    path = pathlib.Path(app.instance_path) / "seal_key"
    assert len(path.read_text().strip()) == 64
    assert os.stat(path).st_mode & 0o077 == 0
    gitignore = (pathlib.Path(__file__).parent.parent / ".gitignore").read_text()
    assert "instance/*" in gitignore.splitlines()


def test_the_upgrade_seals_the_history_already_there(tmp_path):
    """A database from before the keyed seals: the migration chains each log as it stands and
    re-seals each ruling whose plain SHA-256 still matches (one that does not stays flagged)."""
    from flask_migrate import upgrade

    from floor import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite'}"},
                     instance_path=str(tmp_path / "instance"))
    directory = app.extensions["migrate"].directory
    with app.app_context():
        upgrade(directory=directory, revision="9d3f0b2c7a41")
        run = lambda sql, **p: db.session.execute(sa.text(sql), p)  # noqa: E731
        run("INSERT INTO users (id, username, role, password_hash, active, created_at) "
            "VALUES (1, 'maria', 'floor', 'x', 1, '2026-11-01 10:00:00')")
        run("INSERT INTO tables (id, name, setup, version, created_at) VALUES (1, 'Old', :s, 2, '2026-11-01 10:00:00')",
            s=canonical_json(SETUP))
        for seq, event in enumerate(PLAY[:2], 1):
            run("INSERT INTO log_entries (table_id, seq, payload, logged_by_id, logged_at) "
                "VALUES (1, :seq, :p, 1, '2026-11-01 10:00:0' || :seq)", seq=seq, p=canonical_json(event))
        for ruling_id, note in ((1, "kept"), (2, "changed")):
            content = {"id": ruling_id, "table_id": None, "deal": None, "log_seq": None, "profile": "cardroom",
                       "outcome": "X", "facts": {}, "ruling": {}, "note": "kept", "issued_by": "maria",
                       "issued_at": "2026-11-01T10:00:00", "supersedes": None, "reported_by": None, "by_rules": False}
            run("INSERT INTO rulings (id, profile, outcome, facts, record, note, issued_by_id, issued_at, by_rules, "
                "confirmation_digest, digest) VALUES (:id, 'cardroom', 'X', '{}', '{}', :note, 1, "
                "'2026-11-01 10:00:00', 0, '', :d)", id=ruling_id, note=note,
                d=hashlib.sha256(canonical_json(content).encode()).hexdigest())
        # a ruling by the rules, confirmed by the floor: its confirmation was sealed over the old digest
        content = {"id": 3, "table_id": None, "deal": None, "log_seq": None, "profile": "cardroom", "outcome": "X",
                   "facts": {}, "ruling": {}, "note": "", "issued_by": "maria", "issued_at": "2026-11-01T10:00:00",
                   "supersedes": None, "reported_by": None, "by_rules": True}
        digest = hashlib.sha256(canonical_json(content).encode()).hexdigest()
        confirmation = {"ruling": 3, "digest": digest, "confirmed_by": "maria", "confirmed_at": "2026-11-01T10:05:00"}
        run("INSERT INTO rulings (id, profile, outcome, facts, record, note, issued_by_id, issued_at, by_rules, "
            "confirmed_by_id, confirmed_at, confirmation_digest, digest) VALUES (3, 'cardroom', 'X', '{}', '{}', '', "
            "1, '2026-11-01 10:00:00', 1, 1, '2026-11-01 10:05:00', :c, :d)",
            c=hashlib.sha256(canonical_json(confirmation).encode()).hexdigest(), d=digest)
        db.session.commit()
        upgrade(directory=directory)
    code, output = verify(app)
    assert "ruling #1" not in output and "ruling #3" not in output and "table #1" not in output
    assert code != 0 and "ruling #2: its content was changed after it was issued" in output
    with app.app_context():
        assert len(db.session.get(IssuedRuling, 1).digest) == 64 and db.session.get(IssuedRuling, 1).intact
        confirmed = db.session.get(IssuedRuling, 3)
        assert confirmed.intact and confirmed.digest != digest  # keyed now, confirmation and all
