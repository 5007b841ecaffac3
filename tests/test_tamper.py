"""Issue 20: a record nobody can quietly rewrite. Each test tampers with the database the way an
auditor with direct access would (a snapshot edited, a log cut back to an earlier sealed head, an
old backup put back without a word, a ruling or a whole table deleted, a banked round start
moved), and checks both halves: ``flask verify`` names it (exit 1), and the app never serves the
tampered state (it answers what a replay of the sealed log gives).
"""

from __future__ import annotations

import sqlalchemy as sa

from floor import tables
from floor.banked.models import BankedTable
from floor.extensions import db
from floor.models import PotSnapshot, Table
from rules.jackpot import replay_state
from tests.conftest import bearer
from tests.test_banked_seals import log_round, new_table
from tests.test_history_seals import tamper, verify
from tests.test_pot_snapshots import _pots


def _move_chips(data, amount: int, conserve: bool = True):
    """The snapshot's data with ``amount`` chips moved from the second seat to the first (or, when
    not ``conserve``, only added to the first): the stacks a careless or a careful editor writes."""
    seats = []

    def walk(node):
        if isinstance(node, dict):
            if "$seat" in node and "stack" in node["$seat"]:
                seats.append(node["$seat"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    assert len(seats) >= 2
    seats[0]["stack"] += amount
    if conserve:
        seats[1]["stack"] -= amount
    return data


def _edit_latest_snapshot(app, table_id, conserve):
    with app.app_context():
        snap = db.session.scalars(db.select(PotSnapshot).where(PotSnapshot.table_id == table_id)
                                  .order_by(PotSnapshot.version.desc())).first()
        data = _move_chips(snap.data, 400, conserve)
        version = snap.version
    tamper(app, sa.update(PotSnapshot.__table__).where(PotSnapshot.__table__.c.table_id == table_id,
                                                       PotSnapshot.__table__.c.version == version).values(data=data))
    return version


def _stacks(state):
    return {int(seat): info["stack"] for seat, info in state["seats"].items()}


def test_a_snapshot_edited_with_the_chips_kept_is_named_and_never_served(app, tokens):
    """400 chips moved between two seats in the snapshot the table would resume from, the total
    kept: after a restart the table still shows the log's stacks, and the next event is checked
    against them; verify names the snapshot."""
    table_id = _pots(app, 2)
    with app.app_context():
        table = db.session.get(Table, table_id)
        truth = _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    version = _edit_latest_snapshot(app, table_id, conserve=True)
    tables.cache.clear()  # a restart: nothing remembered
    shown = app.test_client().get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 200 and _stacks(shown.json["state"]) == truth
    logged = app.test_client().post(f"/api/tables/{table_id}/events", json={"type": "deal"},
                                    headers=bearer(tokens["dealer"]))
    assert logged.status_code == 201
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert _stacks(logged.json["state"]) == _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    code, output = verify(app)
    assert code == 1 and f"table #{table_id} (Table 1): the pot snapshot at version {version} does not match its seal" \
        in output, output


def test_a_careless_snapshot_edit_falls_back_to_the_log_not_a_server_error(app, tokens):
    """Chips added in the snapshot (not conserved): the table answers from the log, not 500."""
    table_id = _pots(app, 2)
    with app.app_context():
        table = db.session.get(Table, table_id)
        truth = _stacks(replay_state(table.setup, tables.events_of(table)).to_dict())
    version = _edit_latest_snapshot(app, table_id, conserve=False)
    tables.cache.clear()
    shown = app.test_client().get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"]))
    assert shown.status_code == 200 and _stacks(shown.json["state"]) == truth
    code, output = verify(app)
    assert code == 1 and f"the pot snapshot at version {version} does not match its seal" in output


def test_a_snapshot_moved_to_another_version_is_not_resumed(app):
    """A genuine sealed snapshot copied to where another pot begins: it is sealed to the entry it
    follows, so it is not resumed there either."""
    table_id = _pots(app, 3)
    with app.app_context():
        snaps = db.session.scalars(db.select(PotSnapshot).where(PotSnapshot.table_id == table_id)
                                   .order_by(PotSnapshot.version)).all()
        first, last = snaps[1], snaps[-1]
        data, seal, version = first.data, first.seal, last.version
    snap_t = PotSnapshot.__table__
    tamper(app, sa.update(snap_t).where(snap_t.c.table_id == table_id, snap_t.c.version == version)
           .values(data=data, seal=seal))
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert tables.table_state(table) == replay_state(table.setup, tables.events_of(table))
    code, output = verify(app)
    assert code == 1 and f"the pot snapshot at version {version} does not match its seal" in output


def test_a_banked_round_start_moved_is_named_and_never_served(app, as_role):
    """The round start set back to the first round's deal: the tablet still shows the round in
    play (from the log's last deal), and verify names the move."""
    table_id = new_table(as_role)
    log_round(as_role, table_id, rounds=2)
    dealer = as_role("dealer")
    before = dealer.get(f"/banked/tables/{table_id}.json").json
    tab = BankedTable.__table__
    tamper(app, sa.update(tab).where(tab.c.id == table_id).values(round_start=1))
    after = dealer.get(f"/banked/tables/{table_id}.json").json
    assert after["state"] == before["state"]
    code, output = verify(app)
    assert code == 1 and f"banked table #{table_id} (Banked 1): the round in play is said to begin at entry 1" \
        in output, output
