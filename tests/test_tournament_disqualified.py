"""A disqualified tournament player stays out (docs/tournament.md, "Disqualification"): the manual
bust-out says whether it is a disqualification (the confirm page's checkbox, ``"disqualified": true``
in the API), the desk's sealed record keeps it, and while it stands a rebuy, an add-on, a re-entry
and a new entry are refused, each naming who disqualified the player, when and why, with nothing
written; undoing that bust-out lifts it. Only the floor or the director disqualifies. The results
(page, CSV, JSON) show the place as "DQ", prize and all."""

from __future__ import annotations

import csv
import io

from floor.extensions import db
from floor.tournament.models import DeskAction, DeskKind
from tests.conftest import login
from tests.test_tournament_desk import STRUCTURE, api, clock, conserved, make_event, play_bust, seats_of  # noqa: F401

OPEN = {**STRUCTURE, "rebuy_levels": 2, "reentry": 2, "add_on": {"chips": 150, "price": 40}}


def written(app, api, event, ids):
    """What a refused action must leave as it was: the desk's records, every table's log, the pool, the entries."""
    with app.app_context():
        desk = db.session.scalar(db.select(db.func.count()).select_from(DeskAction))
    logs = [len(api.get(f"/api/tables/{x}/events")["events"]) for x in ids]
    return desk, logs, api.get(f"/api/events/{event}/clock")["prize_pool"], api.get(f"/api/events/{event}")["entries"]


def disqualify(api, event, player, reason="marked cards", role="floor", status=201):
    return api.post(f"/api/events/{event}/eliminate", {"player": player, "reason": reason, "disqualified": True},
                    role=role, status=status)


def refusal(api, event, path, body):
    response = api.call("POST", f"/api/events/{event}/{path}", role="floor", json=body)
    assert response.status_code == 422, response.get_json()
    return response.get_json()["message"]


def test_a_disqualified_player_may_not_rebuy_add_on_re_enter_or_be_entered_again(app, api, clock):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    row = disqualify(api, event, "Player 02", "marked cards", role="director")
    assert row["disqualified"] is True and row["place"] == 4 and row["prize"] == 0
    with app.app_context():
        action = db.session.scalars(db.select(DeskAction).where(DeskAction.kind == DeskKind.ELIMINATE.value)).one()
        assert action.data["disqualified"] is True and action.reason == "marked cards" and action.by.username == "dana"
    before = written(app, api, event, ids)
    said = {
        "rebuy": refusal(api, event, "buys", {"player": "Player 02", "kind": "rebuy"}),
        "re-entry": refusal(api, event, "entries", {"player": "Player 02"}),
        "re-entry ": refusal(api, event, "entries", {"player": " player 02 "}),  # the name as typed at a desk
    }
    record = next(e["player_id"] for e in api.get(f"/api/events/{event}")["entries"] if e["player"] == "Player 02")
    said["re-entry by record"] = refusal(api, event, "entries", {"player": {"id": record}})
    clock.wait(minutes=41)  # the break after level 2: the add-on's time
    said["add-on"] = refusal(api, event, "buys", {"player": "Player 02", "kind": "add_on"})
    for what, message in said.items():
        # who, when (the room's time), why, in plain words
        assert message.startswith(f"{what.split()[0]}: Player 02 was disqualified from Desk cup by dana at "), what
        assert "(marked cards); a disqualified player may not rebuy, add on or enter this event again" in message
    assert written(app, api, event, ids) == before  # nothing written
    # another player the cards busted still rebuys, and one who left (not disqualified) re-enters
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 03", "reason": "went home"}, role="floor", status=201)
    back = api.post(f"/api/events/{event}/entries", {"player": "Player 03"}, role="floor", status=201)
    assert back["seated"] is not None
    conserved(api, ids)


def test_entered_again_in_an_event_without_re_entries_the_refusal_names_the_disqualification(app, api):
    event, ids = make_event(api, entries=4, tables=1)
    disqualify(api, event, "Player 01", "abuse of the dealer")
    message = refusal(api, event, "entries", {"player": "Player 01"})
    assert "Player 01 was disqualified from Desk cup by fred" in message and "(abuse of the dealer)" in message
    assert "no re-entries" not in message


def test_only_the_floor_or_the_director_disqualifies_and_a_reason_is_required(app, api):
    event, ids = make_event(api, entries=4, tables=1)
    refused = api.call("POST", f"/api/events/{event}/eliminate", role="dealer",
                       json={"player": "Player 01", "reason": "cheating", "disqualified": True})
    assert refused.status_code == 403
    dealer = login(app.test_client(), "dee")
    assert dealer.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 01", "reason": "x",
                                                         "disqualified": "yes", "confirmed": "yes"}).status_code == 403
    before = written(app, api, event, ids)
    message = refusal(api, event, "eliminate", {"player": "Player 01", "reason": " ", "disqualified": True})
    assert message == "disqualify: say why the player is disqualified (reason)"
    bad = api.call("POST", f"/api/events/{event}/eliminate", role="floor", json={"player": "Player 01",
                                                                                "disqualified": "yes"})
    assert bad.status_code == 400 and "true or false" in bad.get_json()["message"]
    assert written(app, api, event, ids) == before
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4
    disqualify(api, event, "Player 01", "cheating", role="director")
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3


def test_undoing_the_disqualifying_bust_out_lifts_it(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    disqualify(api, event, "Player 02")
    assert "disqualified" in refusal(api, event, "buys", {"player": "Player 02", "kind": "rebuy"})
    back = api.post(f"/api/events/{event}/reinstate", {"player": "Player 02", "reason": "wrong seat"}, role="floor",
                    status=201)
    assert back["disqualified"] is False and back["place"] is None
    # in again; busted by the cards now, the player rebuys like anyone
    seat = next(s for s, x in seats_of(api, ids[0]).items() if x["player"] == "Player 02")
    other = next(s for s in seats_of(api, ids[0]) if s != seat)
    play_bust(api, ids[0], other, seat)
    api.post(f"/api/events/{event}/buys", {"player": "Player 02", "kind": "rebuy"}, role="floor", status=201)
    row = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == "Player 02")
    assert row["disqualified"] is False and row["place"] is None and row["rebuys"] == 1
    conserved(api, ids)


def test_the_floor_disqualifies_on_the_confirm_page_and_the_results_say_dq(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    floor = login(app.test_client(), "fred")
    asked = floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 03",
                                                          "reason": "collusion"}).get_data(as_text=True)
    assert 'name="disqualified" value="yes"' in asked and 'name="reason" value="collusion"' in asked
    # the box ticked without a reason: refused on the page, nothing done
    page = floor.post(f"/tournament/{event}/desk", follow_redirects=True,
                      data={"action": "eliminate", "player": "Player 03", "reason": "", "disqualified": "yes",
                            "confirmed": "yes"}).get_data(as_text=True)
    assert "disqualify: say why the player is disqualified (reason)" in page
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4
    page = floor.post(f"/tournament/{event}/desk", follow_redirects=True,
                      data={"action": "eliminate", "player": "Player 03", "reason": "collusion", "disqualified": "yes",
                            "confirmed": "yes"}).get_data(as_text=True)
    assert "Player 03 is out, disqualified: no rebuy, add-on or entry in this event" in page
    assert "to bar them from the room too, a director bans their player record" in page
    # the floor page's rebuy and entry refused with a flash naming why, nothing written
    before = written(app, api, event, ids)
    page = floor.post(f"/tournament/{event}/buys", data={"player": "Player 03", "kind": "rebuy"},
                      follow_redirects=True).get_data(as_text=True)
    assert '<div class="flash error" role="status">rebuy: Player 03 was disqualified from Desk cup by fred at ' in page
    assert "(collusion)" in page
    page = floor.post(f"/tournament/{event}/entries", data={"player": "Player 03"},
                      follow_redirects=True).get_data(as_text=True)
    # a refused entry is flashed as an error, not as done (it was a success's green before)
    flashed = '<div class="flash error" role="status">Player 03: re-entry: Player 03 was disqualified from Desk cup'
    assert flashed in page
    assert written(app, api, event, ids) == before
    results = floor.get(f"/tournament/{event}/results").get_data(as_text=True)
    assert '<td><strong title="disqualified">DQ</strong> (4)</td><td>Player 03</td>' in results
    rows = list(csv.DictReader(io.StringIO(floor.get(f"/tournament/{event}/results.csv").get_data(as_text=True))))
    assert {r["player"]: r["disqualified"] for r in rows} == {"Player 03": "DQ", "Player 01": "", "Player 02": "",
                                                             "Player 04": ""}
    assert next(r for r in rows if r["player"] == "Player 03")["place"] == "4"
    # a player who leaves is not disqualified: the results say so, and the undo is offered as before
    json_rows = api.get(f"/api/events/{event}/results")
    assert [r["player"] for r in json_rows if r["disqualified"]] == ["Player 03"]
    floor_page = floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    assert "Undo the bust-out of Player 03 (lifts the disqualification)" in floor_page
    assert "<strong>Player 03</strong> was disqualified and busted out at the desk by fred" in floor_page


def test_a_disqualified_player_in_the_money_keeps_the_place_and_its_prize(app, api):
    """The house's call, decided: the place stands with its prize (docs/tournament.md, "Disqualification")."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "payouts": [50, 30, 20]})
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 01", "reason": "went home"}, role="floor", status=201)
    row = disqualify(api, event, "Player 02", "cheating")
    assert row["place"] == 3 and row["prize"] == 40 and row["disqualified"] is True  # 20 % of 200


# --------------------------------------------------------------------------- a player already out (session 41)


def bust_by_the_cards(api, table_id, player):
    """Play a pot in which ``player`` loses every chip to another player at the table."""
    seats = seats_of(api, table_id)
    loser = next(s for s, x in seats.items() if x["player"] == player)
    play_bust(api, table_id, next(s for s in seats if s != loser), loser)


def test_a_player_the_cards_busted_is_disqualified_after_the_fact_and_stays_out(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    bust_by_the_cards(api, ids[0], "Player 02")
    out = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == "Player 02")
    assert out["place"] == 4 and out["disqualified"] is False
    before = written(app, api, event, ids)
    row = api.post(f"/api/events/{event}/disqualify", {"player": " player 02 ", "reason": "marked cards"},
                   role="floor", status=201)
    # the place stands and nothing moves on a table: only the desk's sealed record is added
    assert row["player"] == "Player 02" and row["place"] == 4 and row["disqualified"] is True
    desk, logs, pool, entries = written(app, api, event, ids)
    assert (desk, logs, pool, entries) == (before[0] + 1, *before[1:])
    with app.app_context():
        action = db.session.scalars(db.select(DeskAction).where(DeskAction.kind == DeskKind.DISQUALIFY.value)).one()
        assert (action.player, action.reason, action.by.username) == ("Player 02", "marked cards", "fred")
    for path, body in (("buys", {"player": "Player 02", "kind": "rebuy"}), ("entries", {"player": "Player 02"})):
        message = refusal(api, event, path, body)
        assert "Player 02 was disqualified from Desk cup by fred at " in message and "(marked cards)" in message
    assert written(app, api, event, ids)[0] == before[0] + 1  # the refusals wrote nothing
    conserved(api, ids)


def test_disqualifying_after_the_fact_is_refused_saying_why(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 03", "reason": "went home"}, role="floor", status=201)
    before = written(app, api, event, ids)
    said = {
        "still in": refusal(api, event, "disqualify", {"player": "Player 01", "reason": "cheating"}),
        "no entry": refusal(api, event, "disqualify", {"player": "Nobody Here", "reason": "cheating"}),
        "no reason": refusal(api, event, "disqualify", {"player": "Player 03", "reason": "  "}),
        "nothing to lift": refusal(api, event, "lift_disqualification", {"player": "Player 03", "reason": "x"}),
    }
    assert said["still in"] == ("disqualify: Player 01 is still in the event; bust them out at the desk with "
                                "'Disqualified' ticked, which takes their chips off the table")
    assert said["no entry"] == "disqualify: Nobody Here has no entry in Desk cup"
    assert said["no reason"] == "disqualify: say why the player is disqualified (reason)"
    assert said["nothing to lift"] == "lift the disqualification: Player 03 is not disqualified in Desk cup"
    assert api.call("POST", f"/api/events/{event}/disqualify", role="dealer",
                    json={"player": "Player 03", "reason": "cheating"}).status_code == 403
    assert written(app, api, event, ids) == before
    api.post(f"/api/events/{event}/disqualify", {"player": "Player 03", "reason": "cheating"}, role="floor", status=201)
    assert refusal(api, event, "disqualify", {"player": "Player 03", "reason": "again"}) == \
        "disqualify: Player 03 is disqualified already"
    # the bust-out before it is still the latest, but undone it would seat a disqualified player
    assert refusal(api, event, "reinstate", {"player": "Player 03"}) == \
        "undo the bust-out: Player 03 was disqualified since, by their own action; lift the disqualification first"
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3
    assert refusal(api, event, "lift_disqualification", {"player": "Player 03", "reason": ""}) == \
        "lift the disqualification: say why it is lifted (reason)"
    assert api.call("POST", f"/api/events/{event}/lift_disqualification", role="dealer",
                    json={"player": "Player 03", "reason": "x"}).status_code == 403


def test_lifting_a_disqualification_lets_the_player_in_again_and_the_place_stands(app, api):
    """Both kinds are lifted by the desk, the bust-out's too once it can no longer be undone."""
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    disqualify(api, event, "Player 02", "marked cards")  # a bust-out that disqualifies
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 04", "reason": "went home"}, role="floor", status=201)
    # Player 04 was busted since: the undo of Player 02's bust-out is gone, the lift is not
    assert "only the latest bust-out" in refusal(api, event, "reinstate", {"player": "Player 02"})
    api.post(f"/api/events/{event}/disqualify", {"player": "Player 04", "reason": "collusion"}, role="director",
             status=201)
    assert [r["player"] for r in api.get(f"/api/events/{event}/results") if r["disqualified"]] == \
        ["Player 04", "Player 02"]
    lifted = api.post(f"/api/events/{event}/lift_disqualification", {"player": "Player 02", "reason": "wrong player"},
                      role="floor", status=201)
    assert lifted["disqualified"] is False and lifted["place"] == 4  # out still, not disqualified
    with app.app_context():
        lift = db.session.scalars(db.select(DeskAction).where(DeskAction.kind == DeskKind.LIFT_DISQUALIFY.value)).one()
        made = db.session.scalars(db.select(DeskAction).where(DeskAction.kind == DeskKind.ELIMINATE.value,
                                                               DeskAction.player == "Player 02")).one()
        assert lift.data["undoes"] == made.id and lift.reason == "wrong player" and lift.by.username == "fred"
    back = api.post(f"/api/events/{event}/entries", {"player": "Player 02"}, role="floor", status=201)
    assert back["seated"] is not None
    # Player 04's stands, and disqualifying Player 02 again after the lift works
    assert "Player 04 was disqualified" in refusal(api, event, "entries", {"player": "Player 04"})
    conserved(api, ids)


def test_the_floor_page_disqualifies_a_player_who_is_out_and_lifts_it(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    bust_by_the_cards(api, ids[0], "Player 01")
    floor = login(app.test_client(), "fred")
    page = floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    form = page[page.index('id="disqualify-out"'):]
    form = form[:form.index("</form>")]
    assert "<option>Player 01</option>" in form and "Player 02" not in form  # only who is out
    page = floor.post(f"/tournament/{event}/desk", follow_redirects=True,
                      data={"action": "disqualify", "player": "Player 01", "reason": "marked cards"}
                      ).get_data(as_text=True)
    assert "Player 01 is disqualified: no rebuy, add-on or entry in this event; their place stands" in page
    assert 'id="disqualify-out"' not in page  # nobody else is out
    assert "<strong>Player 01</strong> is disqualified by fred," in page and "(marked cards)" in page
    assert "Lift the disqualification of Player 01" in page
    assert "Undo the bust-out" not in page  # nobody was busted at the desk
    page = floor.post(f"/tournament/{event}/desk", follow_redirects=True,
                      data={"action": "lift_disqualification", "player": "Player 01", "reason": "wrong player"}
                      ).get_data(as_text=True)
    assert "The disqualification of Player 01 is lifted: they may buy in again as anyone" in page
    assert "Lift the disqualification" not in page and "<option>Player 01</option>" in page
    dealer = login(app.test_client(), "dee")
    assert dealer.post(f"/tournament/{event}/desk", data={"action": "disqualify", "player": "Player 01",
                                                         "reason": "x"}).status_code == 403


def test_the_undo_of_a_bust_out_is_not_offered_while_a_later_disqualification_stands(app, api):
    event, ids = make_event(api, entries=4, tables=1, structure=OPEN)
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 03", "reason": "went home"}, role="floor", status=201)
    floor = login(app.test_client(), "fred")
    assert "Undo the bust-out of Player 03" in floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    api.post(f"/api/events/{event}/disqualify", {"player": "Player 03", "reason": "cheating"}, role="floor", status=201)
    page = floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    assert "Undo the bust-out of Player 03" not in page and "Lift the disqualification of Player 03" in page
    api.post(f"/api/events/{event}/lift_disqualification", {"player": "Player 03", "reason": "the wrong player"},
             role="floor", status=201)
    assert "Undo the bust-out of Player 03" in floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    api.post(f"/api/events/{event}/reinstate", {"player": "Player 03", "reason": "the wrong player"}, role="floor",
             status=201)
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4
    conserved(api, ids)
