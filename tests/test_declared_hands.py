"""H9, declared hands, in the hand library (rules.hands.declared): a declared hand is the best hand of
the declared class its cards make, under every wild mode, checked on real shuffled hands against the
evaluator (a hand declared as what it is plays as itself) and against an independent card-by-card
reading (deuces wild, tests/test_rulings_declared.py)."""

from __future__ import annotations

import random

import pytest

from rules.cards import deck
from rules.hands import HandRules, declarable, declare, evaluate
from rules.hands.declared import best_of_class
from tests.test_rulings_declared import by_hand

GAMES = [HandRules(), HandRules("bug"), HandRules("deuces"), HandRules("joker"), HandRules("rank", "5"),
         HandRules("bug", stripped=True), HandRules(southern=["blaze", "tiger", "skip_straight", "round_the_corner"]),
         HandRules("deuces", southern=["blaze", "tiger"], placement="as_played")]


@pytest.mark.parametrize("rules", GAMES, ids=repr)
def test_H9_a_hand_declared_as_what_it_is_plays_as_itself_and_never_above(rules):
    """H9 on 800 shuffled hands a game: the best hand of the class the evaluator names is the
    evaluator's value; every other class the cards make is worth less; the classes the cards make
    include their own, and a class declared outside them is refused naming what the cards make."""
    rng = random.Random(9)
    pack = list(rules.deck())
    for _ in range(800):
        hand = rng.sample(pack, 5)
        made = evaluate(hand, rules)
        classes = declarable(hand, rules)
        assert made.category in classes, (hand, made)
        assert best_of_class(hand, made.category, rules) == made, hand
        for c in classes:
            assert best_of_class(hand, c, rules) <= made
        for c in set(rules.categories) - set(classes):
            with pytest.raises(ValueError, match="cannot make"):
                declare(hand, c, rules)


def test_H9_deuces_wild_every_class_agrees_with_the_card_by_card_reading():
    """H9 with deuces wild (PAGAT's game): on 500 shuffled hands, every standard class's best
    hand equals the independent reading's, and the two agree on which classes the cards make."""
    rng = random.Random(20)
    rules = HandRules("deuces")
    pack = [str(c) for c in deck("deuces")]
    deuces = 0
    for _ in range(500):
        hand = rng.sample(pack, 5)
        deuces += any(c[0] == "2" for c in hand)
        for c in rules.categories:
            ours = best_of_class(hand, c, rules)
            theirs = by_hand(hand, c)
            assert (ours.ranks if ours else None) == theirs, (hand, c)
    assert deuces > 150


def test_H9_the_seed_example_and_the_wild_card_as_a_kicker():
    """H9: four nines declared as three of a kind are three nines; with deuces wild a deuce stands
    for the best kicker (an ace), never for a better group than the one declared."""
    deuces = HandRules("deuces")
    assert declare("9c 9d 9h 9s 4h", "three_of_a_kind", deuces) < declare("Kc Kd Kh 5s 7h", "three_of_a_kind", deuces)
    assert best_of_class("Kc Kd Kh 2s 9h", "three_of_a_kind", deuces).ranks == (13, 14, 9)
    assert best_of_class("Kc Kd 2h 2s 9h", "two_pair", deuces).ranks == (14, 13, 9)
    assert declarable("9c 9d 9h 9s 4h", HandRules()) == ("high_card", "one_pair", "three_of_a_kind", "four_of_a_kind")
