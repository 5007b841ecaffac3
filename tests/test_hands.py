"""Hand evaluation: every rule of H2-H5, H7, H8 and the sources' worked examples."""

from __future__ import annotations

import random
from itertools import product

import pytest

from rules import CardError, RulesError
from rules.cards import Card, deck, parse_cards
from rules.hands import CATEGORIES, HandValue, categories, evaluate, evaluate_low
from tests.naive import NAIVE_ORDER, naive_bug, naive_natural


def naive_deuces(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """H4 by substitution: every rank for every deuce; a flush only if the naturals share a suit
    and no wild copies a natural card; five of a kind whatever the suits."""
    naturals = [c for c in cards if c.rank != 2]
    wilds = 5 - len(naturals)
    suited = len({c.suit for c in naturals}) <= 1
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for subs in product(range(2, 15), repeat=wilds):
        ranks = [c.rank for c in naturals] + list(subs)
        flush = suited and len(set(ranks)) == 5
        best = max(best, naive_natural(ranks, flush))
    return best


def as_pair(value: HandValue) -> tuple[int, tuple[int, ...]]:
    return NAIVE_ORDER.index(value.category), value.ranks


def ev(text: str, wild: str = "none") -> HandValue:
    return evaluate(text, wild)


# --- H5: the standard ranking ----------------------------------------------------------------

LADDER = [
    ("7c 5d 4h 3s 2c", "high_card"),
    ("Ac Kd Qh Js 9c", "high_card"),
    ("2c 2d 5h 4s 3c", "one_pair"),
    ("Ac Ad Kh Qs Jc", "one_pair"),
    ("3c 3d 2h 2s 4c", "two_pair"),
    ("Ac Ad Kh Ks Qc", "two_pair"),
    ("2c 2d 2h 4s 3c", "three_of_a_kind"),
    ("5c 4d 3h 2s Ac", "straight"),
    ("6c 5d 4h 3s 2c", "straight"),
    ("Ac Kd Qh Js Tc", "straight"),
    ("7c 5c 4c 3c 2c", "flush"),
    ("Ac Kc Qc Jc 9c", "flush"),
    ("2c 2d 2h 3s 3c", "full_house"),
    ("Ac Ad Ah Ks Kc", "full_house"),
    ("2c 2d 2h 2s 3c", "four_of_a_kind"),
    ("Ac Ad Ah As Kc", "four_of_a_kind"),
    ("5d 4d 3d 2d Ad", "straight_flush"),
    ("Ad Kd Qd Jd Td", "straight_flush"),
]


def test_H5_ranking_ladder_is_strictly_increasing() -> None:
    values = [ev(text) for text, _ in LADDER]
    assert [v.category for v in values] == [c for _, c in LADDER]
    assert all(a < b for a, b in zip(values, values[1:]))
    assert sorted(reversed(values)) == values


def test_H5_wheel_is_the_lowest_straight() -> None:
    wheel, six = ev("Ac 2d 3h 4s 5c"), ev("2c 3d 4h 5s 6d")
    assert wheel.category == "straight" and wheel.ranks == (5,)
    assert wheel < six and wheel > ev("Ac Ad Ah Ks Qc")
    assert ev("Qc Kd Ah 2s 3c").category == "high_card"  # no wrapping unless H7 is on


def test_H5_exact_ties_are_equal_and_hash_alike() -> None:
    a, b = ev("As Kd 7c 5h 2h"), ev("Ac Kh 7d 5s 2c")
    assert a == b and hash(a) == hash(b) and not a < b and not a > b
    assert len({a, b}) == 1


@pytest.mark.parametrize("better, worse", [
    ("Ac Ad 5h 4s 3c", "Kc Kd Ah Qs Jc"),      # pair rank before kickers
    ("Kc Kd Ah 3s 2c", "Ks Kh Qh Js 9c"),      # then kickers
    ("Ac Ad 3h 3s 2c", "Kc Kd Qh Qs Jc"),      # higher top pair
    ("9c 9d 7h 7s Ac", "9h 9s 7c 7d Kc"),      # two pair, kicker
    ("Ac Kc 9c 6c 3c", "Ad Qd Jd Td 8d"),      # flush by ranks
    ("3c 3d 3h 2s 2c", "2d 2h 2s Ac Ad"),      # full house by the triplet
    ("7c 8d 9h Ts Jc", "6c 7d 8h 9s Tc"),
])
def test_H5_ties_broken_by_ranks(better: str, worse: str) -> None:
    assert ev(better) > ev(worse)


@pytest.mark.parametrize("text, words", [
    ("9h 9c 7s 7d As", "two pair, nines and sevens, ace kicker"),
    ("Ah Kh 9h 6h 3h", "flush, ace-king high"),
    ("Kd Kh 7c 3s 2h", "pair of kings, seven-three-deuce"),
    ("Ac Jd 8h 6s 3c", "ace high, jack-eight-six-three"),
    ("Qc Qd Qh 6s 3c", "three queens, six-three"),
    ("Ac 2d 3h 4s 5c", "straight, five high"),
    ("Kc Kd Kh 7s 7c", "full house, kings full of sevens"),
    ("6c 6d 6h 6s Tc", "four sixes, ten kicker"),
    ("9d 8d 7d 6d 5d", "straight flush, nine high"),
    ("Ad Kd Qd Jd Td", "royal flush"),
])
def test_describe_in_plain_words(text: str, words: str) -> None:
    assert ev(text).describe() == words


# --- H2: the bug -----------------------------------------------------------------------------

def test_H2_bug_with_two_pair_is_an_ace_kicker_not_a_full_house() -> None:
    v = ev("9h 9c 7s 7d Jk", "bug")
    assert v.category == "two_pair" and v.ranks == (9, 7, 14)
    assert v.describe() == "two pair, nines and sevens, ace kicker"
    assert v == ev("9h 9c 7s 7d Ac")


def test_H2_bug_in_flush_is_highest_missing_card() -> None:
    bug_flush = ev("As Ts 9s 8s Jk", "bug")
    assert bug_flush.category == "flush" and bug_flush.ranks == (14, 13, 10, 9, 8)
    assert ev("Ah Kh Jh 4h 2h", "bug") > bug_flush
    assert ev("Kd Qd 9d 5d Jk", "bug").ranks == (14, 13, 12, 9, 5)


def test_H2_five_aces_beat_a_straight_flush() -> None:
    five = ev("As Ac Ad Ah Jk", "bug")
    assert five.category == "five_of_a_kind" and five.describe() == "five aces"
    assert five > ev("As Ks Qs Js Ts", "bug") > ev("Ac Ad Ah As Kc", "bug")


@pytest.mark.parametrize("text, category, ranks", [
    ("Ah Jk 9c 6d 2s", "one_pair", (14, 9, 6, 2)),              # bug + ace = two aces
    ("Ah Ac Jk 6d 2s", "three_of_a_kind", (14, 6, 2)),
    ("Kh Kc Jk 6d 2s", "one_pair", (13, 14, 6, 2)),             # pair of kings, ace kicker
    ("Kh Kc Ks Jk 2s", "three_of_a_kind", (13, 14, 2)),         # not four kings
    ("Kh Kc Ks 2d Jk", "three_of_a_kind", (13, 14, 2)),
    ("Ah Ac As 2d Jk", "four_of_a_kind", (14, 2)),
    ("Kh Kc Ks 2d 2s", "full_house", (13, 2)),
    ("Kh Kc As Ad Jk", "full_house", (14, 13)),                 # aces full: the bug is an ace
    ("9c 8d 7h 6s Jk", "straight", (10,)),                      # open end: the best straight
    ("9c 8d 6h 5s Jk", "straight", (9,)),                       # inside
    ("Kc Qd Jh Ts Jk", "straight", (14,)),
    ("Ac 2d 3h 4s Jk", "straight", (5,)),                       # the wheel beats a pair of aces
    ("9s 8s 7s 6s Jk", "straight_flush", (10,)),
    ("As 2s 3s 5s Jk", "straight_flush", (5,)),
    ("Kc Qd Jh 9s Jk", "straight", (13,)),
    ("Kc Qd 8h 3s Jk", "high_card", (14, 13, 12, 8, 3)),
])
def test_H2_bug_is_an_ace_or_completes_straight_or_flush(text: str, category: str,
                                                         ranks: tuple[int, ...]) -> None:
    v = ev(text, "bug")
    assert (v.category, v.ranks) == (category, ranks)


def test_H2_bug_cross_checked_against_substitution_on_a_sample() -> None:
    rng = random.Random(20240501)
    cards = list(deck("bug"))
    joker = cards[-1]
    for i in range(1500):
        hand = rng.sample(cards[:-1], 4) + [joker] if i % 2 else rng.sample(cards, 5)
        assert as_pair(evaluate(hand, "bug")) == naive_bug(hand), hand


# --- H4: deuces wild -------------------------------------------------------------------------

@pytest.mark.parametrize("text, category, ranks", [
    ("2c 2d 2h 2s Ac", "five_of_a_kind", (14,)),
    ("Kc Kd 2h 2s Ks", "five_of_a_kind", (13,)),
    ("Kc Kd 2h 7s 7c", "full_house", (13, 7)),
    ("Kc Kd 2h 2s 7c", "four_of_a_kind", (13, 7)),
    ("Ah 9h 6h 4h 2c", "flush", (14, 13, 9, 6, 4)),      # the wild is the king, not a 2nd ace
    ("Ah Kh 6h 2d 2c", "flush", (14, 13, 12, 11, 6)),
    ("9h 8h 6h 5h 2c", "straight_flush", (9,)),
    ("2c 2d 2h 5d 6d", "straight_flush", (9,)),
    ("Ac 2d 3h 4s 7c", "one_pair", (14, 7, 4, 3)),
    ("Ac 2d 5h 4s 3c", "straight", (5,)),                # only the wheel: A-3-4-5 wants a deuce
    ("6c 2d 5h 4s 3c", "straight", (7,)),
])
def test_H4_deuces_fully_wild(text: str, category: str, ranks: tuple[int, ...]) -> None:
    v = ev(text, "deuces")
    assert (v.category, v.ranks) == (category, ranks)


def test_H4_five_of_a_kind_is_top() -> None:
    assert ev("3c 3d 3h 2s 2c", "deuces") > ev("Ah Kh Qh Jh Th", "deuces")


def test_H4_deuces_cross_checked_against_substitution_on_a_sample() -> None:
    rng = random.Random(7)
    cards = list(deck())
    deuces, others = cards[:4], cards[4:]
    for i in range(600):
        wilds = i % 4
        hand = rng.sample(deuces, wilds) + rng.sample(others, 5 - wilds)
        assert as_pair(evaluate(hand, "deuces")) == naive_deuces(hand), hand


# --- H3: the banked game's joker -------------------------------------------------------------

@pytest.mark.parametrize("text, category, ranks", [
    ("Ah Kh 9h 6h Jk", "flush", (14, 13, 9, 6, 2)),      # in a flush the joker is the deuce
    ("9c 8d 7h 6s Jk", "straight", (10,)),               # the best straight
    ("9h 8h 7h 6h Jk", "straight_flush", (10,)),
    ("Kc Kd 7h 7s Jk", "full_house", (13, 7)),           # fully wild, unlike the bug
    ("Ac Ad Ah As Jk", "five_of_a_kind", (14,)),
    ("Qc 9d 7h 4s Jk", "one_pair", (12, 9, 7, 4)),
])
def test_H3_joker_is_fully_wild_except_deuce_in_flush(text: str, category: str,
                                                      ranks: tuple[int, ...]) -> None:
    v = ev(text, "joker")
    assert (v.category, v.ranks, v.joker) == (category, ranks, True)


def test_H3_joker_hand_does_not_lose_to_equal_natural_hand() -> None:
    assert ev("Ac Jk 7d 5s 3h", "joker") > ev("Ac Ad 7h 5c 3d", "joker")
    assert ev("Ah Kh 9h 6h Jk", "joker") > ev("Ac Kc 9c 6c 2c", "joker")
    assert ev("Ah Kh 9h 6h Jk", "joker") < ev("Ac Kc 9c 6c 3c", "joker")
    assert ev("Ac Ad 7h 5c 3d", "joker") == ev("As Ah 7c 5d 3s", "joker")


# --- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, wild, message", [
    ("As As Ks Qs Js", "none", "duplicate card: As"),
    ("As Ks Qs Js", "bug", "a hand has 5 cards, not 4"),
    ("As Ks Qs Js Ts 9s", "none", "a hand has 5 cards, not 6"),
    ("As Ks Qs Js Jk", "none", "Jk"),
    ("As Ks Qs Js Jk", "deuces", "Jk"),
    ("As Ks Qs Js Xx", "bug", "unknown card 'Xx'"),
])
def test_evaluate_refuses_bad_hands(text: str, wild: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(text, wild)


def test_evaluate_refuses_duplicates_given_as_cards() -> None:
    a = Card.parse("As")
    hand = [a, a, Card.parse("Ks"), Card.parse("Qs"), Card.parse("Js")]
    with pytest.raises(CardError, match="duplicate card: As"):
        evaluate(hand)


def test_evaluate_accepts_text_lists_and_cards_alike() -> None:
    text = "Ah Kh Jh 4h 2h"
    assert evaluate(text) == evaluate(text.split()) == evaluate(parse_cards(text))
    assert evaluate(list(parse_cards(text))) == evaluate(text)


def test_unknown_wild_mode() -> None:
    with pytest.raises(RulesError, match="wild"):
        evaluate("As Ks Qs Js Ts", "sevens")


def test_hand_values_are_immutable() -> None:
    v = ev("As Ks Qs Js Ts")
    with pytest.raises(AttributeError):
        v.category = "flush"


# --- H7: southern hands ----------------------------------------------------------------------

@pytest.mark.parametrize("text, name, plain", [
    ("2c 4d 6h 8s Tc", "skip_straight", "high_card"),
    ("Ac 3d 5h 7s 9c", "skip_straight", "high_card"),
    ("7c 5d 4h 3s 2c", "tiger", "high_card"),
    ("Jc Qd Kh As 2c", "round_the_corner", "high_card"),
    ("Kc Ad 2h 3s 4c", "round_the_corner", "high_card"),
    ("Kc Kd Qh Qs Jc", "blaze", "two_pair"),
    ("Kc Kd Kh Qs Qc", "blaze", "full_house"),
])
def test_H7_southern_hands_only_when_enabled(text: str, name: str, plain: str) -> None:
    assert ev(text).category == plain
    assert evaluate(text, southern=[name]).category == name


@pytest.mark.parametrize("text, name, beats, loses_to", [
    ("2c 4d 6h 8s Tc", "skip_straight", "Ac Kd Qh Js Tc", "7c 5c 4c 3c 2c"),   # straight < it < flush
    ("7c 5d 4h 3s 2c", "tiger", "Ac Kc Qc Jc 9c", "2c 2d 2h 3s 3c"),           # flush < it < full house
    ("Jc Qd Kh As 2c", "round_the_corner", "Ac Ad Ah Ks Kc", "Jh Jd Qc Qs Kd"),  # full house < it < blaze
    ("Kc Kd Qh Qs Jc", "blaze", "Kd Ac 2h 3h 4s", "2c 2d 2h 2s 3c"),           # it < four of a kind
])
def test_H7_southern_hands_ranked_by_the_odds(text: str, name: str, beats: str, loses_to: str) -> None:
    every = ("skip_straight", "tiger", "round_the_corner", "blaze")
    hand = evaluate(text, southern=every)
    assert hand.category == name
    assert evaluate(beats, southern=every) < hand < evaluate(loses_to, southern=every)


def test_H7_order_of_categories_with_every_southern_hand() -> None:
    assert categories(("skip_straight", "tiger", "round_the_corner", "blaze")) == (
        "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "skip_straight",
        "flush", "tiger", "full_house", "round_the_corner", "blaze", "four_of_a_kind",
        "straight_flush", "five_of_a_kind")
    assert categories() == CATEGORIES


def test_H7_southern_hands_with_the_bug() -> None:
    # The bug completes a skip straight (a kind of straight) but is an ace in a tiger.
    assert evaluate("2c 4d 6h Jk Tc", "bug", southern=["skip_straight"]).category == "skip_straight"
    assert evaluate("7c 5d 4h Jk 2c", "bug", southern=["tiger"]).category == "high_card"


def test_H7_unknown_southern_hand() -> None:
    with pytest.raises(RulesError, match="southern"):
        evaluate("2c 4d 6h 8s Tc", southern=["little_tiger"])


# --- H8: ace-to-five low ---------------------------------------------------------------------

@pytest.mark.parametrize("better, worse", [
    ("5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac"),         # the wheel is the best low
    ("5c 4c 3c 2c Ac", "6d 4d 3h 2s Ac"),         # flushes and straights do not count
    ("8d 7h 6c 5d 3c", "8c 7d 6h 5s 4c"),
    ("Kc Qd Jh 9s 8c", "Ac Ad 2h 3s 4c"),         # any no-pair beats any pair
    ("Ac Ad 2h 3s 4c", "2c 2d 3h 4s 5c"),         # aces are the lowest pair
    ("Jk 2c 3d 4h 6s", "5c 3d 4h 2s 7d"),         # fitter is the ace: 6-4-3-2-A
])
def test_H8_ace_to_five_low(better: str, worse: str) -> None:
    assert evaluate_low(better) < evaluate_low(worse)


def test_H8_joker_is_the_fitter() -> None:
    assert evaluate_low("Ac 2c 3d 4h Jk").ranks == (5, 4, 3, 2, 1)
    assert evaluate_low("Ac 3c 4d 6h Jk").ranks == (6, 4, 3, 2, 1)
    assert evaluate_low("Ac 2d 3c 4d Jk") == evaluate_low("Ah 2h 3s 4s 5h")
    with pytest.raises(CardError, match="Jk"):
        evaluate_low("Ac 2d 3c 4d Jk", wild="none")


# --- properties ------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.permutations(list(deck("bug"))).map(lambda cards: cards[:5]), st.randoms(use_true_random=False))
def test_H2_value_ignores_card_order_and_text_round_trips(hand: list[Card], rnd: random.Random) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    value = evaluate(hand, "bug")
    assert evaluate(shuffled, "bug") == value
    assert evaluate(" ".join(map(str, hand)).lower(), "bug") == value
    # The bug never makes a hand worse than reading it as an ace would.
    if any(c.is_joker for c in hand):
        naturals = [c for c in hand if not c.is_joker]
        aces = [a for a in deck() if a.rank == 14 and a not in naturals]
        if aces:
            assert value >= evaluate(naturals + aces[:1])


@pytest.mark.parametrize("wild, stripped", [("none", False), ("bug", False), ("deuces", False), ("bug", True)])
def test_H1_text_evaluates_as_cards_do_however_typed(wild: str, stripped: bool) -> None:
    """Text takes evaluate()'s fast path (a table lookup per card): over real shuffled decks the
    value is the one of the same Cards, whatever the case, ``10`` for ``T`` or suit symbols."""
    from rules.hands import HandRules

    rules = HandRules(wild, stripped=stripped)
    spell = {"T": ["T", "t", "10"], "s": ["s", "S", "♠"], "h": ["h", "H", "♥"], "d": ["d", "♦"], "c": ["c", "♣"]}
    rng = random.Random(23)
    cards = list(rules.deck())
    for _ in range(3000):
        rng.shuffle(cards)
        hand = cards[:5]
        words = []
        for card in hand:
            text = str(card)
            if card.is_joker:
                words.append(rng.choice(["Jk", "jk", "JOKER"]))
                continue
            words.append(rng.choice(spell.get(text[0], [text[0], text[0].lower()])) + rng.choice(spell[text[1]]))
        assert evaluate(" ".join(words), rules) == evaluate(hand, rules)
        assert evaluate(words, rules) == evaluate(hand, rules)


def test_H1_text_on_the_fast_path_refuses_what_the_long_way_refuses() -> None:
    """The same messages as before the lookup table: a duplicate, a card the deck lacks."""
    from rules.hands import HandRules

    evaluate("As Ks Qs Js Ts", HandRules(stripped=True))  # the table is built: the fast path is taken
    with pytest.raises(CardError, match="duplicate card: As"):
        evaluate("As as Ks Qs Js")
    with pytest.raises(CardError, match="6s"):
        evaluate("As Ks Qs Js 6s", HandRules(stripped=True))
    with pytest.raises(CardError, match="Jk"):
        evaluate("As Ks Qs Js jk", "none")
    with pytest.raises(CardError, match="unknown card 'Zz'"):
        evaluate("As Ks Qs Js Zz")
