"""Hand evaluation of the draw variants (issue 14): any wild rank and wild widow (H4), the stripped
deck (H1), the southern hands as played (H7), trips to win (D9), the evaluation context
(HandRules) and ace-to-five low with the fitter (H8), each checked against the seeds' words and
against the independent reading of tests/naive.py."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules import CardError, RulesError
from rules.cards import JOKER, Card, Wild, deck, parse_cards
from rules.reports.counts import low_value_counts
from rules.hands import (
    HandRules,
    HandValue,
    Placement,
    at_least,
    categories,
    evaluate,
    evaluate_low,
    trips_or_better,
)
from tests.naive import NaiveGame

SOUTHERN = ("skip_straight", "tiger", "round_the_corner", "blaze")
FIVES = HandRules("rank", 5)
STRIPPED = HandRules(stripped=True)
AS_PLAYED = HandRules(southern=SOUTHERN, placement="as_played")


def read(text: str, rules: HandRules | str = "none") -> tuple[str, tuple[int, ...]]:
    value = evaluate(text, rules)
    return value.category, value.ranks


def sample_agrees(rules: HandRules, game: NaiveGame, cards: list[Card], n: int, seed: int,
                  wild: list[Card] | None = None) -> None:
    """Random hands (half of them forced to hold wild cards): every value is the naive one, and
    every pair of hands compares the same way under both readings."""
    rng = random.Random(seed)
    wild = wild or []
    naturals = [c for c in cards if c not in wild]
    hands = []
    for i in range(n):
        k = min(i % 5, len(wild)) if wild and i % 2 else 0
        hand = rng.sample(wild, k) + rng.sample(naturals, 5 - k) if k else rng.sample(cards, 5)
        value = evaluate(hand, rules)
        assert (value.category, value.ranks) == game.value(hand), hand
        joker = game.wild == "joker" and JOKER in hand  # H3: the joker wins an exact tie
        hands.append((value, (game.key(game.value(hand)), joker)))
    for (a, ka), (b, kb) in zip(hands, hands[1:]):
        assert (a < b) == (ka < kb) and (a == b) == (ka == kb)


# --- H4: any rank wild, wild widow ---------------------------------------------------------------

@pytest.mark.parametrize("text, category, ranks", [
    ("5c 5d 5h 5s Ac", "five_of_a_kind", (14,)),
    ("Kc Kd 5h 5s Ks", "five_of_a_kind", (13,)),
    ("Kc Kd 5h 7s 7c", "full_house", (13, 7)),
    ("Kc Kd 5h 5s 7c", "four_of_a_kind", (13, 7)),
    ("Ah 9h 6h 4h 5c", "flush", (14, 13, 9, 6, 4)),      # PAGAT: the wild is the king, not a 2nd ace
    ("Ah Kh 6h 5d 5c", "flush", (14, 13, 12, 11, 6)),
    ("9h 8h 6h 7h 5c", "straight_flush", (10,)),
    ("5c 5d 5h 2d 3d", "straight_flush", (6,)),          # 2-3-4-5-6 of diamonds, over four threes
    ("Ac 5d 3h 4s 2c", "straight", (5,)),                # the wild is the five of the wheel
    ("6c 5d 4h 3s 2c", "straight", (6,)),
    ("Ac 5d 9h 4s 7c", "one_pair", (14, 9, 7, 4)),
])
def test_H4_fives_wild(text: str, category: str, ranks: tuple[int, ...]) -> None:
    assert read(text, FIVES) == (category, ranks)


def test_H4_five_of_a_kind_is_top_and_a_wild_rank_reads_like_deuces() -> None:
    assert evaluate("3c 3d 3h 5s 5c", FIVES) > evaluate("Ah Kh Qh Jh Th", FIVES)
    assert read("3c 3d 3h 5s 5c", FIVES) == ("five_of_a_kind", (3,))
    rng = random.Random(2)
    twos = HandRules("rank", 2)
    for _ in range(2000):
        hand = rng.sample(list(deck()), 5)
        assert evaluate(hand, twos) == evaluate(hand, "deuces")


@pytest.mark.parametrize("rank", [3, 5, 7, 10, 11, 14])
def test_H4_any_rank_wild_cross_checked_against_the_naive_reading(rank: int) -> None:
    cards = list(deck())
    sample_agrees(HandRules("rank", rank), NaiveGame("rank", rank), cards, 1200, rank,
                  wild=[c for c in cards if c.rank == rank])


def test_H4_wild_widow_takes_the_rank_of_the_widow_card() -> None:
    widow = HandRules("widow")
    with pytest.raises(RulesError, match="widow card is turned up"):
        evaluate("9s 9h Ad Ac 3s", widow)
    turned = widow.with_widow("9d")
    assert turned == HandRules("widow", 9) and turned.wild_rank == 9
    assert read("9s 9h Ad Ac 3s", turned) == ("four_of_a_kind", (14, 3))
    hand = "9s Kh Qh Jh Th"
    assert evaluate(hand, turned) == evaluate(hand, "widow", wild_rank="9") == evaluate(hand, HandRules("rank", 9))
    assert read(hand, turned) == ("straight_flush", (14,))
    with pytest.raises(RulesError, match="natural card"):
        widow.with_widow(JOKER)
    with pytest.raises(RulesError, match="only in wild widow"):
        FIVES.with_widow("9d")


def test_H4_the_wild_rank_modes_have_no_joker() -> None:
    with pytest.raises(CardError, match="no joker in this game"):
        evaluate("5s Kh Qh Jh Jk", FIVES)
    assert JOKER not in FIVES.deck() and len(FIVES.deck()) == 52 == FIVES.deck_size


@pytest.mark.parametrize("args, words", [
    ({"wild": "rank"}, "needs wild_rank"),
    ({"wild": "bug", "wild_rank": 5}, "wild_rank goes only with"),
    ({"wild": "deuces", "wild_rank": 5}, "the wild rank is the deuce"),
    ({"wild": "rank", "wild_rank": "1"}, "unknown rank"),
    ({"wild": "sevens"}, "wild must be one of"),
    ({"placement": "played"}, "southern placement must be one of"),
    ({"southern": ["dog"]}, "unknown southern hand"),
    ({"wild": "deuces", "stripped": True}, "32-card deck has no deuces"),
    ({"wild": "rank", "wild_rank": 6, "stripped": True}, "32-card deck has no sixes"),
    ({"stripped": True, "southern": ["blaze", "tiger"]}, "'tiger' needs cards below the seven"),
])
def test_H4_H1_H7_hand_rules_refuse_what_does_not_fit(args: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        HandRules(**args)  # type: ignore[arg-type]


def test_H1_H4_H7_hand_rules_is_one_small_immutable_value() -> None:
    rules = HandRules("rank", "T", southern=["blaze", "tiger"], placement="as_played")
    same = HandRules(Wild.RANK, 10, False, ("tiger", "blaze"), Placement.AS_PLAYED)
    assert rules == same and rules is same and hash(rules) == hash(same) and len({rules, same}) == 1
    assert rules.southern == ("tiger", "blaze") and rules.wild_rank_text == "T"
    assert rules != HandRules("rank", "T", southern=["blaze", "tiger"])
    with pytest.raises(AttributeError):
        rules.wild_rank = 5  # type: ignore[misc]
    assert HandRules("deuces") != HandRules("rank", 2)  # distinct values, one reading
    assert repr(HandRules("bug", stripped=True)) == "HandRules(wild='bug', stripped=True)"
    import pickle
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_H4_evaluate_keeps_its_contract_signature_and_takes_the_context() -> None:
    hand = "5s Kh Qh Jh 9h"
    assert evaluate(hand, wild="rank", wild_rank=5) == evaluate(hand, FIVES) == evaluate(hand, wild=FIVES)
    assert evaluate("As Kd 7c 5h 2h", wild="none") == evaluate("As Kd 7c 5h 2h", HandRules())
    with pytest.raises(RulesError, match="inside the HandRules"):
        evaluate(hand, FIVES, southern=["blaze"])
    with pytest.raises(RulesError, match="inside the HandRules"):
        evaluate(hand, FIVES, wild_rank=6)
    with pytest.raises(RulesError, match="wild_rank goes only"):
        evaluate(hand, "none", wild_rank=5)


# --- H1: the stripped deck -------------------------------------------------------------------

def test_H1_stripped_flush_beats_full_house() -> None:
    flush, full = "Ah Kh 9h 8h 7h", "7c 7d 7s 8c 8d"
    assert evaluate(flush, STRIPPED) > evaluate(full, STRIPPED)
    assert evaluate(flush) < evaluate(full)  # the full deck keeps H5
    assert evaluate("7h 8h 9h Jh Qh", STRIPPED) > evaluate("Ac Ad As Kc Kd", STRIPPED)


def test_H1_stripped_ace_plays_low_in_A_7_8_9_T() -> None:
    low = evaluate("Ac 7d 8h 9s Td", STRIPPED)
    assert (low.category, low.ranks) == ("straight", (10,)) and low.describe() == "straight, ten high"
    assert evaluate("Ac Ad As Kc Qd", STRIPPED) < low < evaluate("7c 8d 9h Ts Jd", STRIPPED)
    assert read("Ah 7h 8h 9h Th", STRIPPED) == ("straight_flush", (10,))
    assert read("Ac 7d 8h 9s Td") == ("high_card", (14, 10, 9, 8, 7))  # only in the stripped deck


def test_H1_stripped_keeps_the_other_orders() -> None:
    """Decided where the seed's PAGAT text is silent: four of a kind over the flush, the
    straight flush on top, the straight over three of a kind (the exact counts agree)."""
    order = categories(STRIPPED)
    assert order == ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "full_house",
                     "flush", "four_of_a_kind", "straight_flush", "five_of_a_kind")
    quads, flush, sf = (evaluate(t, STRIPPED) for t in ("7c 7d 7h 7s 8c", "Ah Kh Qh Jh 9h", "7c 8c 9c Tc Jc"))
    assert flush < quads < sf


@pytest.mark.parametrize("text, rules, category, ranks", [
    ("As 7d 8h 9s Jk", HandRules("bug", stripped=True), "straight", (10,)),          # the bug is the ten
    ("7c 8d 9h Ts Jk", HandRules("bug", stripped=True), "straight", (11,)),          # never a six
    ("Kh Qh 9h 7h Jk", HandRules("bug", stripped=True), "flush", (14, 13, 12, 9, 7)),
    ("As Ac Ad Ah Jk", HandRules("bug", stripped=True), "five_of_a_kind", (14,)),
    ("Ah Kh 9h 8h Jk", HandRules("joker", stripped=True), "flush", (14, 13, 9, 8, 7)),  # lowest: the seven
    ("Ah Kh 9h 7h Jk", HandRules("joker", stripped=True), "flush", (14, 13, 9, 8, 7)),
    ("9c 9d 9h Ts Ac", HandRules("rank", 9, stripped=True), "four_of_a_kind", (14, 10)),
    ("9c Ad 7h 8s Tc", HandRules("rank", 9, stripped=True), "straight", (10,)),     # A-7-8-9-T
    ("9c Jd 7h 8s Tc", HandRules("rank", 9, stripped=True), "straight", (11,)),     # 7-8-9-T-J
])
def test_H1_stripped_deck_with_wild_cards(text: str, rules: HandRules, category: str,
                                          ranks: tuple[int, ...]) -> None:
    assert read(text, rules) == (category, ranks)


def test_H1_stripped_deck_refuses_the_cards_it_lacks() -> None:
    with pytest.raises(CardError, match="no 6c in the 32-card deck"):
        evaluate("6c 7d 8h 9s Td", STRIPPED)
    with pytest.raises(CardError, match="no joker"):
        evaluate("Jk 7d 8h 9s Td", STRIPPED)
    assert HandRules("bug", stripped=True).deck_size == len(HandRules("bug", stripped=True).deck()) == 33


@pytest.mark.parametrize("rules", [STRIPPED, HandRules("bug", stripped=True), HandRules("joker", stripped=True),
                                   HandRules("rank", 8, stripped=True)], ids=repr)
def test_H1_stripped_cross_checked_against_the_naive_reading(rules: HandRules) -> None:
    game = NaiveGame("rank" if rules.wild_ranked else rules.wild.value, rules.wild_rank, stripped=True)
    cards = list(rules.deck())
    sample_agrees(rules, game, cards, 1500, 32, wild=[c for c in cards if game.is_wild(c)])


# --- H7: southern hands as played ------------------------------------------------------------

@pytest.mark.parametrize("text, name, beats, loses_to", [
    # FOSTER: skip straight "played to beat two pairs"; blaze "to beat two pairs and lose to triplets"
    ("2c 4d 6h 8s Tc", "skip_straight", "Ac Ad Kh Ks Qc", "2c 2d 2h 4s 3c"),
    ("Kc Kd Qh Qs Jc", "blaze", "Ac 3d 5h 7s 9c", "2c 2d 2h 4s 3c"),
    # tiger "played to beat a straight or lose to a flush"
    ("7c 5d 4h 3s 2c", "tiger", "Ac Kd Qh Js Tc", "7d 5d 4d 3d 2d"),
    # round the corner "played to beat the smallest possible straight, which would be 5 high"
    ("Kc Ad 2h 3s 4c", "round_the_corner", "Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6d"),
    ("Jc Qd Kh As 2c", "round_the_corner", "Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6d"),
])
def test_H7_southern_hands_as_played(text: str, name: str, beats: str, loses_to: str) -> None:
    hand = evaluate(text, AS_PLAYED)
    assert hand.category == name
    assert evaluate(beats, AS_PLAYED) < hand < evaluate(loses_to, AS_PLAYED)


def test_H7_as_played_order_and_decisions() -> None:
    assert categories(AS_PLAYED) == (
        "high_card", "one_pair", "two_pair", "skip_straight", "blaze", "three_of_a_kind", "straight",
        "round_the_corner", "tiger", "flush", "full_house", "four_of_a_kind", "straight_flush",
        "five_of_a_kind")
    # The blaze over the skip straight (FOSTER orders them only by odds); round-the-corner
    # straights among themselves by the card ending the run.
    assert evaluate("Jc Jd Qh Qs Kc", AS_PLAYED) > evaluate("Ac Qd Th 8s 6c", AS_PLAYED)
    rtc = [evaluate(t, AS_PLAYED) for t in ("Jc Qd Kh As 2c", "Qc Kd Ah 2s 3c", "Kc Ad 2h 3s 4c")]
    assert rtc == sorted(rtc) and len(set(rtc)) == 3
    assert [v.describe() for v in rtc][-1] == "round-the-corner straight, four high"


def test_H7_a_southern_hand_counts_only_where_it_outranks_the_cards() -> None:
    assert read("Kc Kd Kh Qs Jc", AS_PLAYED) == ("three_of_a_kind", (13, 12, 11))   # not a blaze
    assert read("Kc Kd Kh Qs Qc", AS_PLAYED) == ("full_house", (13, 12))
    assert read("Kc Kd Kh Qs Qc", HandRules(southern=["blaze"])) == ("blaze", (13, 12))  # odds: above
    assert read("Jc Qc Kc Ac 2c", AS_PLAYED)[0] == "flush"
    assert read("Jc Qc Kc Ac 2c", HandRules(southern=SOUTHERN))[0] == "round_the_corner"


def test_H7_placement_is_moot_without_southern_hands() -> None:
    plain = HandRules(placement="as_played")
    assert plain.ranking is HandRules().ranking
    assert evaluate("As Kd 7c 5h 2h", plain) == evaluate("As Kd 7c 5h 2h")


@pytest.mark.parametrize("wild", ["none", "bug"])
@pytest.mark.parametrize("placement", ["odds", "as_played"])
def test_H7_southern_cross_checked_against_the_naive_reading(wild: str, placement: str) -> None:
    rules = HandRules(wild, southern=SOUTHERN, placement=placement)
    game = NaiveGame(wild, southern=SOUTHERN, placement=placement)
    cards = list(rules.deck())
    sample_agrees(rules, game, cards, 1500, 7, wild=[JOKER] if wild == "bug" else None)
    # and every hand made of the southern hands' own ranks, where the placements differ
    small = [c for c in cards if c.rank in (2, 3, 4, 7, 11, 12, 13, 14) and c.suit in "cd"] + [
        c for c in cards if c.is_joker]
    for hand in combinations(small, 5):
        value = evaluate(hand, rules)
        assert (value.category, value.ranks) == game.value(list(hand)), hand


# --- D9: trips to win ------------------------------------------------------------------------

@pytest.mark.parametrize("text, rules, trips", [
    ("Kh Kc Ks 7d 2s", "none", True),
    ("Ah Ad Kc Kd 2s", "none", False),                       # two pair does not win
    ("Kh Kc Ks Jk 2s", "bug", True),                         # three kings, ace kicker
    ("Kh Kc Jk 7s 2s", "bug", False),                        # a pair of kings: the bug is an ace
    ("Ah Ac Jk 7s 2s", "bug", True),                         # three aces
    ("9c 8d 7h 6s Jk", "bug", True),                         # a straight
    ("5h Kc Ks 7d 2s", FIVES, True),
    ("5h Kc Qs 7d 2s", FIVES, False),
    ("2c 4d 6h 8s Tc", HandRules(southern=SOUTHERN), True),  # odds: above a straight
    ("2c 4d 6h 8s Tc", AS_PLAYED, False),                    # as played: below triplets
    ("Kc Kd Qh Qs Jc", AS_PLAYED, False),
    ("7c 5d 4h 3s 2c", AS_PLAYED, True),
    ("Kc Ad 2h 3s 4c", AS_PLAYED, True),
    ("Ac 7d 8h 9s Td", STRIPPED, True),
])
def test_D9_trips_or_better(text: str, rules: HandRules | str, trips: bool) -> None:
    assert trips_or_better(text, rules) is trips
    assert trips_or_better(evaluate(text, rules), rules) is trips


def test_D9_at_least_names_a_category_of_the_game() -> None:
    value = evaluate("Kc Kd Qh Qs Jc", AS_PLAYED)
    assert at_least(value, "blaze", AS_PLAYED) and not at_least(value, "three_of_a_kind", AS_PLAYED)
    with pytest.raises(ValueError, match="not a category of this game"):
        at_least(value, "tiger", STRIPPED)


# --- H8: ace-to-five low, the fitter ----------------------------------------------------------

def test_H8_PAGAT_A_2_3_4_5_is_the_best_low_hand() -> None:
    values = low_value_counts("none")
    assert min(values) == evaluate_low("5c 4d 3h 2s Ac") and evaluate_low("5c 4d 3h 2s Ac").ranks == (5, 4, 3, 2, 1)
    assert min(low_value_counts("bug")) == evaluate_low("Jk 4d 3h 2s Ac")


def test_H8_PAGAT_A_A_2_3_4_is_worse_than_any_no_pair_and_better_than_any_other_pair() -> None:
    aces = evaluate_low("Ac Ad 2h 3s 4c")
    every = low_value_counts("bug")
    no_pair = [v for v in every if v.category == "no pair"]
    pairs = [v for v in every if v.category != "no pair" and v != aces]
    assert max(no_pair) < aces < min(pairs)
    assert evaluate_low("Kc Qd Jh 9s 8c") < aces < evaluate_low("2c 2d 3h 4s 5c")


@pytest.mark.parametrize("text, ranks", [
    ("Jk Ac 3d 4h 5s", (5, 4, 3, 2, 1)),     # the fitter is the deuce
    ("Jk 2c 3d 4h 5s", (5, 4, 3, 2, 1)),     # the ace
    ("Jk Ac 2d 3h 4s", (5, 4, 3, 2, 1)),     # the five
    ("Jk Ac 2d 3h 5s", (5, 4, 3, 2, 1)),     # the four
    ("Jk Ac 2d 3h 6s", (6, 4, 3, 2, 1)),     # the four, not the five: "the lowest card not present"
    ("Jk Kc Kd Qh Js", (13, 12, 11, 1)),     # a pair of kings, ace for the fitter
])
def test_H8_PAGAT_the_joker_is_the_fitter(text: str, ranks: tuple[int, ...]) -> None:
    assert evaluate_low(text, "bug").ranks == ranks


def test_H8_wild_cards_are_fitters_and_the_stripped_ladder() -> None:
    assert evaluate_low("5c 5d Kh Qs Jc", FIVES).ranks == (13, 12, 11, 2, 1)
    assert evaluate_low("Ac 2d 2h 3s 7c", "deuces").ranks == (7, 4, 3, 2, 1)
    assert evaluate_low("Jk 8d 9h Ts Jc", HandRules("bug", stripped=True)).ranks == (11, 10, 9, 8, 1)
    assert evaluate_low("Jk Ad 8h 9s Tc", HandRules("bug", stripped=True)).ranks == (10, 9, 8, 7, 1)
    with pytest.raises(CardError, match="Jk"):
        evaluate_low("Ac 2d 3c 4d Jk", wild="none")
    with pytest.raises(RulesError, match="widow"):
        evaluate_low("Ac 2d 3c 4d 5d", HandRules("widow"))
    assert evaluate_low("Ac 2d 9c 4d 5d", HandRules("widow", 9)).ranks == (5, 4, 3, 2, 1)


def test_H8_low_cross_checked_against_the_naive_reading() -> None:
    rng = random.Random(8)
    for rules, game in [(HandRules("bug"), NaiveGame("bug")), (FIVES, NaiveGame("rank", 5)),
                        (HandRules("bug", stripped=True), NaiveGame("bug", stripped=True))]:
        cards = list(rules.deck())
        for _ in range(500):
            hand = rng.sample(cards, 5)
            value = evaluate_low(hand, rules)
            assert (value.category, value.ranks) == game.low_value(hand), hand


def test_H5_values_of_one_game_are_totally_ordered() -> None:
    rng = random.Random(3)
    for rules in (FIVES, STRIPPED, AS_PLAYED):
        cards = list(rules.deck())
        values = [evaluate(rng.sample(cards, 5), rules) for _ in range(300)]
        ordered = sorted(values)
        assert all(a <= b for a, b in zip(ordered, ordered[1:]))
        assert all(isinstance(v, HandValue) for v in values)
    assert parse_cards("As") == (Card.of(14, "s"),)


def test_O1_H4_what_a_card_counts_as_for_the_opening_checks() -> None:
    """The helper rules.openers can call for fewer than five cards (split openers, S3): a wild
    card is any rank, the bug an ace, a card the deck lacks is refused."""
    widow = HandRules("widow", 9)
    assert [widow.counts_as(c) for c in parse_cards("9s Ks")] == [None, 13]
    assert HandRules("bug").counts_as(JOKER) == 14 and HandRules("joker").counts_as(JOKER) is None
    assert HandRules("deuces").counts_as(Card.parse("2d")) is None
    with pytest.raises(CardError, match="no joker"):
        FIVES.counts_as(JOKER)
    with pytest.raises(CardError, match="32-card deck"):
        STRIPPED.counts_as(Card.parse("6s"))
