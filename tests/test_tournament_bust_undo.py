"""A tournament's manual bust-out (issue 33): the floor confirms it first (who, which table and seat,
the chips that leave, the place given); a bust-out made by mistake is undone, logged (the player
sits again with the chips: a ``sit`` on the table's log; the desk keeps who undid it and why) and
role-checked; only the latest bust-out made at the desk, while nobody has been busted since, the
seat is free and the table between deals. Chips are conserved at every step."""

from __future__ import annotations

from floor.extensions import db
from floor.tournament.models import DeskAction, DeskKind
from tests.conftest import login
from tests.test_tournament_desk import api, conserved, make_event, seats_of  # noqa: F401 (fixture)


def stack_of(api, table_id, player):
    return next((x["stack"] for x in seats_of(api, table_id).values() if x["player"] == player), None)


def test_a_bust_out_is_confirmed_then_undone_with_the_chips_and_the_place_given_back(app, api):
    event, ids = make_event(api, entries=4, tables=1)
    seat = next(s for s, x in seats_of(api, ids[0]).items() if x["player"] == "Player 02")
    floor = login(app.test_client(), "fred")
    asked = floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 02",
                                                          "reason": "went home"}).get_data(as_text=True)
    assert "Bust out Player 02?" in asked
    assert f"Player 02</strong> leaves Table 1, seat {seat}: <strong>100</strong> chips leave the table" in asked
    assert "<strong>place 4</strong>" in asked and "Why: went home." in asked
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4  # nothing done before the yes
    floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 02", "reason": "went home",
                                                  "confirmed": "yes"})
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3 and stack_of(api, ids[0], "Player 02") is None
    page = floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    assert "Undo the bust-out of Player 02" in page
    dealer = login(app.test_client(), "dee")
    assert dealer.post(f"/tournament/{event}/desk", data={"action": "reinstate", "player": "Player 02"}).status_code == 403
    floor.post(f"/tournament/{event}/desk", data={"action": "reinstate", "player": "Player 02", "reason": "wrong player"})
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4
    assert seats_of(api, ids[0])[seat] == {**seats_of(api, ids[0])[seat], "player": "Player 02", "stack": 100}
    row = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == "Player 02")
    assert row["place"] is None and row["out_at"] is None
    assert "Undo the bust-out" not in floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    with app.app_context():
        undone = db.session.scalars(db.select(DeskAction).where(DeskAction.kind == DeskKind.REINSTATE.value)).one()
        assert undone.player == "Player 02" and undone.reason == "wrong player" and undone.by.username == "fred"
        assert undone.data["chips_back"] == 100 and undone.data["seat"] == seat
    log = api.get(f"/api/tables/{ids[0]}/events")["events"]
    assert [e["event"]["type"] for e in log[-2:]] == ["leave", "sit"] and log[-1]["logged_by"] == "fred"
    conserved(api, ids)


def test_only_the_latest_bust_out_made_at_the_desk_is_undone(app, api):
    event, ids = make_event(api, entries=4, tables=1)
    for player in ("Player 02", "Player 03"):
        api.post(f"/api/events/{event}/eliminate", {"player": player}, role="floor", status=201)
    refused = api.call("POST", f"/api/events/{event}/reinstate", role="floor", json={"player": "Player 02"})
    assert refused.status_code == 422 and "only the latest bust-out made at the desk" in refused.get_json()["message"]
    assert api.call("POST", f"/api/events/{event}/reinstate", role="dealer",
                    json={"player": "Player 03"}).status_code == 403
    api.post(f"/api/events/{event}/reinstate", {"player": "Player 03", "reason": "typo"}, role="floor", status=201)
    # Player 02's bust-out is not the latest by the desk any more: it stands
    again = api.call("POST", f"/api/events/{event}/reinstate", role="floor", json={"player": "Player 02"})
    assert again.status_code == 422
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3
    conserved(api, ids)
