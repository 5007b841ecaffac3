"""The floor decision tree (rules.rulings, rules.rulings.tree): one scenario per leaf, every outcome code,
the profiles where they differ, MissingFact for every question, chip conservation, printing.

Each test names the rule id(s) and the outcome it checks.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from rules import IllegalAction, MissingFact, RulesError
from rules.profiles import get_profile
from rules.rulings import FACTS, Move, Outcome, Ruling, build_tree, eligible_reopeners, questions_for, resolve
from rules.rulings.false_openers import PLAYS_BECAUSE  # the reasons any one of which makes the pot play (F5)
from rules.rulings.tree import Leaf, Question
from rules.rulings.tree_drawing import to_svg

# --------------------------------------------------------------------------- fact builders

FO = {"issue": "false_openers", "opener": 3}


def before_draw(**extra: Any) -> dict[str, Any]:
    """False openers found before the draw, not all in, betting still open, one caller."""
    facts: dict[str, Any] = {
        **FO, "found": "before_draw", "opener_all_in": False, "action_complete_before_draw": False,
        "raise_before_draw": False, "callers": 1, "active": [1, 2, 3, 4, 5], "passed": [1, 2],
        "opener_bets": [10], "bets": {"4": 10},
    }
    facts.update(extra)
    return facts


SHOWDOWN = {1: "Ks Kd 4c 4d 9h", 2: "As Ad 3c 7d 9s", 3: "Tc Td Ah Ks Qc"}

#: (name, profile, facts, outcome, leaf id): one scenario for every leaf of the named profiles.
SCENARIOS: list[tuple[str, str, dict[str, Any], Outcome, str]] = [
    # false openers, cardroom (F2-F7)
    ("F5 two callers, betting open", "cardroom", before_draw(callers=2, opener_bets=[10, 10]),
     Outcome.POT_PLAYS_OPENER_DEAD, "fo_plays_open"),
    ("F5/F6 action complete", "cardroom", before_draw(action_complete_before_draw=True, opener_bets=[10, 10]),
     Outcome.POT_PLAYS_OPENER_DEAD, "fo_plays_complete"),
    ("F1/F5 found after the draw", "cardroom", {**FO, "found": "after_draw"},
     Outcome.POT_PLAYS_OPENER_DEAD, "fo_after_draw"),
    ("F3 reopened", "cardroom", before_draw(reopener=4, opener_bets=[10, 20], bets={"4": 30}),
     Outcome.REOPENED, "fo_reopened"),
    ("F4 nobody reopens", "cardroom", before_draw(reopener=None),
     Outcome.POT_CARRIES_OVER, "fo_carries"),
    ("F3/F4 nobody eligible", "cardroom", before_draw(active=[1, 3, 4], passed=[1, 4]),
     Outcome.POT_CARRIES_OVER, "fo_carries_nobody"),
    ("F7/F5 all in, pot plays", "cardroom", before_draw(opener_all_in=True, raise_before_draw=True),
     Outcome.ALL_IN_OPENER_BARRED, "fo_allin_plays"),
    ("F7/F3 all in, reopened", "cardroom", before_draw(opener_all_in=True, opener_bets=[0], reopener=5),
     Outcome.ALL_IN_OPENER_BARRED, "fo_allin_reopened"),
    ("F7/F4 all in, nobody reopens", "cardroom", before_draw(opener_all_in=True, reopener=None),
     Outcome.ALL_IN_OPENER_BARRED, "fo_allin_carries"),
    ("F7/F3 all in, nobody eligible", "cardroom", before_draw(opener_all_in=True, passed=[1, 2, 4, 5]),
     Outcome.ALL_IN_OPENER_BARRED, "fo_allin_carries_nobody"),
    # false openers, foster (F9)
    ("F9 before draw, callers", "foster", {**FO, "found": "before_draw", "callers": 2},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_plays"),
    ("F9 before draw, nobody in", "foster", {**FO, "found": "before_draw", "callers": 0,
                                             "raise_before_draw": False},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_stays"),
    ("F9 drawn to", "foster", {**FO, "found": "after_draw", "drawn_to": True, "callers": 1},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_drawn_plays"),
    ("F9 drawn to, nobody left", "foster", {**FO, "found": "after_draw", "drawn_to": True, "callers": 0,
                                            "raise_before_draw": False},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_drawn_stays"),
    ("F9 after draw, not drawn to", "foster", {**FO, "found": "after_draw", "drawn_to": False,
                                               "callers": 0, "raise_before_draw": True},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_after_plays"),
    ("F9 after draw, nobody", "foster", {**FO, "found": "after_draw", "drawn_to": False, "callers": 0,
                                         "raise_before_draw": False},
     Outcome.FOSTER_FORFEIT, "fo_forfeit_after_stays"),
    # opener cannot show (F1, F8)
    ("F1 proved", "cardroom", {"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Jc Jd 7h 4s 2c"},
     Outcome.OPENER_PROVED, "cs_proved"),
    ("F1/F8 everyone folded", "cardroom", {"issue": "opener_cannot_show", "opener": 3,
                                           "opening_hand": "Tc Td Ah Ks Qc", "everyone_folded": True},
     Outcome.OPENER_DEAD_POT_STAYS, "cs_pot_stays"),
    ("F7/F8 all-in opener cannot show, everyone folded", "cardroom",
     {"issue": "opener_cannot_show", "opener": 3, "opening_hand": None, "everyone_folded": True,
      "opener_all_in": True},
     Outcome.OPENER_DEAD_POT_STAYS, "cs_pot_stays_barred"),
    ("F1 kept jacks prove openers", "cardroom", {"issue": "opener_cannot_show", "opener": 3,
                                                 "final_hand": "Jc Jd 9h 4s 2c", "drawn": 3},
     Outcome.OPENER_PROVED, "cs_proved"),
    ("F1 a straight made by the draw proves nothing", "cardroom",
     {"issue": "opener_cannot_show", "opener": 3, "final_hand": "7c 8d 9h Ts Jc", "drawn": 1,
      "everyone_folded": False, "hands": SHOWDOWN},
     Outcome.OPENER_DEAD_BEST_OTHER_WINS, "cs_best_other"),
    ("F8 pagat everyone folded", "pagat", {"issue": "opener_cannot_show", "opener": 3,
                                           "opening_hand": None, "everyone_folded": True},
     Outcome.OPENER_DEAD_POT_STAYS, "cs_pot_stays"),
    ("F8 best other hand", "cardroom", {"issue": "opener_cannot_show", "opener": 3,
                                        "opening_hand": "Tc Td Ah Ks Qc", "everyone_folded": False,
                                        "hands": SHOWDOWN},
     Outcome.OPENER_DEAD_BEST_OTHER_WINS, "cs_best_other"),
    ("F1 foster proved", "foster", {"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Jc Jd 7h 4s 2c"},
     Outcome.OPENER_PROVED, "cs_proved"),
    ("F9/D7 foster folded, drawn to", "foster", {"issue": "opener_cannot_show", "opener": 3,
                                                 "opening_hand": None, "everyone_folded": True, "drawn_to": True},
     Outcome.FOSTER_FORFEIT, "cs_forfeit_drawn"),
    ("F9/D7 foster folded", "foster", {"issue": "opener_cannot_show", "opener": 3, "opening_hand": None,
                                       "everyone_folded": True, "drawn_to": False},
     Outcome.FOSTER_FORFEIT, "cs_forfeit"),
    ("F9/H5 foster showdown, drawn to", "foster", {"issue": "opener_cannot_show", "opener": 3,
                                                   "opening_hand": None, "everyone_folded": False,
                                                   "drawn_to": True, "hands": SHOWDOWN},
     Outcome.OPENER_DEAD_BEST_OTHER_WINS, "cs_best_drawn"),
    ("F9/H5 foster showdown", "foster", {"issue": "opener_cannot_show", "opener": 3, "opening_hand": None,
                                         "everyone_folded": False, "drawn_to": False, "hands": SHOWDOWN},
     Outcome.OPENER_DEAD_BEST_OTHER_WINS, "cs_best"),
    # split openers (S1-S3)
    ("S3 kept openers", "cardroom", {"issue": "split_openers", "opener": 3,
                                     "opening_hand": "As Jk Ks Qs Tc", "discards": "Tc"},
     Outcome.NOT_SPLITTING, "sp_not_splitting"),
    ("S3 kept openers, no joker", "foster", {"issue": "split_openers", "opener": 3,
                                             "opening_hand": "Qs Qh Qd 7s 6s", "discards": "Qd"},
     Outcome.NOT_SPLITTING, "sp_not_splitting"),
    ("S1 split, opening hand known", "cardroom", {"issue": "split_openers", "opener": 3,
                                                  "opening_hand": "Qs Qh Ts 7s 6s", "discards": "Qh"},
     Outcome.SPLIT_VERIFIED, "sp_verified"),
    ("S2 opening hand known, no openers", "cardroom", {"issue": "split_openers", "opener": 3,
                                                       "opening_hand": "Ts Th 7s 6s 2d", "discards": "Th"},
     Outcome.SPLIT_FAILED, "sp_failed"),
    ("S2 escrow proves", "cardroom", {"issue": "split_openers", "opener": 3, "opening_hand": None,
                                      "final_hand": "Ah Kh 9h 6h 3h", "discards": "Jc Jd"},
     Outcome.SPLIT_VERIFIED, "sp_verified_escrow"),
    ("S2 escrow cannot add up", "cardroom", {"issue": "split_openers", "opener": 3, "opening_hand": None,
                                             "final_hand": "Ah Kh 9h 6h 3h", "discards": "Jc"},
     Outcome.SPLIT_FAILED, "sp_failed_escrow"),
    # F9 with S2: in Foster's game a split that proves false is a false opener's, with the penalty
    ("F9/S2 foster, opening hand known, drawn to", "foster", {
        "issue": "split_openers", "opener": 3, "opening_hand": "Ts Th 7s 6s 2d", "discards": "Th",
        "drawn_to": True}, Outcome.SPLIT_FAILED, "sp_failed_drawn"),
    ("F9/S2 foster, opening hand known", "foster", {
        "issue": "split_openers", "opener": 3, "opening_hand": "Ts Th 7s 6s 2d", "discards": "Th",
        "drawn_to": False}, Outcome.SPLIT_FAILED, "sp_failed_undrawn"),
    ("F9/S2 foster, escrow cannot add up, drawn to", "foster", {
        "issue": "split_openers", "opener": 3, "opening_hand": None, "final_hand": "Ah Kh 9h 6h 3h",
        "discards": "Jc", "drawn": 1, "drawn_to": True}, Outcome.SPLIT_FAILED, "sp_failed_escrow_drawn"),
    ("F9/S2 foster, escrow cannot add up", "foster", {
        "issue": "split_openers", "opener": 3, "opening_hand": None, "final_hand": "Ah Kh 9h 6h 3h",
        "discards": "Jc", "drawn": 1, "drawn_to": False}, Outcome.SPLIT_FAILED, "sp_failed_escrow_undrawn"),
    # wrong number of cards (H6, D8)
    ("H6/D8 after the draw", "cardroom", {"issue": "wrong_card_count", "found": "after_draw", "seat": 2,
                                          "card_count": 6},
     Outcome.HAND_DEAD_CARD_COUNT, "wc_dead_after"),
    ("D8 before the draw, corrected", "cardroom", {"issue": "wrong_card_count", "found": "before_draw",
                                                   "seat": 2, "card_count": 4},
     Outcome.CARD_COUNT_CORRECTED, "wc_corrected"),
    ("D8 before the draw, foster: dead", "foster", {"issue": "wrong_card_count", "found": "before_draw",
                                                    "seat": 2, "card_count": 4},
     Outcome.HAND_DEAD_CARD_COUNT, "wc_dead_before"),
    ("H6 foster after the draw", "foster", {"issue": "wrong_card_count", "found": "after_draw", "seat": 2,
                                            "card_count": 4},
     Outcome.HAND_DEAD_CARD_COUNT, "wc_dead_after"),
    # retrieving discards (F11)
    ("F11 floor allows", "cardroom", {"issue": "discard_retrieval", "opener": 3, "retrieval_allowed": True},
     Outcome.DISCARDS_RETRIEVED, "rd_retrieved"),
    ("F11 floor refuses", "cardroom", {"issue": "discard_retrieval", "opener": 3, "retrieval_allowed": False},
     Outcome.RETRIEVAL_REFUSED, "rd_refused"),
    ("F11 never (pagat)", "pagat", {"issue": "discard_retrieval", "opener": 3},
     Outcome.RETRIEVAL_REFUSED, "rd_refused"),
    ("F11 never (foster)", "foster", {"issue": "discard_retrieval", "opener": 3},
     Outcome.RETRIEVAL_REFUSED, "rd_refused"),
    # a caller who wants the bet back (F10)
    ("F10 cardroom", "cardroom", {"issue": "caller_refund", "seat": 5}, Outcome.CALLER_NOT_REFUNDED,
     "cr_not_refunded"),
    ("F10 pagat", "pagat", {"issue": "caller_refund", "seat": 5}, Outcome.CALLER_NOT_REFUNDED, "cr_not_refunded"),
    ("F10 foster", "foster", {"issue": "caller_refund", "seat": 5}, Outcome.CALLER_NOT_REFUNDED,
     "cr_not_refunded"),
    # a card faced while the draw is dealt (D12): replaced once the others have drawn, or at once
    ("D12 others to draw", "cardroom", {"issue": "exposed_card", "seat": 2, "others_to_draw": True},
     Outcome.EXPOSED_CARD_REPLACED, "ec_after_others"),
    ("D12 last to draw", "cardroom", {"issue": "exposed_card", "seat": 2, "others_to_draw": False},
     Outcome.EXPOSED_CARD_REPLACED, "ec_now"),
    ("D12 pagat", "pagat", {"issue": "exposed_card", "seat": 2, "others_to_draw": True},
     Outcome.EXPOSED_CARD_REPLACED, "ec_after_others"),
    ("D12 foster", "foster", {"issue": "exposed_card", "seat": 2, "others_to_draw": False},
     Outcome.EXPOSED_CARD_REPLACED, "ec_now"),
    # who shows first (D6, the dispute kind added to show that a kind is declared in one place):
    # the last bettor or raiser of the final round, else the opener
    ("D6 last bettor", "cardroom", {"issue": "show_order", "last_bettor": 4}, Outcome.SHOWS_FIRST,
     "so_last_bettor"),
    ("D6 all checked", "cardroom", {"issue": "show_order", "last_bettor": None, "opener": 3},
     Outcome.SHOWS_FIRST, "so_opener"),
    ("D6 pagat", "pagat", {"issue": "show_order", "last_bettor": "none", "opener": 2}, Outcome.SHOWS_FIRST,
     "so_opener"),
    ("D6 foster", "foster", {"issue": "show_order", "last_bettor": "5"}, Outcome.SHOWS_FIRST, "so_last_bettor"),
]

IDS = [s[0] for s in SCENARIOS]


@pytest.mark.parametrize(("name", "profile", "facts", "outcome", "leaf"), SCENARIOS, ids=IDS)
def test_scenario_reaches_its_leaf(name: str, profile: str, facts: dict[str, Any], outcome: Outcome,
                                   leaf: str) -> None:
    """Every scenario: the outcome code and leaf, a summary citing the leaf's rules, JSON round trip."""
    r = resolve(facts, profile)
    assert (r.outcome, r.leaf) == (outcome, leaf)
    assert r.profile == profile
    assert r.citations and all(re.search(rf"[(, ]{c}[,)]", r.summary) for c in r.citations), r.summary
    d = json.loads(json.dumps(r.to_dict()))
    assert d["outcome"] == outcome.value
    assert Ruling.from_dict(d) == r


def test_every_outcome_code_has_a_scenario() -> None:
    """All eighteen outcome codes are reached by some scenario."""
    assert {s[3] for s in SCENARIOS} == set(Outcome)


def _rulings_under(profile: str) -> list[tuple[dict[str, Any], Ruling]]:
    """Every scenario's facts resolved under ``profile`` (those complete enough for its tree)."""
    out = []
    for _, _, facts, _, _ in SCENARIOS:
        try:
            out.append((facts, resolve(facts, profile)))
        except (MissingFact, RulesError):
            continue
    return out


@pytest.mark.parametrize("profile", ["cardroom", "pagat", "foster"])
def test_every_leaf_of_the_profile_has_a_scenario(profile: str) -> None:
    """Each leaf of each named profile's tree is reached by some scenario's facts."""
    leaves = {leaf.id for leaf in build_tree(profile).leaves()}
    assert leaves == {r.leaf for _, r in _rulings_under(profile)}


def test_every_outcome_reachable_across_profiles() -> None:
    reachable = set().union(*(build_tree(p).outcomes() for p in ("cardroom", "pagat", "foster")))
    assert reachable == set(Outcome)


# --------------------------------------------------------------------------- false openers, cardroom


def test_f2_f5_pot_plays_with_two_callers_and_later_bets_return() -> None:
    """F2, F5: POT_PLAYS_OPENER_DEAD; the opener's raise comes back while the betting is open."""
    r = resolve(before_draw(callers=2, opener_bets=[10, 10]))
    assert r.outcome == Outcome.POT_PLAYS_OPENER_DEAD
    assert r.dead == (3,) and r.pot_plays and r.returns == {3: 10}
    assert r.citations == ("F2", "F5")
    assert "Two players called the opening bet, so the pot plays (F5)" in r.summary
    assert "Handed back from the pot: seat 3 gets 10." in r.summary


def test_f5_raise_makes_the_pot_play_without_asking_callers() -> None:
    """F5: a raise alone makes the pot play; the number of callers is then not asked."""
    facts = before_draw(raise_before_draw=True, opener_bets=[10])
    del facts["callers"]
    r = resolve(facts)
    assert r.outcome == Outcome.POT_PLAYS_OPENER_DEAD and r.returns == {}


def test_f6_action_complete_nothing_returned() -> None:
    """F5, F6: POT_PLAYS_OPENER_DEAD with the betting over: the opener takes nothing back."""
    facts = before_draw(action_complete_before_draw=True, opener_bets=[10, 20])
    r = resolve(facts)
    assert r.outcome == Outcome.POT_PLAYS_OPENER_DEAD
    assert r.returns == {} and r.citations == ("F2", "F5", "F6")


def test_f3_reopened_returns_everything_but_the_opening_bet() -> None:
    """F2, F3: REOPENED: bets go back except the false opener's first; the reopener opens afresh."""
    r = resolve(before_draw(reopener="4", opener_bets=[10, 20], bets={"4": 30}))
    assert r.outcome == Outcome.REOPENED
    assert r.returns == {3: 20, 4: 30}
    assert r.reopener == 4 and r.pot_plays and r.dead == (3,)
    assert r.may_reopen == (4, 5)
    assert "Seat 4 declares the pot open (F3)" in r.summary


def test_f3_passed_player_may_not_reopen() -> None:
    """F3: a player who passed before the opening cannot reopen: IllegalAction naming the seats allowed."""
    with pytest.raises(IllegalAction, match="allowed: 4, 5, nobody"):
        resolve(before_draw(reopener=2))


def test_f4_pot_carries_over() -> None:
    """F4: POT_CARRIES_OVER: every bet back but the opening bet; the pot does not play."""
    r = resolve(before_draw(reopener=None, opener_bets=[10], bets={4: 10}))
    assert r.outcome == Outcome.POT_CARRIES_OVER
    assert r.returns == {4: 10} and not r.pot_plays and r.may_reopen == ()


def test_f4_nobody_eligible_does_not_ask_reopener() -> None:
    """F3, F4: POT_CARRIES_OVER when nobody may reopen; the reopener is never asked."""
    r = resolve(before_draw(active=[1, 3, 4], passed=[1, 4]))
    assert r.outcome == Outcome.POT_CARRIES_OVER
    assert [s.node for s in r.path][-1] == "fo_can_reopen"
    assert "reopener" not in {f for s in r.path for f in s.facts}


def test_f7_all_in_opener_barred_variants() -> None:
    """F7: ALL_IN_OPENER_BARRED: barred and dead; pot_plays true iff the pot plays anyway or a reopener."""
    plays = resolve(before_draw(opener_all_in=True, callers=2))
    assert plays.barred == (3,) and plays.dead == (3,) and plays.pot_plays and plays.returns == {}
    reopened = resolve(before_draw(opener_all_in=True, opener_bets=[0], reopener=5))
    assert reopened.pot_plays and reopened.reopener == 5 and reopened.may_reopen == (4, 5)
    assert reopened.returns == {4: 10} and reopened.barred == (3,)
    stays = resolve(before_draw(opener_all_in=True, reopener=None))
    assert not stays.pot_plays and stays.returns == {4: 10} and stays.barred == (3,)
    assert "F7" in stays.citations and "F4" in stays.citations


def test_f1_found_after_draw_pot_plays() -> None:
    """F1, F5, F6: found after the draw the pot plays on without the opener; nothing goes back."""
    r = resolve({**FO, "found": "after_draw"})
    assert r.outcome == Outcome.POT_PLAYS_OPENER_DEAD and r.returns == {} and r.dead == (3,)


# --------------------------------------------------------------------------- foster


def test_f9_foster_differs_from_cardroom_on_the_same_deal() -> None:
    """F9 vs F2/F5: the same facts give FOSTER_FORFEIT under foster, POT_PLAYS_OPENER_DEAD under cardroom."""
    facts = before_draw(callers=2, opener_bets=[10, 10])
    assert resolve(facts, "cardroom").outcome == Outcome.POT_PLAYS_OPENER_DEAD
    r = resolve(facts, "foster")
    assert r.outcome == Outcome.FOSTER_FORFEIT
    assert r.returns == {} and r.pot_plays and r.ante_for_all is None and r.dead == (3,)


def test_f9_foster_drawn_to_antes_for_all() -> None:
    """F9: FOSTER_FORFEIT after others drew: the opener antes for every other player next deal."""
    r = resolve({**FO, "found": "after_draw", "drawn_to": True, "callers": 1}, "foster")
    assert r.ante_for_all == 3 and r.pot_plays and r.returns == {}
    assert "antes for every other player" in r.summary


def test_f9_foster_nobody_came_in_pot_stays() -> None:
    """F9: FOSTER_FORFEIT with nobody in: the pot stays for the next deal."""
    r = resolve({**FO, "found": "before_draw", "callers": 0, "raise_before_draw": False}, "foster")
    assert not r.pot_plays and r.ante_for_all is None


def test_foster_tree_never_asks_all_in_or_reopener() -> None:
    """F9 replaces F2-F7 under foster: those questions are not in its tree."""
    asked = {f for q in build_tree("foster").questions() for f in q.needs}
    assert not asked & {"opener_all_in", "reopener", "passed", "active"}


# --------------------------------------------------------------------------- opener cannot show


def test_f1_opener_proved() -> None:
    """F1, O1: OPENER_PROVED when the cards shown open (the bug and an ace are a pair of aces)."""
    r = resolve({"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Ah Jk 9c 6d 2s"})
    assert r.outcome == Outcome.OPENER_PROVED and r.dead == () and r.pot_plays


def test_f8_pot_stays_cardroom_and_pagat() -> None:
    """F8: OPENER_DEAD_POT_STAYS under cardroom and pagat; foster forfeits instead (F9)."""
    facts = {"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Tc Td Ah Ks Qc",
             "everyone_folded": True, "drawn_to": False}
    for profile in ("cardroom", "pagat"):
        r = resolve(facts, profile)
        assert r.outcome == Outcome.OPENER_DEAD_POT_STAYS
        assert not r.pot_plays and r.winner is None and r.dead == (3,) and r.returns == {}
    assert resolve(facts, "foster").outcome == Outcome.FOSTER_FORFEIT


def test_f8_best_other_hand_wins() -> None:
    """F8, H5: OPENER_DEAD_BEST_OTHER_WINS: aces beat kings up; the opener's hand is passed over."""
    r = resolve({"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Tc Td Ah Ks Qc",
                 "everyone_folded": False, "hands": {"1": "Ks Kd 4c 4d 9h", "2": "As Ad Ac 7d 9s",
                                                      "3": "Tc Td Ah Kc Qc"}})
    assert r.outcome == Outcome.OPENER_DEAD_BEST_OTHER_WINS
    assert r.winner == 2 and r.winners == (2,) and r.dead == (3,)


def test_h5_tie_splits_and_h6_foul_hand_passed_over() -> None:
    """H5, H6: an exact tie gives winner null and winners both; a six-card hand is foul."""
    r = resolve({"issue": "opener_cannot_show", "opener": 3, "opening_hand": None, "everyone_folded": False,
                 "hands": {1: "Ks Kd 4c 4d 9h", 2: "Kh Kc 4h 4s 9d", 4: "As Ad Ac Ah 2c 3c"}})
    assert r.winner is None and r.winners == (1, 2)
    assert "split the pot (H5)" in r.summary


def test_f8_no_other_hand_is_an_error() -> None:
    with pytest.raises(RulesError, match="everyone_folded"):
        resolve({"issue": "opener_cannot_show", "opener": 3, "opening_hand": None, "everyone_folded": False,
                 "hands": {3: "Tc Td Ah Kc Qc"}})


# --------------------------------------------------------------------------- split openers


def test_s3_not_splitting() -> None:
    """S3: NOT_SPLITTING: throwing the ten from A-bug-K-Q of spades keeps two aces."""
    r = resolve({"issue": "split_openers", "opener": 3, "opening_hand": "As Jk Ks Qs Tc", "discards": "Tc"})
    assert r.outcome == Outcome.NOT_SPLITTING and r.dead == ()


def test_s2_split_verified_and_failed_from_escrow() -> None:
    """S2: SPLIT_VERIFIED when final hand + escrow can open; SPLIT_FAILED (opener dead) when not."""
    base = {"issue": "split_openers", "opener": 3, "opening_hand": None, "final_hand": "Ah Kh 9h 6h 3h"}
    ok = resolve({**base, "discards": "Jc Jd"})
    assert ok.outcome == Outcome.SPLIT_VERIFIED and ok.dead == ()
    bad = resolve({**base, "discards": "Jc"})
    assert bad.outcome == Outcome.SPLIT_FAILED and bad.dead == (3,)
    assert "loses the pot (S2)" in bad.summary


# --------------------------------------------------------------------------- card count, retrieval, refund


def test_h6_d8_wrong_count_per_profile() -> None:
    """H6, D8: dead after the draw everywhere; before the draw corrected (cardroom) or dead (foster)."""
    after = {"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 6}
    before = {**after, "found": "before_draw", "card_count": 4}
    for profile in ("cardroom", "pagat", "foster"):
        r = resolve(after, profile)
        assert r.outcome == Outcome.HAND_DEAD_CARD_COUNT and r.dead == (2,)
    assert resolve(before, "cardroom").outcome == Outcome.CARD_COUNT_CORRECTED
    assert resolve(before, "cardroom").dead == ()
    assert resolve(before, "foster").outcome == Outcome.HAND_DEAD_CARD_COUNT
    custom = {"base": "cardroom", "name": "Strict room", "wrong_count_before_draw": "dead"}
    assert resolve(before, custom).outcome == Outcome.HAND_DEAD_CARD_COUNT


def test_d8_five_cards_is_not_a_dispute() -> None:
    with pytest.raises(RulesError, match="card_count"):
        resolve({"issue": "wrong_card_count", "found": "after_draw", "seat": 2, "card_count": 5})


def test_f11_retrieval_per_profile() -> None:
    """F11: DISCARDS_RETRIEVED / RETRIEVAL_REFUSED: floor decides (cardroom), never (pagat), always (custom)."""
    facts = {"issue": "discard_retrieval", "opener": 3}
    with pytest.raises(MissingFact) as info:
        resolve(facts, "cardroom")
    assert info.value.fact == "retrieval_allowed"
    assert resolve({**facts, "retrieval_allowed": "yes"}).outcome == Outcome.DISCARDS_RETRIEVED
    assert resolve(facts, "pagat").outcome == Outcome.RETRIEVAL_REFUSED
    always = {"base": "cardroom", "name": "Lenient", "discard_retrieval": "always"}
    assert resolve(facts, always).outcome == Outcome.DISCARDS_RETRIEVED


def test_f10_caller_not_refunded() -> None:
    """F10: CALLER_NOT_REFUNDED, the same in every profile (the other sources are silent)."""
    for profile in ("cardroom", "pagat", "foster"):
        r = resolve({"issue": "caller_refund", "seat": "5"}, profile)
        assert r.outcome == Outcome.CALLER_NOT_REFUNDED and r.returns == {} and "Seat 5" in r.summary


# --------------------------------------------------------------------------- MissingFact


def _question_facts(tree_profile: str) -> dict[str, set[str]]:
    """Question node id -> the facts it reads."""
    return {q.id: set(q.needs) for q in build_tree(tree_profile).questions()}


@pytest.mark.parametrize("profile", ["cardroom", "pagat", "foster"])
def test_missing_fact_named_for_every_question_node(profile: str) -> None:
    """For every question node of the tree, leaving out one of its facts raises MissingFact naming
    that fact (with the floor's question); scenarios cover every node."""
    seen: set[str] = set()
    for facts, r in _rulings_under(profile):
        leaf = next(leaf for leaf in build_tree(profile).leaves() if leaf.id == r.leaf)
        used = {f for s in r.path for f in s.facts} | set(leaf.needs)
        for step in r.path:
            seen.add(step.node)
        known_only = {n for step in r.path for q in build_tree(profile).questions() if q.id == step.node
                      for n in q.when_known}
        for name in facts:
            smaller = {k: v for k, v in facts.items() if k != name}
            if name in known_only:
                continue  # read when known: left out, the question answers without it
            try:
                resolve(smaller, profile)
            except MissingFact as missing:
                assert missing.fact == name
                assert missing.question == FACTS[name].question
            else:  # only facts a derived question skipped (short-circuit) may go unasked
                assert name not in used or name in PLAYS_BECAUSE, name
    assert seen == set(_question_facts(profile))


def test_missing_fact_first_question() -> None:
    with pytest.raises(MissingFact) as info:
        resolve({})
    assert info.value.fact == "issue" and info.value.question == "What is the dispute about?"


def test_missing_leaf_fact_is_asked() -> None:
    """F4: the leaf's own facts (the bets to hand back) are asked, not guessed."""
    facts = before_draw(reopener=None)
    del facts["bets"]
    with pytest.raises(MissingFact, match="bets"):
        resolve(facts)


def test_questions_for_walks_one_question_at_a_time() -> None:
    """The floor page's loop: ask the next fact until the tree can rule."""
    for _, profile, facts, outcome, _ in SCENARIOS:
        given: dict[str, Any] = {}
        asked = []
        known_only = {n for q in build_tree(profile).questions() for n in q.when_known}
        while (prompt := questions_for(given, profile)) is not None:
            # a fact taken when known is asked too; the floor person may say it is not known
            assert prompt.fact in facts or prompt.fact in known_only, (prompt.fact, facts)
            assert prompt.fact not in given
            asked.append(prompt.fact)
            given[prompt.fact] = facts.get(prompt.fact, False if prompt.kind == "bool" else None)
            json.dumps(prompt.to_dict())
        assert resolve(given, profile).outcome == outcome
        assert len(asked) == len(set(asked))


def test_questions_for_offers_the_eligible_reopeners() -> None:
    """F3: the reopener prompt lists the eligible seats and nobody."""
    facts = before_draw()
    prompt = questions_for(facts)
    assert prompt is not None and prompt.fact == "reopener" and prompt.choices == (4, 5, None)
    assert eligible_reopeners(facts) == (4, 5)


# --------------------------------------------------------------------------- chip conservation


def _chips_put_in(facts: dict[str, Any]) -> dict[int, int]:
    put: dict[int, int] = {}
    if "opener_bets" in facts:
        put[int(facts["opener"])] = sum(facts["opener_bets"])
    for seat, chips in facts.get("bets", {}).items():
        put[int(seat)] = put.get(int(seat), 0) + int(chips)
    return put


def test_chip_conservation_scenarios() -> None:
    """F2, F4: returns never exceed what each seat put in; the opening bet never comes back."""
    for _, profile, facts, _, _ in SCENARIOS:
        r = resolve(facts, profile)
        put = _chips_put_in(facts)
        for seat, chips in r.returns.items():
            assert 0 < chips <= put.get(seat, 0)
        if "opener_bets" in facts and r.returns:
            assert r.returns.get(3, 0) <= sum(facts["opener_bets"][1:])


@pytest.mark.parametrize("seed", range(40))
def test_chip_conservation_random_deals(seed: int) -> None:
    """F2-F7 on random deals: returns are exactly the opener's later bets and (when bets go back)
    the other players' bets, and never more than the facts show."""
    rng = random.Random(seed)
    seats = list(range(1, rng.randint(3, 9) + 1))
    opener = rng.choice(seats)
    others = [s for s in seats if s != opener]
    facts = {
        "issue": "false_openers", "found": "before_draw", "opener": opener,
        "opener_all_in": rng.random() < 0.3, "action_complete_before_draw": rng.random() < 0.3,
        "raise_before_draw": rng.random() < 0.3, "callers": rng.randint(0, 3),
        "active": seats, "passed": rng.sample(others, rng.randint(0, len(others))),
        "opener_bets": [rng.choice([0, 5, 10])] + [rng.choice([10, 20]) for _ in range(rng.randint(0, 2))],
        "bets": {str(s): rng.choice([0, 10, 20]) for s in rng.sample(others, rng.randint(0, len(others)))},
    }
    eligible = eligible_reopeners(facts)
    facts["reopener"] = rng.choice([*eligible, None])
    for profile in ("cardroom", "foster"):
        r = resolve(facts, profile)
        put = _chips_put_in(facts)
        for seat, chips in r.returns.items():
            assert 0 < chips <= put[seat]
        assert r.returns.get(opener, 0) <= sum(facts["opener_bets"][1:])
        moves = set(next(leaf for leaf in build_tree(profile).leaves() if leaf.id == r.leaf).moves)
        expected: dict[int, int] = {}
        if Move.RETURN_OPENER_LATER_BETS in moves and sum(facts["opener_bets"][1:]):
            expected[opener] = sum(facts["opener_bets"][1:])
        if Move.RETURN_OTHER_BETS in moves:
            expected.update({int(s): c for s, c in facts["bets"].items() if c})
        assert r.returns == expected


def test_opener_listed_in_bets_must_agree() -> None:
    """Chips are not counted twice: the opener in ``bets`` must match ``opener_bets``."""
    r = resolve(before_draw(reopener=None, opener_bets=[10, 10], bets={3: 20, 4: 10}))
    assert r.returns == {3: 10, 4: 10}
    with pytest.raises(RulesError, match="opener_bets"):
        resolve(before_draw(reopener=None, opener_bets=[10, 10], bets={3: 50, 4: 10}))


# --------------------------------------------------------------------------- the tree as data and prints


@pytest.mark.parametrize("profile", ["cardroom", "pagat", "foster", {"base": "cardroom", "name": "Own room",
                                                                      "discard_retrieval": "always"}])
def test_tree_prints_text_and_svg(profile: Any) -> None:
    """The text outline names every reachable outcome with its rules; the SVG parses as XML."""
    tree = build_tree(get_profile(profile))
    text = tree.to_text()
    for outcome in tree.outcomes():
        assert str(outcome) in text
    for leaf in tree.leaves():
        assert f"({', '.join(leaf.rules)})" in text
    root = ET.fromstring(to_svg(tree))
    assert root.tag.endswith("svg")
    svg_text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for outcome in tree.outcomes():
        assert str(outcome).replace("_", "") in svg_text.replace("_", "").replace(" ", "")
    sub = ET.fromstring(to_svg(tree.subtree("false_openers")))
    assert sub.tag.endswith("svg")


def test_tree_is_data() -> None:
    """Questions are nodes with facts and labelled branches; leaves carry outcome, rules and moves."""
    tree = build_tree("cardroom")
    for node in tree.nodes():
        if isinstance(node, Question):
            assert node.needs and node.branches and all(b.label for b in node.branches)
            assert all(n in FACTS for n in node.needs)
        else:
            assert isinstance(node, Leaf) and node.rules and isinstance(node.outcome, Outcome)
            assert all(isinstance(m, Move) for m in node.moves)
    assert build_tree("cardroom") is build_tree("cardroom")


def test_seat_strings_and_bad_values() -> None:
    """Seats as digit strings are read as ints; unreadable values name the fact."""
    r = resolve({"issue": "wrong_card_count", "found": "after_draw", "seat": "7", "card_count": "4"})
    assert r.dead == (7,)
    with pytest.raises(RulesError, match="seat"):
        resolve({"issue": "caller_refund", "seat": "seven"})
    with pytest.raises(RulesError, match="issue"):
        resolve({"issue": "cheating"})


def test_o5_progressive_openers_ask_the_requirement() -> None:
    """O5, F1: with progressive openers the deal's requirement is asked, not guessed; queens do not
    prove openers when kings were needed (OPENER_DEAD_POT_STAYS), and do when queens were."""
    prog = {"base": "cardroom", "name": "Climbing", "progressive_openers": True}
    facts = {"issue": "opener_cannot_show", "opener": 3, "opening_hand": "Qc Qd 7h 4s 2c", "everyone_folded": True}
    with pytest.raises(MissingFact) as info:
        resolve(facts, prog)
    assert info.value.fact == "requirement"
    assert resolve({**facts, "requirement": "K"}, prog).outcome == Outcome.OPENER_DEAD_POT_STAYS
    assert resolve({**facts, "requirement": "Q"}, prog).outcome == Outcome.OPENER_PROVED
    assert resolve(facts).outcome == Outcome.OPENER_PROVED  # cardroom: jacks, never asks


def test_F5_a_known_raise_settles_whether_the_pot_plays() -> None:
    """F5: any one reason makes the pot play; with a raise known, the number of callers is not asked."""
    ruling = resolve({"issue": "false_openers", "found": "before_draw", "opener": 3, "opener_all_in": False,
                      "raise_before_draw": True, "action_complete_before_draw": False,
                      "opener_bets": [10, 10], "bets": {1: 20, 2: 20}})
    assert ruling.outcome == Outcome.POT_PLAYS_OPENER_DEAD
    assert ruling.returns == {3: 10}  # F2: the opener's later bet, while the action is not complete
