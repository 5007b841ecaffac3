"""Players come and go (rules.jackpot.seating): sit, add_chips, leave, sit_out, sit_in, move_seat, and a deal
that sets the stakes; each event and each refusal, their effect on a carried jackpot (O3, O4, F7),
and a whole night across three tables in which the conservation law holds after every event.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import IllegalAction
from rules.jackpot.draw import DrawMove
from rules.jackpot.showdown import ShowMove
from rules.jackpot import replay, replay_state, start
from tests.notation import log, stacks, table

T = table(4)  # seats 1-4, 500 each, button 1, ante 5, bets 10/20
CARRIED = "deal; 2 pass; 3 pass; 4 pass; 1 pass"  # nobody opens: the pot of 20 carries (O3)


def play(setup: dict[str, Any], text: str, *extra: dict[str, Any]) -> dict[str, Any]:
    return replay(setup, log(text) + list(extra))


def law(state: dict[str, Any], start_chips: int = 2000) -> None:
    """stacks + pot == starting stacks + chips_in - chips_out."""
    ledger = state["ledger"]
    assert sum(x["stack"] for x in state["seats"].values()) + state["pot"] == \
        start_chips + ledger["chips_in"] - ledger["chips_out"]


def sit(seat: int, player: str, chips: int) -> dict[str, Any]:
    return {"type": "sit", "seat": seat, "player": player, "chips": chips}


# --------------------------------------------------------------------------- each event


def test_sit_takes_an_empty_seat_with_a_buy_in_and_plays_the_next_deal() -> None:
    state = play(T, "", sit(6, "Finn", 300))
    assert state["seats"][6]["player"] == "Finn" and state["seats"][6]["stack"] == 300
    assert state["ledger"] == {"chips_in": 300, "chips_out": 0}
    law(state)
    dealt = play(T, "", sit(6, "Finn", 300), {"type": "deal"})
    assert 6 in dealt["dealt"] and dealt["seats"][6]["stack"] == 295 and dealt["pot"] == 25


def test_O3_newcomer_into_a_carried_pot_antes_and_plays_for_the_whole_pot() -> None:
    """By default (cardroom), a newcomer sitting into a carried pot antes from the next deal and
    plays for the whole pot."""
    state = replay(T, log(CARRIED) + [sit(6, "Finn", 300), {"type": "deal"}])
    assert 6 in state["dealt"] and state["pot"] == 45 and state["pots"][0]["eligible"] == [1, 2, 3, 4, 6]


def test_O3_where_the_house_says_so_a_newcomer_waits_until_the_pot_is_won() -> None:
    waits = table(4, profile={"base": "cardroom", "newcomers_wait": True})
    state = replay(waits, log(CARRIED) + [sit(6, "Finn", 300), {"type": "deal"}])
    assert 6 not in state["dealt"] and state["seats"][6]["waiting"] and state["seats"][6]["stack"] == 300
    # once the pot is won the newcomer is dealt in
    won = replay(waits, log(CARRIED) + [sit(6, "Finn", 300)] + log(
        "deal; 3 open; 4 fold; 1 fold; 2 fold; 3 show Ks Kd 7h 4c 2c; deal"))
    assert 6 in won["dealt"] and not won["seats"][6]["waiting"]
    # into a fresh pot a newcomer never waits
    assert 6 in replay(waits, [sit(6, "Finn", 300), {"type": "deal"}])["dealt"]


def test_add_chips_is_a_rebuy_on_the_ledger() -> None:
    state = play(T, "", {"type": "add_chips", "seat": 2, "amount": 250})
    assert stacks(state)[2] == 750 and state["ledger"]["chips_in"] == 250
    law(state)


def test_F7_add_chips_never_lifts_the_bar() -> None:
    """F7 ('even after buying more chips'): an all-in false opener, barred until the pot is won,
    stays barred after a rebuy."""
    short = table(4, stacks={3: 5})
    text = "deal; 2 pass; 3 open 0; 3 false_openers; 4 pass; 1 pass"
    barred = play(short, text)
    assert barred["seats"][3]["status"] == "barred"
    state = play(short, text, {"type": "add_chips", "seat": 3, "amount": 200}, {"type": "deal"})
    assert state["seats"][3]["status"] == "barred" and 3 not in state["dealt"]
    assert state["seats"][3]["stack"] == 200
    law(state, 1505)


def test_leave_takes_the_stack_and_leaves_the_claim_in_the_pot() -> None:
    """A player who leaves forfeits what they put into a carried pot: it stays, and goes to the winner."""
    state = play(T, CARRIED, {"type": "leave", "seat": 2})
    assert 2 not in state["seats"] and state["pot"] == 20 and state["forfeited"] == 5
    assert state["ledger"] == {"chips_in": 0, "chips_out": 495}
    law(state)
    # the button moves on to seat 3 (seat 2 is gone): seat 4 acts first
    won = replay(T, log(CARRIED) + [{"type": "leave", "seat": 2}] + log(
        "deal; 4 open; 1 fold; 3 fold; 4 show Ks Kd 7h 4c 2c"))
    assert won["awards"] == {4: 45} and won["forfeited"] == 0
    law(won)


def test_sit_out_is_not_dealt_in_and_posts_no_ante() -> None:
    state = play(T, "", {"type": "sit_out", "seat": 3}, {"type": "deal"})
    assert 3 not in state["dealt"] and stacks(state)[3] == 500 and state["pot"] == 15
    assert state["seats"][3]["sitting_out"]
    back = replay(T, log(CARRIED) + [
        {"type": "sit_out", "seat": 3}, {"type": "deal"}, *log("4 pass; 1 pass; 2 pass"),
        {"type": "sit_in", "seat": 3}, {"type": "deal"}])
    assert 3 in back["dealt"]


def test_move_seat_takes_chips_and_claim_along() -> None:
    state = play(T, CARRIED, {"type": "move_seat", "seat": 2, "to": 7})
    assert 2 not in state["seats"] and state["seats"][7]["player"] == "P2" and state["seats"][7]["put"] == 5
    law(state)


def test_a_deal_sets_the_stakes_from_this_deal_on() -> None:
    """A tournament level: the deal carries the new stakes; the replay never needs the clock."""
    state = play(T, "", {"type": "deal", "ante": 10, "small_bet": 20, "big_bet": 40})
    assert (state["ante"], state["small_bet"], state["big_bet"]) == (10, 20, 40) and state["pot"] == 40
    assert state["legal"][1]["amount"] == 20
    nxt = replay(T, [{"type": "deal", "ante": 10, "small_bet": 20}] + log("2 pass; 3 pass; 4 pass; 1 pass; deal"))
    assert nxt["big_bet"] == 40 and nxt["ante"] == 10


# --------------------------------------------------------------------------- each refusal


@pytest.mark.parametrize("events, message", [
    ([sit(3, "Zoe", 100)], "sit: seat 3 is taken by P3"),
    ([sit(6, "P2", 100)], "sit: P2 already sits in seat 2 at this table"),
    ([sit(6, "p2", 100)], "sit: p2 already sits in seat 2"),  # names ignore case
    ([sit(9, "Zoe", 100)], "sit: this table has seats 1 to 8, not 9"),
    ([sit(6, "Zoe", 0)], "sit: chips: a whole number of chips above 0"),
    ([{"type": "sit", "seat": 6, "chips": 100}], "sit: give the player's name"),
    ([{"type": "deal"}, sit(6, "Zoe", 100)], "sit: only between deals"),
    ([{"type": "deal"}, {"type": "leave", "seat": 2}], "leave: only between deals"),
    ([{"type": "leave", "seat": 6}], "leave: nobody sits in seat 6"),
    ([{"type": "add_chips", "seat": 2, "amount": -5}], "add_chips: amount"),
    ([{"type": "sit_in", "seat": 2}], "sit_in: seat 2 is not sitting out"),
    ([{"type": "sit_out", "seat": 2}, {"type": "sit_out", "seat": 2}], "sit_out: seat 2 is already sitting out"),
    ([{"type": "move_seat", "seat": 2, "to": 3}], "move_seat: seat 3 is taken by P3"),
    ([{"type": "deal", "small_bet": 20, "big_bet": 10}], "the big bet \\(10\\) may not be below the small bet"),
])
def test_refusals_say_what_is_wrong(events: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        replay(T, events)


def test_the_house_maximum_buy_in() -> None:
    capped = {**T, "max_buy_in": 1000}
    with pytest.raises(IllegalAction, match="over this table's maximum buy-in of 1000"):
        replay(capped, [sit(6, "Zoe", 1500)])
    with pytest.raises(IllegalAction, match=r"would have 1100 chips, over this table's maximum of 1000 \(at most 500 more\)"):
        replay(capped, [{"type": "add_chips", "seat": 1, "amount": 600}])
    assert replay(capped, [{"type": "add_chips", "seat": 1, "amount": 500}])["seats"][1]["stack"] == 1000


def test_seating_events_are_undone_like_any_other_entry_until_the_next_deal() -> None:
    events = [sit(6, "Finn", 300), {"type": "void", "event": 0}]
    state = replay(T, events)
    assert 6 not in state["seats"] and state["ledger"]["chips_in"] == 0
    with pytest.raises(IllegalAction, match="nothing is left to withdraw"):
        replay(T, [sit(6, "Finn", 300), {"type": "deal"}, {"type": "void", "event": 1},
                   {"type": "void", "event": 0}])


# --------------------------------------------------------------------------- a whole night


#: The cards each seat shows in :func:`_night`, five a seat.
SHOWN = ("As", "Kd", "Qh", "9c", "5s", "Ad", "Kh", "Qc", "8d", "4s", "Ah", "Ks", "Qd", "7c", "3h", "Ac", "Kc", "Qs",
         "6d", "2h", "Js", "Td", "9h", "8c", "7s", "Jd", "Tc", "9s", "8h", "6c")


def _night(rng: random.Random, events_wanted: int) -> tuple[int, int]:
    """Three tables, players sitting down, rebuying, sitting out, leaving and moving between tables,
    pots played to the end by random legal taps. Returns (events applied, moves between tables)."""
    names = iter(f"Player {n}" for n in range(10_000))
    setups = [table(6, stack=400, profile=p) for p in ("cardroom", "pagat", "foster")]
    for i, setup in enumerate(setups):  # every player's name is their own across the room
        for seat in setup["seats"]:
            seat["player"] = f"Table {i + 1} player {seat['seat']}"
    tables = [start(setup) for setup in setups]
    bank = [2400, 2400, 2400]  # each table's starting chips
    total_out = total_in = 0
    applied = moves = 0

    def apply(i: int, event: dict[str, Any]) -> bool:
        nonlocal applied
        try:
            tables[i] = tables[i].apply(event)
        except IllegalAction:
            return False
        applied += 1
        state = tables[i].to_dict()
        ledger = state["ledger"]
        chips = sum(x["stack"] for x in state["seats"].values()) + state["pot"]
        assert chips == bank[i] + ledger["chips_in"] - ledger["chips_out"], (i, event)
        return True

    while applied < events_wanted:
        i = rng.randrange(3)
        state = tables[i].to_dict()
        if state["phase"] != "between_deals":
            move = rng.choice(tables[i].legal())
            match move:
                case DrawMove():
                    event: dict[str, Any] = move.event(min(rng.randint(0, 3), move.max)).to_dict()
                case ShowMove():
                    event = move.event(SHOWN[5 * (move.seat - 1):5 * move.seat]).to_dict()
                case _:
                    event = move.event().to_dict()
            apply(i, event)
            continue
        roll = rng.random()
        seated = list(state["seats"])
        empty = [s for s in range(1, state["capacity"] + 1) if s not in state["seats"]]
        if roll < 0.45:
            apply(i, {"type": "deal"})
        elif roll < 0.55 and empty:
            chips = rng.choice([100, 200, 400])
            if apply(i, sit(rng.choice(empty), next(names), chips)):
                total_in += chips
        elif roll < 0.6 and seated:
            amount = rng.choice([50, 100])
            if apply(i, {"type": "add_chips", "seat": rng.choice(seated), "amount": amount}):
                total_in += amount
        elif roll < 0.66 and seated:
            seat = rng.choice(seated)
            stack = state["seats"][seat]["stack"]
            if apply(i, {"type": "leave", "seat": seat}):
                total_out += stack
        elif roll < 0.7 and seated:
            seat = rng.choice(seated)
            apply(i, {"type": "sit_out" if not state["seats"][seat]["sitting_out"] else "sit_in", "seat": seat})
        elif seated:
            # a move to another table: leave here, sit there with the same chips; no chip made or lost
            open_tables = [k for k in range(3) if k != i and tables[k].phase == "between_deals"]
            if not open_tables:
                continue
            j = rng.choice(open_tables)
            there = tables[j].to_dict()
            free = [s for s in range(1, there["capacity"] + 1) if s not in there["seats"]]
            seat = rng.choice(seated)
            player, stack = state["seats"][seat]["player"], state["seats"][seat]["stack"]
            if there["phase"] == "between_deals" and free and stack > 0:
                # both halves or neither, as the floor's move is one transaction
                try:
                    gone = tables[i].apply({"type": "leave", "seat": seat})
                    came = tables[j].apply(sit(rng.choice(free), player, stack))
                except IllegalAction:
                    continue
                before = sum(t.to_dict()["pot"] + sum(x["stack"] for x in t.to_dict()["seats"].values())
                             for t in tables)
                tables[i], tables[j] = gone, came
                applied += 2
                moves += 1
                total_in += stack
                total_out += stack
                after = sum(t.to_dict()["pot"] + sum(x["stack"] for x in t.to_dict()["seats"].values())
                            for t in tables)
                assert after == before
    grand = sum(sum(x["stack"] for x in t.to_dict()["seats"].values()) + t.to_dict()["pot"] for t in tables)
    assert grand == sum(bank) + total_in - total_out
    return applied, moves


@pytest.mark.slow
def test_a_whole_night_of_5000_events_on_three_tables_conserves_every_chip() -> None:
    applied, moves = _night(random.Random(2026), 5_000)
    assert applied >= 5_000 and moves >= 30


def test_a_short_night_conserves_every_chip() -> None:
    applied, moves = _night(random.Random(11), 600)
    assert applied >= 600 and moves > 0


def test_replay_of_a_night_equals_the_table() -> None:
    """The log of a table with players coming and going replays to the same state."""
    events = [sit(6, "Finn", 300), {"type": "sit_out", "seat": 2}, *log("deal; 3 pass; 4 pass; 6 pass; 1 pass"),
              {"type": "leave", "seat": 4}, {"type": "move_seat", "seat": 6, "to": 4}, {"type": "sit_in", "seat": 2}]
    state = start(T)
    for event in events:
        state = state.apply(event)
    assert state == replay_state(T, events)
