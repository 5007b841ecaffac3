"""A table the balance broke stays broken (issue 34, read as a director runs the desk at 2 a.m.):
the balancing procedure plays only tables with players (rules/tournament/balance.py), so a late
entry, a re-entry or a rebuy seated alone at an emptied table is a game of one that the next plan
breaks again. Before, a late entry went to "the table with fewest players": the broken one, with
none; and a rebuy went back to the seat it left there, still free."""

from __future__ import annotations

import random

from rules.tournament import TableSeats, late_seat
from tests.test_tournament_desk import STRUCTURE, api, make_event, play_bust, seats_of  # noqa: F401 (fixtures)


def test_a_late_entry_is_seated_at_a_table_in_play_not_at_an_emptied_one():
    """Late entry: the table in play with fewest players; an empty table only when every table in
    play is full (the director opened a new one), or when nobody is seated yet."""
    tables = [TableSeats(1, 6, {1: "A", 2: "B", 3: "C", 4: "D"}), TableSeats(2, 6, {1: "E", 2: "F", 3: "G"}),
              TableSeats(3, 6, {})]
    for seed in range(20):
        table, seat = late_seat(tables, random.Random(seed))
        assert table == 2 and seat in (4, 5, 6)
    full = [TableSeats(1, 2, {1: "A", 2: "B"}), TableSeats(2, 2, {1: "C", 2: "D"}), TableSeats(3, 2, {})]
    assert late_seat(full, random.Random(1))[0] == 3
    assert late_seat([TableSeats(1, 2, {}), TableSeats(2, 2, {})], random.Random(1))[0] == 1


def break_the_last_table(api, event: int, ids: list[int]) -> tuple[str, int]:
    """Bust two of the last table's three, then carry out the plan: it breaks. Returns the first
    player busted there and the seat left."""
    last = ids[-1]
    seats = sorted(seats_of(api, last))
    first = seats_of(api, last)[seats[1]]["player"]
    play_bust(api, last, seats[0], seats[1])
    play_bust(api, last, seats[0], seats[2])
    plan = api.get(f"/api/events/{event}/balance")
    assert plan["break_table"] == last and not plan["final_redraw"]
    api.post(f"/api/events/{event}/balance", {"moves": plan["moves"]}, role="floor", status=200)
    assert seats_of(api, last) == {}
    return first, seats[1]


def test_a_late_entry_after_a_table_broke_sits_at_a_table_in_play(api):
    event, ids = make_event(api, entries=9, tables=3, seats=6)
    break_the_last_table(api, event, ids)
    done = api.post(f"/api/events/{event}/entries", {"player": "Zed"}, role="floor", status=201)
    assert done["seated"]["table"] != ids[-1]
    assert seats_of(api, ids[-1]) == {}
    assert api.get(f"/api/events/{event}/balance")["moves"] == []


def test_a_rebuy_after_the_table_broke_sits_at_a_table_in_play_not_in_the_seat_left(api):
    """The seat left is kept through the rebuy period while its table plays; once it broke, the
    player sits where the balance needs one."""
    event, ids = make_event(api, entries=9, tables=3, seats=6, structure={**STRUCTURE, "rebuy_levels": 2})
    first, _ = break_the_last_table(api, event, ids)
    api.post(f"/api/events/{event}/buys", {"player": first, "kind": "rebuy"}, role="floor", status=201)
    assert seats_of(api, ids[-1]) == {}
    assert [c["table"] for c in api.get(f"/api/events/{event}/chips") if c["player"] == first] != [ids[-1]]

