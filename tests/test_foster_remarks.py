"""FOSTER's two remarks without odds of their own (F19 the smaller pair, F23 four-card straights and
flushes), computed under the reading rules.reports.foster_remarks states, and checked on real shuffled decks."""

from __future__ import annotations

import math
import random

from rules.cards import deck
from rules.reports.foster_remarks import FOSTER_F23, four_card_draws, smaller_pair
from rules.hands import evaluate


def test_F19_throwing_the_smaller_pair_draws_about_as_well_as_one_pair() -> None:
    """F19 (FOSTER): "Drawing to two pairs, it is II to I against filling the hand by getting the
    third to either pair. Discarding the smaller pair, the chances are practically the same as
    drawing to one pair." Exact: 2.48 to 1 against improving a pair of jacks, 2.45 to 1 after
    throwing a pair of fives: within a few hundredths, as FOSTER says."""
    pair, split = smaller_pair()
    assert pair.total == split.total == math.comb(47, 3)
    assert abs(pair.odds_improving - split.odds_improving) < 0.05
    assert round(pair.odds_improving, 2) == 2.48 and round(split.odds_improving, 2) == 2.45


def test_F19_the_exact_odds_match_real_draws() -> None:
    """F19 on real decks: 20,000 draws of three to J-J after throwing 5-5-8 improve as often as the
    exact count says (within four standard errors)."""
    rng = random.Random(19)
    _, split = smaller_pair()
    rest = [c for c in deck() if str(c) not in ("Jh", "Js", "5c", "5d", "8c")]
    jacks = [c for c in deck() if str(c) in ("Jh", "Js")]
    n, hits = 20_000, 0
    for _ in range(n):
        hand = evaluate(jacks + rng.sample(rest, 3))
        hits += hand.category != "one_pair"
    p = split.improving / split.total
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_F23_four_card_flushes_and_straights() -> None:
    """F23 (FOSTER): "While a flush is easier to fill than a straight, it is harder to get the
    four-card flush to draw to in the first place. There are about Soo ways to get a four-card
    straight ; only '12 ways to get a f our card flush." Read as thousands of five-card hands:
    111,540 hold exactly four of a suit (FOSTER's 112); 344,576 hold four to a straight, so the
    straight draws are indeed far more common, though not the 800 thousand the text prints."""
    c = four_card_draws()
    assert c.flushes == 111_540 and round(c.flushes / 1000) == FOSTER_F23["flushes"]
    assert c.straights == 344_576 and c.straights > 3 * c.flushes
    assert c.open_ended == 69_632 and c.total == 2_598_960


def test_F23_the_counts_match_real_deals() -> None:
    """F23 on real shuffled decks: the share of 30,000 dealt hands holding four to a flush and four
    to a straight is the exact share, within four standard errors."""
    rng = random.Random(23)
    cards = deck()
    c = four_card_draws()
    windows = [set(range(low, low + 5)) for low in range(2, 11)] + [{14, 2, 3, 4, 5}]
    n, flushes, straights = 30_000, 0, 0
    for _ in range(n):
        hand = rng.sample(cards, 5)
        suits = [x.suit for x in hand]
        flushes += max(suits.count(s) for s in set(suits)) == 4
        ranks = {x.rank for x in hand}
        made = len(ranks) == 5 and ranks in windows
        straights += not made and any(len(ranks & w) >= 4 for w in windows)
    for hits, exact in ((flushes, c.flushes), (straights, c.straights)):
        p = exact / c.total
        assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)
