"""Irregularities on whole logged hands: false openers (F1-F11), split openers (S1-S3), wrong card
counts (D8), applied by the engine through the floor's decision tree (rules.rulings)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction
from rules.jackpot import replay
from tests.notation import log, play, stacks, statuses, table
from rules.rulings import resolve


def last(state: dict[str, Any]) -> dict[str, Any]:
    return dict(state["rulings"][-1])


AA, KK, NINES, EIGHTS = "As Ad Kc 7h 2s", "Ks Kd Qc 7d 3s", "9s 9d 2c 3c 4h", "8s 8d 2d 3d 4c"
TENS = "Ts Td Ah Kh Qc"
T = table()


# --------------------------------------------------------------------------- F1, F8: proving openers


def test_F1_opener_proves_openers_when_everyone_folds() -> None:
    """F1: the opener shows openers to take the pot even when everyone folds."""
    state = play(T, f"deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 show {KK}")
    assert state["awards"] == {3: 30} and stacks(state)[3] == 515 and state["rulings"] == []


def test_F8_opener_cannot_show_and_everyone_folded_pot_stays() -> None:
    """F8 (cardroom): an opener who cannot show openers cannot win; with nobody else left the pot
    stays for the next deal."""
    state = play(T, f"deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 show {TENS}")
    assert state["phase"] == "between_deals" and state["pot"] == 30 and state["awards"] == {}
    assert last(state)["outcome"] == "OPENER_DEAD_POT_STAYS" and last(state)["citations"] == ["F1", "F8"]
    nxt = play(T, f"deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold; 3 show {TENS}; deal")
    assert nxt["pot"] == 50 and nxt["jackpot"]["deals"] == 2 and nxt["button"] == 2


def test_F8_opener_cannot_show_best_other_hand_wins() -> None:
    """F8: at a showdown, when the opener cannot prove openers, the best other hand takes the pot."""
    text = (f"deal; 2 pass; 3 open; 4 call; 1 call; 2 fold; 3 draw 1; 4 draw 1; 1 draw 1; "
            f"3 check; 4 check; 1 check; 3 show {TENS}; 4 show {NINES}; 1 show {EIGHTS}")
    state = play(T, text)
    assert last(state)["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and last(state)["winner"] == 4
    assert state["awards"] == {4: 50} and stacks(state) == {1: 485, 2: 495, 3: 485, 4: 535}
    # while the other hands are still to come, the opener's hand is already dead
    mid = play(T, text.rsplit(";", 2)[0])
    assert mid["seats"][3]["status"] == "dead" and mid["to_act"] == 4


# --------------------------------------------------------------------------- F2-F7: false openers


def test_F2_F5_false_openers_two_callers_pot_plays_opener_dead() -> None:
    """F2/F5: found before the draw with two callers: the pot plays, the opener's hand is dead and
    the opening bet stays in."""
    state = play(T, "deal; 2 pass; 3 open; 4 call; 1 call; 3 false_openers")
    r = last(state)
    assert (r["outcome"], r["dead"], r["returns"], r["pot_plays"]) == ("POT_PLAYS_OPENER_DEAD", [3], {}, True)
    assert statuses(state)[3] == "dead" and state["phase"] == "predraw" and state["to_act"] == 2
    assert state["pot"] == 50


def test_F2_opener_takes_back_later_bets_while_action_is_open() -> None:
    """F2: while the action before the draw is not complete, the false opener takes back the bets
    made after the opening bet; the opening bet stays in the pot."""
    state = play(T, "deal; 2 open; 3 raise; 4 call; 1 call; 2 raise; 2 false_openers")
    r = last(state)
    assert r["outcome"] == "POT_PLAYS_OPENER_DEAD" and r["returns"] == {2: 20}
    assert stacks(state)[2] == 485 and state["seats"][2]["put"] == 15 and state["pot"] == 90
    # the bet to call goes back down to the live players' 20: seat 3 is asked again, with nothing to call
    assert state["to_act"] == 3 and state["legal"][0] == {"type": "check"}


def test_F3_reopen_offer_skips_players_who_passed() -> None:
    """F3: after false openers any other active player may reopen, except those who passed openers."""
    state = play(T, "deal; 2 pass; 3 open; 4 call; 3 false_openers")
    assert state["reopen"] == {"false_opener": 3, "eligible": [4, 1], "passed": []}
    assert state["to_act"] == 4 and state["legal"] == [{"type": "reopen", "amount": 10}, {"type": "pass"}]
    with pytest.raises(IllegalAction, match="it is seat 4's turn"):
        play(T, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 2 reopen")


def test_F3_reopened_pot_reopener_becomes_opener() -> None:
    """F3: the reopener becomes the opener; the other bets go back and the betting starts afresh."""
    state = play(T, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 pass; 1 reopen")
    r = last(state)
    assert r["outcome"] == "REOPENED" and r["reopener"] == 1 and r["returns"] == {4: 10}
    assert state["jackpot"]["opener"] == 1 and statuses(state)[3] == "dead"
    assert state["to_act"] == 2 and state["seats"][1]["committed"] == 10 and state["pot"] == 40
    # the passer may come in once the pot is open again (O2); the reopener must prove openers later
    state = play(T, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 pass; 1 reopen; 2 fold; 4 fold; "
                 f"1 show {AA}")
    assert state["awards"] == {1: 40}


def test_F4_nobody_reopens_pot_carries_and_everyone_antes_again() -> None:
    """F4: nobody reopens: all bets go back except the opening bet, which stays with the antes for
    the next deal; everyone of that deal antes again (even past the ante cap)."""
    state = play(T, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 pass; 1 pass")
    r = last(state)
    assert r["outcome"] == "POT_CARRIES_OVER" and r["returns"] == {4: 10} and r["citations"] == ["F2", "F4"]
    assert state["phase"] == "between_deals" and state["pot"] == 30 and stacks(state) == {
        1: 495, 2: 495, 3: 485, 4: 495}
    assert state["jackpot"]["antes_next_deal"] is True
    throw = "; ".join(f"{s} pass" for s in (2, 3, 4, 1))
    capped = play(T, f"deal; {throw}; deal; 3 pass; 4 pass; 1 pass; 2 pass; deal; 4 open; 1 call; "
                  "4 false_openers; 1 pass; 2 pass; 3 pass")
    assert capped["jackpot"]["ante_deals"] == 3 and capped["jackpot"]["antes_next_deal"] is True
    after = play(T, f"deal; {throw}; deal; 3 pass; 4 pass; 1 pass; 2 pass; deal; 4 open; 1 call; "
                 "4 false_openers; 1 pass; 2 pass; 3 pass; deal")
    assert after["pot"] == 60 + 10 + 20


FIVE = table(5)
# seat 2 passes, seat 3 opens falsely, seat 4 calls, seats 5 and 1 fold; seat 4 reopens (F3)
REOPENED_BY_4 = "deal; 2 pass; 3 open; 4 call; 5 fold; 1 fold; 3 false_openers; 4 reopen"


def test_F2_F4_two_false_openers_the_first_opening_bet_stays_in_the_pot() -> None:
    """F2, F3, F4: seat 3 opens falsely, seat 4 reopens and is found false too, and nobody else may
    open (seat 2 passed, the others folded). The first false opener gave up the opening bet for good
    (F2: "including their opening bet"): F4 hands back the bets of the live players only, so seat 3
    stays on 485 and the pot carries 45 (five antes and both opening bets)."""
    state = play(FIVE, f"{REOPENED_BY_4}; 4 false_openers")
    r = last(state)
    assert r["outcome"] == "POT_CARRIES_OVER" and r["returns"] == {}
    assert 3 not in r["facts"]["bets"]  # the dead first opener's bet is not one to hand back
    assert state["pot"] == 45 and stacks(state) == {1: 495, 2: 495, 3: 485, 4: 485, 5: 495}
    # the same situation reached the other way: seat 4 cannot prove openers at the show (F1, F8)
    shown = play(FIVE, f"{REOPENED_BY_4}; 2 fold; 4 show {TENS}")
    assert last(shown)["outcome"] == "OPENER_DEAD_POT_STAYS"
    assert shown["pot"] == state["pot"] == 45 and stacks(shown) == stacks(state)


def test_F3_a_third_opener_after_two_false_ones_plays_for_both_forfeited_bets() -> None:
    """F2, F3: after two false openers a third player reopens; only that player's earlier call goes
    back, the two forfeited opening bets stay in the pot, and the third opener takes them with openers."""
    state = play(FIVE, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 reopen; 5 fold; 1 call; "
                 "4 false_openers; 1 reopen")
    r = last(state)
    assert r["outcome"] == "REOPENED" and r["returns"] == {1: 10} and r["reopener"] == 1
    assert state["pot"] == 25 + 10 + 10 + 10
    won = play(FIVE, "deal; 2 pass; 3 open; 4 call; 3 false_openers; 4 reopen; 5 fold; 1 call; "
               f"4 false_openers; 1 reopen; 2 fold; 1 show {AA}")
    assert won["awards"] == {1: 55} and stacks(won) == {1: 540, 2: 495, 3: 485, 4: 485, 5: 495}


def test_F5_raise_before_the_draw_makes_the_pot_play() -> None:
    """F5: a raise before the draw: the pot plays whatever the opener held."""
    state = play(T, "deal; 2 pass; 3 open; 4 raise; 3 false_openers")
    assert last(state)["outcome"] == "POT_PLAYS_OPENER_DEAD" and last(state)["pot_plays"] is True
    assert state["phase"] == "predraw" and state["to_act"] == 1


def test_F6_no_withdrawal_once_action_before_the_draw_is_complete() -> None:
    """F6: once the betting before the draw is over the opener takes nothing back."""
    state = play(T, "deal; 2 open; 3 call; 4 call; 1 call; 2 false_openers")
    r = last(state)
    assert r["outcome"] == "POT_PLAYS_OPENER_DEAD" and "F6" in r["citations"] and r["returns"] == {}
    assert state["phase"] == "draw" and state["to_act"] == 3  # the dead opener does not draw
    after = play(T, "deal; 2 open; 3 call; 4 call; 1 call; 2 draw 1; 3 draw 1; 2 false_openers")
    assert last(after)["citations"] == ["F1", "F5", "F6"] and after["to_act"] == 4


def test_F7_all_in_false_opener_is_barred_until_the_pot_is_won() -> None:
    """F7: an opener all in for the ante who had no openers loses the ante and sits out every deal of
    that pot until it is won; then plays again."""
    setup = table(stacks={2: 5})
    base = "deal; 2 open; 3 check; 2 false_openers; 3 pass; 4 pass; 1 pass"
    state = play(setup, base)
    r = last(state)
    assert r["outcome"] == "ALL_IN_OPENER_BARRED" and r["barred"] == [2] and state["pot"] == 20
    assert statuses(state)[2] == "barred"
    nxt = play(setup, base + "; deal")
    assert 2 not in nxt["dealt"] and statuses(nxt)[2] == "barred" and nxt["pot"] == 35
    won = play(setup, base + f"; deal; 3 open; 4 fold; 1 fold; 3 show {AA}; deal")
    # seat 2 has no chips and no claim on the new pot: out, but no longer barred
    assert statuses(won)[2] == "out"


def test_F7_all_in_false_opener_pot_plays() -> None:
    """F7/F5: with a raise the pot plays on; the all-in false opener is barred meanwhile."""
    state = play(table(stacks={2: 5}), "deal; 2 open; 3 bet; 4 call; 1 raise; 2 false_openers")
    assert last(state)["outcome"] == "ALL_IN_OPENER_BARRED" and last(state)["pot_plays"] is True
    assert statuses(state)[2] == "barred" and state["to_act"] == 3


def test_F7_is_for_the_ante_an_opener_all_in_by_the_opening_bet_is_an_F2_opener() -> None:
    """O6, F7 against F2-F4: a player who paid the whole ante and opened all in for less than a bet put
    chips in; found false before the draw, the hand is dead, that opening bet stays with the antes, and
    nobody is barred (F7 is for a player all in for the ante, who had nothing to open with)."""
    setup = table(stacks={2: 12})  # the ante of 5, then 7 chips: less than the small bet of 10
    state = play(setup, "deal; 2 open; 2 false_openers; 3 pass; 4 pass; 1 pass")
    r = last(state)
    assert r["outcome"] == "POT_CARRIES_OVER" and r["citations"][0] == "F2" and not r.get("barred")
    assert r["facts"]["opener_all_in"] is False and state["pot"] == 27 and stacks(state)[2] == 0
    nxt = replay(setup, log("deal; 2 open; 2 false_openers; 3 pass; 4 pass; 1 pass")
                 + [{"type": "add_chips", "seat": 2, "amount": 50}, {"type": "deal"}])
    assert 2 in nxt["dealt"] and statuses(nxt)[2] != "barred"
    # the same seat all in for the ante (5 chips, nothing left to bet) is barred (F7)
    barred = play(table(stacks={2: 5}), "deal; 2 open; 2 false_openers; 3 pass; 4 pass; 1 pass")
    assert last(barred)["outcome"] == "ALL_IN_OPENER_BARRED" and last(barred)["barred"] == [2]


def test_F9_foster_false_opener_forfeits_and_antes_for_all() -> None:
    """F9 (foster): the false opener forfeits everything; drawn to, antes for everyone next deal;
    the players who came in play on for the pot."""
    setup = table(profile="foster")
    text = "deal; 2 pass; 3 open; 4 call; 1 call; 2 fold; 3 draw 1; 4 draw 1; 1 draw 2; 3 false_openers"
    state = play(setup, text)
    r = last(state)
    assert (r["outcome"], r["ante_for_all"], r["pot_plays"]) == ("FOSTER_FORFEIT", 3, True)
    assert state["phase"] == "postdraw" and state["to_act"] == 4 and state["jackpot"]["ante_for_all"] == 3
    state = play(setup, text + f"; 4 check; 1 check; 4 show {NINES}; 1 show {EIGHTS}; deal")
    assert stacks(state)[3] == 485 - 20 and state["pot"] == 20
    assert {s: x["put"] for s, x in state["seats"].items()} == {1: 5, 2: 5, 3: 5, 4: 5}


def test_F9_S2_a_split_that_proves_false_pays_foster_s_penalty_too() -> None:
    """F9 with S2 (foster): an opener whose split could not have held openers is a false opener found
    at the show; drawn to, it antes for everyone next deal, as when found by the floor after the draw
    (one situation, one answer; the exhaustive search of tests/money found the two apart)."""
    setup = table(3, profile="foster")
    shown = "deal; 2 pass; 3 open; 1 call; 2 fold; 3 draw 1 split 9h; 1 draw 1; 3 check; 1 check; 3 show 8h 6c 5d 3c Qd"
    split = play(setup, shown)
    r = last(split)
    assert (r["outcome"], r["ante_for_all"]) == ("SPLIT_FAILED", 3) and "F9" in r["citations"]
    found = play(setup, "deal; 2 pass; 3 open; 1 call; 2 fold; 3 draw 1; 1 draw 1; 3 false_openers")
    assert last(found)["ante_for_all"] == 3 and found["awards"] == split["awards"] == {1: 35}
    nxt = play(setup, shown + "; deal")
    assert stacks(nxt)[3] == 485 - 15 and nxt["pot"] == 15


def test_F5_a_lone_player_with_chips_is_not_asked_to_bet_against_all_in_players() -> None:
    """F2, F5: the false opener is found after the draw; the one player left with chips faces only a
    player all in for the ante, so the betting is over and the hands are shown, as when the betting
    gets there by itself (the exhaustive search of tests/money found the table waiting for a bet)."""
    state = play(table(4, stacks={4: 3}), "deal; 2 pass; 3 open; 1 call; 2 fold; 3 draw 3; 4 draw 1; 1 draw 3; "
                                          "3 check; 3 false_openers")
    assert last(state)["outcome"] == "POT_PLAYS_OPENER_DEAD"
    assert state["phase"] == "showdown" and state["legal"][0]["type"] == "show"


# --------------------------------------------------------------------------- external rulings (F10, F11, D8)


def test_F10_caller_refund_ruling_is_recorded_and_play_goes_on() -> None:
    """F10: a floor ruling that moves no chips (a caller is not refunded) is recorded; play goes on."""
    before = play(T, "deal; 2 pass; 3 open; 4 call")
    ruling = resolve({"issue": "caller_refund", "seat": 4}).to_dict()
    state = replay(T, log("deal; 2 pass; 3 open; 4 call") + [{"type": "ruling", "ruling": ruling, "id": 17}])
    assert last(state)["outcome"] == "CALLER_NOT_REFUNDED" and last(state)["id"] == 17
    assert state["to_act"] == before["to_act"] and state["pot"] == before["pot"]


def test_F11_discard_retrieval_ruling_changes_no_chips() -> None:
    """F11: retrieving discards is the floor's call; the ruling is logged without moving chips."""
    ruling = resolve({"issue": "discard_retrieval", "opener": 3, "retrieval_allowed": True}).to_dict()
    state = replay(T, log("deal; 2 pass; 3 open") + [{"type": "ruling", "ruling": ruling}])
    assert last(state)["outcome"] == "DISCARDS_RETRIEVED" and state["pot"] == 30 and state["to_act"] == 4


def test_D8_wrong_card_count_ruling_kills_the_hand() -> None:
    """D8: a hand of the wrong size after the draw is dead: a floor ruling applied from the log."""
    ruling = resolve({"issue": "wrong_card_count", "found": "after_draw", "seat": 4, "card_count": 6}).to_dict()
    text = "deal; 2 pass; 3 open; 4 call; 1 call; 2 fold; 3 draw 1; 4 draw 1; 1 draw 1"
    state = replay(T, log(text) + [{"type": "ruling", "ruling": ruling}])
    assert statuses(state)[4] == "dead" and state["phase"] == "postdraw" and state["to_act"] == 3
    state = replay(T, log(text) + [{"type": "ruling", "ruling": ruling}] + log(f"3 check; 1 check; 3 show {KK}; 1 show {AA}"))
    assert state["awards"] == {1: 50}


def test_external_ruling_with_a_winner_pays_the_pot() -> None:
    """A floor ruling naming a winner pays the whole pot to that seat."""
    ruling = {"outcome": "OPENER_DEAD_BEST_OTHER_WINS", "dead": [3], "winner": 4, "pot_plays": True}
    state = replay(T, log("deal; 2 pass; 3 open; 4 call") + [{"type": "ruling", "ruling": ruling}])
    assert state["awards"] == {4: 40} and state["phase"] == "between_deals"


def test_external_ruling_cannot_return_more_than_was_put_in() -> None:
    """A ruling is checked before it is applied: it cannot hand back chips a seat never put in."""
    ruling = {"outcome": "POT_CARRIES_OVER", "dead": [3], "returns": {"4": 99}, "pot_plays": False}
    with pytest.raises(IllegalAction, match="cannot hand 99 back to seat 4"):
        replay(T, log("deal; 2 pass; 3 open; 4 call") + [{"type": "ruling", "ruling": ruling}])


def test_false_openers_only_for_the_opener() -> None:
    """false_openers names the opener; anything else is refused with the reason."""
    with pytest.raises(IllegalAction, match="seat 4 is not the opener"):
        play(T, "deal; 2 pass; 3 open; 4 false_openers")
    with pytest.raises(IllegalAction, match="only while an opened deal"):
        play(T, "deal; 2 false_openers")


# --------------------------------------------------------------------------- S1-S3: split openers


SPLIT = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"


def test_S1_split_openers_go_into_escrow() -> None:
    """S1: the opener who splits declares it and the discards are kept in escrow, apart from the muck."""
    state = play(T, SPLIT + "; 3 draw 2 split Jd 4c")
    assert state["escrow"] == {3: ["Jd", "4c"]} and state["split"] is True and state["discards"] == 0
    with pytest.raises(IllegalAction, match="only the opener"):
        play(T, SPLIT + "; 3 draw 1; 4 draw 1 split 9c")
    with pytest.raises(IllegalAction, match="is in escrow"):
        play(T, SPLIT + "; 3 draw 1 split Jd; 4 draw 1; 3 check; 4 check; 3 show Jd Js 9h 8h 2h")


def test_S2_split_verified_by_the_escrow() -> None:
    """S2: the final hand with the escrowed discards could have held openers: the hand stands."""
    state = play(T, SPLIT + f"; 3 draw 1 split Jd; 4 draw 1; 3 check; 4 check; 3 show Js 8h 7h 6h 2h; 4 show {NINES}")
    assert state["awards"] == {4: 40} and state["rulings"] == []
    state = play(T, SPLIT + "; 3 draw 1 split Jd; 4 draw 1; 3 check; 4 check; 3 show Js 8h 7h 6h 3h; 4 show 7s 6d 5c 3c 2h")
    assert state["awards"] == {3: 40}


def test_S2_split_that_could_not_have_opened_loses_the_pot() -> None:
    """S2: if the final hand and the escrow could not have made openers, the opener loses the pot."""
    state = play(T, SPLIT + "; 3 draw 1 split Td; 4 draw 1; 3 check; 4 check; 3 show Js 8h 7h 6h 2h")
    r = last(state)  # seat 4's is the one live hand left: it wins without showing (issue 22)
    assert (r["outcome"], r["dead"], r["citations"]) == ("SPLIT_FAILED", [3], ["S1", "S2"])
    assert state["awards"] == {4: 40}


def test_S3_kept_openers_prove_without_the_escrow() -> None:
    """S3: an opener whose final hand still holds openers has proved them, whatever was escrowed."""
    state = play(T, SPLIT + f"; 3 draw 1 split Tc; 4 draw 1; 3 check; 4 check; 3 show As Jk Ks Qs 4d; 4 show {NINES}")
    assert state["awards"] == {3: 40} and state["rulings"] == []
