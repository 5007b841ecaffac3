"""Openers (O1, O5) and split openers (S1-S3), with the sources' worked examples."""

from __future__ import annotations

import pytest

from rules import CardError, RulesError
from rules.openers import (
    could_have_opened,
    holds_openers,
    keeps_openers,
    opening_hands,
    qualifies,
    splits_openers,
)


@pytest.mark.parametrize("hand, opens", [
    ("Jc Jd 7h 4s 2c", True),
    ("Tc Td Ah Ks Qc", False),       # PAGAT: a pair of tens with big cards does not open
    ("5c 5d 3h 3s 6c", True),        # PAGAT: two small pairs open
    ("2c 2d 2h 7s 9c", True),
    ("6c 5d 4h 3s 2c", True),
    ("Ac Kd Qh Js 9c", False),
    ("Ac Kc 9c 6c 3c", True),
    ("Qc Qd 3h 4s 5c", True),
])
def test_O1_any_hand_that_beats_a_pair_of_tens_opens(hand: str, opens: bool) -> None:
    assert qualifies(hand, wild="none") is opens
    assert qualifies(hand) is opens  # the default bug deck reads natural hands the same


@pytest.mark.parametrize("hand, opens", [
    ("Ah Jk 9c 6d 2s", True),        # O1/H2: bug + ace is a pair of aces
    ("Kh Jk 9c 6d 2s", False),       # the bug is not a king
    ("Th Tc Jk 6d 2s", False),       # tens with an ace kicker
    ("9c 8d 7h 6s Jk", True),        # the bug fills the straight
    ("Ah 9h 6h 3h Jk", True),        # the bug fills the flush
])
def test_O1_openers_with_the_bug(hand: str, opens: bool) -> None:
    assert qualifies(hand, wild="bug") is opens


@pytest.mark.parametrize("hand, minimum, opens", [
    ("Jc Jd 7h 4s 2c", "J", True),
    ("Jc Jd 7h 4s 2c", "Q", False),
    ("Qc Qd 7h 4s 2c", "Q", True),
    ("Qc Qd 7h 4s 2c", "K", False),
    ("Kc Kd 7h 4s 2c", "A", False),
    ("Ac Ad 7h 4s 2c", "A", True),
    ("Ac Jk 7h 4s 2c", "A", True),
    ("3c 3d 2h 2s 7c", "A", True),   # two pair beats any pair
])
def test_O5_progressive_minimums(hand: str, minimum: str, opens: bool) -> None:
    assert qualifies(hand, minimum=minimum) is opens


def test_O5_unknown_minimum() -> None:
    with pytest.raises(RulesError, match="minimum"):
        qualifies("Ac Ad 7h 4s 2c", minimum="T")


@pytest.mark.parametrize("hand, wild, opens", [
    ("Jc 2d 7h 4s 3c", "deuces", True),       # deuce + jack = two jacks
    ("Tc 2d 7h 4s 3c", "deuces", False),      # deuce + ten: two tens, and no straight to fill
    ("Tc Jk 7h 4s 3c", "joker", False),
    ("Qc Jk 7h 4s 3c", "joker", True),
])
def test_O1_openers_with_wild_cards(hand: str, wild: str, opens: bool) -> None:
    assert qualifies(hand, wild=wild) is opens


def test_S3_cardroom_example_keeping_ace_and_bug_is_not_splitting() -> None:
    opening = "As Jk Ks Qs Tc"
    assert qualifies(opening)                      # a straight: openers
    assert keeps_openers(opening, "Tc")            # A + bug = two aces kept
    assert not splits_openers(opening, "Tc")


def test_S1_pagat_example_throwing_a_queen_splits_openers() -> None:
    opening = "Qs Qh Ts 7s 6s"
    assert splits_openers(opening, "Qh")
    assert not keeps_openers(opening, "Qh")
    # Afterwards the escrowed queen and the final hand prove the openers (S2).
    assert could_have_opened("Qs Ts 7s 6s 2s", "Qh")
    assert could_have_opened("Qs Ts 7s 6s 2s", "Qh", wild="none")


@pytest.mark.parametrize("final, discards, could", [
    ("Qs Ts 7s 6s 2s", "Qh", True),
    ("Qs Ts 7s 6s 2s", "Jh", False),           # a lone jack in escrow proves nothing
    ("Ah Kh 9h 6h 3h", "Jc Jd", True),
    ("Ah Kh 9h 6h 3h", "Jc", False),
    ("Ah Kh 9h 6h 3h", "Ac", True),            # the kept ace pairs the escrowed one
    ("Ah Kh 9h 6h 3h", "", True),              # stood pat on a flush
    ("9h 9c 5d 4s 2c", "", False),             # stood pat without openers
    ("9h 9c 5d 4s 2c", "5c", True),            # kept 9-9-5 ... plus a 5: two pair
    ("As Kd Qh Jc 3c", "Tc", True),            # the straight before the draw
    ("Jk 8d 7h 3c 2c", "Kh", False),           # bug + king is no pair
    ("Jk 8d 7h 3c 2c", "Ah", True),            # bug + ace
    ("Kd 8d 7h 3c 2c", "Ah Ac Ad Qs Js", True),  # all five thrown: aces
])
def test_S2_could_have_opened(final: str, discards: str, could: bool) -> None:
    assert could_have_opened(final, discards) is could


def test_S2_every_discard_belongs_to_the_opening_hand() -> None:
    hands = opening_hands("As Kd Qh Jc 3c", "Tc 9d")
    assert len(hands) == 10 and all(len(h) == 5 for h in hands)
    assert all({"Tc", "9d"} <= {str(c) for c in h} for h in hands)


@pytest.mark.parametrize("final, discards, message", [
    ("As Kd Qh Jc 3c", "As", "card both discarded and in the final hand: As"),
    ("As Kd Qh Jc", "Tc", "a hand has 5 cards, not 4"),
    ("As Kd Qh Jc 3c", "Tc Tc", "duplicate card: Tc"),
    ("As Kd Qh Jc 3c", "2c 3d 4h 5s 6c 7d", "at most 5 discards, not 6"),
])
def test_S2_bad_input_names_the_card(final: str, discards: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        could_have_opened(final, discards)


@pytest.mark.parametrize("kept, wild, holds", [
    ("As Jk", "bug", True),
    ("Ks Jk", "bug", False),
    ("Js Jd", "bug", True),
    ("Ts Td", "bug", False),
    ("5s 5d 3c 3h", "none", True),
    ("7s 7d 7c", "none", True),
    ("Ks 2d", "deuces", True),
    ("Ts 2d", "deuces", False),
    ("Ks Jk", "joker", True),
    ("As Ks Qs Js", "bug", False),            # four to a straight flush is not openers
    ("", "bug", False),
])
def test_S3_what_the_kept_cards_hold(kept: str, wild: str, holds: bool) -> None:
    assert holds_openers(kept, wild=wild) is holds


def test_S3_keeping_openers_is_not_splitting() -> None:
    assert keeps_openers("Kc Kd Qh 7s 2c", "Qh 7s 2c")
    assert not splits_openers("Kc Kd Qh 7s 2c", "Qh 7s 2c")
    assert not splits_openers("9c 9d Qh 7s 2c", "Qh 7s 2c")  # no openers at all: no split
    assert splits_openers("9c 8d 7h 6s Tc", "Tc")           # breaking a straight


def test_S3_discard_must_come_from_the_opening_hand() -> None:
    with pytest.raises(CardError, match="discard not in the opening hand: 3s"):
        keeps_openers("Kc Kd Qh 7s 2c", "3s")
