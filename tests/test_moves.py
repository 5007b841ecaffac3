"""A move between two tables is one floor action: ``leave`` at one table and ``sit`` at the other
in one database transaction, so the chips are never on both tables and never on neither."""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import LogEntry, Table
from rules import IllegalAction
from tests.conftest import SETUP


def _two_tables(app):
    with app.app_context():
        one = tables.create_table("Table 1", SETUP)
        two = tables.create_table("Table 2", {**SETUP, "seats": [
            {"seat": 1, "player": "Zed", "stack": 300}, {"seat": 3, "player": "Yan", "stack": 300}]})
        return one.id, two.id


def _chips(state):
    return sum(x["stack"] for x in state["seats"].values()) + state["pot"]


def test_a_move_leaves_one_table_and_sits_at_the_other_with_the_same_chips(app):
    one_id, two_id = _two_tables(app)
    with app.app_context():
        one, two = db.session.get(Table, one_id), db.session.get(Table, two_id)
        bob = tables.table_state(one).seats[2].player_id  # issue 31: the record goes with the player
        left, sat = tables.move_player(one, 2, two, 5, None)
        assert (left.payload["type"], sat.payload) == ("leave", {"type": "sit", "seat": 5, "player": "Bob",
                                                                 "chips": 500, "player_id": bob})
        assert bob is not None
        a, b = tables.state_of(one), tables.state_of(two)
        assert 2 not in a["seats"] and b["seats"][5]["player"] == "Bob"
        assert _chips(a) + _chips(b) == 2000 + 600
        assert (a["ledger"]["chips_out"], b["ledger"]["chips_in"]) == (500, 500)


@pytest.mark.parametrize("to_seat, message", [(3, "seat 3 is taken by Yan"), (12, "this table has seats 1 to 8")])
def test_a_move_the_target_refuses_writes_nothing_at_either_table(app, to_seat, message):
    one_id, two_id = _two_tables(app)
    with app.app_context():
        one, two = db.session.get(Table, one_id), db.session.get(Table, two_id)
        with pytest.raises(IllegalAction, match=message):
            tables.move_player(one, 2, two, to_seat, None)
        db.session.expire_all()
        assert (one.version, two.version) == (0, 0)
        assert db.session.scalar(db.select(db.func.count(LogEntry.id))) == 0
        assert 2 in tables.state_of(one)["seats"]


def test_a_move_during_a_deal_is_refused(app):
    one_id, two_id = _two_tables(app)
    with app.app_context():
        one, two = db.session.get(Table, one_id), db.session.get(Table, two_id)
        tables.append(one, {"type": "deal"}, None)
        with pytest.raises(IllegalAction, match="leave: only between deals"):
            tables.move_player(one, 2, two, 5, None)
        assert two.version == 0
