"""Issue 20: the floor's acts are the floor's. A dealer's undo (a ``void`` of the latest event)
never withdraws an entry a floor person or a director made: a tournament move between tables, a
balancing seat change, a seat or a rebuy the floor gave, a recount (a correction of chips), a
ruling, false openers, or a ruling of the rules the floor confirmed. The server refuses it per
entry, with the reason (403), whatever page or client sent it; the floor itself may still undo its
own act where the rules allow it, and the dealer keeps the undo of the dealer's own taps.
"""

from __future__ import annotations

import pytest

from floor import tables
from floor.extensions import db
from floor.models import IssuedRuling, LogEntry, Table, User
from tests.conftest import SETUP, bearer

SIX = {**SETUP, "seats": SETUP["seats"] + [{"seat": 5, "player": "Eve", "stack": 500}]}


def _table(client, tokens, name="T1", setup=SETUP):
    response = client.post("/api/tables", json={"name": name, **setup}, headers=bearer(tokens["director"]))
    assert response.status_code == 201, response.json
    return response.json["id"]


def _log(client, token, table_id, event):
    return client.post(f"/api/tables/{table_id}/events", json=event, headers=bearer(token))


def _undo(client, token, table_id):
    """The undo button's request: void the latest event of the table."""
    with client.application.app_context():
        last = db.session.scalars(db.select(LogEntry.seq).where(LogEntry.table_id == table_id)
                                  .order_by(LogEntry.seq.desc())).first()
    return _log(client, token, table_id, {"type": "void", "event": last - 1})


def _refused(response, kind, who="fred (floor)"):
    assert response.status_code == 403, response.json
    message = response.json["message"]
    assert message.startswith("undo refused:") and f"({kind})" in message and who in message, message
    return message


@pytest.mark.parametrize("event, kind", [
    ({"type": "move_seat", "seat": 4, "to": 6}, "move seat"),          # balancing within the table
    ({"type": "sit", "seat": 6, "player": "Gus", "chips": 500}, "sit"),  # a seat the floor gave
    ({"type": "add_chips", "seat": 2, "amount": 500}, "add chips"),     # a rebuy the floor sold
    ({"type": "leave", "seat": 4}, "leave"),
    ({"type": "correction", "moves": [{"seat": 1, "amount": -50}, {"seat": 2, "amount": 50}],
      "reason": "recount after the last pot"}, "correction"),         # a recount
])
def test_a_dealers_undo_of_a_floor_entry_is_refused_with_the_reason(app, tokens, event, kind):
    client = app.test_client()
    table_id = _table(client, tokens)
    assert _log(client, tokens["floor"], table_id, event).status_code == 201
    before = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json
    _refused(_undo(client, tokens["dealer"], table_id), kind)
    after = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json
    assert after["version"] == before["version"] and after["state"] == before["state"]


def test_a_tournament_move_between_tables_stays_when_the_dealer_undoes(app, tokens):
    """The move the issue saw withdrawn: the moved player stays seated at the new table."""
    client = app.test_client()
    source, target = _table(client, tokens, "T1", SIX), _table(client, tokens, "T2")
    with app.app_context():
        fred = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        tables.move_player(db.session.get(Table, source), 5, db.session.get(Table, target), 6, fred)
    message = _refused(_undo(client, tokens["dealer"], target), "sit")
    assert "never withdraws the floor's act" in message
    _refused(_undo(client, tokens["dealer"], source), "leave")
    seats = client.get(f"/api/tables/{target}", headers=bearer(tokens["dealer"])).json["state"]["seats"]
    assert seats["6"]["player"] == "Eve" and seats["6"]["stack"] == 500


def test_a_director_entry_is_the_floors_too(app, tokens):
    client = app.test_client()
    table_id = _table(client, tokens)
    assert _log(client, tokens["director"], table_id, {"type": "add_chips", "seat": 1, "amount": 100}).status_code == 201
    _refused(_undo(client, tokens["dealer"], table_id), "add chips", who="dana (director)")


def test_a_floor_ruling_and_false_openers_are_refused_by_name(app, tokens):
    client = app.test_client()
    table_id = _table(client, tokens)
    for event in ({"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3}):
        assert _log(client, tokens["dealer"], table_id, event).status_code == 201
    assert _log(client, tokens["floor"], table_id, {"type": "false_openers", "seat": 3}).status_code == 201
    _refused(_undo(client, tokens["dealer"], table_id), "false openers")
    ruling = client.post("/api/rulings", json={"facts": {"issue": "caller_refund", "seat": 4}, "table_id": table_id,
                                               "apply": True}, headers=bearer(tokens["floor"]))
    assert ruling.status_code == 201, ruling.json  # logged at the table as the floor's ruling event
    _refused(_undo(client, tokens["dealer"], table_id), "ruling")


def test_a_confirmed_ruling_of_the_rules_is_refused(app, tokens, as_role):
    """An opener who cannot prove openers at the show: the rules rule on the dealer's tap; once a
    floor person confirms it, the dealer's undo meets the floor's word."""
    from tests.test_pot_snapshots import POT

    client = app.test_client()
    table_id = _table(client, tokens)
    for event in POT:
        assert _log(client, tokens["dealer"], table_id, event).status_code == 201, event
    with app.app_context():
        row = db.session.scalars(db.select(IssuedRuling).where(IssuedRuling.table_id == table_id)).first()
        assert row is not None and row.by_rules
        ruling_id = row.id
    assert as_role("floor").post(f"/rulings/{ruling_id}/confirm").status_code in (200, 302)
    message = _undo(client, tokens["dealer"], table_id)
    assert message.status_code == 403
    assert f"carries ruling #{ruling_id} of fred" in message.json["message"]


def test_the_dealer_keeps_the_undo_of_the_dealers_own_taps_and_the_floor_of_its_own(app, tokens):
    client = app.test_client()
    table_id = _table(client, tokens)
    assert _log(client, tokens["dealer"], table_id, {"type": "deal"}).status_code == 201
    assert _undo(client, tokens["dealer"], table_id).status_code == 201

    assert _log(client, tokens["floor"], table_id, {"type": "move_seat", "seat": 4, "to": 6}).status_code == 201
    assert _undo(client, tokens["floor"], table_id).status_code == 201  # the floor withdraws its own
    seats = client.get(f"/api/tables/{table_id}", headers=bearer(tokens["dealer"])).json["state"]["seats"]
    assert "4" in seats and "6" not in seats
    # the play of a hand a floor person taps standing in at the tablet stays the table's play
    assert _log(client, tokens["floor"], table_id, {"type": "deal"}).status_code == 201
    assert _log(client, tokens["floor"], table_id, {"type": "pass", "seat": 2}).status_code == 201
    assert _undo(client, tokens["dealer"], table_id).status_code == 201


def test_the_dealers_panel_offers_no_undo_of_the_floors_act(app, tokens, as_role):
    client = app.test_client()
    table_id = _table(client, tokens)
    assert _log(client, tokens["floor"], table_id, {"type": "move_seat", "seat": 4, "to": 6}).status_code == 201
    with app.test_request_context():
        from flask_login import login_user

        from floor.dealer.panel import panel_context

        with app.app_context():
            login_user(db.session.scalars(db.select(User).where(User.username == "dee")).one())
            assert panel_context(db.session.get(Table, table_id))["undo"] is None


def test_a_balancing_move_of_the_tournament_floor_survives_the_dealers_undo(client, tokens):
    """The case the issue saw: a floor person carries out the tournament's balancing move; the
    dealer of the table the player came to taps undo. Refused: the moved player keeps the seat and
    the chips, and the balance plan still counts every player (no final-table redraw with players
    missing)."""
    from tests.test_tournament_app import all_chips, make_event, play_bust
    from tests.tourney_play import Api

    api = Api(client, tokens)
    event, ids = make_event(api)
    total = all_chips(api, ids)
    short = min(ids, key=lambda i: len(api.table(i)["seats"]))
    seats = sorted(int(s) for s in api.table(short)["seats"])
    for loser in seats[1:3]:
        play_bust(api, short, seats[0], loser)
    move = api.get(f"/api/events/{event}/balance")["moves"][0]
    api.post(f"/api/events/{event}/balance", {"moves": [move]}, role="floor", status=200)
    _refused(_undo(client, tokens["dealer"], move["to_table"]), "sit")
    _refused(_undo(client, tokens["dealer"], move["from_table"]), "leave")
    assert api.table(move["to_table"])["seats"][str(move["to_seat"])]["player"] == move["player"]
    assert all_chips(api, ids) == total
    plan = api.get(f"/api/events/{event}/balance")
    assert plan["break_table"] is None and not plan["final_redraw"]
    assert sum(1 for i in ids for x in api.table(i)["seats"].values() if x["stack"]) == 18  # 20 entered, 2 out


def test_the_tournaments_own_leave_of_a_busted_player_survives_the_dealers_undo(client, tokens):
    """Issues 20 and 21 together: the tournament clears a busted player's seat by itself (a ``leave``
    logged by no one, right after the dealer's tap that ended the pot). That entry is the desk's act:
    the dealer's undo of it is refused, so the player out of the event never comes back to the
    table with no chips, and the chip counts and the results stay as the desk wrote them."""
    from tests.test_tournament_app import all_chips, make_event, play_bust
    from tests.tourney_play import Api

    api = Api(client, tokens)
    event, ids = make_event(api)
    total = all_chips(api, ids)
    table_id = ids[0]
    seats = sorted(int(s) for s in api.table(table_id)["seats"])
    loser = api.table(table_id)["seats"][str(seats[1])]["player"]
    play_bust(api, table_id, seats[0], seats[1])
    last = api.get(f"/api/tables/{table_id}/events")["events"][-1]
    assert last["event"] == {"type": "leave", "seat": seats[1]} and last["logged_by"] is None
    message = _refused(_undo(client, tokens["dealer"], table_id), "leave", who="the tournament desk")
    assert "never withdraws the floor's act" in message
    assert str(seats[1]) not in api.table(table_id)["seats"]
    assert loser not in [c["player"] for c in api.get(f"/api/events/{event}/chips")]
    assert all_chips(api, ids) == total
