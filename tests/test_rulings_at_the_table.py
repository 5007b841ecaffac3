"""The floor's word at the table, in the engine: rulings no undo withdraws, rulings on a pot already
awarded, corrections of chips, and rulings that name their deal and say who gets what.

Every chip movement is checked against the conservation law: stacks plus the pot never change but
by the chips that come in and go out.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction
from rules.jackpot import replay, replay_state
from rules.rulings import resolve
from tests.notation import log, play, stacks, table

T = table()
TOTAL = 4 * 500
HEADS_UP = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"
# seat 3 proves openers with the jacks kept and wins a pot of 40 against seat 4's nines
WON = f"{HEADS_UP}; 3 draw 3; 4 draw 2; 3 check; 4 check; 3 show Jc Jd 8h 5s 2s; 4 show 9s 9d 2c 3c 4h"


def chips(state: dict[str, Any]) -> int:
    return sum(x["stack"] for x in state["seats"].values()) + state["pot"]


def ruling_event(facts: dict[str, Any], rid: int = 1, profile: str = "cardroom") -> dict[str, Any]:
    return {"type": "ruling", "ruling": resolve(facts, profile).to_dict(), "id": rid}


# --------------------------------------------------------------------------- undo never withdraws a ruling


def test_void_never_withdraws_a_ruling_or_what_came_before_it() -> None:
    """A dealer's undo withdraws the latest live event, but never an event that produced a ruling
    (F1/F8 here), nor anything logged before it: the floor corrects a ruling, nobody voids it."""
    # the opener's dead hand leaves seat 4's uncontested: the show produces the ruling (issue 22)
    text = f"{HEADS_UP}; 3 draw 1; 4 draw 2; 3 check; 4 check; 3 show 7c 8d 9h Ts Jc"
    state = play(T, text)
    assert state["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and state["undo"] is None
    events = log(text)
    with pytest.raises(IllegalAction, match="a ruling, and everything logged before it, stands"):
        replay(T, events + [{"type": "void", "event": len(events) - 1}])
    with pytest.raises(IllegalAction, match="nothing is left to withdraw"):
        replay(T, events + [{"type": "void", "event": len(events) - 3}])


def test_void_never_withdraws_false_openers_nor_the_reopen_offer_it_started() -> None:
    """F3: false openers start a reopen offer; the finding is the floor's word and stands."""
    events = log("deal; 2 pass; 3 open; 4 call; 3 false_openers")
    state = replay(T, events)
    assert state["reopen"] is not None and state["undo"] is None
    with pytest.raises(IllegalAction):
        replay(T, events + [{"type": "void", "event": 4}])
    # a later ordinary tap can still be withdrawn, back to the finding and no further
    after = replay(T, events + [{"type": "pass", "seat": 4}])
    assert after["undo"] == {"event": 5, "type": "pass"}


# --------------------------------------------------------------------------- a ruling names its deal


def test_a_ruling_names_the_tables_deal_number() -> None:
    """The ruling's deal is the table's deal number (the third deal here), not the deal within the pot."""
    text = ("deal; 2 pass; 3 pass; 4 pass; 1 pass; deal; 3 pass; 4 pass; 1 pass; 2 pass; "
            "deal; 4 pass; 1 open; 2 call; 3 call; 1 false_openers")
    state = play(T, text)
    assert state["deal"] == 3 and state["jackpot"]["deals"] == 3
    assert state["rulings"][-1]["deal"] == 3


# --------------------------------------------------------------------------- a ruling on the last finished deal


def test_ruling_on_a_pot_already_awarded_re_settles_it() -> None:
    """H6/D8 found at the award: seat 3 took the pot holding six cards. The floor rules on the last
    finished deal: seat 3's hand is dead, the pot goes to the best other hand, and each stack moves
    by the difference (seat 3 gives back its 40, seat 4 takes it)."""
    won = play(T, WON)
    assert won["awards"] == {3: 40} and stacks(won) == {1: 495, 2: 495, 3: 525, 4: 485}
    event = ruling_event({"issue": "wrong_card_count", "found": "after_draw", "seat": 3, "card_count": 6})
    state = replay(T, log(WON) + [event])
    assert state["phase"] == "between_deals" and state["awards"] == {4: 40}
    assert stacks(state) == {1: 495, 2: 495, 3: 485, 4: 525} and chips(state) == TOTAL
    r = state["rulings"][-1]
    assert r["outcome"] == "HAND_DEAD_CARD_COUNT" and r["deal"] == 1 and r["chips"] == {3: -40, 4: 40}
    assert r["headline"] == "Seat 4, P4, wins the pot of 40 with a pair of nines, four-three-deuce; seat 3's hand is dead"
    # before any deal has finished there is nothing to rule on between deals
    with pytest.raises(IllegalAction, match="there is none to rule on"):
        replay(T, [event])


def test_ruling_on_the_last_deal_can_leave_the_pot_for_the_next_deal() -> None:
    """F8 at the award: the opener who took the pot uncalled had no openers after all; with nobody
    else in, the pot stays for the next deal (the award comes back to the pot)."""
    text = f"{HEADS_UP}; 3 draw 3; 4 draw 2; 3 bet; 4 fold; 3 show Jc Jd 8h 5s 2s"
    won = play(T, text)
    assert won["awards"] == {3: 60}
    event = ruling_event({"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Jc 8h 6d 5s 2s",
                          "everyone_folded": True, "opener_all_in": False})
    state = replay(T, log(text) + [event])
    assert state["pot"] == 60 and stacks(state)[3] == 465 and chips(state) == TOTAL
    assert state["jackpot"]["new_pot"] is False and state["rulings"][-1]["headline"].endswith(
        "the pot of 60 stays for the next deal")
    nxt = replay(T, log(text) + [event, {"type": "deal"}])
    assert nxt["jackpot"]["deals"] == 2 and nxt["pot"] == 80


def test_a_correcting_ruling_replaces_the_engines_and_the_opener_wins() -> None:
    """F1 corrected: the engine found the opener dead at the show (the dealer entered a straight the
    opener drew to); the floor rules that the opener proved openers (the opening hand is known):
    the ruling re-settles the pot and the opener's better hand takes it."""
    # seat 4 bet last and shows first (D6), so both hands are on the table when the ruling comes
    text = f"{HEADS_UP}; 3 draw 1; 4 draw 2; 3 check; 4 bet; 3 call; 4 show 9s 9d 2c 3c 4h; 3 show 7c 8d 9h Ts Jc"
    before = play(T, text)
    assert before["awards"] == {4: 80}
    event = ruling_event({"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Jc Js 9h Ts 7c"})
    state = replay(T, log(text) + [event])
    assert state["awards"] == {3: 80} and stacks(state)[3] == 545 and stacks(state)[4] == 465
    r = state["rulings"][-1]
    assert r["outcome"] == "OPENER_PROVED" and r["chips"] == {3: 80, 4: -80}
    assert r["headline"] == "Seat 3, P3, wins the pot of 80 with a straight, jack high; seat 3's openers stand"


def test_ruling_on_the_last_deal_refused_when_the_chips_are_gone() -> None:
    """A ruling that would take back chips the winner no longer has is refused, naming the way out."""
    text = WON
    events = log(text) + [{"type": "correction", "moves": [{"seat": 3, "amount": -520}, {"seat": 1, "amount": 520}],
                           "reason": "test: seat 3's chips moved on"}]
    event = ruling_event({"issue": "wrong_card_count", "found": "after_draw", "seat": 3, "card_count": 6})
    with pytest.raises(IllegalAction, match="takes 40 back from seat 3, who has 5 left; the floor moves the "
                                            "chips with a correction instead"):
        replay(T, events + [event])


# --------------------------------------------------------------------------- corrections


def test_correction_moves_chips_between_seats_and_conserves_them() -> None:
    """A correction (floor only, checked in the app) moves chips between seats between deals, with
    a reason; the amounts sum to nothing."""
    events = log(WON) + [{"type": "correction", "moves": [{"seat": 3, "amount": -40}, {"seat": 4, "amount": 40}],
                          "reason": "the pot went to the wrong seat"}]
    state = replay(T, events)
    assert stacks(state) == {1: 495, 2: 495, 3: 485, 4: 525} and chips(state) == TOTAL
    r = state["rulings"][-1]
    assert r["outcome"] == "CHIPS_CORRECTED" and r["reason"] == "the pot went to the wrong seat"
    assert r["headline"] == "Chips corrected: seat 3, P3, gives 40; seat 4, P4, gets 40"
    assert state["undo"] is None  # the floor's word: no void


@pytest.mark.parametrize("moves, message", [
    ([{"seat": 3, "amount": -40}, {"seat": 4, "amount": 30}], "must sum to 0"),
    ([{"seat": 3, "amount": 0}], "nothing moves"),
    ([{"seat": 3, "amount": -40}, {"seat": 3, "amount": 40}], "seat 3 is listed twice"),
    ([{"seat": 3, "amount": "lots"}, {"seat": 4, "amount": 40}], "whole number of chips"),
    ([{"seat": 9, "amount": -40}, {"seat": 4, "amount": 40}], "there is no seat 9"),
    ([{"seat": 1, "amount": -900}, {"seat": 4, "amount": 900}], "seat 1 has 495 chips and cannot give 900"),
])
def test_correction_refusals_say_what_is_wrong(moves: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        replay(T, log(WON) + [{"type": "correction", "moves": moves, "reason": "miscount"}])


def test_correction_needs_a_reason_and_waits_for_the_end_of_the_deal() -> None:
    moves = [{"seat": 3, "amount": -40}, {"seat": 4, "amount": 40}]
    with pytest.raises(IllegalAction, match="say why the chips move"):
        replay(T, log(WON) + [{"type": "correction", "moves": moves}])
    with pytest.raises(IllegalAction, match="a correction moves chips between deals"):
        replay(T, log(HEADS_UP) + [{"type": "correction", "moves": moves, "reason": "x"}])


def test_rulings_added_says_what_an_event_produced() -> None:
    """The engine says which rulings an event produced: nobody compares states before and after."""
    events = log(f"{HEADS_UP}; 3 draw 1; 4 draw 2; 3 check; 4 bet; 3 call; 4 show 9s 9d 2c 3c 4h")
    state = replay_state(T, events)
    assert state.added == ()
    state = state.apply({"type": "show", "seat": 3, "cards": "7c 8d 9h Ts Jc"})
    assert [r["outcome"] for r in state.added] == ["OPENER_DEAD_BEST_OTHER_WINS"]
    assert state.apply({"type": "deal"}).added == ()


def test_a_recorded_ruling_is_read_only_for_every_reader() -> None:
    """The state hands its rulings out uncopied (``added``, ``pot_rulings``, ``to_dict()["rulings"]``:
    issue 34): a reader that changes one, by mistake, is refused and the table's record stays as the
    engine made it (F1/F8's ruling here); a copy (``dict(r)``) is the reader's own to change."""
    state = replay_state(T, log(f"{HEADS_UP}; 3 draw 1; 4 draw 2; 3 check; 4 check; 3 show 7c 8d 9h Ts Jc"))
    before = state.to_dict()
    shown = before["rulings"][-1]
    assert shown["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and shown["facts"]
    for record in (state.added[-1], state.pot_rulings[-1], shown):
        with pytest.raises(TypeError, match="read-only"):
            record["outcome"] = "REOPENED"
        with pytest.raises(TypeError, match="read-only"):
            record["citations"].append("F3")
        with pytest.raises(TypeError, match="read-only"):
            record["facts"].clear()
    assert state.to_dict() == before and state.to_dict()["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"
    mine = dict(shown)
    mine["outcome"] = "REOPENED"
    assert state.to_dict()["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"
