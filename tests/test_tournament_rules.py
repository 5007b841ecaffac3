"""The tournament's pure rules (rules.tournament): the structure, the clock, the seating draw,
balancing and breaking tables, places and payouts. Each test names the procedure it checks (the
procedures are written in the modules' docstrings). No Flask here."""

from __future__ import annotations

import itertools
import random
import re
from datetime import datetime, timedelta
from fractions import Fraction

import pytest

from rules import IllegalAction
from rules.tournament import (Break, Bust, Level, Move, SeatMove, StructureError, TableSeats, check_move, draw,
                              draw_final, late_seat, parse_structure, pay, places, preset, prize_pool, prizes,
                              read_clock, redraw_moves, suggest)
from rules.tournament.balance import mover, positions, seat_for_newcomer
from rules.tournament.structure import PRESETS, STANDARD_PAYOUTS, standard_payouts

T0 = datetime(2026, 11, 23, 19, 0, 0)
STRUCTURE = parse_structure({
    "levels": [{"minutes": 20, "ante": 5, "small_bet": 10}, {"minutes": 20, "ante": 10, "small_bet": 20},
               {"break": 10}, {"minutes": 15, "ante": 25, "small_bet": 50, "big_bet": 100}],
    "starting_chips": 1000, "buy_in": 50, "payouts": [50, 30, 20]})


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def clock(moves, now_minutes):
    return read_clock(STRUCTURE, [Move(a, at(m)) for a, m in moves], at(now_minutes))


# --------------------------------------------------------------------------- structure


def test_structure_reads_levels_breaks_and_defaults_the_big_bet_to_twice_the_small():
    """Structure: a level's big bet defaults to twice its small bet, as a table's setup does."""
    assert STRUCTURE.levels == (Level(20, 5, 10, 20), Level(20, 10, 20, 40), Break(10), Level(15, 25, 50, 100))
    assert [STRUCTURE.playing_number(i) for i in range(4)] == [1, 2, None, 3]
    assert STRUCTURE.stakes_at(2) == Level(20, 10, 20, 40)  # a break keeps the level before it


@pytest.mark.parametrize("data, message", [
    ({"levels": [{"break": 5}], "starting_chips": 100, "buy_in": 5}, "at least one playing level"),
    ({"levels": [{"minutes": 0, "small_bet": 10}], "starting_chips": 100, "buy_in": 5}, "minutes"),
    ({"levels": [{"minutes": 10}], "starting_chips": 100, "buy_in": 5}, "small_bet is missing"),
    ({"levels": [{"minutes": 10, "small_bet": 10}], "buy_in": 5}, "starting_chips is missing"),
    ({"levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": -5}, "buy_in"),
    ({"levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": 5, "payouts": [30, 70]},
     "may not pay more than the place above"),
    ({"levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": 5, "payouts": [70, "x"]},
     "a percentage"),
    ({"levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": 5,
      "rebuy": {"price": 5, "chips": 100, "until_level": 3}}, "until_level 3, but the structure has 1 levels"),
    ("not a dict", "a JSON object"),
])
def test_structure_refuses_what_cannot_be_run_and_names_the_field(data, message):
    """Structure: a structure that cannot be run is refused with the field named."""
    with pytest.raises(StructureError, match=message):
        parse_structure(data)


def test_structure_reads_fractional_percentages_exactly_and_round_trips():
    """Structure: "12.5" is read exactly (no float sums that miss 100 by a hair)."""
    s = parse_structure({"levels": [{"minutes": 10, "small_bet": 10}], "starting_chips": 100, "buy_in": 5,
                         "payouts": ["37.5", "25", "20", "12.5", "5"]})
    assert s.payouts is not None and sum(s.payouts) == 100 and s.payouts[0] == Fraction(75, 2)
    assert parse_structure(s.to_dict()) == s


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_reads_and_round_trips(name):
    """Structure presets: each is a structure the parser accepts, and it survives its own JSON."""
    s = preset(name)
    assert parse_structure(s.to_dict()) == s


def test_the_standard_payout_table_sums_to_100_and_pays_fewer_places_than_entries():
    """Standard payouts: every row sums to 100 and never pays as many places as it has entries."""
    for fewest, row in STANDARD_PAYOUTS:
        assert sum(row) == 100 and len(row) < max(fewest, 2) or len(row) == 1
        assert list(row) == sorted(row, reverse=True)
    for entries in range(2, 400):
        assert sum(standard_payouts(entries)) == 100
        assert len(standard_payouts(entries)) <= max(1, entries // 2)


# --------------------------------------------------------------------------- the clock


def test_clock_before_start_shows_the_first_level_full_and_stopped():
    """Clock: before start, level 1 with its whole time, not running."""
    c = clock([], 30)
    assert (c.started, c.running, c.index, c.seconds_left, c.level) == (False, False, 0, 1200, 1)


def test_clock_runs_from_start_and_passes_into_the_next_level_and_the_break_by_itself():
    """Clock: a level whose time is up is followed by the next one, breaks too."""
    assert clock([("start", 0)], 5).seconds_left == 15 * 60
    c = clock([("start", 0)], 25)
    assert (c.index, c.level, c.seconds_left, c.stakes.small_bet) == (1, 2, 15 * 60, 20)
    c = clock([("start", 0)], 41)
    assert (c.on_break, c.level, c.seconds_left, c.stakes.small_bet) == (True, None, 9 * 60, 20)
    assert isinstance(c.next_item, Level) and c.next_item.small_bet == 50


def test_clock_last_level_plays_on_at_zero():
    """Clock: the last level never ends; it shows 0 left."""
    c = clock([("start", 0)], 600)
    assert (c.index, c.seconds_left, c.finished, c.next_item) == (3, 0, True, None)


def test_clock_pause_stops_time_and_resume_carries_on_from_where_it_stopped():
    """Clock: pause and resume."""
    moves = [("start", 0), ("pause", 7.5)]
    assert clock(moves, 7.5).seconds_left == clock(moves, 300).seconds_left == 750
    assert clock(moves, 300).running is False
    moves.append(("resume", 300))
    c = clock(moves, 305)
    assert (c.running, c.index, c.seconds_left) == (True, 0, 450)
    assert (clock(moves, 312.5 + 10).index, clock(moves, 312.5 + 10).seconds_left) == (1, 10 * 60)


def test_clock_advance_and_back_begin_the_level_with_its_full_time_and_keep_pause():
    """Clock: advance begins the next level now; back the level before; both keep a paused clock paused."""
    c = clock([("start", 0), ("advance", 3)], 4)
    assert (c.index, c.seconds_left) == (1, 19 * 60)
    c = clock([("start", 0), ("pause", 5), ("advance", 6)], 50)
    assert (c.index, c.running, c.seconds_left) == (1, False, 1200)
    c = clock([("start", 0), ("advance", 3), ("back", 4)], 5)
    assert (c.index, c.seconds_left) == (0, 19 * 60)
    c = clock([("start", 0), ("back", 10)], 10)  # on the first level, back restarts it
    assert (c.index, c.seconds_left) == (0, 1200)


@pytest.mark.parametrize("moves, move, message", [
    ([], ("pause", 1), "cannot pause before the clock is started"),
    ([("start", 0)], ("start", 1), "already started"),
    ([("start", 0)], ("resume", 1), "it is running"),
    ([("start", 0), ("pause", 1)], ("pause", 2), "already paused"),
    ([("start", 0), ("advance", 1), ("advance", 1), ("advance", 1)], ("advance", 2), "last level"),
    ([("start", 5)], ("pause", 4), "time order"),
    ([("start", 0)], ("rewind", 1), "not one of start, pause, resume, advance, back"),
])
def test_clock_refuses_a_move_it_cannot_make_and_says_why(moves, move, message):
    """Clock: an impossible move is refused with the reason."""
    with pytest.raises(IllegalAction, match=message):
        check_move(STRUCTURE, [Move(a, at(m)) for a, m in moves], Move(move[0], at(move[1])))


def test_clock_is_the_same_value_for_every_reader_and_after_a_restart():
    """Clock: a pure value of the recorded moves and now: two readers, or a restarted server that
    reads the same moves from the database, get the same clock."""
    moves = [Move("start", at(0)), Move("pause", at(12)), Move("resume", at(14)), Move("advance", at(20))]
    stored = [Move(m.action, datetime.fromisoformat(m.at.isoformat())) for m in moves]  # what the DB gives back
    for minute in (20, 21.25, 44, 80):
        assert read_clock(STRUCTURE, moves, at(minute)) == read_clock(STRUCTURE, stored, at(minute))


def test_clock_seconds_left_rounds_up_and_never_shows_zero_while_time_remains():
    """Clock: 0.4 s left shows 1."""
    c = read_clock(STRUCTURE, [Move("start", T0)], T0 + timedelta(minutes=20) - timedelta(seconds=0.4))
    assert (c.index, c.seconds_left) == (0, 1)


def test_clock_in_force_level_brute_force_against_a_second_reading():
    """Clock: for random move sequences, the level in force equals a second-by-second simulation."""
    rng = random.Random(13)
    lengths = [x.minutes * 60 for x in STRUCTURE.levels]
    for _ in range(60):
        moves, running, index, used = [], False, 0, 0
        sim = {}
        for second in range(0, 4000):
            if rng.random() < 0.004:
                action = rng.choice(["start", "pause", "resume", "advance", "back"])
                try:
                    check_move(STRUCTURE, moves, Move(action, T0 + timedelta(seconds=second)))
                except IllegalAction:
                    pass
                else:
                    moves.append(Move(action, T0 + timedelta(seconds=second)))
                    if action == "start":
                        running = True
                    elif action == "pause":
                        running = False
                    elif action == "resume":
                        running = True
                    elif action == "advance":
                        index, used = index + 1, 0
                    else:
                        index, used = max(0, index - 1), 0
            sim[second] = (index, lengths[index] - used if index < 3 or used < lengths[index] else 0)
            if running:
                used += 1
                if used >= lengths[index] and index < len(lengths) - 1:
                    index, used = index + 1, 0
        for second in range(0, 4000, 97):
            c = read_clock(STRUCTURE, [m for m in moves if m.at <= T0 + timedelta(seconds=second)],
                           T0 + timedelta(seconds=second))
            assert (c.index, c.seconds_left) == sim[second], (second, moves)


# --------------------------------------------------------------------------- the draw


@pytest.mark.parametrize("entries, capacities", [
    (20, [8, 8, 8]), (17, [9, 9]), (9, [10]), (24, [8, 8, 8]), (3, [6, 6, 6]), (31, [10, 10, 6, 9]), (1, [8])])
def test_draw_seats_every_entry_once_and_spreads_them_evenly(entries, capacities):
    """Draw: every entry gets one seat, no seat holds two, the tables' counts differ by at most one
    (where the seats allow), and at a table the players are spread round it."""
    players = [f"P{i}" for i in range(entries)]
    tables = [TableSeats(k + 1, c) for k, c in enumerate(capacities)]
    for seed in range(40):
        seats = draw(players, tables, random.Random(seed))
        assert sorted(seats) == sorted(players)
        assert len(set(seats.values())) == entries
        counts = [sum(1 for t, _ in seats.values() if t == table.key) for table in tables]
        for table, n in zip(tables, counts):
            assert n <= table.capacity
            taken = sorted(s for t, s in seats.values() if t == table.key)
            assert all(1 <= s <= table.capacity for s in taken)
            if n >= 2:  # gaps between neighbours round the table differ by at most one seat
                gaps = [(taken[(i + 1) % n] - taken[i]) % table.capacity or table.capacity for i in range(n)]
                assert max(gaps) - min(gaps) <= 1, (taken, table.capacity)
        if len(set(capacities)) == 1:
            assert max(counts) - min(counts) <= 1


def test_draw_is_random_every_entry_reaches_every_table():
    """Draw: with a random source, each entry lands at each table over many draws (no fixed order)."""
    players = [f"P{i}" for i in range(12)]
    tables = [TableSeats(1, 6), TableSeats(2, 6)]
    landed = {(p, t) for seed in range(60) for p, (t, _) in draw(players, tables, random.Random(seed)).items()}
    assert len(landed) == 24


@pytest.mark.parametrize("players, tables, message", [
    (["A", "a"], [TableSeats(1, 8)], "appears twice"),
    (["A", "B", "C"], [TableSeats(1, 2)], "3 entries but only 2 seats"),
    (["A"], [], "no tables"),
])
def test_draw_refuses_what_cannot_be_drawn(players, tables, message):
    """Draw: duplicate entries, too few seats and no tables are refused."""
    with pytest.raises(IllegalAction, match=message):
        draw(players, tables, random.Random(1))


def test_late_entry_goes_to_the_table_with_fewest_players_earliest_on_a_tie():
    """Late entry: the table with fewest players (ties: the first in the event's order), a free seat."""
    tables = [TableSeats(1, 4, {1: "A", 2: "B"}), TableSeats(2, 4, {1: "C", 3: "D"}), TableSeats(3, 4, {1: "E", 2: "F", 3: "G"})]
    for seed in range(20):
        table, seat = late_seat(tables, random.Random(seed))
        assert table == 1 and seat in (3, 4)
    with pytest.raises(IllegalAction, match="every seat is taken"):
        late_seat([TableSeats(1, 2, {1: "A", 2: "B"})], random.Random(1))


# --------------------------------------------------------------------------- balancing and breaking


def carry_out(tables, moves):
    """Carry the moves out one at a time, as the floor taps them, checking each goes to an empty seat."""
    seats = {t.key: dict(t.seats) for t in tables}
    for m in moves:
        assert seats[m.from_table].get(m.from_seat) == m.player, m
        assert m.to_seat not in seats[m.to_table], f"{m} goes to a taken seat"
        del seats[m.from_table][m.from_seat]
        seats[m.to_table][m.to_seat] = m.player
    return seats


def test_positions_count_from_the_left_of_the_button():
    """Balancing, positions: position 1 is the first player left of the button; the button is last."""
    assert positions([1, 3, 5, 8], 3) == [5, 8, 1, 3]
    assert positions([1, 3, 5, 8], 9) == [1, 3, 5, 8]


@pytest.mark.parametrize("seats, button, moves_out", [
    ([1, 2, 3, 4, 5, 6], 1, 4), ([1, 2, 3, 4, 5, 6], 5, 2), ([2, 4, 7], 7, 7), ([3, 8], 3, 3)])
def test_balancing_moves_the_player_who_will_be_big_blind_next(seats, button, moves_out):
    """Balancing, who moves: position 3 ("big blind next"), or the last position at a short table."""
    assert mover(TableSeats(1, 9, {s: f"P{s}" for s in seats}, button)) == moves_out


@pytest.mark.parametrize("seats, button, capacity, seat", [
    ({1, 2, 3}, 1, 6, 4),        # 4 becomes position 3
    ({1, 2, 3, 4, 5}, 3, 6, 6),  # 6 becomes position 3 (4, 5, 6)
    ({2, 5}, 2, 6, 6),           # three players: position 3 is the button; 1 and 6 both give 2, 6 is nearer clockwise
    ({1, 3, 4}, 4, 4, 2),        # the only empty seat
])
def test_a_moved_player_takes_the_big_blind_position_or_the_nearest_after_it(seats, button, capacity, seat):
    """Balancing, the seat rule: the empty seat whose position is 3, else the nearest above, else below."""
    got = seat_for_newcomer(TableSeats(1, capacity, {s: f"P{s}" for s in seats}, button))
    assert got == seat
    assert got not in seats


def test_balanced_tables_need_no_move():
    """Balancing: tables within one player of each other are balanced."""
    plan = suggest([TableSeats(1, 8, {s: f"A{s}" for s in range(1, 7)}), TableSeats(2, 8, {s: f"B{s}" for s in range(1, 6)})])
    assert (plan.moves, plan.break_table, plan.final_redraw) == ((), None, False)


def test_balancing_moves_from_the_largest_to_the_smallest_until_within_one():
    """Balancing: 8, 7, 4 players -> moves from the largest (ties: the one that breaks sooner) to the smallest."""
    tables = [TableSeats(1, 9, {s: f"A{s}" for s in range(1, 9)}, 1), TableSeats(2, 9, {s: f"B{s}" for s in range(1, 8)}, 1),
              TableSeats(3, 9, {s: f"C{s}" for s in range(1, 5)}, 1)]
    plan = suggest(tables)
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(1, 3), (2, 3)]
    after = carry_out(tables, plan.moves)
    assert sorted(len(s) for s in after.values()) == [6, 6, 7]
    assert plan.moves[0].from_seat == 4  # position 3 at table 1, button 1
    assert plan.moves[1].from_seat == 4


def test_balancing_with_a_tolerance_of_two():
    """Balancing: a house may allow two players' difference."""
    tables = [TableSeats(1, 9, {s: f"A{s}" for s in range(1, 8)}), TableSeats(2, 9, {s: f"B{s}" for s in range(1, 6)})]
    assert suggest(tables, tolerance=2).moves == ()
    assert len(suggest(tables).moves) == 1


def test_a_table_breaks_when_the_players_fit_the_other_tables_last_table_first():
    """Breaking: when the players fit the other tables' seats, the last table in the event's order
    breaks; its players go in position order, each to the table with fewest players."""
    tables = [TableSeats(1, 8, {s: f"A{s}" for s in range(1, 7)}, 1), TableSeats(2, 8, {s: f"B{s}" for s in range(1, 6)}, 2),
              TableSeats(3, 8, {1: "C1", 4: "C4", 6: "C6"}, 4)]
    plan = suggest(tables)
    assert plan.break_table == 3 and not plan.final_redraw
    assert [m.player for m in plan.moves] == ["C6", "C1", "C4"]  # position order from the button (seat 4)
    assert [m.to_table for m in plan.moves] == [2, 1, 2]
    after = carry_out(tables, plan.moves)
    assert after[3] == {} and sorted(len(after[k]) for k in (1, 2)) == [7, 7]


def test_no_table_breaks_while_one_seat_too_few():
    """Breaking: 17 players do not fit two 8-seat tables: three tables stay, balanced."""
    tables = [TableSeats(k, 8, {s: f"T{k}S{s}" for s in range(1, n + 1)}) for k, n in ((1, 6), (2, 6), (3, 5))]
    plan = suggest(tables)
    assert plan.break_table is None and plan.moves == ()


def test_an_empty_table_is_broken_already_and_the_next_in_order_breaks():
    """Breaking: a table with nobody left is out of play; the break order goes on with the next."""
    tables = [TableSeats(1, 6, {1: "A", 2: "B", 3: "C"}), TableSeats(2, 6, {1: "D", 2: "E"}), TableSeats(3, 6, {}),
              TableSeats(4, 6, {1: "F", 2: "G"})]
    assert suggest(tables).break_table == 4


def test_the_last_but_one_table_breaking_is_the_final_table_redraw():
    """Final table: when the players fit one table, everyone redraws for seats at the final table."""
    tables = [TableSeats(1, 8, {1: "A", 3: "B", 5: "C", 7: "D"}, 3), TableSeats(2, 8, {2: "E", 4: "F", 6: "G"}, 4)]
    due = suggest(tables)
    assert (due.final_redraw, due.break_table, due.moves) == (True, 2, ())
    players = ["A", "B", "C", "D", "E", "F", "G"]
    for seed in range(50):
        target = draw_final(players, 8, random.Random(seed))
        plan = suggest(tables, final_seats=target)
        after = carry_out(tables, plan.moves)
        assert after[2] == {}
        assert {p: s for s, p in after[1].items()} == target
        assert len(plan.moves) <= len(players) + 1  # at most one player stands aside


def test_redraw_moves_handle_every_permutation_of_a_final_table():
    """Final table: for every way of redrawing four players at a table with one spare seat, the moves
    can be carried out one at a time into empty seats and end at the drawn seats."""
    final = TableSeats(1, 5, {1: "A", 2: "B", 3: "C", 4: "D"})
    for perm in itertools.permutations([1, 2, 3, 4, 5], 4):
        target = dict(zip("ABCD", perm))
        after = carry_out([final], redraw_moves([final], final, target))
        assert {p: s for s, p in after[1].items()} == target


@pytest.mark.parametrize("at_final", [{1: "A", 5: "B", 6: "C"}, {1: "A", 2: "B", 3: "C", 4: "D", 6: "E"},
                                      {2: "A"}, {1: "A", 2: "B", 4: "C", 5: "D"}])
def test_redraw_moves_fill_a_full_final_table_for_every_draw(at_final):
    """Final table, brute force: as many players as the final table has seats, some of them at it,
    the rest at the breaking table; for every possible draw the moves go one at a time into empty
    seats and end at the drawn seats (rings at the final table are broken while a seat is empty)."""
    outside = [p for p in "ABCDEF" if p not in at_final.values()]
    final = TableSeats(1, 6, at_final)
    other = TableSeats(2, 6, {s + 1: p for s, p in enumerate(outside)})
    for perm in itertools.permutations(range(1, 7)):
        target = dict(zip("ABCDEF", perm))
        moves = redraw_moves([final, other], final, target)
        after = carry_out([final, other], moves)
        assert after[2] == {} and {p: s for s, p in after[1].items()} == target
        assert len(moves) <= 6 + len(at_final) // 2  # one step aside per ring at most


def test_final_table_redraw_refuses_a_draw_of_other_players():
    """Final table: the redraw seats exactly the players left."""
    final = TableSeats(1, 5, {1: "A", 2: "B"})
    with pytest.raises(IllegalAction, match="exactly the players left"):
        redraw_moves([final], final, {"A": 1})


def test_balancing_a_whole_event_down_to_one_table_keeps_every_player_seated_once():
    """Balancing and breaking, brute force: 30 entries at four tables; players bust at random; after
    each bust the floor carries out every suggestion. Every player left is seated once, the tables
    are balanced (or one is breaking), and the event ends at the final table."""
    rng = random.Random(5)
    players = [f"P{i}" for i in range(30)]
    seats = draw(players, [TableSeats(k, 8) for k in (1, 2, 3, 4)], rng)
    tables = {k: {s: p for p, (t, s) in seats.items() if t == k} for k in (1, 2, 3, 4)}
    final_seats = None
    alive = set(players)
    while len(alive) > 1:
        victim = rng.choice(sorted(alive))
        alive.discard(victim)
        for k in tables:
            tables[k] = {s: p for s, p in tables[k].items() if p != victim}
        for _ in range(5):
            views = [TableSeats(k, 8, tables[k], button=rng.randint(1, 8)) for k in (1, 2, 3, 4)]
            plan = suggest(views, final_seats=final_seats)
            if plan.final_redraw and final_seats is None:
                final_seats = draw_final(sorted(alive), 8, rng)
                continue
            if not plan.moves:
                break
            tables = carry_out(views, plan.moves)
        flat = [p for k in tables for p in tables[k].values()]
        assert sorted(flat) == sorted(alive)
        live = [len(t) for t in tables.values() if t]
        assert max(live) - min(live) <= 1 or len(live) == 1
        assert sum(8 for _ in live[:-1]) < len(alive) or len(live) == 1  # no table left that should break
    assert sum(1 for t in tables.values() if t) == 1


# --------------------------------------------------------------------------- places and payouts


def test_places_are_given_in_the_order_players_go_out():
    """Places: the first out of 5 is 5th, the next 4th ... the last one standing 1st."""
    entries = ["A", "B", "C", "D", "E"]
    busts = [Bust((("E", 120),)), Bust((("D", 300),)), Bust((("C", 50),)), Bust((("B", 900),))]
    assert places(entries, busts[:1]) == {"E": 5}
    assert places(entries, busts) == {"E": 5, "D": 4, "C": 3, "B": 2, "A": 1}


def test_players_out_in_the_same_hand_more_chips_at_its_start_finish_higher():
    """Places: two players out in one hand: the one who began it with more chips finishes higher."""
    assert places(list("ABCDEF"), [Bust((("C", 100), ("F", 400)))]) == {"F": 5, "C": 6}


def test_players_out_in_the_same_hand_with_equal_chips_tie():
    """Places: equal chips at the start of the hand: a tie for the better place."""
    got = places(list("ABCDEF"), [Bust((("C", 100), ("F", 100), ("A", 50)))])
    assert got == {"C": 4, "F": 4, "A": 6}


def test_places_refuse_a_stranger_or_a_player_out_twice():
    """Places: only entries, each out once."""
    with pytest.raises(IllegalAction, match="not an entry"):
        places(["A", "B"], [Bust((("Z", 1),))])
    with pytest.raises(IllegalAction, match="already out"):
        places(["A", "B", "C"], [Bust((("A", 1),)), Bust((("A", 1),))])


def test_payouts_always_sum_to_the_prize_pool_brute_force():
    """Payouts: for every pool 0..3000 and every standard table, the prizes sum to the pool exactly,
    are whole, never rise from a place to the one above, and differ from the exact shares by at most one unit."""
    for _, row in STANDARD_PAYOUTS:
        percents = [Fraction(p) for p in row]
        for pool in range(0, 3001, 7):
            got = pay(pool, percents)
            assert sum(got) == pool and all(isinstance(x, int) and x >= 0 for x in got)
            assert list(got) == sorted(got, reverse=True)
            assert all(abs(x - pool * p / 100) <= 1 for x, p in zip(got, percents))


def test_odd_units_go_to_the_top_places_first():
    """Payouts, odd units: what rounding down leaves goes one unit each from first place down."""
    assert pay(1003, [Fraction(40), Fraction(30), Fraction(20), Fraction(10)]) == (402, 301, 200, 100)
    assert pay(7, [Fraction(1, 3) * 100] * 3) == (3, 2, 2)


def test_a_table_that_pays_more_places_than_entries_pays_as_many_as_entries():
    """Payouts: three entries, a five-place table: three places, scaled to the whole pool."""
    got = prizes(["A", "B", "C"], {"A": 1, "B": 2, "C": 3},
                 [Fraction(p) for p in (40, 25, 16, 11, 8)], 150)
    assert got == {"A": 75, "B": 46, "C": 29} and sum(got.values()) == 150


def test_tied_players_share_the_places_they_span_and_the_pool_is_paid_exactly():
    """Payouts, ties: two tied for 2nd share the 2nd and 3rd prizes; the odd unit goes to the first listed."""
    percents = [Fraction(50), Fraction(30), Fraction(20)]
    got = prizes(list("ABCDE"), {"A": 1, "B": 2, "C": 2, "D": 4, "E": 5}, percents, 251)
    assert got == {"A": 126, "B": 63, "C": 62, "D": 0, "E": 0}
    assert sum(got.values()) == 251


def test_prize_pool_counts_buy_ins_rebuys_and_add_ons_not_fees():
    """Prize pool: every buy-in, rebuy and add-on."""
    assert prize_pool(50, 20) == 1000
    assert prize_pool(20, 10, rebuy_price=20, rebuys=4, add_on_price=10, add_ons=7) == 350


def test_seat_move_to_dict_is_the_contract_shape():
    """Balance answers: {player, from_table, from_seat, to_table, to_seat} (docs/contract.md, "Tournaments")."""
    assert SeatMove("Ann", 3, 2, 1, 7).to_dict() == {"player": "Ann", "from_table": 3, "from_seat": 2,
                                                      "to_table": 1, "to_seat": 7}


# --------------------------------------------------------------------------- the engine's part


def test_a_table_may_open_empty_when_it_names_its_seats_and_deals_once_two_sit():
    """Engine: a tournament's table before the draw has no players; it names its capacity, refuses
    a deal until two players sit, and the button goes to a seat in play."""
    from rules.jackpot import replay

    setup = {"ante": 10, "small_bet": 50, "capacity": 8, "seats": []}
    assert replay(setup, [])["seats"] == {}
    with pytest.raises(IllegalAction, match="at least two players"):
        replay(setup, [{"type": "deal"}])
    state = replay(setup, [{"type": "sit", "seat": 3, "player": "Ann", "chips": 100},
                           {"type": "sit", "seat": 6, "player": "Bob", "chips": 100}, {"type": "deal"}])
    assert state["button"] in (3, 6) and state["pot"] == 20
    with pytest.raises(IllegalAction, match="names its capacity"):
        replay({"ante": 10, "small_bet": 50, "seats": []}, [])


def test_a_deal_carrying_a_level_sets_the_stakes_from_that_deal_on():
    """Engine: ``deal`` may carry ante, small_bet, big_bet (a tournament's level): they hold from that
    deal on, and a replay of the log gives them back without any clock."""
    from rules.jackpot import replay

    setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
        {"seat": 1, "player": "Ann", "stack": 500}, {"seat": 2, "player": "Bob", "stack": 500}]}
    log = [{"type": "deal", "ante": 10, "small_bet": 20, "big_bet": 40}, {"type": "pass", "seat": 2},
           {"type": "pass", "seat": 1}, {"type": "deal"}]
    state = replay(setup, log)
    assert (state["ante"], state["small_bet"], state["big_bet"]) == (10, 20, 40)
    assert state["pot"] == 40  # two antes of 10, twice


def test_the_desk_fields_of_a_structure_and_their_defaults():
    """Structure (docs/contract.md, "The tournament desk"): rebuy_levels is the short form of rebuys (the buy-in for the
    starting chips); add_on {chips, price} is taken at the last rebuy level, or with no rebuys at the
    level the first break follows; a bounty is part of the buy-in; chip races go in order of level."""
    from rules.tournament.structure import parse_structure as parse
    base = {"levels": [{"minutes": 20, "small_bet": 10}, {"minutes": 20, "small_bet": 20}, {"break": 10},
                       {"minutes": 20, "small_bet": 50}], "starting_chips": 1000, "buy_in": 50}
    s = parse({**base, "rebuy_levels": 2, "add_on": {"chips": 1500, "price": 30}})
    assert (s.rebuy.price, s.rebuy.chips, s.rebuy.until_level, s.add_on.at_level) == (50, 1000, 2, 2)
    assert parse({**base, "add_on": {"chips": 1500, "price": 30}}).add_on.at_level == 2
    assert parse(parse({**base, "reentry": 2, "bounty": 10, "late_registration_levels": 1,
                        "color_up": [{"level": 3, "chip": 5}]}).to_dict()).to_dict()["color_up"] == [
        {"level": 3, "chip": 5}]
    for bad, words in (({"bounty": 60}, "bounty: 60 is part of the buy-in (50)"),
                       ({"late_registration_levels": 4}, "late_registration_levels: 4, but the structure has 3"),
                       ({"color_up": [{"level": 1, "chip": 5}]}, "a race is at the start of levels 2 to 3"),
                       ({"rebuy_levels": 2, "rebuy": {"price": 5}, "bounty": 10}, "the rebuy's price (5)")):
        with pytest.raises(StructureError, match=re.escape(words)):
            parse({**base, **bad})
