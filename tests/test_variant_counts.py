"""Exact counts of the variants (P1 with H1, H4, H7, H8): every deck, wild mode and southern
placement, each cross-checked against the independent reading of tests/naive.py, by brute force.

Two brute forces: ``every_hand`` enumerates every five-card hand of the deck (a 52-card deck
takes about 4 s: those are ``slow``); ``by_classes`` counts the classes of hands (natural ranks,
wild cards, suited or not) from binomials written here and reads one real hand of each.
Both compare value by value, (category, tie-break ranks) -> hands, not just by category.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.cards import Card
from rules.reports.counts import (
    category_counts,
    low_counts,
    low_value_counts,
    opening_count,
    total_hands,
    value_counts,
)
from rules.hands import HandRules
from rules.reports.odds import main
from tests.naive import NaiveGame, Value, by_classes, every_hand

SOUTHERN = ("skip_straight", "tiger", "round_the_corner", "blaze")
MINIMUM = {"J": 11, "Q": 12, "K": 13, "A": 14}


def library(rules: HandRules) -> Counter[Value]:
    out: Counter[Value] = Counter()
    for value, n in value_counts(rules).items():
        out[(value.category, value.ranks)] += n
    return out


def naive_game(rules: HandRules) -> NaiveGame:
    wild = "rank" if rules.wild_ranked else rules.wild.value
    return NaiveGame(wild, rules.wild_rank, rules.stripped, tuple(rules.southern), rules.placement.value)


def naive_opening(counts: Counter[Value], minimum: str) -> int:
    """O1 read independently: a pair of the minimum, or any category above one pair."""
    return sum(n for (category, ranks), n in counts.items()
               if category != "high_card" and (category != "one_pair" or ranks[0] >= MINIMUM[minimum]))


def check(rules: HandRules, naive: Counter[Value]) -> None:
    assert sum(naive.values()) == total_hands(rules)
    assert library(rules) == naive
    for minimum in MINIMUM:
        assert opening_count(rules, minimum=minimum) == naive_opening(naive, minimum)


def every_hand_of(rules: HandRules) -> Counter[Value]:
    """Every hand the deck deals; in wild widow, the widow card (a club of the rank) out of it."""
    game = naive_game(rules)
    cards = game.deck()
    if rules.wild.value == "widow":
        assert rules.wild_rank is not None
        cards.remove(Card.of(rules.wild_rank, "c"))
    return every_hand(game, cards)


# --- the counts themselves, as computed (each line cross-checked below) ------------------------

# strongest first: five of a kind, straight flush, four of a kind, (flush, full house | full house,
# flush), straight, three of a kind, two pair, one pair, high card; then hands that open J, Q, K, A
EXPECTED: dict[str, tuple[HandRules, int, tuple[int, ...], tuple[int, ...]]] = {
    "fives wild": (HandRules("rank", 5), 2598960,
                   (672, 2132, 31600, 12672, 14844, 46860, 358320, 95040, 1234080, 802740),
                   (1226844, 1111068, 967068, 786780)),
    "aces wild": (HandRules("rank", 14), 2598960,
                  (672, 2416, 31600, 12672, 14560, 60144, 356160, 95040, 1226016, 799680),
                  (1123200, 979200, 798912, 573264)),
    "wild widow, nines turned": (HandRules("widow", 9), 2349060,
                                 (252, 1024, 17272, 10296, 10876, 32280, 263640, 95040, 1115640, 802740),
                                 (997104, 892164, 766056, 612732)),
    "stripped": (HandRules(stripped=True), 201376,
                 (0, 20, 224, 204, 1344, 5100, 10752, 24192, 107520, 52020),
                 (95596, 82156, 68716, 55276)),
    "stripped, bug": (HandRules("bug", stripped=True), 237336,
                      (1, 104, 343, 400, 1708, 10392, 13440, 28980, 124404, 57564),
                      (120252, 105372, 90492, 75612)),
    "stripped, banked joker": (HandRules("joker", stripped=True), 237336,
                               (8, 104, 1120, 400, 2352, 10392, 26880, 24192, 119868, 52020),
                               (131556, 118116, 103164, 85692)),
    "stripped, wild widow (every widow card)": (
        HandRules("widow", stripped=True), 32 * 169911,
        (4704, 14832, 175008, 17136, 104832, 437616, 1261920, 483840, 2313024, 624240),
        (3952752, 3737712, 3450096, 3041520)),
    "stripped, nines wild": (HandRules("rank", 9, stripped=True), 201376,
                             (392, 876, 9960, 896, 4032, 15924, 52800, 15120, 80976, 20400),
                             (157936, 150256, 139552, 122800)),
}
_STANDARD = ("five_of_a_kind", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
             "three_of_a_kind", "two_pair", "one_pair", "high_card")
_STRIPPED = ("five_of_a_kind", "straight_flush", "four_of_a_kind", "flush", "full_house", "straight",
             "three_of_a_kind", "two_pair", "one_pair", "high_card")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_P1_counts_of_every_variant(name: str) -> None:
    rules, total, counts, opening = EXPECTED[name]
    order = _STRIPPED if rules.stripped else _STANDARD
    got = category_counts(rules)
    assert list(reversed(list(got))) == list(order)  # listed weakest first, as the game ranks them
    assert (total_hands(rules), tuple(got[c] for c in order)) == (total, counts)
    assert tuple(opening_count(rules, minimum=m) for m in "JQKA") == opening


# --- H4: any wild rank ---------------------------------------------------------------------------

def test_H4_P1_fives_wild_counts_cross_checked_by_classes() -> None:
    rules = HandRules("rank", 5)
    check(rules, by_classes(naive_game(rules), 4))


def test_H4_P1_wild_rank_two_is_deuces_wild() -> None:
    assert value_counts(HandRules("rank", 2)) == value_counts("deuces")


@pytest.mark.slow
@pytest.mark.parametrize("rank", [2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14])
def test_H4_P1_every_wild_rank_cross_checked_by_classes(rank: int) -> None:
    rules = HandRules("rank", rank)
    check(rules, by_classes(naive_game(rules), 4))


@pytest.mark.slow
def test_H4_P1_fives_wild_counts_by_enumerating_every_hand() -> None:
    check(HandRules("rank", 5), every_hand_of(HandRules("rank", 5)))


# --- H4: wild widow ------------------------------------------------------------------------------

def test_H4_P1_wild_widow_counts_cross_checked_by_classes() -> None:
    """The widow turned up, the other three of its rank wild, the hands from the 51 others."""
    rules = HandRules("widow", 9)
    check(rules, by_classes(naive_game(rules), 3))


@pytest.mark.slow
def test_H4_P1_wild_widow_before_the_turn_counts_every_widow_card() -> None:
    """Without its rank: every (widow card, hand) pair, each widow rank read separately (the
    stripped deck here: 8 ranks, each cross-checked by enumerating every hand)."""
    rules = HandRules("widow", stripped=True)
    total: Counter[Value] = Counter()
    for rank in rules.deck_ranks:
        turned = rules.with_wild_rank(rank)
        naive = every_hand_of(turned)
        check(turned, naive)
        for value, n in naive.items():
            total[value] += 4 * n
    assert total_hands(rules) == 32 * 169911 == sum(total.values())
    assert library(rules) == total


@pytest.mark.slow
def test_H4_P1_wild_widow_counts_of_the_full_deck() -> None:
    rules = HandRules("widow")
    counts = category_counts(rules)
    assert total_hands(rules) == 52 * 2349060 == sum(counts.values())
    assert (counts["five_of_a_kind"], counts["straight_flush"], counts["four_of_a_kind"], counts["flush"]) == (
        13104, 57808, 897952, 561184)
    assert opening_count(rules) == 50240640
    parts: Counter[str] = Counter()
    for rank in rules.deck_ranks:
        for category, n in category_counts(rules.with_wild_rank(rank)).items():
            parts[category] += 4 * n
    assert parts == counts
    check(HandRules("widow", 9), every_hand_of(HandRules("widow", 9)))


# --- H1: the stripped deck ---------------------------------------------------------------------

@pytest.mark.parametrize("rules", [HandRules(stripped=True), HandRules("bug", stripped=True),
                                   HandRules("joker", stripped=True), HandRules("rank", 9, stripped=True),
                                   HandRules("rank", 14, stripped=True),
                                   HandRules(stripped=True, southern=["blaze"]),
                                   HandRules("bug", stripped=True, southern=["blaze"], placement="as_played")],
                         ids=repr)
def test_H1_P1_stripped_counts_by_enumerating_every_hand(rules: HandRules) -> None:
    check(rules, every_hand_of(rules))


# --- H7: southern hands --------------------------------------------------------------------------

def test_H7_P1_southern_counts_as_played() -> None:
    rules = HandRules(southern=SOUTHERN, placement="as_played")
    counts = category_counts(rules)
    assert (counts["skip_straight"], counts["tiger"], counts["round_the_corner"], counts["blaze"]) == (
        6120, 4080, 3060, 432)
    # as played, the blaze is only ever two pair (the rest stay full houses and triplets), and the
    # round-the-corner straights of one suit stay flushes: FOSTER's "848 to 1" is these 3,060
    assert counts["two_pair"] == 123552 - 432 and counts["flush"] == 5108
    check(rules, by_classes(naive_game(rules), 0))


@pytest.mark.parametrize("wild, placement", [("none", "odds"), ("bug", "odds"), ("bug", "as_played")])
def test_H7_P1_southern_counts_cross_checked_by_classes(wild: str, placement: str) -> None:
    rules = HandRules(wild, southern=SOUTHERN, placement=placement)
    check(rules, by_classes(naive_game(rules), rules.jokers))


@pytest.mark.slow
@pytest.mark.parametrize("placement", ["odds", "as_played"])
def test_H7_P1_southern_counts_by_enumerating_every_hand(placement: str) -> None:
    rules = HandRules(southern=SOUTHERN, placement=placement)
    check(rules, every_hand_of(rules))


@pytest.mark.slow
def test_H7_H4_P1_southern_hands_with_a_wild_rank() -> None:
    rules = HandRules("rank", 7, southern=SOUTHERN, placement="as_played")
    check(rules, by_classes(naive_game(rules), 4))


# --- H8: ace-to-five low -------------------------------------------------------------------------

def naive_low(rules: HandRules, wild_available: int, enumerate_all: bool = False) -> Counter[Value]:
    game = naive_game(rules)
    if enumerate_all:
        return every_hand(game, game.deck(), read="low")
    return by_classes(game, wild_available, read="low")


def library_low(rules: HandRules) -> Counter[Value]:
    out: Counter[Value] = Counter()
    for value, n in low_value_counts(rules).items():
        out[(value.category, value.ranks)] += n
    return out


LOW = {
    "none": (1317888, 1098240, 123552, 54912, 3744, 624),
    "bug": (1500928, 1180608, 126360, 57408, 3744, 637),
}


@pytest.mark.parametrize("wild", sorted(LOW))
def test_H8_P1_low_counts(wild: str) -> None:
    rules = HandRules(wild)
    assert tuple(low_counts(rules).values()) == LOW[wild]
    assert library_low(rules) == naive_low(rules, rules.jokers)


@pytest.mark.parametrize("rules", [HandRules("bug", stripped=True), HandRules(stripped=True)], ids=repr)
def test_H8_P1_low_counts_of_the_stripped_deck_by_enumerating_every_hand(rules: HandRules) -> None:
    assert library_low(rules) == naive_low(rules, rules.jokers, enumerate_all=True)


def test_H8_P1_low_counts_with_wild_ranks_as_fitters() -> None:
    rules = HandRules("rank", 5)
    assert library_low(rules) == naive_low(rules, 4)
    assert low_counts(HandRules("deuces")) == low_counts(rules)  # every wild rank: the same kinds


@pytest.mark.slow
def test_H8_P1_low_counts_with_the_bug_by_enumerating_every_hand() -> None:
    rules = HandRules("bug")
    assert library_low(rules) == naive_low(rules, 1, enumerate_all=True)


# --- the command ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, texts", [
    (["counts", "--wild", "rank", "--wild-rank", "5"], ["the four fives wild", "2,598,960", "31,600"]),
    (["counts", "--wild", "none", "--stripped"], ["201,376", "straight_flush", " 204 "]),
    (["counts", "--wild", "widow", "--stripped"], ["5,437,152 deals", "every widow card: 32 x 169,911"]),
    (["counts", "--wild", "widow", "--wild-rank", "9"], ["2,349,060 hands", "other three nines wild"]),
    (["counts", "--wild", "none", "--southern", "blaze", "tiger", "--placement", "as_played"],
     ["where they were played", "tiger"]),
    (["low", "--wild", "bug"], ["1,500,928", "five    low"]),
])
def test_P1_command_prints_every_variant(argv: list[str], texts: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    for text in texts:
        assert text in out


def test_P1_command_refuses_an_inconsistent_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["counts", "--wild", "rank"])
    assert "needs wild_rank" in capsys.readouterr().err
