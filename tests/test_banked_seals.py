"""A banked table's log is tamper-evident like a jackpot table's (issue 11, for the banked game of
issue 15): each entry is chained to the one before it with the installation's key, the table's head
is sealed, and ``flask --app floor verify`` names what was changed behind the app's back. A request
reads the round in play, not the day's log.

Tampering is done as someone with database access would: SQL statements, never the models.
"""

from __future__ import annotations

import sqlalchemy as sa

from floor.banked.models import BankedEntry, BankedTable
from floor.extensions import db
from tests.test_banked_app import ROUND
from tests.test_history_seals import tamper, verify


def log_round(as_role, table_id: int, rounds: int = 1) -> None:
    dealer = as_role("dealer")
    version = 0
    for _ in range(rounds):
        for event in ROUND + [{"type": "dealer_draw", "drawn": "Td 3s 2s"}]:
            response = dealer.post(f"/banked/tables/{table_id}/events", json={**event, "expected_version": version})
            assert response.status_code in (200, 201), response.get_data(as_text=True)
            version += 1


def new_table(as_role) -> int:
    response = as_role("director").post("/banked/tables", data={"name": "Banked 1", "boxes": "3", "options": ""})
    assert response.status_code == 302
    return int(response.location.rsplit("/", 1)[1])


def test_a_banked_log_as_the_tablet_wrote_it_verifies(app, as_role):
    table_id = new_table(as_role)
    log_round(as_role, table_id, rounds=2)
    code, output = verify(app)
    assert code == 0 and "every chain and seal matches" in output, output
    with app.app_context():
        table = db.session.get(BankedTable, table_id)
        entries = db.session.scalars(db.select(BankedEntry).where(BankedEntry.table_id == table_id)
                                     .order_by(BankedEntry.seq)).all()
        assert [e.prev_digest for e in entries[1:]] == [e.digest for e in entries[:-1]]
        assert table.head_digest == entries[-1].digest
        # the round in play begins at the second deal: a request reads those entries only
        assert table.round_start == len(ROUND) + 2


def test_an_edited_banked_entry_is_detected(app, as_role):
    """A box's ante changed in the log after the round was dealt (B1): its seal no longer matches."""
    table_id = new_table(as_role)
    log_round(as_role, table_id)
    log = BankedEntry.__table__
    changed = {**ROUND[0], "antes": {"1": 30, "2": 6, "3": 3}}
    tamper(app, sa.update(log).where(log.c.table_id == table_id, log.c.seq == 1).values(payload=changed))
    code, output = verify(app)
    assert code != 0 and f"banked table #{table_id} (Banked 1): entry 1 was changed after it was logged" in output


def test_deleting_the_last_banked_entry_is_detected_even_with_the_tracks_covered(app, as_role):
    table_id = new_table(as_role)
    log_round(as_role, table_id)
    count = len(ROUND) + 1
    log, tab = BankedEntry.__table__, BankedTable.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id, log.c.seq == count))
    code, output = verify(app)
    assert code != 0 and f"the table counts {count} entries, its log holds {count - 1}" in output
    with app.app_context():
        last = db.session.scalars(db.select(BankedEntry.digest).where(BankedEntry.table_id == table_id)
                                  .order_by(BankedEntry.seq.desc())).first()
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(version=count - 1, head_digest=last))
    code, output = verify(app)
    assert code != 0 and "the table's seal does not match" in output and "counts" not in output


def test_emptying_a_banked_table_is_detected(app, as_role):
    """Every entry deleted and the head set back to a new table's: the head's seal still tells."""
    table_id = new_table(as_role)
    log_round(as_role, table_id)
    log, tab = BankedEntry.__table__, BankedTable.__table__
    tamper(app, sa.delete(log).where(log.c.table_id == table_id))
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(version=0, head_digest="", round_start=0))
    code, output = verify(app)
    assert code != 0 and f"banked table #{table_id} (Banked 1): the table's seal does not match" in output


def test_the_next_append_does_not_launder_a_tampered_banked_table(app, as_role):
    """Boxes changed in the setup behind the app's back: the tablet's next tap does not re-seal it."""
    table_id = new_table(as_role)
    tab = BankedTable.__table__
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(setup={"boxes": 5, "options": {}}))
    refused = as_role("dealer").post(f"/banked/tables/{table_id}/events", json={**ROUND[0], "expected_version": 0})
    # issue 20: nothing is logged (nor shown) on a record that does not match its seals
    assert refused.status_code == 409 and "seal does not match its version" in refused.get_data(as_text=True)
    code, output = verify(app)
    assert code != 0 and "the table's seal does not match" in output


def test_the_upgrade_seals_the_banked_history_already_there(tmp_path):
    """A database from before the banked chain: the migration chains each banked log as it stands,
    seals every banked table's head (an empty one too) and finds where the round in play begins."""
    from flask_migrate import upgrade

    from floor import create_app
    from floor.models import canonical_json

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.sqlite'}"},
                     instance_path=str(tmp_path / "instance"))
    directory = app.extensions["migrate"].directory
    events = ROUND + [{"type": "dealer_draw", "drawn": "Td 3s 2s"}] + ROUND[:2]  # a second round begun
    with app.app_context():
        upgrade(directory=directory, revision="c5d8e2f1a7b3")
        run = lambda sql, **p: db.session.execute(sa.text(sql), p)  # noqa: E731
        setup = canonical_json({"boxes": 3, "options": {}})
        run("INSERT INTO banked_tables (id, name, setup, version, created_at) VALUES (1, 'Old', :s, :v, "
            "'2026-11-01 10:00:00')", s=setup, v=len(events))
        run("INSERT INTO banked_tables (id, name, setup, version, created_at) VALUES (2, 'Empty', :s, 0, "
            "'2026-11-01 10:00:00')", s=setup)
        for seq, event in enumerate(events, 1):
            run("INSERT INTO banked_entries (table_id, seq, payload, logged_at) VALUES (1, :seq, :p, "
                "'2026-11-01 10:00:00')", seq=seq, p=canonical_json(event))
        db.session.commit()
        upgrade(directory=directory)
        assert db.session.get(BankedTable, 1).round_start == len(ROUND) + 2
    code, output = verify(app)
    assert code == 0 and "banked table" not in output, output
