"""F7 belongs to the person (issue 31): an all-in false opener barred by F7 who leaves and sits down
again, at any seat, with any buy-in, stays dealt out until someone else has won the pot (CARDROOM:
"even if you buy in again"); the default (profile option ``f7_follows_player``). Before, leaving
and sitting down again lifted the bar: the player was dealt into the same carried pot.

The sequences are real: seat 2 (P2) is all in for the ante, opens without openers, is found out, and
the floor's tree bars them (ALL_IN_OPENER_BARRED); the pot is carried."""

from __future__ import annotations

from typing import Any

import pytest

from rules.jackpot import replay
from tests.conftest import SETUP
from tests.notation import log, table
from tests.tourney_play import Api

AA = "As Ad Kc 7h 2s"
#: F7: P2 (5 chips, all in for the ante) opens, is found without openers, nobody reopens.
BARRED = "deal; 2 open; 3 check; 2 false_openers; 3 pass; 4 pass; 1 pass"


def state_after(setup: dict[str, Any], text: str, *more: dict[str, Any]) -> dict[str, Any]:
    return replay(setup, log(text) + list(more))


def sit(seat: int, player: Any, chips: int) -> dict[str, Any]:
    return {"type": "sit", "seat": seat, "player": player, "chips": chips}


@pytest.mark.parametrize("again", [5, 2], ids=["another seat", "the same seat"])
def test_F7_a_barred_player_who_leaves_and_buys_in_again_stays_dealt_out(again):
    """F7: P2 leaves (the 5 chips stay in the carried pot), buys in again with 300 and sits down; the
    next deal of the same pot deals everyone but P2; once someone else has won it, P2 plays."""
    setup = table(stacks={2: 5})
    state = state_after(setup, BARRED, {"type": "leave", "seat": 2}, sit(again, "P2", 300))
    assert state["seats"][again]["status"] == "barred"
    assert "even after buying in again (F7)" in state["message"]
    dealt = state_after(setup, BARRED, {"type": "leave", "seat": 2}, sit(again, "P2", 300), {"type": "deal"})
    assert again not in dealt["dealt"] and sorted(dealt["dealt"]) == [1, 3, 4]
    assert dealt["seats"][again]["stack"] == 300  # no ante from a barred player
    won = state_after(setup, BARRED + f"; deal; 3 open; 4 fold; 1 fold; 3 show {AA}",
                      {"type": "leave", "seat": 2}, sit(again, "P2", 300), {"type": "deal"})
    assert again in won["dealt"]  # someone else won the pot: the bar is over


def test_F7_the_bar_follows_the_record_not_the_name():
    """A player named by the card room's record (player_id) is the same person under any spelling;
    another person who takes the seat is not barred."""
    setup = {**table(stacks={2: 5}), "seats": [{"seat": s, "player": {"id": 10 + s, "name": f"P{s}"},
                                                 "stack": 5 if s == 2 else 500} for s in range(1, 5)]}
    back = state_after(setup, BARRED, {"type": "leave", "seat": 2}, sit(6, {"id": 12, "name": "Pat Two"}, 200),
                       {"type": "deal"})
    assert 6 not in back["dealt"] and back["seats"][6]["status"] == "barred"
    other = state_after(setup, BARRED, {"type": "leave", "seat": 2}, sit(2, {"id": 99, "name": "Quinn"}, 200),
                        {"type": "deal"})
    assert 2 in other["dealt"]  # a newcomer in the seat plays: the bar was the person's


def test_F7_a_bar_put_on_a_name_holds_the_record_of_that_name():
    """A table set up before players were records names its seats by name: the bar put there holds
    the player when they come back by their record (the app writes the record's name into the sit)."""
    back = state_after(table(stacks={2: 5}), BARRED, {"type": "leave", "seat": 2},
                       sit(6, {"id": 7, "name": "P2"}, 200), {"type": "deal"})
    assert 6 not in back["dealt"] and back["seats"][6]["status"] == "barred"


def test_F7_the_bar_follows_a_change_of_seat():
    """move_seat: the barred player still sits out this pot from the new seat, and the seat left is free of it."""
    state = state_after(table(stacks={2: 5}), BARRED, {"type": "move_seat", "seat": 2, "to": 6},
                        sit(2, "P9", 100), {"type": "deal"})
    assert 6 not in state["dealt"] and 2 in state["dealt"]


def test_F7_the_house_may_bar_the_seat_only():
    """f7_follows_player false: the bar is the seat's; sitting down again is a newcomer's seat (the
    behaviour before issue 31, kept as a house option)."""
    setup = table(stacks={2: 5}, profile={"base": "cardroom", "f7_follows_player": False})
    dealt = state_after(setup, BARRED, {"type": "leave", "seat": 2}, sit(5, "P2", 300), {"type": "deal"})
    assert 5 in dealt["dealt"]


def test_F7_through_the_app_the_same_record_at_another_seat_stays_dealt_out(client, tokens):
    """The night's sequence through HTTP: the floor's ruling bars the all-in false opener (the tree's
    ALL_IN_OPENER_BARRED), the player leaves, the tablet seats the same record at another seat with
    a new buy-in, and the next deal leaves them out."""
    api = Api(client, tokens)
    setup = {**SETUP, "seats": [{**s, "stack": 5} if s["seat"] == 2 else s for s in SETUP["seats"]]}
    table_id = api.post("/api/tables", {"name": "F7", "setup": setup}, status=201)["id"]
    bob = api.table(table_id)["seats"]["2"]["player_id"]
    for event in log("deal; 2 open; 3 check"):
        api.log(table_id, event)
    api.log(table_id, {"type": "false_openers", "seat": 2}, role="floor")
    for event in log("3 pass; 4 pass; 1 pass"):
        api.log(table_id, event)
    assert api.table(table_id)["seats"]["2"]["status"] == "barred"
    api.log(table_id, {"type": "leave", "seat": 2})
    sat = api.log(table_id, {"type": "sit", "seat": 6, "player": {"id": bob}, "chips": 400})
    assert sat["state"]["seats"]["6"]["status"] == "barred" and "(F7)" in sat["state"]["message"]
    dealt = api.log(table_id, {"type": "deal"})["state"]
    assert 6 not in dealt["dealt"] and dealt["seats"]["6"]["stack"] == 400
