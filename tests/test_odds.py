"""Exact counts and draw odds (P1), cross-checked by brute force written here."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

import pytest

from rules.cards import JOKER, Card, deck
from rules.hands import CATEGORIES, evaluate
from tests.naive import naive_bug, naive_natural
from rules.reports.odds import (
    category_counts,
    draw,
    foster_table,
    format_odds,
    main,
    odds_against,
    opening_count,
    total_hands,
)

def naive_deuces(naturals: tuple[int, ...], wilds: int, suited: bool) -> tuple[int, tuple[int, ...]]:
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for subs in product(range(2, 15), repeat=wilds) if wilds < 3 else \
            combinations_with_replacement(range(2, 15), wilds):
        ranks = list(naturals) + list(subs)
        best = max(best, naive_natural(ranks, suited and len(set(ranks)) == 5))
    return best


CLASSICAL = {
    "straight_flush": 40, "four_of_a_kind": 624, "full_house": 3744, "flush": 5108,
    "straight": 10200, "three_of_a_kind": 54912, "two_pair": 123552, "one_pair": 1098240,
    "high_card": 1302540, "five_of_a_kind": 0,
}


@pytest.mark.parametrize("category, count", sorted(CLASSICAL.items()))
def test_P1_classical_52_card_counts(category: str, count: int) -> None:
    assert category_counts("none")[category] == count


def test_P1_totals_of_every_deck() -> None:
    for wild, stripped, total in [("none", False, 2598960), ("bug", False, 2869685),
                                  ("deuces", False, 2598960), ("joker", False, 2869685),
                                  ("none", True, 201376), ("bug", True, 237336)]:
        assert total_hands(wild, stripped) == total == sum(category_counts(wild, stripped).values())


BUG = {
    "five_of_a_kind": 1, "straight_flush": 204, "four_of_a_kind": 828, "full_house": 4368,
    "flush": 7804, "straight": 20532, "three_of_a_kind": 63360, "two_pair": 138600,
    "one_pair": 1215024, "high_card": 1418964,
}


def test_H2_P1_bug_deck_counts_cross_checked_by_brute_force() -> None:
    """All 270,725 hands holding the bug, grouped by ranks and suitedness, each group scored by
    substituting every card for the bug; the other hands are the classical 52-card ones."""
    groups: Counter[tuple[tuple[int, ...], bool]] = Counter()
    example: dict[tuple[tuple[int, ...], bool], tuple[Card, ...]] = {}
    for four in combinations(deck(), 4):
        key = (tuple(sorted(c.rank for c in four)), len({c.suit for c in four}) == 1)
        groups[key] += 1
        example.setdefault(key, four)
    brute = Counter({c: n for c, n in CLASSICAL.items()})
    for key, n in groups.items():
        brute[CATEGORIES[naive_bug([*example[key], JOKER])[0]]] += n
    assert dict(brute) == BUG == category_counts("bug")


def test_H4_P1_deuces_counts_cross_checked_by_substitution() -> None:
    expected = {
        "five_of_a_kind": 672, "straight_flush": 2552, "four_of_a_kind": 31552, "full_house": 12672,
        "flush": 14472, "straight": 62232, "three_of_a_kind": 355080, "two_pair": 95040,
        "one_pair": 1225008, "high_card": 799680,
    }
    brute: Counter[str] = Counter()
    for wilds in range(5):
        for naturals in combinations_with_replacement(range(3, 15), 5 - wilds):
            counts = Counter(naturals)
            if max(counts.values()) > 4:
                continue
            ways = comb(4, wilds) * prod(comb(4, m) for m in counts.values())
            suited = comb(4, wilds) * 4 if len(counts) == len(naturals) else 0
            if suited:
                brute[CATEGORIES[naive_deuces(naturals, wilds, True)[0]]] += suited
            if ways - suited:
                brute[CATEGORIES[naive_deuces(naturals, wilds, False)[0]]] += ways - suited
    assert sum(brute.values()) == 2598960
    assert {c: brute[c] for c in CATEGORIES} == expected == category_counts("deuces")


@pytest.mark.slow
def test_H2_P1_bug_counts_by_evaluating_every_hand() -> None:
    """Every one of the 2,869,685 hands of the 53-card deck through evaluate() (a few seconds)."""
    seen = Counter(evaluate(h, "bug").category for h in combinations(deck("bug"), 5))
    assert dict(seen) == {c: n for c, n in BUG.items()}


def test_H3_joker_counts_add_up_and_have_five_of_a_kind() -> None:
    counts = category_counts("joker")
    assert counts["five_of_a_kind"] == 13          # four of a kind and the joker, every rank
    assert counts["straight_flush"] == 204         # the joker fills straight flushes as the bug does
    assert counts["four_of_a_kind"] > 828          # and, fully wild, makes quads from trips


def test_H7_P1_southern_counts_place_the_southern_hands() -> None:
    counts = category_counts("none", southern=("skip_straight", "tiger", "round_the_corner", "blaze"))
    assert (counts["skip_straight"], counts["tiger"], counts["round_the_corner"], counts["blaze"]) == (
        6120, 4080, 3072, 768)
    order = ["straight", "skip_straight", "flush", "tiger", "full_house", "round_the_corner", "blaze",
             "four_of_a_kind"]
    natural = category_counts("none")
    rarity = [natural.get(c, counts[c]) for c in order]
    assert rarity == sorted(rarity, reverse=True)  # each ranks above the more frequent ones


@pytest.mark.parametrize("wild, minimum, count", [
    ("none", "J", 536100),                          # 4 pairs x 84,480 + every hand above a pair
    ("none", "A", 84480 + 536100 - 4 * 84480),
    ("bug", "J", 642881),
])
def test_O1_P1_hands_that_open(wild: str, minimum: str, count: int) -> None:
    assert opening_count(wild, minimum=minimum) == count


def test_O1_P1_bug_openers_cross_checked() -> None:
    brute = opening_count("none")
    for four in combinations(deck(), 4):
        value = evaluate(four + (JOKER,), "bug")
        if value.category != "high_card" and (value.category != "one_pair" or value.ranks[0] >= 11):
            brute += 1
    assert brute == opening_count("bug")


# --- draws -----------------------------------------------------------------------------------

@pytest.mark.parametrize("held, thrown, wanted, count, total", [
    ("Jh Js", "8c 5d 2h", ["four_of_a_kind"], 45, comb(47, 3)),
    ("Jh Js 5c 5d", "8c", ["full_house"], 4, 47),
    ("9c 8d 7h 6s", "Kc", ["straight"], 8, 47),
    ("9c 8d 6h 5s", "Kc", ["straight"], 4, 47),
    ("Ah 9h 6h 3h", "Kc", ["flush"], 9, 47),
    ("Ah 9h 6h", "Kc 2d", ["flush"], comb(10, 2), comb(47, 2)),
    ("7c 7d 7h", "Kc 2d", ["four_of_a_kind"], 46, comb(47, 2)),
])
def test_P1_exact_draws(held: str, thrown: str, wanted: list[str], count: int, total: int) -> None:
    d = draw(held, thrown)
    assert (d.count(wanted), d.total) == (count, total)
    assert sum(d.counts.values()) == total


def test_P1_draw_with_the_bug_deck_has_the_joker_among_the_unseen() -> None:
    d = draw("9c 8d 7h 6s", "Kc", wild="bug")
    assert (d.count(["straight"]), d.total) == (9, 48)


def test_P1_foster_table_flags_where_he_differs() -> None:
    lines = foster_table()
    differs = {(l.situation.split(" (")[0], l.event) for l in lines if not l.agrees}
    assert differs == {
        ("a pair and an ace kicker, drawing two", "any improvement"),
        ("three of a kind, drawing two", "full house (a pair)"),
        ("two to a flush, drawing three", "flush"),
        ("dealt, five cards", "blaze"),
    }
    any_improvement = next(l for l in lines if l.event == "any improvement")
    assert (any_improvement.printed, any_improvement.meant) == ("21 to I", 2.5)
    assert round(any_improvement.exact, 2) == 2.48
    tiger = next(l for l in lines if l.event == "tiger")
    assert tiger.count == 4080 and tiger.exact == 636.0


def test_P1_odds_helpers() -> None:
    assert odds_against(8, 47) == 4.875
    assert odds_against(0, 47) == float("inf")
    assert format_odds(8, 47) == "4.88 to 1" and format_odds(0, 5) == "never"
    assert format_odds(624, 2598960) == "4,164 to 1"


@pytest.mark.parametrize("argv, text", [
    (["counts", "--wild", "bug"], "2,869,685"),
    (["counts", "--wild", "none", "--stripped"], "201,376"),
    (["foster"], "DIFFERS"),
])
def test_P1_command_prints_tables(argv: list[str], text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert text in capsys.readouterr().out
