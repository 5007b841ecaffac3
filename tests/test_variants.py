"""The draw games of the seeds beside jacks or better, as house-rule options on the same engine: whole
logged hands per variant, named by rule id (D2, D9, D10, D11, D13, O1/O2 for California with blinds)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction, ProfileError
from rules.jackpot import replay
from rules.profiles import get_profile
from rules.rulings import resolve
from tests.notation import log, statuses, table


def play(profile: dict[str, Any], text: str, n: int = 4, profile_base: str = "cardroom", **kw: Any) -> dict[str, Any]:
    return replay(table(n, profile={"base": profile_base, **profile}, **kw), log(text))


def chips(state: dict[str, Any], start: int = 2000) -> None:
    assert sum(x["stack"] for x in state["seats"].values()) + state["pot"] == start


# --------------------------------------------------------------------------- D9 trips to win

TRIPS = {"trips_to_win": True}
# seat 3 opens, 4 and 1 call, 2 folds before the draw; all draw, check, show
TRIPS_HAND = ("deal; 2 pass; 3 open; 4 call; 1 call; 2 fold; 3 draw 3; 4 draw 1; 1 draw 2; "
              "3 check; 4 check; 1 check")


def test_D9_three_of_a_kind_wins() -> None:
    state = play(TRIPS, TRIPS_HAND + "; 3 show Jc Jd Jh 5s 2c; 4 show Ac Ad Kc Kd 9h; 1 show 7c 7d 7h 4s 3c")
    assert state["awards"] == {3: 50}
    chips(state)


def test_D9_no_trips_the_pot_stays_and_those_who_folded_are_out_of_it() -> None:
    """Two pair and a pair do not win: the pot stays; seat 2, who folded before the draw, is out of
    it; the others ante again and play on among themselves, whatever the ante cap."""
    text = TRIPS_HAND + "; 3 show Jc Jd 5h 5s 2c; 4 show Ac Ad Kc Kd 9h; 1 show 7c 7d 8h 4s 3c"
    state = play(TRIPS, text)
    assert state["awards"] == {} and state["pot"] == 50 and state["phase"] == "between_deals"
    assert statuses(state)[2] == "barred"
    assert "no hand of three of a kind or better" in state["message"]
    nxt = play(TRIPS, text + "; deal")
    assert nxt["dealt"] == [3, 4, 1] and nxt["pot"] == 65
    chips(nxt)


def test_D9_a_shut_out_player_who_buys_more_chips_is_told_D9_not_F7() -> None:
    """D9 against F7: a player shut out of the play-off (folded in a deal without trips) who adds
    chips stays out of the pot, and the table says why in D9's words; an all-in false opener's
    bar is F7's, a ruling of the pot (``barred_by_ruling``)."""
    from rules.jackpot import replay_state

    text = TRIPS_HAND + "; 3 show Jc Jd 5h 5s 2c; 4 show Ac Ad Kc Kd 9h; 1 show 7c 7d 8h 4s 3c"
    shut = replay_state(table(4, profile={"base": "cardroom", **TRIPS}), log(text)).apply(
        {"type": "add_chips", "seat": 2, "amount": 100})
    assert "(D9)" in shut.message and "F7" not in shut.message and shut.barred_by_ruling == frozenset()
    barred = replay_state(table(stacks={2: 5}), log("deal; 2 open; 2 false_openers; 3 pass; 4 pass; 1 pass")).apply(
        {"type": "add_chips", "seat": 2, "amount": 100})
    assert "(F7)" in barred.message and "D9" not in barred.message and barred.barred_by_ruling == {2}


def test_D9_a_pot_won_without_a_showdown_still_needs_trips() -> None:
    base = "deal; 2 pass; 3 open; 4 fold; 1 fold; 2 fold"
    assert play(TRIPS, base)["phase"] == "showdown"  # the opener shows trips (and openers)
    assert play(TRIPS, base + "; 3 show Qc Qd Qh 5s 2c")["awards"] == {3: 30}
    # Everyone else folded, so nobody is left to play the pot off with (issue 22): the one player
    # still in it takes it, rather than the table sitting stuck with a one-player pot.
    alone = play(TRIPS, base + "; 3 show Qc Qd 9h 5s 2c")
    assert alone["awards"] == {3: 30} and alone["pot"] == 0 and "the only player left" in alone["message"]
    assert {"type": "deal"} in alone["legal"]


def test_D9_the_tree_keeps_the_pot_when_no_other_hand_makes_trips() -> None:
    facts = {"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Tc Td Ah Ks Qc",
             "everyone_folded": False, "hands": {1: "Ks Kd 4c 4d 9h", 2: "As Ad 3c 7d 9s"}}
    r = resolve(facts, {"base": "cardroom", "trips_to_win": True})
    assert (r.outcome.value, r.leaf, r.showdown_only) == ("OPENER_DEAD_POT_STAYS", "cs_trips_pot_stays", True)
    assert "D9" in r.citations
    facts["hands"][2] = "As Ad Ac 7d 9s"
    assert resolve(facts, {"base": "cardroom", "trips_to_win": True}).winner == 2


# --------------------------------------------------------------------------- D10 jacks back

BACK = {"jacks_back": True}
ALL_PASS = "deal; 2 pass; 3 pass; 4 pass; 1 pass"


def test_D10_nobody_opens_and_the_same_hands_are_played_for_low() -> None:
    state = play(BACK, ALL_PASS)
    assert state["phase"] == "predraw" and state["to_act"] == 2 and "played for low" in state["message"]
    text = ALL_PASS + "; 2 open; 3 call; 4 fold; 1 fold; 2 draw 1; 3 draw 2; 2 check; 3 check"
    won = play(BACK, text + "; 2 show 7c 5d 4h 3s 2c; 3 show 8d 6c 4d 3c Ac")
    assert won["awards"] == {2: 40}  # seven-five low beats eight-six
    joker = play(BACK, text + "; 2 show 7c 5d 4h 3s 2c; 3 show Jk 5c 4d 3c Ac")  # the fitter: a deuce
    assert joker["awards"] == {3: 40}


def test_D10_nobody_bets_for_low_either_and_the_cards_are_thrown_in() -> None:
    state = play(BACK, ALL_PASS + "; 2 pass; 3 pass; 4 pass; 1 pass")
    assert state["phase"] == "between_deals" and state["last_end"] == "throw_in" and state["pot"] == 20


def test_D10_the_low_blind_opens_the_low_round() -> None:
    state = play({**BACK, "jacks_back_blind": True}, ALL_PASS)
    assert state["seats"][2]["committed"] == 10 and state["to_act"] == 3
    assert [m["type"] for m in state["legal"]] == ["call", "raise", "fold"]
    # when everyone calls, the blind may still raise (its option)
    option = play({**BACK, "jacks_back_blind": True}, ALL_PASS + "; 3 call; 4 call; 1 call")
    assert option["to_act"] == 2 and [m["type"] for m in option["legal"]] == ["check", "raise", "fold"]


# --------------------------------------------------------------------------- California, blinds, straddles

GUTS = {"opening_minimum": "none"}
BLINDS = {"opening_minimum": "none", "blinds": [5, 10], "ante_deals": None}


def test_O1_california_anyone_opens_and_nothing_is_proved() -> None:
    state = play(GUTS, "deal; 2 open; 3 fold; 4 fold; 1 fold")
    assert state["awards"] == {2: 30}  # no proof of openers: the uncalled opener takes the pot


def test_O2_blinds_open_the_pot_and_the_big_blind_has_the_option() -> None:
    state = play(BLINDS, "deal", ante=0)
    assert state["seats"][2]["committed"] == 5 and state["seats"][3]["committed"] == 10
    assert state["to_act"] == 4 and state["pot"] == 15 and state["jackpot"]["opened"]
    option = play(BLINDS, "deal; 4 call; 1 call; 2 call", ante=0)
    assert option["to_act"] == 3 and [m["type"] for m in option["legal"]] == ["check", "raise", "fold"]
    drawn = play(BLINDS, "deal; 4 call; 1 call; 2 call; 3 check", ante=0)
    assert drawn["phase"] == "draw" and drawn["pot"] == 40


def test_O2_a_straddle_raises_the_big_blind_and_keeps_the_option() -> None:
    profile = {**BLINDS, "straddle": True}
    state = play(profile, "deal", ante=0)
    assert state["legal"][0] == {"type": "straddle", "seat": 4, "amount": 20}
    state = play(profile, "deal; 4 straddle", ante=0)
    assert state["bet_level"] == 20 and state["to_act"] == 1
    option = play(profile, "deal; 4 straddle; 1 call; 2 call; 3 call", ante=0)
    assert option["to_act"] == 4 and [m["type"] for m in option["legal"]] == ["check", "raise", "fold"]
    with pytest.raises(IllegalAction, match="cannot straddle"):
        play(profile, "deal; 4 call; 1 straddle", ante=0)


def test_blinds_need_the_basic_game() -> None:
    with pytest.raises(ProfileError, match="blinds: only with opening_minimum 'none'"):
        get_profile({"blinds": [5, 10]})


# --------------------------------------------------------------------------- D13 several draws; D2 four to an ace

def test_D13_three_draws_each_with_a_round_of_betting() -> None:
    profile = {"draw_rounds": 3}
    base = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"
    state = play(profile, base + "; 3 draw 1; 4 draw 2; 3 check; 4 check")
    assert state["phase"] == "draw" and "draw 2 of 3" in state["message"]
    state = play(profile, base + "; 3 draw 1; 4 draw 2; 3 bet; 4 call; 3 draw 0; 4 draw 1; 3 check; 4 check")
    assert state["phase"] == "draw" and state["pot"] == 80  # the bet after a draw is the big bet
    state = play(profile, base + "; 3 draw 1; 4 draw 2; 3 check; 4 check; 3 draw 0; 4 draw 1; 3 check; 4 check; "
                               "3 draw 0; 4 draw 0; 3 check; 4 check")
    assert state["phase"] == "showdown" and state["seats"][4]["drawn"] == 3
    with pytest.raises(IllegalAction, match="openers are split in the first draw"):
        play(profile, base + "; 3 draw 1; 4 draw 2; 3 check; 4 check; 3 draw 1 split Jh")


def test_D2_four_cards_only_to_an_ace_checked_at_the_show() -> None:
    profile = {"max_draw": 3, "ace_draws_four": True}
    base = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 4; 3 check; 4 check; 3 show Ks Kd 8h 5c 2c"
    assert play(profile, base + "; 4 show Ac Ad 9h 7s 3c")["awards"] == {4: 40}
    dead = play(profile, base + "; 4 show Qc Qd Qh 7s 3c")  # trips, but no ace kept: dead (D2)
    assert dead["awards"] == {3: 40} and "four cards were drawn without an ace kept" in dead["message"]
    with pytest.raises(IllegalAction, match="at most 3 cards, or 4 when keeping an ace"):
        play(profile, "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 5")


# --------------------------------------------------------------------------- D11 the age

AGE = {"base": "foster", "age": True}


def test_D11_the_age_puts_up_a_blind_and_anyone_may_come_in() -> None:
    state = play(AGE, "deal")
    assert state["seats"][2]["committed"] == 10 and state["to_act"] == 3 and state["pot"] == 10
    assert "seat 2 is the age" in state["message"]
    # the first bet after the draw comes from the player left of the age
    state = play(AGE, "deal; 3 call; 4 fold; 1 fold; 2 check; 2 draw 1; 3 draw 2")
    assert state["phase"] == "postdraw" and state["to_act"] == 3


def test_D11_nobody_comes_in_against_the_age_the_next_deal_is_a_jack_pot() -> None:
    text = "deal; 3 fold; 4 fold; 1 fold"
    state = play(AGE, text)
    assert state["awards"] == {2: 10} and "the next deal is played as a jack pot (D11)" in state["message"]
    jack_pot = play(AGE, text + "; deal")
    assert jack_pot["pot"] == 20 and jack_pot["jackpot"]["requirement"] == "J"  # antes from all, openers needed
    back = play(AGE, text + "; deal; 3 open; 4 fold; 1 fold; 2 fold; 3 show Qs Qd 7h 4c 2c; deal")
    assert "blind deal" in back["message"] and back["pot"] == 10
    chips(back)


# --------------------------------------------------------------------------- H4 wild cards: any rank, wild widow

def test_H4_fives_wild_make_five_of_a_kind() -> None:
    fives = {"wild": "rank", "wild_rank": "5"}
    base = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 1; 3 check; 4 check"
    state = play(fives, base + "; 3 show Ks Kd 5h 5c 2c; 4 show As Ad Ac 9h 8d", profile_base="cardroom")
    assert state["awards"] == {3: 40}  # four kings with two fives beat three aces


def test_H4_wild_widow_the_card_turned_up_makes_its_rank_wild() -> None:
    widow = {"wild": "widow"}
    state = play(widow, "deal")
    assert state["legal"] == [{"type": "widow"}] and state["to_act"] == 2
    with pytest.raises(IllegalAction, match="the widow card is turned up first"):
        play(widow, "deal; 2 pass")
    state = replay(table(4, profile={"base": "cardroom", **widow}), [{"type": "deal"}, {"type": "widow", "card": "9h"}])
    assert state["widow"] == "9h" and state["legal"][0]["type"] == "pass" and state["stub"] == 52 - 20 - 1
    events = [{"type": "deal"}, {"type": "widow", "card": "9h"}] + log(
        "2 pass; 3 open; 4 call; 1 fold; 2 fold; 3 draw 1; 4 draw 1; 3 check; 4 check; "
        "3 show Ks Kd 9c 9d 2c; 4 show As Ad Ac 7h 8d")
    won = replay(table(4, profile={"base": "cardroom", **widow}), events)
    assert won["awards"] == {3: 40}  # two nines wild: four kings
    with pytest.raises(IllegalAction, match="9h is the widow card"):
        replay(table(4, profile={"base": "cardroom", **widow}), events[:-2] + [
            {"type": "show", "seat": 3, "cards": "Ks Kd 9h 9d 2c"}])
