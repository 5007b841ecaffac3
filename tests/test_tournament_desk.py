"""The tournament desk (issue 21) through the contract's HTTP API (docs/contract.md, "The tournament desk"): roles per
action, a busted player leaving the seat, the clock's new figures, late registration, re-entries,
rebuys and the add-on, bounties, the manual bust-out, staff recounts, hand for hand, deals, the
chip race. Chips are checked against the tables' ledgers after each step: stacks + pot ==
starting stacks + chips in - chips out at every table."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from floor.tournament import service
from tests.tourney_play import Api, act, bust

STRUCTURE = {
    "levels": [{"minutes": 20, "ante": 10, "small_bet": 50, "big_bet": 100},
               {"minutes": 20, "ante": 20, "small_bet": 100, "big_bet": 200},
               {"break": 10},
               {"minutes": 20, "ante": 25, "small_bet": 100, "big_bet": 200},
               {"minutes": 20, "ante": 50, "small_bet": 200, "big_bet": 400}],
    "starting_chips": 100, "buy_in": 50, "payouts": [50, 30, 20],
}


@pytest.fixture
def api(client, tokens):
    return Api(client, tokens)


class Clock:
    def __init__(self):
        self.now = datetime(2026, 11, 23, 19, 0, 0)

    def __call__(self):
        return self.now

    def wait(self, **delta):
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(service, "utcnow", c)
    return c


def make_event(api, entries=8, tables=2, seats=4, structure=STRUCTURE, draw=True):
    event = api.post("/api/events", {"name": "Desk cup", "structure": structure}, status=201)["id"]
    ids = [api.post(f"/api/events/{event}/tables", {"name": f"Table {n}", "seats": seats}, status=201)["id"]
           for n in range(1, tables + 1)]
    for n in range(entries):
        api.post(f"/api/events/{event}/entries", {"player": f"Player {n + 1:02d}"}, role="floor", status=201)
    if draw:
        api.post(f"/api/events/{event}/draw", role="floor", status=200)
    return event, ids


def conserved(api, ids):
    """Every table's conservation law; returns the chips on the tables."""
    total = 0
    for table_id in ids:
        data = api.get(f"/api/tables/{table_id}")
        state = data["state"]
        start = sum(x["stack"] for x in data["setup"]["seats"])
        on_table = state["pot"] + sum(x["stack"] for x in state["seats"].values())
        assert on_table == start + state["ledger"]["chips_in"] - state["ledger"]["chips_out"], table_id
        total += on_table
    return total


def seats_of(api, table_id):
    return {int(s): x for s, x in api.table(table_id)["seats"].items()}


def play_bust(api, table_id, winner, loser):
    return bust(lambda: api.table(table_id), lambda e: api.log(table_id, e), winner, loser)


def finish(api, table_id, winner, loser, limit=60):
    """Play the hand in progress at a table to its end."""
    for _ in range(limit):
        state = api.table(table_id)
        if state["phase"] == "between_deals":
            return state
        api.log(table_id, act(state, winner, loser))
    raise AssertionError("the hand did not end")


# --------------------------------------------------------------------------- roles


@pytest.mark.parametrize("path, body", [
    ("/api/events/{e}/eliminate", {"player": "Player 01"}),
    ("/api/events/{e}/counts", {"player": "Player 01", "stack": 90, "reason": "recount"}),
    ("/api/events/{e}/hand_for_hand", {"on": True}),
    ("/api/events/{e}/chop", {"method": "icm", "agreed": []}),
    ("/api/events/{e}/color_up", {}),
    ("/api/events/{e}/entries", {"player": "Zed"}),
    ("/api/events/{e}/draw", {}),
    ("/api/events/{e}/clock", {"action": "start"}),
])
def test_a_dealer_may_not_run_the_desk(api, path, body):
    """Roles per action (docs/contract.md, "The tournament desk"): the desk's writes are the floor's;
    a dealer gets 403 saying why."""
    event, _ = make_event(api, entries=4, tables=1)
    response = api.call("POST", path.format(e=event), role="dealer", json=body)
    assert response.status_code == 403 and "needs the" in response.get_json()["message"]


def test_the_floor_enters_draws_runs_the_clock_busts_counts_and_settles(api):
    """Roles: the floor (not only the director) enters players, draws, runs the clock, busts out, recounts."""
    event, ids = make_event(api, entries=4, tables=1)  # entries and the draw above were the floor's
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    api.post(f"/api/events/{event}/counts", {"player": "Player 01", "stack": 100, "reason": "check"},
             role="floor", status=201)
    api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)  # before the bubble
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 02", "reason": "left"}, role="floor", status=201)
    assert api.call("POST", "/api/events", role="floor", json={"name": "x", "structure": STRUCTURE}).status_code == 403
    assert api.call("POST", f"/api/events/{event}/tables", role="floor",
                    json={"name": "T", "seats": 8}).status_code == 403


# --------------------------------------------------------------------------- eliminations leave the seat


def test_a_busted_player_leaves_the_seat_and_the_seating_list_at_once(app, api):
    """Issue 20: once out, the seat is empty (no 0 stack on the list, no rebuy menu at the table)."""
    event, ids = make_event(api, entries=4, tables=1)
    seats = sorted(seats_of(api, ids[0]))
    loser = seats_of(api, ids[0])[seats[1]]["player"]
    after = play_bust(api, ids[0], seats[0], seats[1])
    assert str(seats[1]) not in after["seats"]  # the seat is free
    last = api.get(f"/api/tables/{ids[0]}/events")
    entries = last["events"] if isinstance(last, dict) else last
    assert entries[-1]["event"] == {"type": "leave", "seat": seats[1]}  # logged right after the pot
    state = api.table(ids[0])
    assert str(seats[1]) not in state["seats"] and len(state["seats"]) == 3
    assert loser not in [c["player"] for c in api.get(f"/api/events/{event}/chips")]
    from tests.conftest import login
    page = login(app.test_client(), "fred").get(f"/tournament/{event}/seating").get_data(as_text=True)
    assert loser not in page
    conserved(api, ids)


def test_a_rebuy_sits_the_player_back_in_the_seat_left(api):
    """Rebuys (rebuy_levels): a busted player who rebuys in the rebuy period gets the seat back when it is free."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "rebuy_levels": 2})
    seats = sorted(seats_of(api, ids[0]))
    loser = seats_of(api, ids[0])[seats[1]]["player"]
    play_bust(api, ids[0], seats[0], seats[1])
    done = api.post(f"/api/events/{event}/buys", {"player": loser, "kind": "rebuy"}, role="floor", status=201)
    assert f"seat {seats[1]}" in done["done"]
    assert seats_of(api, ids[0])[seats[1]] | {} and seats_of(api, ids[0])[seats[1]]["player"] == loser
    assert seats_of(api, ids[0])[seats[1]]["stack"] == 100
    assert done["prize_pool"] == 5 * 50  # four buy-ins and a rebuy at the buy-in
    conserved(api, ids)


# --------------------------------------------------------------------------- the clock


def test_the_clock_shows_the_break_countdown_local_times_payouts_and_chips(app, api, clock):
    """Clock GET gains now, level_ends_at (the room's zone), next_break_seconds, payouts, chips_in_play."""
    app.config["FLOOR_TIMEZONE"] = "America/Los_Angeles"
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=5)
    info = api.get(f"/api/events/{event}/clock")
    zone = ZoneInfo("America/Los_Angeles")
    assert datetime.fromisoformat(info["now"]) == clock.now.replace(tzinfo=ZoneInfo("UTC")).astimezone(zone)
    assert datetime.fromisoformat(info["now"]).utcoffset() == timedelta(hours=-8)
    ends = datetime.fromisoformat(info["level_ends_at"])
    assert ends - datetime.fromisoformat(info["now"]) == timedelta(minutes=15)
    assert info["next_break_seconds"] == 15 * 60 + 20 * 60
    assert info["payouts"] == [{"place": 1, "prize": 200}, {"place": 2, "prize": 120}, {"place": 3, "prize": 80}]
    assert sum(p["prize"] for p in info["payouts"]) == info["prize_pool"] == 400
    assert info["chips_in_play"] == 800 == conserved(api, ids)
    clock.wait(minutes=36)  # into the break
    info = api.get(f"/api/events/{event}/clock")
    assert info["on_break"] and info["next_break_seconds"] == 0
    api.post(f"/api/events/{event}/clock", {"action": "pause"}, role="floor", status=200)
    assert api.get(f"/api/events/{event}/clock")["level_ends_at"] is None  # a paused clock ends nothing


# --------------------------------------------------------------------------- registration


def test_late_registration_closes_at_the_end_of_its_level_naming_the_cutoff(api, clock):
    """late_registration_levels: entries taken through level n, refused (422) once it has ended."""
    event, ids = make_event(api, entries=4, tables=1, seats=8, structure={**STRUCTURE, "late_registration_levels": 1})
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=19)
    assert api.get(f"/api/events/{event}/clock")["late_registration_open"] is True
    api.post(f"/api/events/{event}/entries", {"player": "Late Larry"}, role="floor", status=201)
    clock.wait(minutes=2)
    info = api.get(f"/api/events/{event}/clock")
    assert info["late_registration_open"] is False
    response = api.call("POST", f"/api/events/{event}/entries", role="floor", json={"player": "Too Late"})
    assert response.status_code == 422
    assert "late registration closed at the end of level 1" in response.get_json()["message"]
    assert info["entries"] == 5 and info["prize_pool"] == 250


def test_a_player_out_re_enters_up_to_n_times_with_a_new_seat_and_buy_in(api):
    """reentry n: an eliminated player enters again, n times, each a buy-in; the n+1th is refused."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "reentry": 1})
    seats = sorted(seats_of(api, ids[0]))
    loser = seats_of(api, ids[0])[seats[1]]["player"]
    play_bust(api, ids[0], seats[0], seats[1])
    back = api.post(f"/api/events/{event}/entries", {"player": loser}, role="floor", status=201)
    assert back["seated"] is not None
    assert seats_of(api, ids[0])[back["seated"]["seat"]]["stack"] == 100
    info = api.get(f"/api/events/{event}/clock")
    assert info["entries"] == 5 and info["players_left"] == 4 and info["prize_pool"] == 250
    seat = back["seated"]["seat"]
    play_bust(api, ids[0], seats[0], seat)
    response = api.call("POST", f"/api/events/{event}/entries", role="floor", json={"player": loser})
    assert response.status_code == 422 and "1 re-entry allowed" in response.get_json()["message"]
    row = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == loser)
    assert row["reentries"] == 1 and row["place"] == 4
    conserved(api, ids)


def test_an_add_on_of_the_contract_short_form_at_the_last_rebuy_level(api, clock):
    """add_on {chips, price} with rebuy_levels: taken at the last rebuy level (or the break after it), once."""
    structure = {**STRUCTURE, "rebuy_levels": 2, "add_on": {"chips": 150, "price": 40}}
    event, ids = make_event(api, entries=4, tables=1, structure=structure)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    refused = api.call("POST", f"/api/events/{event}/buys", role="floor", json={"player": "Player 01", "kind": "add_on"})
    assert refused.status_code == 422 and "level 2" in refused.get_json()["message"]
    clock.wait(minutes=41)  # the break after level 2
    api.post(f"/api/events/{event}/buys", {"player": "Player 01", "kind": "add_on"}, role="floor", status=201)
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 4 * 50 + 40
    conserved(api, ids)


# --------------------------------------------------------------------------- bounties


def test_a_bounty_goes_to_the_eliminator_traced_to_the_hand(api):
    """bounty: part of each buy-in, paid to whoever won the pot that busted the player; on the results."""
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10})
    assert api.get(f"/api/events/{event}/clock")["prize_pool"] == 4 * 40
    seats = sorted(seats_of(api, ids[0]))
    names = {s: x["player"] for s, x in seats_of(api, ids[0]).items()}
    play_bust(api, ids[0], seats[0], seats[1])
    paid = api.get(f"/api/events/{event}/bounties")
    out = next(r for r in api.get(f"/api/events/{event}/results") if r["player"] == names[seats[1]])
    ids_of = {x["player"]: x["player_id"] for x in seats_of(api, ids[0]).values()}
    assert paid == [{"player": names[seats[1]], "winner": names[seats[0]], "amount": 10, "table": "Table 1",
                     "table_id": ids[0], "hand": out["hand"], "player_id": out["player_id"],
                     "winner_id": ids_of[names[seats[0]]]}]  # issue 31: the records beside the names
    events = api.get(f"/api/tables/{ids[0]}/events")
    entries = events["events"] if isinstance(events, dict) else events
    assert [e for e in entries if e["seq"] == out["hand"]][0]["event"]["type"] == "deal"  # the hand that busted
    # to the end: every bounty paid, prizes and bounties sum to the money taken
    play_bust(api, ids[0], seats[0], (seats[2], seats[3]))
    rows = api.get(f"/api/events/{event}/results")
    assert sum(r["prize"] for r in rows) == 160 and sum(r["bounties"] for r in rows) == 40
    assert {r["player"]: r["bounties"] for r in rows}[names[seats[0]]] == 40  # three won, their own back


# --------------------------------------------------------------------------- manual bust-out and recounts


def test_a_manual_bust_out_gives_the_place_at_once_and_takes_the_chips_off(api):
    """eliminate {player}: the next place now; the stack leaves the table on the ledger (chips out)."""
    event, ids = make_event(api, entries=4, tables=1)
    row = api.post(f"/api/events/{event}/eliminate", {"player": "Player 03", "reason": "disqualified: abuse"},
                   role="floor", status=201)
    assert row["place"] == 4 and row["prize"] == 0
    state = api.table(ids[0])
    assert "Player 03" not in [x["player"] for x in state["seats"].values()]
    assert state["ledger"]["chips_out"] == 100
    info = api.get(f"/api/events/{event}/clock")
    assert info["players_left"] == 3 and info["chips_in_play"] == 300 == conserved(api, ids)
    again = api.call("POST", f"/api/events/{event}/eliminate", role="floor", json={"player": "Player 03"})
    assert again.status_code == 422 and "out of the event already" in again.get_json()["message"]


def test_a_manual_bust_out_waits_for_the_hand_to_end(api):
    """eliminate: refused (422) while the player's table is in a hand."""
    event, ids = make_event(api, entries=4, tables=1)
    api.log(ids[0], {"type": "deal"})
    response = api.call("POST", f"/api/events/{event}/eliminate", role="floor", json={"player": "Player 01"})
    assert response.status_code == 422 and "between deals" in response.get_json()["message"]


def test_a_recount_is_a_floor_correction_against_the_house_with_who_and_why(api):
    """counts {player, stack, reason}: logged on the table as a correction, the house's side on the ledger."""
    event, ids = make_event(api, entries=4, tables=1)
    seat = next(s for s, x in seats_of(api, ids[0]).items() if x["player"] == "Player 02")
    done = api.post(f"/api/events/{event}/counts", {"player": "Player 02", "stack": 85, "reason": "stack short"},
                    role="floor", status=201)
    assert done["change"] == -15 and done["seat"] == seat
    log = api.get(f"/api/tables/{ids[0]}/events")
    entries = log["events"] if isinstance(log, dict) else log
    last = entries[-1]
    assert last["event"] == {"type": "correction", "moves": [{"seat": seat, "amount": -15}],
                             "reason": "recount by fred: stack short", "house": -15}
    assert last["logged_by"] == "fred"
    assert seats_of(api, ids[0])[seat]["stack"] == 85
    assert api.table(ids[0])["ledger"] == {"chips_in": 0, "chips_out": 15}
    api.post(f"/api/events/{event}/counts", {"player": "Player 02", "stack": 95, "reason": "found a chip"},
             role="floor", status=201)
    assert api.table(ids[0])["ledger"] == {"chips_in": 10, "chips_out": 15}
    assert api.get(f"/api/events/{event}/clock")["chips_in_play"] == 395 == conserved(api, ids)
    no_reason = api.call("POST", f"/api/events/{event}/counts", role="floor", json={"player": "Player 02", "stack": 9})
    assert no_reason.status_code == 422 and "reason" in no_reason.get_json()["message"]


# --------------------------------------------------------------------------- hand for hand


def _down_to_two_a_table(api, event, ids):
    """Bust out players by hand until two sit at each table (4 left of 8, 3 places paid)."""
    for table_id in ids:
        for x in list(seats_of(api, table_id).values())[2:]:
            api.post(f"/api/events/{event}/eliminate", {"player": x["player"], "reason": "left"}, role="floor",
                     status=201)


def test_hand_for_hand_deals_together_pauses_the_clock_and_busts_in_one_hand_share(api, clock):
    """Hand for hand: no table deals its next hand until every table has finished this one; the clock
    stands; two players out in the same hand at two tables share their places' prizes; it ends at the bubble."""
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    _down_to_two_a_table(api, event, ids)
    on = api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor")
    assert on["on"] is True and on["clock"]["running"] is False and on["clock"]["hand_for_hand"] is True
    shorts = {}
    for table_id, chips in zip(ids, (10, 15)):  # different stacks: they still tie across tables
        seats = sorted(seats_of(api, table_id))
        short = seats_of(api, table_id)[seats[1]]["player"]
        api.post(f"/api/events/{event}/counts", {"player": short, "stack": chips, "reason": "set up a short stack"},
                 role="floor", status=201)
        shorts[table_id] = (seats[0], seats[1], short)
    api.log(ids[0], {"type": "deal"})
    api.log(ids[1], {"type": "deal"})
    finish(api, ids[0], *shorts[ids[0]][:2])
    early = api.call("POST", f"/api/tables/{ids[0]}/events", role="dealer", json={"type": "deal"})
    assert early.status_code == 422 and "Table 2 has not finished hand 1" in early.get_json()["message"]
    finish(api, ids[1], *shorts[ids[1]][:2])
    rows = {r["player"]: r for r in api.get(f"/api/events/{event}/results")}
    a, b = shorts[ids[0]][2], shorts[ids[1]][2]
    assert rows[a]["place"] == rows[b]["place"] == 3
    assert rows[a]["prize"] + rows[b]["prize"] == 80 and abs(rows[a]["prize"] - rows[b]["prize"]) <= 1  # 3rd + 4th
    info = api.get(f"/api/events/{event}/clock")
    assert info["hand_for_hand"] is False and info["running"] is True  # the bubble burst: the clock runs again
    conserved(api, ids)


def test_hand_for_hand_is_refused_once_the_bubble_has_burst(app, api):
    """Three left, three paid: hand for hand would pause the clock and end at once; it is refused,
    saying why, on the API and on the floor's page (which before said "on: the clock is paused")."""
    event, _ = make_event(api, entries=4, tables=1)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 01", "reason": "left"}, role="floor", status=201)
    refused = api.call("POST", f"/api/events/{event}/hand_for_hand", role="floor", json={"on": True})
    assert refused.status_code == 422
    assert "the bubble has burst (3 players left, 3 places paid)" in refused.get_json()["message"]
    from tests.conftest import login
    floor = login(app.test_client(), "fred")
    page = floor.post(f"/tournament/{event}/desk", data={"action": "hand_for_hand_on"}, follow_redirects=True)
    assert "the bubble has burst" in page.get_data(as_text=True)
    info = api.get(f"/api/events/{event}/clock")
    assert info["hand_for_hand"] is False and info["running"] is True


# --------------------------------------------------------------------------- deals


def test_an_icm_deal_settled_by_everyone_left_shows_on_the_results(api):
    """chop: GET offers the ICM split of what is left to pay; POST needs every player left to agree."""
    event, ids = make_event(api, entries=4, tables=1)
    api.post(f"/api/events/{event}/eliminate", {"player": "Player 04", "reason": "left"}, role="floor", status=201)
    api.post(f"/api/events/{event}/counts", {"player": "Player 01", "stack": 150, "reason": "set up"}, role="floor")
    api.post(f"/api/events/{event}/counts", {"player": "Player 03", "stack": 60, "reason": "set up"}, role="floor")
    offer = api.get(f"/api/events/{event}/chop?method=icm", role="floor")
    assert sum(r["prize"] for r in offer) == 200  # the whole pool: nobody has been paid yet
    assert [r["player"] for r in offer] == ["Player 01", "Player 02", "Player 03"]
    chip = api.get(f"/api/events/{event}/chop?method=chip", role="floor")
    assert sum(r["prize"] for r in chip) == 200 and min(r["prize"] for r in chip) >= 40
    short = api.call("POST", f"/api/events/{event}/chop", role="floor",
                     json={"method": "icm", "agreed": ["Player 01", "Player 02"]})
    assert short.status_code == 422 and "not agreed: Player 03" in short.get_json()["message"]
    api.post(f"/api/events/{event}/chop", {"method": "icm", "agreed": ["Player 01", "Player 02", "Player 03"]},
             role="floor", status=201)
    rows = {r["player"]: r for r in api.get(f"/api/events/{event}/results")}
    assert {p: rows[p]["prize"] for p in ("Player 01", "Player 02", "Player 03")} == {r["player"]: r["prize"]
                                                                                      for r in offer}
    assert [rows[p]["place"] for p in ("Player 01", "Player 02", "Player 03", "Player 04")] == [1, 2, 3, 4]
    assert sum(r["prize"] for r in rows.values()) == 200 and all(rows[p]["deal"] for p in ("Player 01", "Player 02"))


def test_a_custom_deal_must_pay_exactly_what_is_left(api):
    """chop POST method custom: the prizes must add up to what is left to pay."""
    event, ids = make_event(api, entries=3, tables=1)
    bad = api.call("POST", f"/api/events/{event}/chop", role="floor", json={
        "method": "custom", "agreed": ["Player 01", "Player 02", "Player 03"],
        "prizes": {"Player 01": 100, "Player 02": 30, "Player 03": 10}})
    assert bad.status_code == 422 and "left to pay is 150" in bad.get_json()["message"]
    api.post(f"/api/events/{event}/chop", {"method": "custom", "agreed": ["Player 01", "Player 02", "Player 03"],
                                           "prizes": {"Player 01": 50, "Player 02": 50, "Player 03": 50}},
             role="floor", status=201)
    assert sorted(r["prize"] for r in api.get(f"/api/events/{event}/results")) == [50, 50, 50]
    # the deal ended the event: no more hands, bust-outs, nor a second deal
    for url, body in ((f"/api/tables/{ids[0]}/events", {"type": "deal"}),
                      (f"/api/events/{event}/eliminate", {"player": "Player 01"}),
                      (f"/api/events/{event}/chop", {"method": "chip", "agreed": []})):
        response = api.call("POST", url, role="floor", json=body)
        assert response.status_code == 422 and "ended with a deal" in response.get_json()["message"], url


# --------------------------------------------------------------------------- the chip race


def test_the_chip_race_rounds_stacks_and_logs_it_against_the_house(api, clock):
    """color_up [{level, chip}]: at that level the 5s leave; stacks become multiples of the new chip
    (25, the unit of the level's stakes); each change is a floor correction; nobody is raced out."""
    structure = {**STRUCTURE, "color_up": [{"level": 3, "chip": 5}]}
    event, ids = make_event(api, entries=4, tables=1, structure=structure)
    for name, stack in (("Player 01", 105), ("Player 02", 90), ("Player 03", 15), ("Player 04", 190)):
        api.post(f"/api/events/{event}/counts", {"player": name, "stack": stack, "reason": "set up"}, role="floor")
    early = api.call("POST", f"/api/events/{event}/color_up", role="floor")
    assert early.status_code == 422 and "none is due now" in early.get_json()["message"]
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=51)  # level 3: the floor page says a race is due
    from tests.conftest import login
    floor = login(api.client.application.test_client(), "fred")
    assert "Chip race due" in floor.get(f"/tournament/{event}/floor/panel").get_data(as_text=True)
    report = api.post(f"/api/events/{event}/color_up", role="floor", status=201)
    assert "Chip race due" not in floor.get(f"/tournament/{event}/floor/panel").get_data(as_text=True)
    after = report[0]["after"]
    assert all(v % 25 == 0 and v > 0 for v in after.values())  # Player 03's 15 is never raced out
    assert report[0]["odd"] == {"Player 01": 5, "Player 02": 15, "Player 03": 15, "Player 04": 15}
    assert len(report[0]["winners"]) == 2  # 50 in odd chips: two 25s
    stacks = {x["player"]: x["stack"] for x in api.table(ids[0])["seats"].values()}
    assert stacks == after
    conserved(api, ids)
    again = api.call("POST", f"/api/events/{event}/color_up", role="floor")
    assert again.status_code == 422


# --------------------------------------------------------------------------- results and the deal sheet


def test_results_page_pdf_and_csv_carry_bounties_and_the_deal(app, api):
    """Results as page, PDF and CSV with the bounties and the hand; the deal sheet prints for signing."""
    import csv
    import io

    from pypdf import PdfReader

    from tests.conftest import login
    event, ids = make_event(api, entries=4, tables=1, structure={**STRUCTURE, "bounty": 10})
    seats = sorted(seats_of(api, ids[0]))
    names = {s: x["player"] for s, x in seats_of(api, ids[0]).items()}
    play_bust(api, ids[0], seats[0], seats[1])
    floor = login(app.test_client(), "fred")
    rows = list(csv.DictReader(io.StringIO(floor.get(f"/tournament/{event}/results.csv").get_data(as_text=True))))
    winner = next(r for r in rows if r["player"] == names[seats[0]])
    loser = next(r for r in rows if r["player"] == names[seats[1]])
    assert winner["bounties"] == "10" and loser["place"] == "4" and loser["hand"]
    app.config["FLOOR_TIMEZONE"] = "Asia/Kolkata"  # UTC+5:30: no stored UTC time reads the same there
    page = floor.get(f"/tournament/{event}/results").get_data(as_text=True)
    assert "Bounties" in page and names[seats[1]] in page
    out_at = datetime.fromisoformat(next(r for r in api.get(f"/api/events/{event}/results")
                                         if r["player"] == names[seats[1]])["out_at"])
    local = out_at.replace(tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo("Asia/Kolkata"))
    assert f"<td>{local:%H:%M}</td>" in page and f"<td>{out_at:%H:%M}</td>" not in page  # the room's time
    # the CSV in the same zone as the page, its offset written (issue 33: it was UTC, unmarked)
    sheet_rows = list(csv.DictReader(io.StringIO(floor.get(f"/tournament/{event}/results.csv").get_data(as_text=True))))
    out_row = next(r for r in sheet_rows if r["player"] == names[seats[1]])
    assert out_row["out_at"] == local.isoformat(timespec="seconds") and out_row["out_at"].endswith("+05:30")
    pdf = PdfReader(io.BytesIO(floor.get(f"/tournament/{event}/results.pdf").data))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "Bounties" in text and names[seats[0]] in text
    sheet = floor.get(f"/tournament/{event}/deal?method=chip").get_data(as_text=True)
    assert "Review the deal" in sheet
    pdf = PdfReader(io.BytesIO(floor.get(f"/tournament/{event}/deal.pdf?method=chip").data))
    assert "Signature" in "".join(p.extract_text() for p in pdf.pages)  # the sheet under review, to sign
    api.post(f"/api/events/{event}/chop", {"method": "chip", "agreed": [names[s] for s in seats if s != seats[1]]},
             role="floor", status=201)
    pdf = PdfReader(io.BytesIO(floor.get(f"/tournament/{event}/deal.pdf").data))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "Signature" in text and "Chip chop" in text and names[seats[2]] in text
    rows = api.get(f"/api/events/{event}/results")
    assert sum(r["prize"] for r in rows) == 160 and sum(r["bounties"] for r in rows) == 40


def test_the_floor_page_desk_counts_and_busts_out_a_dealer_may_not(app, api):
    """Pages: the floor's desk form records a count and a bust-out; a dealer's POST is refused (403)."""
    from tests.conftest import login
    event, ids = make_event(api, entries=4, tables=1)
    floor = login(app.test_client(), "fred")
    assert "Record the count" in floor.get(f"/tournament/{event}/floor").get_data(as_text=True)
    floor.post(f"/tournament/{event}/desk", data={"action": "count", "player": "Player 01", "stack": "90",
                                                  "reason": "recount"})
    assert {x["player"]: x["stack"] for x in api.table(ids[0])["seats"].values()}["Player 01"] == 90
    # "Record the count" with the box empty says so, in words (it read "not ''")
    empty = floor.post(f"/tournament/{event}/desk", data={"action": "count", "player": "Player 01", "stack": "",
                                                          "reason": "recount"}, follow_redirects=True)
    said = empty.get_data(as_text=True)
    assert "and none was written" in said and "not &#39;&#39;" not in said and "not ''" not in said
    for action in ("eliminate", "count"):  # nobody named: said so (it read "'' has not entered this event")
        said = floor.post(f"/tournament/{event}/desk", data={"action": action, "player": "", "stack": "90",
                                                             "reason": "x"}, follow_redirects=True).get_data(as_text=True)
        assert "name the player" in said and "&#39;&#39;" not in said
    asked = floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 02", "reason": "left"})
    assert asked.status_code == 200 and "Bust out Player 02?" in asked.get_data(as_text=True)  # confirmed first
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 4
    floor.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 02", "reason": "left",
                                                  "confirmed": "yes"})
    assert api.get(f"/api/events/{event}/clock")["players_left"] == 3
    dealer = login(app.test_client(), "dee")
    assert dealer.post(f"/tournament/{event}/desk", data={"action": "eliminate", "player": "Player 03"}).status_code == 403
    conserved(api, ids)


def test_the_structure_form_keeps_the_desk_fields(app, api):
    """The director's form writes late registration, re-entries, the bounty and the chip races, and shows them back."""
    from tests.conftest import login
    event, _ = make_event(api, entries=2, tables=1, draw=False)
    director = login(app.test_client(), "dana")
    response = director.post(f"/tournament/{event}/structure", data={
        "levels": "15 5 10 20\n15 10 20 40\n15 25 50 100", "starting_chips": 500, "buy_in": 20, "fee": 2,
        "payouts": "70 30", "rebuy": "", "add_on": "", "late_registration_levels": "2", "reentry": "1",
        "bounty": "5", "color_up": "3 5"})
    assert response.status_code == 302
    got = api.get(f"/api/events/{event}")["structure"]
    assert (got["late_registration_levels"], got["reentry"], got["bounty"], got["color_up"]) == \
        (2, 1, 5, [{"level": 3, "chip": 5}])
    page = director.get(f"/tournament/{event}/").get_data(as_text=True)
    assert 'name="color_up" type="text" value="3 5"' in page and "late registration through level 2" in page
    bad = director.post(f"/tournament/{event}/structure", data={
        "levels": "15 5 10 20", "starting_chips": 500, "buy_in": 20, "fee": 0, "payouts": "standard",
        "bounty": "30"})
    assert bad.status_code == 400 and b"bounty: 30 is part of the buy-in (20)" in bad.data


def test_another_worker_reads_the_same_clock_and_hand_for_hand(tmp_path, app, api, clock):
    """The clock lives in the database: a second app on the same database (another worker, a restart)
    reads the same level, time left, next break and hand for hand, and refuses the same early deal."""
    from floor import create_app
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=7)
    api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)
    api.log(ids[0], {"type": "deal"})
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
                       instance_path=app.instance_path)  # the same host
    clock.wait(minutes=5)
    mine, theirs = api.get(f"/api/events/{event}/clock"), Api(other.test_client(), api.tokens).get(
        f"/api/events/{event}/clock")
    assert mine == theirs
    assert theirs["seconds_left"] == 13 * 60 and theirs["next_break_seconds"] == 33 * 60 and theirs["hand_for_hand"]
    api.log(ids[1], {"type": "deal"})
    finish(api, ids[1], *sorted(seats_of(api, ids[1]))[:2])
    early = Api(other.test_client(), api.tokens).call("POST", f"/api/tables/{ids[1]}/events", role="dealer",
                                                      json={"type": "deal"})
    assert early.status_code == 422 and "Table 1 has not finished hand 1" in early.get_json()["message"]
    from floor.extensions import db
    with other.app_context():
        db.engine.dispose()  # the second worker's connections closed (PostgreSQL: no connection left open)
