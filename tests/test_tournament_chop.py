"""Deals and the chip race, in the rules (issue 21): ICM against exact values worked out by hand
for the textbook cases, the chip chop, whole units that sum to what is left to pay; the chip race
over many random tables."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest

from rules import IllegalAction
from rules.tournament import chop, icm_equities, next_chip, race


def test_icm_three_players_textbook_case():
    """ICM (Malmuth-Harville): stacks 5,000 / 3,000 / 2,000, prizes 50 / 30 / 20. Worked by hand:
    A finishes 1st 1/2, 2nd 3/10*5/7 + 2/10*5/8 = 19/56, 3rd 9/56: 25 + 570/56 + 180/56 = 1075/28 (38.39);
    B 1st 3/10, 2nd 1/2*3/5 + 2/10*3/8 = 3/8, 3rd 13/40: 15 + 45/4 + 13/2 = 131/4 (32.75);
    C 1st 1/5, 2nd 1/2*2/5 + 3/10*2/7 = 2/7, 3rd 18/35: 10 + 60/7 + 72/7 = 202/7 (28.86)."""
    e = icm_equities({"A": 5000, "B": 3000, "C": 2000}, [50, 30, 20])
    assert e == {"A": Fraction(1075, 28), "B": Fraction(131, 4), "C": Fraction(202, 7)}
    assert sum(e.values()) == 100


def test_icm_four_players_textbook_case():
    """ICM, four players 4,000 / 3,000 / 2,000 / 1,000 for 40 / 30 / 20 / 10: the exact equities,
    computed outside the project by listing the 24 orders of finish and their Harville chances:
    A 638/21 (30.38), B 389/14 (27.79), C 24, D 107/6 (17.83)."""
    e = icm_equities({"A": 4000, "B": 3000, "C": 2000, "D": 1000}, [40, 30, 20, 10])
    assert e == {"A": Fraction(638, 21), "B": Fraction(389, 14), "C": Fraction(24), "D": Fraction(107, 6)}


def _by_orders(stacks, prizes):
    """An independent reading of ICM: every order of finish, its chance, the prizes it pays."""
    out = {p: Fraction(0) for p in stacks}
    for order in permutations(stacks):
        chance, left = Fraction(1), sum(stacks.values())
        for p in order:
            chance *= Fraction(stacks[p], left)
            left -= stacks[p]
        for place, p in enumerate(order):
            out[p] += chance * prizes[place]
    return out


def test_icm_agrees_with_the_orders_of_finish_on_random_tables():
    """ICM: the module's recursion equals the enumeration of every order of finish (5 players, 200 tables)."""
    rng = random.Random(21)
    for _ in range(200):
        n = rng.randint(2, 5)
        stacks = {f"P{i}": rng.randint(1, 50) * 25 for i in range(n)}
        prizes = sorted((rng.randint(0, 1000) for _ in range(n)), reverse=True)
        assert icm_equities(stacks, prizes) == _by_orders(stacks, prizes)


def test_the_deal_in_whole_units_sums_to_what_is_left_and_stays_close():
    """chip and icm deals: whole units summing exactly to the prizes left, each within one unit of its exact share."""
    rng = random.Random(5)
    for _ in range(300):
        n = rng.randint(2, 6)
        stacks = {f"P{i}": rng.randint(1, 400) * 5 for i in range(n)}
        prizes = sorted((rng.randint(0, 5000) for _ in range(n)), reverse=True)
        exact = icm_equities(stacks, prizes)
        icm = chop("icm", stacks, prizes)
        assert sum(icm.values()) == sum(prizes)
        assert all(abs(icm[p] - exact[p]) < 1 for p in stacks)
        chip = chop("chip", stacks, prizes)
        assert sum(chip.values()) == sum(prizes) and all(v >= min(prizes) for v in chip.values())


def test_a_deal_is_refused_with_the_reason():
    with pytest.raises(IllegalAction, match="method 'split' is not one of chip, icm"):
        chop("split", {"A": 1, "B": 2}, [10, 5])
    with pytest.raises(IllegalAction, match="two players or more"):
        chop("icm", {"A": 1}, [10])


def test_the_chip_race_over_many_tables():
    """The chip race: stacks become multiples of the new chip, a player wins at most one chip, the
    chips given match the odd chips rounded half up, and nobody with chips is raced out."""
    rng = random.Random(8)
    for _ in range(500):
        stacks = {f"P{i}": rng.randint(0, 80) * 5 for i in range(rng.randint(2, 10))}
        stacks = {p: s for p, s in stacks.items() if s} or {"P0": 5}
        r = race(stacks, 5, 25, rng)
        assert all(v % 25 == 0 and v > 0 for v in r.stacks.values())
        assert len(set(r.winners)) == len(r.winners)
        odd = sum(s % 25 for s in stacks.values())
        assert r.new_chips == (odd + 12) // 25
        assert len(r.winners) == min(r.new_chips, sum(1 for v in r.odd.values() if v))
        for p, s in stacks.items():
            assert r.stacks[p] == (s - s % 25 + 25 * (p in r.winners) or 25)


def test_the_race_is_for_the_unit_of_the_level_stakes():
    assert next_chip(5, 25, 50, 100) == 25 and next_chip(25, 0, 100, 200) == 100
