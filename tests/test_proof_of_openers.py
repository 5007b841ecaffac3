"""Proving openers on whole logged hands (F1, F7, F8, S1-S3, D7): the engine proves openers only with
the cards the opener kept, plus the whole escrow after a split; what the draw brought proves nothing.

Every test names the rule it checks and looks at what a player would see: stacks, the pot, the
seats' statuses, the award and the ruling's headline.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction
from rules.rulings import resolve
from tests.notation import play, stacks, statuses, table

T = table()
# seat 3 opens, seat 4 calls, seats 1 and 2 fold: a two-handed pot of 40 after the antes (20 + 10 + 10)
HEADS_UP = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"
NINES, KINGS = "9s 9d 2c 3c 4h", "Ks Kd 2d 3d 4c"


def last(state: dict[str, Any]) -> dict[str, Any]:
    return dict(state["rulings"][-1])


def showdown(opener_draw: str, opener_hand: str, other_hand: str = NINES) -> dict[str, Any]:
    """The opener shows first; the other hand shows only if the opener's hand stands (a dead opener
    leaves it uncontested: it wins without showing, issue 22)."""
    text = f"{HEADS_UP}; 3 draw {opener_draw}; 4 draw 2; 3 check; 4 check; 3 show {opener_hand}"
    state = play(T, text)
    return play(T, f"{text}; 4 show {other_hand}") if state["phase"] == "showdown" else state


# --------------------------------------------------------------------------- F1: kept cards prove


def test_F1_kept_jacks_prove_openers_after_drawing_three() -> None:
    """F1: the opener kept J-J and drew three; two cards of the final hand hold openers."""
    state = showdown("3", "Jc Jd 8h 5s 2s")
    assert state["awards"] == {3: 40} and state["rulings"] == []
    assert stacks(state) == {1: 495, 2: 495, 3: 525, 4: 485}


def test_F1_a_straight_made_by_the_draw_proves_nothing() -> None:
    """F1: opened 7-8-9-T-K (no openers), drew one and made a straight: the straight qualifies but
    four kept cards of it hold no pair, so the opener is dead and the other hand wins (F8)."""
    state = showdown("1", "7c 8d 9h Ts Jc")
    r = last(state)
    assert r["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and r["winner"] == 4
    assert state["awards"] == {4: 40} and stacks(state)[3] == 485 and stacks(state)[4] == 525
    assert r["headline"] == "Seat 4, P4, wins the pot of 40; seat 3's hand is dead"
    assert "takes the pot uncontested, without showing (D7)" in r["summary"]
    assert r["chips"] == {4: 40}


def test_F1_a_flush_made_by_the_draw_proves_nothing() -> None:
    """F1: drew one to four hearts and made the flush: no four of its cards hold openers."""
    state = showdown("1", "Ah Kh 9h 6h 3h")
    assert last(state)["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and state["awards"] == {4: 40}


def test_F1_trips_made_from_a_small_pair_prove_nothing() -> None:
    """F1: drew three to 9-9 and made trips: the two kept cards are a pair of nines, short of jacks."""
    state = showdown("3", "9c 9h 9s 6d 2h", KINGS)
    assert last(state)["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and state["awards"] == {4: 40}
    assert statuses(state)[3] == "active"  # dead in that deal; a new deal deals the seat in again


def test_F1_a_pat_hand_must_qualify_as_it_stands() -> None:
    """F1: standing pat, the final hand is the opening hand: tens up do not open."""
    state = showdown("0", "Ts Td Ah Kh Qc")
    assert last(state)["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"
    assert showdown("0", "Qs Qd 8h 5c 2s")["awards"] == {3: 40}


def test_F1_D7_opener_left_alone_after_the_draw_proves_with_kept_cards() -> None:
    """F1, D7: everyone folds to the opener's bet after the draw; the opener still proves openers,
    with the cards kept (here queens, three drawn), and takes the pot without a showdown."""
    base = f"{HEADS_UP}; 3 draw 3; 4 draw 1; 3 bet; 4 fold"
    state = play(T, base)
    assert state["phase"] == "showdown" and state["to_act"] == 3
    won = play(T, base + "; 3 show Qc Qh 7d 5s 3c")
    assert won["awards"] == {3: 60} and won["rulings"] == []
    lost = play(T, base + "; 3 show 6c 6h 6d 5s 3c")  # trips from a small pair: no proof
    assert lost["awards"] == {} and lost["pot"] == 60 and last(lost)["outcome"] == "OPENER_DEAD_POT_STAYS"
    assert last(lost)["headline"] == "Seat 3's hand is dead; the pot of 60 stays for the next deal"


# --------------------------------------------------------------------------- S1-S3: split openers


def test_S1_the_escrow_holds_every_discard() -> None:
    """S1: a split puts every discard under the chip; an escrow short of the discards is refused
    when it is logged, saying so."""
    with pytest.raises(IllegalAction, match=r"every discard goes under the chip \(S1\), so the escrow "
                                            r"lists all 2 discards, not 1"):
        play(T, f"{HEADS_UP}; 3 draw 2 split Jd")
    state = play(T, f"{HEADS_UP}; 3 draw 2 split Jd 4c")
    assert state["escrow"] == {3: ["Jd", "4c"]} and state["discards"] == 0


def test_S2_kept_cards_and_the_escrow_prove_a_split() -> None:
    """S2: Q-Q split to draw at a flush: the queen in escrow and the queen kept prove openers, though
    the flush was missed and the final hand is queen high."""
    state = play(T, f"{HEADS_UP}; 3 draw 1 split Qd; 4 draw 1; 3 check; 4 check; 3 show Qs 8s 7s 6s 2h; "
                    f"4 show 7d 6d 5c 3c 2c")
    assert state["awards"] == {3: 40} and state["rulings"] == []


def test_S2_a_final_hand_that_qualifies_proves_nothing_by_itself() -> None:
    """S2: the opener 'split' a king from 4-5-6-7 of hearts and made a straight: the straight opens,
    but no four cards of it with the king made openers, so the split fails and the pot goes to the
    other hand."""
    state = play(T, f"{HEADS_UP}; 3 draw 1 split Kc; 4 draw 1; 3 check; 4 check; 3 show 4h 5h 6h 7h 8d")
    r = last(state)
    assert (r["outcome"], r["dead"], r["citations"]) == ("SPLIT_FAILED", [3], ["S1", "S2"])
    assert state["awards"] == {4: 40}


def test_S2_F8_split_opener_left_alone_who_cannot_prove_leaves_the_pot() -> None:
    """S2, F8: a split opener left alone whose escrow does not add up cannot take the pot; with
    nobody else left it stays for the next deal."""
    state = play(T, f"{HEADS_UP}; 3 draw 1 split Kc; 4 draw 1; 3 bet; 4 fold; 3 show 4h 5h 6h 7h 8d")
    assert last(state)["outcome"] == "OPENER_DEAD_POT_STAYS" and state["pot"] == 60 and state["awards"] == {}


def test_S3_keeping_openers_is_not_splitting() -> None:
    """S3 (the rulebook's example): A-bug-K-Q of spades with the ten of clubs; throwing the ten keeps
    ace and bug, two aces: the opener proves openers with the cards kept."""
    state = showdown("1", "As Jk Ks Qs 4d")
    assert state["awards"] == {3: 40} and state["rulings"] == []
    r = resolve({"issue": "split_openers", "opener": 3, "opening_hand": "As Jk Ks Qs Tc", "discards": "Tc"})
    assert r.outcome.value == "NOT_SPLITTING" and r.proved == 3


def test_S2_resolve_needs_no_opening_hand() -> None:
    """S2 is decided by the final hand and the escrow: the opening hand, known only when known, may
    be left out, and then it is unknown (no MissingFact)."""
    ok = resolve({"issue": "split_openers", "opener": 2, "final_hand": "Js 8h 7h 6h 2h", "discards": "Jd"})
    bad = resolve({"issue": "split_openers", "opener": 2, "final_hand": "4h 5h 6h 7h 8d", "discards": "Kc"})
    assert (ok.outcome.value, bad.outcome.value) == ("SPLIT_VERIFIED", "SPLIT_FAILED")
    assert bad.dead == (2,) and ok.proved == 2


# --------------------------------------------------------------------------- F7 at the show


ALL_IN = table(stacks={3: 5})  # seat 3 has only its ante


#: seat 3, all in for its ante, opens for nothing; seat 4 bets and is the only one to stay; after
#: the draw nobody can bet, and at the showdown the opener shows first
ALL_IN_PLAY = "deal; 2 pass; 3 open 0; 4 bet; 1 fold; 2 fold; 3 draw 2; 4 draw 1"


def test_F7_all_in_opener_who_cannot_prove_at_the_show_is_barred() -> None:
    """F7: the all-in opener fails the proof at the show and the other hand is mucked: nobody can
    take the pot, so it stays (F8), and the seat is dealt out of the pot's later deals."""
    # the other hands are given up first (seat 4 bet last and shows first, D6): a hand still live
    # when the opener is found dead would take the pot uncontested (issue 22)
    text = ("deal; 2 pass; 3 open 0; 4 check; 1 check; 2 check; 2 draw 1; 3 draw 2; 4 draw 1; 1 draw 1; "
            "4 bet; 1 fold; 2 fold; 4 muck; 3 show Ts 9d 7h 4c 2c")
    state = play(ALL_IN, text)
    r = last(state)
    assert r["outcome"] == "OPENER_DEAD_POT_STAYS" and r["barred"] == [3] and "F7" in r["citations"]
    assert statuses(state)[3] == "barred" and state["pot"] == 40
    assert "dealt out of this pot until someone else wins it" in r["headline"]
    nxt = play(ALL_IN, text + "; deal")
    assert 3 not in nxt["dealt"] and nxt["seats"][3]["status"] == "barred"


def test_F7_all_in_opener_who_proves_plays_on() -> None:
    """F7 bars only a false opener: the all-in opener who proves openers takes the pot."""
    state = play(ALL_IN, ALL_IN_PLAY + "; 3 show Ks Kd 7h 4c 2c; 4 muck")
    assert state["awards"] == {3: 30} and state["rulings"] == []
