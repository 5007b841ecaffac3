"""Pot snapshots: a table's state at the end of each pot is stored when the next deal is logged,
and a table not in the cache (after a restart) is resumed from its latest one; checked against a
full replay of the log, which stays the truth."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import PotSnapshot, Table
from rules.jackpot import replay_state
from tests.conftest import SETUP

# a pot won at the showdown by seat 4 (the opener, seat 3, cannot prove openers: a ruling; seat 4's
# hand, the one left live, takes it without showing), then
# a deal nobody opens (the pot carries), then another pot
POT = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}, {"type": "call", "seat": 4},
       {"type": "fold", "seat": 1}, {"type": "fold", "seat": 2}, {"type": "draw", "seat": 3, "count": 1},
       {"type": "draw", "seat": 4, "count": 2}, {"type": "check", "seat": 3}, {"type": "check", "seat": 4},
       {"type": "show", "seat": 3, "cards": "7c 8d 9h Ts Jc"}]


def _log(app, events):
    with app.app_context():
        table = tables.create_table("Table 1", SETUP)
        for event in events:
            tables.append(table, event, None)
        return table.id


def _pots(app, count):
    """``count`` pots, each like POT whatever seat the button is on: a pass, an opening, a call,
    folds, draws, checks, an opener who cannot prove openers and a caller who takes the pot."""
    with app.app_context():
        table = tables.create_table("Table 1", SETUP)

        def tap(kind, **fields):
            state = tables.state_of(table)
            tables.append(table, {"type": kind, "seat": state["to_act"], **fields}, None)
            return state["to_act"]

        for _ in range(count):
            tables.append(table, {"type": "deal"}, None)
            tap("pass")
            opener, caller = tap("open"), tap("call")
            tap("fold"), tap("fold")
            tap("draw", count=1), tap("draw", count=2), tap("check"), tap("check")
            tables.append(table, {"type": "show", "seat": opener, "cards": "7c 8d 9h Ts Jc"}, None)
            assert tables.state_of(table)["awards"] == {caller: 40}  # uncontested: no show (issue 22)
        return table.id


def test_a_snapshot_is_kept_where_each_new_pot_begins(app):
    passes = [{"type": "deal"}] + [{"type": "pass", "seat": s} for s in (3, 4, 1, 2)]
    table_id = _log(app, POT + passes + passes[:1])
    with app.app_context():
        versions = list(db.session.scalars(db.select(PotSnapshot.version).where(PotSnapshot.table_id == table_id)
                                           .order_by(PotSnapshot.version)))
    # before the first deal, and before the deal after the pot was won; not before a deal of a
    # carried pot (it starts no new pot)
    assert versions == [0, len(POT)]


def test_a_table_not_in_the_cache_is_resumed_from_its_latest_snapshot_exactly(app):
    table_id = _pots(app, 3)
    with app.app_context():
        table = db.session.get(Table, table_id)
        assert db.session.scalar(db.select(db.func.count(PotSnapshot.id))) == 3
        tables.cache.clear()  # as after a restart
        resumed = tables.table_state(table)
        assert resumed == replay_state(table.setup, tables.events_of(table))
        assert resumed.version == 33 and resumed.to_dict()["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"


def test_a_snapshot_that_does_not_read_is_ignored(app):
    table_id = _pots(app, 2)
    with app.app_context():
        for snap in db.session.scalars(db.select(PotSnapshot)):
            snap.data = {"format": 99}
        db.session.commit()
        table = db.session.get(Table, table_id)
        tables.cache.clear()
        assert tables.table_state(table) == replay_state(table.setup, tables.events_of(table))


def _held_by_another_worker(table, version):
    """The cache of a worker that last saw the table at ``version`` (the other workers logged the
    taps since): its state of that version and nothing later."""
    from floor.models import LogEntry, canonical_json

    setup = canonical_json(table.setup)
    digest = db.session.scalar(db.select(LogEntry.digest).where(LogEntry.table_id == table.id, LogEntry.seq == version))
    tables.cache.clear()
    tables.heads.clear()
    tables.cache.put((table.id, version, setup), replay_state(table.setup, tables.events_of(table)[:version]))
    tables.heads.put(table.id, (version, digest, setup))


def test_a_worker_a_few_taps_behind_catches_up_from_its_own_state_exactly_as_a_replay(app, monkeypatch):
    table_id = _pots(app, 3)
    with app.app_context():
        table = db.session.get(Table, table_id)
        # 27 to 33: across a won pot's showdown (a ruling: the opener cannot prove openers)
        _held_by_another_worker(table, 27)
        monkeypatch.setattr(tables, "_from_snapshot", lambda table: pytest.fail("resumed a snapshot"))
        caught_up = tables.table_state(table)
        assert caught_up == replay_state(table.setup, tables.events_of(table))
        assert caught_up.version == 33 and caught_up.to_dict()["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"
        # the next tap at that worker goes on from there
        entry, state = tables.append(table, {"type": "deal"}, None)
        assert state == replay_state(table.setup, tables.events_of(table))


def test_catching_up_reads_only_the_sealed_log(app):
    from floor.models import LogEntry
    from floor.seals import SealBroken

    table_id = _pots(app, 3)
    with app.app_context():
        table = db.session.get(Table, table_id)
        _held_by_another_worker(table, 27)
        # an entry another worker logged since (the show of the third pot) is changed outside the
        # app: the pot goes elsewhere
        assert db.session.scalar(db.select(LogEntry.payload).where(
            LogEntry.table_id == table_id, LogEntry.seq == 33))["type"] == "show"
        db.session.execute(db.update(LogEntry).where(LogEntry.table_id == table_id, LogEntry.seq == 33)
                           .values(payload={"type": "show", "seat": 1, "cards": "9s 9d 2c 3c 4h"}))
        db.session.commit()
        table = db.session.get(Table, table_id)
        with pytest.raises(SealBroken, match="entry 33 of the log does not match its seal"):
            tables.table_state(table)
