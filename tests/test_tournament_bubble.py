"""The bubble, the final table and the breaks, read as a director runs the desk at 2 a.m. (issue 34):
hand for hand ends at the bubble as soon as the hand in play is over at every table, however that
hand ended; undoing a bust-out puts back what it brought about (hand for hand, the final table's
draw); a chip race is run on the break before its level."""

from __future__ import annotations

from tests.test_tournament_desk import _down_to_two_a_table, api, clock, finish, make_event, seats_of  # noqa: F401

def test_hand_for_hand_ends_at_the_bubble_when_the_last_hand_is_passed_out(api, clock):
    """Hand for hand ends, and the clock runs, once the bubble bursts and the hand in play is over at
    every table. The other table's hand can end with nobody opening (the antes stay for the next
    deal, no pot is won): that is its hand over too (before: hand for hand stayed on and the clock
    stood until some table won a pot, while the tables went on dealing one hand at a time)."""
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    _down_to_two_a_table(api, event, ids)  # 4 left, 3 places paid
    api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)
    seats = sorted(seats_of(api, ids[0]))
    short = seats_of(api, ids[0])[seats[1]]["player"]
    api.post(f"/api/events/{event}/counts", {"player": short, "stack": 10, "reason": "a short stack"},
             role="floor", status=201)
    api.log(ids[0], {"type": "deal"})
    api.log(ids[1], {"type": "deal"})
    finish(api, ids[0], seats[0], seats[1])  # the short stack is out: 3 left, the bubble bursts
    assert {r["player"]: r["place"] for r in api.get(f"/api/events/{event}/results")}[short] == 4
    assert api.get(f"/api/events/{event}/clock")["hand_for_hand"] is True  # Table 2's hand is still on
    while api.table(ids[1])["phase"] != "between_deals":  # nobody opens at Table 2
        api.log(ids[1], {"type": "pass", "seat": api.table(ids[1])["to_act"]})
    assert api.table(ids[1])["pot"] > 0  # the antes carried: no pot won
    info = api.get(f"/api/events/{event}/clock")
    assert info["hand_for_hand"] is False and info["running"] is True


def test_undoing_the_bust_out_that_burst_the_bubble_puts_hand_for_hand_back(api, clock):
    """Four left, three paid, hand for hand on: the floor busts the wrong player by hand, the bubble
    bursts (hand for hand off, the clock runs), and the floor undoes it at once. The undo puts the
    event back as it was: four left, hand for hand on, the clock standing (before: the player was
    back but hand for hand stayed off and the clock ran, the bubble played hand by hand no more)."""
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    _down_to_two_a_table(api, event, ids)
    api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)
    wrong = next(iter(seats_of(api, ids[0]).values()))["player"]
    api.post(f"/api/events/{event}/eliminate", {"player": wrong, "reason": "left"}, role="floor", status=201)
    burst = api.get(f"/api/events/{event}/clock")
    assert burst["hand_for_hand"] is False and burst["running"] is True
    api.post(f"/api/events/{event}/reinstate", {"player": wrong, "reason": "wrong player"}, role="floor", status=201)
    back = api.get(f"/api/events/{event}/clock")
    assert back["players_left"] == 4
    assert back["hand_for_hand"] is True and back["running"] is False


def test_undoing_the_bust_out_that_drew_the_final_table_opens_entries_again(api):
    """Five at two tables of four, late registration until the final table: a bust-out by hand
    leaves four, the final table's seats are drawn and entries close. The floor undoes it: five
    again, no final table, and a late entry is taken (before: the draw was kept, "the final table
    is drawn; entries are closed", though five players cannot sit at it)."""
    event, ids = make_event(api, entries=5, tables=2)
    wrong = next(iter(seats_of(api, ids[0]).values()))["player"]
    api.post(f"/api/events/{event}/eliminate", {"player": wrong, "reason": "left"}, role="floor", status=201)
    closed = api.call("POST", f"/api/events/{event}/entries", role="floor", json={"player": "Zed"})
    assert closed.status_code == 422 and "the final table is drawn" in closed.get_json()["message"]
    api.post(f"/api/events/{event}/reinstate", {"player": wrong, "reason": "wrong player"}, role="floor", status=201)
    assert api.get(f"/api/events/{event}/clock")["late_registration_open"] is True
    assert api.get(f"/api/events/{event}/balance")["final_redraw"] is False
    api.post(f"/api/events/{event}/entries", {"player": "Zed"}, role="floor", status=201)


def test_the_chip_race_is_due_on_the_break_before_its_level(api, clock):
    """color_up {level 3, chip 5}: the room races the 5s on the break before level 3, when no table
    deals (a deal in a break is refused); the desk offers it then (before: "none is due now" until
    level 3 began and every table was dealing again, so the floor had to stop them all)."""
    from tests.test_tournament_desk import STRUCTURE

    structure = {**STRUCTURE, "color_up": [{"level": 3, "chip": 5}]}
    event, ids = make_event(api, entries=4, tables=1, structure=structure)
    api.post(f"/api/events/{event}/counts", {"player": "Player 01", "stack": 105, "reason": "set up"}, role="floor",
             status=201)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    clock.wait(minutes=25)  # level 2: the race is not due yet
    early = api.call("POST", f"/api/events/{event}/color_up", role="floor")
    assert early.status_code == 422 and "none is due now" in early.get_json()["message"]
    clock.wait(minutes=20)  # the break before level 3
    assert api.get(f"/api/events/{event}/clock")["on_break"] is True
    report = api.post(f"/api/events/{event}/color_up", role="floor", status=201)
    assert all(v % 25 == 0 for v in report[0]["after"].values())
    clock.wait(minutes=10)  # level 3 begins: raced already
    assert api.call("POST", f"/api/events/{event}/color_up", role="floor").status_code == 422


def test_a_deal_on_the_bubble_ends_hand_for_hand_with_the_event(app, api, clock):
    """The four left deal on the bubble, hand for hand on (a common deal: the bubble paid). The
    event is over: the wall no longer says "Hand for hand" and the clock stands (before: the clock
    summary kept hand_for_hand true, the wall showed it over the ended event, and the floor page
    offered "Hand for hand off", refused: "the event ended with a deal")."""
    event, ids = make_event(api, entries=8)
    api.post(f"/api/events/{event}/clock", {"action": "start"}, role="floor", status=200)
    _down_to_two_a_table(api, event, ids)
    api.post(f"/api/events/{event}/hand_for_hand", {"on": True}, role="floor", status=200)
    left = [c["player"] for c in api.get(f"/api/events/{event}/chips")]
    api.post(f"/api/events/{event}/chop", {"method": "chip", "agreed": left}, role="floor", status=201)
    info = api.get(f"/api/events/{event}/clock")
    assert info["ended"] is not None and info["hand_for_hand"] is False and info["running"] is False
