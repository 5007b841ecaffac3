"""A deliberately naive evaluator for the tests, written independently of rules.hands.

The slow and obvious way: count the ranks, look for a straight and a flush, and for the bug try it
as an ace and as every card of the deck that could complete a straight or a flush (H2).
"""

from __future__ import annotations

from collections import Counter

from rules.cards import Card, deck
from rules.hands import CATEGORIES

NAIVE_ORDER = list(CATEGORIES)


def naive_natural(ranks: list[int], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category index, tie-break ranks) of five natural ranks, the slow and obvious way."""
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
    shape = [n for _, n in groups]
    tie = tuple(r for r, _ in groups)
    desc = tuple(sorted(ranks, reverse=True))
    straight_top = 0
    if len(counts) == 5:
        if desc[0] - desc[4] == 4:
            straight_top = desc[0]
        elif desc == (14, 5, 4, 3, 2):
            straight_top = 5
    if shape == [5]:
        return NAIVE_ORDER.index("five_of_a_kind"), tie
    if straight_top and flush:
        return NAIVE_ORDER.index("straight_flush"), (straight_top,)
    if shape == [4, 1]:
        return NAIVE_ORDER.index("four_of_a_kind"), tie
    if shape == [3, 2]:
        return NAIVE_ORDER.index("full_house"), tie
    if flush:
        return NAIVE_ORDER.index("flush"), desc
    if straight_top:
        return NAIVE_ORDER.index("straight"), (straight_top,)
    if shape == [3, 1, 1]:
        return NAIVE_ORDER.index("three_of_a_kind"), tie
    if shape == [2, 2, 1]:
        return NAIVE_ORDER.index("two_pair"), tie
    if shape == [2, 1, 1, 1]:
        return NAIVE_ORDER.index("one_pair"), tie
    return NAIVE_ORDER.index("high_card"), desc


def naive_cards(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    return naive_natural([c.rank for c in cards], len({c.suit for c in cards}) == 1)


def naive_bug(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """H2 by substitution: the bug as an ace of any suit, or as any card of the deck that makes a
    straight, flush or straight flush."""
    if not any(c.is_joker for c in cards):
        return naive_cards(cards)
    rest = [c for c in cards if not c.is_joker]
    best = naive_natural([c.rank for c in rest] + [14], False)
    for sub in deck():
        if sub in rest:
            continue
        value = naive_cards(rest + [sub])
        if NAIVE_ORDER[value[0]] in ("straight", "flush", "straight_flush"):
            best = max(best, value)
    return best


# --- every game: a second, independent reading of H1-H8 ------------------------------------
#
# Written from the rule catalogue (docs/rules.md) and the seeds, not from rules.hands: its own category orders, its own
# straight and southern-hand tests, the bug and the banked joker tried card by card, the wild
# ranks tried rank by rank (every order of the substitutes for up to two wild cards). It only
# shares the *representation* of a value with rules.hands, (category, tie-break ranks), so that
# the two can be compared value by value.

from dataclasses import dataclass  # noqa: E402
from functools import cached_property, lru_cache  # noqa: E402
from itertools import combinations_with_replacement, product  # noqa: E402
from math import comb, prod  # noqa: E402

from rules.cards import JOKER  # noqa: E402

Value = tuple[str, tuple[int, ...]]
STRAIGHT_LIKE = {"straight", "straight_flush", "skip_straight", "round_the_corner"}
LOW_KINDS = ["no pair", "one pair", "two pair", "three of a kind", "full house", "four of a kind"]


@lru_cache(maxsize=None)
def naive_order(stripped: bool, southern: tuple[str, ...], placement: str) -> tuple[str, ...]:
    """The categories weakest first: H5, H1 (stripped: the flush above the full house), and the
    southern hands (H7) inserted below the hand FOSTER has them lose to."""
    order = list(CATEGORIES)
    if stripped:
        order.remove("flush")
        order.insert(order.index("full_house") + 1, "flush")
    if placement == "odds":
        below = [("skip_straight", "flush"), ("tiger", "full_house"),
                 ("round_the_corner", "four_of_a_kind"), ("blaze", "four_of_a_kind")]
    else:  # as played: FOSTER's "played to beat ... and lose to ..."
        below = [("skip_straight", "three_of_a_kind"), ("blaze", "three_of_a_kind"),
                 ("tiger", "flush"), ("round_the_corner", "flush")]
    for name, anchor in below:
        if name in southern:
            order.insert(order.index(anchor), name)
    return tuple(order)


@dataclass(frozen=True)
class NaiveGame:
    wild: str = "none"                 # none, bug, joker, or "rank" for deuces, rank, widow
    wild_rank: int | None = None
    stripped: bool = False
    southern: tuple[str, ...] = ()
    placement: str = "odds"

    @property
    def low(self) -> int:
        return 7 if self.stripped else 2

    @property
    def ranks(self) -> list[int]:
        return list(range(self.low, 15))

    def deck(self) -> list[Card]:
        cards = [Card(code) for code in range(52) if (code >> 2) + 2 >= self.low]
        return cards + [JOKER] if self.wild in ("bug", "joker") else cards

    def is_wild(self, card: Card) -> bool:
        return card.is_joker or (self.wild == "rank" and card.rank == self.wild_rank)

    def order(self) -> tuple[str, ...]:
        return naive_order(self.stripped, self.southern, self.placement)

    @cached_property
    def _place(self) -> dict[str, int]:
        """Each category's place in :meth:`order` (weakest 0), looked up once per game."""
        return {category: i for i, category in enumerate(self.order())}

    def key(self, value: Value) -> tuple[int, tuple[int, ...]]:
        """How two values of the game compare; a round-the-corner straight played as played is a
        straight just above the five-high one (its ranks are (5, end card))."""
        category, ranks = value
        if category == "round_the_corner" and self.placement == "as_played":
            return self._place["straight"], ranks
        return self._place[category], ranks

    # ------------------------------------------------------------------ natural cards
    def readings(self, ranks: list[int], flush: bool) -> list[Value]:
        """Every category five natural ranks make (the standard one and any southern ones)."""
        counts = Counter(ranks)
        groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
        shape = [n for _, n in groups]
        tie = tuple(r for r, _ in groups)
        desc = tuple(sorted(ranks, reverse=True))
        distinct = set(ranks)
        top = 0
        if len(distinct) == 5:
            if desc[0] - desc[4] == 4:
                top = desc[0]
            elif distinct == {14, self.low, self.low + 1, self.low + 2, self.low + 3}:
                top = self.low + 3  # A-2-3-4-5, or A-7-8-9-T in the stripped deck
        if shape == [5]:
            standard: Value = ("five_of_a_kind", tie)
        elif top and flush:
            standard = ("straight_flush", (top,))
        elif shape == [4, 1]:
            standard = ("four_of_a_kind", tie)
        elif shape == [3, 2]:
            standard = ("full_house", tie)
        elif flush:
            standard = ("flush", desc)
        elif top:
            standard = ("straight", (top,))
        elif shape[0] == 3:
            standard = ("three_of_a_kind", tie)
        elif shape[:2] == [2, 2]:
            standard = ("two_pair", tie)
        elif shape[0] == 2:
            standard = ("one_pair", tie)
        else:
            standard = ("high_card", desc)
        found = [standard]
        s = self.southern
        if "skip_straight" in s and len(distinct) == 5 and not flush:
            for as_ranks in (sorted(distinct), sorted(1 if r == 14 else r for r in distinct)):
                if [b - a for a, b in zip(as_ranks, as_ranks[1:])] == [2, 2, 2, 2]:
                    found.append(("skip_straight", (as_ranks[-1],)))
        if "tiger" in s and len(distinct) == 5 and not flush and not top and desc[0] == 7 and desc[-1] == 2:
            found.append(("tiger", desc))
        if "round_the_corner" in s:
            for run in ([11, 12, 13, 14, 2], [12, 13, 14, 2, 3], [13, 14, 2, 3, 4]):
                if distinct == set(run):
                    found.append(("round_the_corner", (5, run[-1]) if self.placement == "as_played" else (run[-1],)))
        if "blaze" in s and distinct <= {11, 12, 13}:
            found.append(("blaze", tie))
        return found

    def best(self, values: list[Value]) -> Value:
        return max(values, key=self.key)

    @cached_property
    def _naturals(self) -> dict[tuple[tuple[int, ...], bool], Value]:
        """The best reading of each set of natural ranks (sorted) and flush seen so far in this game
        (shared by equal games): the substitution loops of :meth:`value` ask the same ones again
        and again, and the game is hashed once here, not at every ask."""
        return _NATURALS.setdefault(self, {})

    def natural(self, ranks: list[int], flush: bool) -> Value:
        key = (tuple(sorted(ranks)), flush)
        value = self._naturals.get(key)
        if value is None:
            value = self._naturals[key] = self.best(self.readings(list(key[0]), flush))
        return value

    # ------------------------------------------------------------------ a hand
    def value(self, cards: list[Card]) -> Value:
        wild = [c for c in cards if self.is_wild(c)]
        rest = [c for c in cards if not self.is_wild(c)]
        suited = len({c.suit for c in rest}) <= 1
        ranks = [c.rank for c in rest]
        if not wild:
            return self.natural(ranks, suited)
        if self.wild == "bug":
            return self.bug(rest)
        if self.wild == "joker":
            return self.joker(rest)
        subs_all = (product(self.ranks, repeat=len(wild)) if len(wild) <= 2
                    else combinations_with_replacement(self.ranks, len(wild)))
        found = []
        for subs in subs_all:
            full = ranks + list(subs)
            found.append(self.natural(full, suited and len(set(full)) == 5))  # H4: no copy in a flush
        return self.best(found)

    def bug(self, rest: list[Card]) -> Value:
        """H2, card by card: an ace; or any card of the deck the hand lacks that makes a straight
        (of any kind) or a flush."""
        found = [self.natural([c.rank for c in rest] + [14], False)]
        for sub in self.deck():
            if sub.is_joker or sub in rest:
                continue
            hand = rest + [sub]
            value = self.natural([c.rank for c in hand], len({c.suit for c in hand}) == 1)
            if value[0] in STRAIGHT_LIKE or value[0] == "flush":
                found.append(value)
        return self.best(found)

    def joker(self, rest: list[Card]) -> Value:
        """H3: any rank; in a plain flush the lowest card of the suit the hand lacks."""
        ranks = [c.rank for c in rest]
        found = [self.natural(ranks + [r], False) for r in self.ranks]
        if len({c.suit for c in rest}) == 1:
            for r in self.ranks:
                if r not in ranks:
                    value = self.natural(ranks + [r], True)
                    if value[0] == "straight_flush":
                        found.append(value)
            low = min(r for r in self.ranks if r not in ranks)
            found.append(self.natural(ranks + [low], True))
        return self.best(found)

    def low_value(self, cards: list[Card]) -> tuple[str, tuple[int, ...]]:
        """H8: ace-to-five low, each wild card (the joker too) the lowest card still missing."""
        ranks = [1 if c.rank == 14 else c.rank for c in cards if not (c.is_joker or self.is_wild(c))]
        ladder = [1] + [r for r in self.ranks if r != 14]
        while len(ranks) < 5:
            ranks.append(min(r for r in ladder if r not in ranks))
        counts = Counter(ranks)
        groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
        shape = [n for _, n in groups]
        kind = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4, (4, 1): 5}[tuple(shape)]
        return LOW_KINDS[kind], tuple(r for r, _ in groups)


#: :attr:`NaiveGame._naturals` of every game read so far.
_NATURALS: dict[NaiveGame, dict[tuple[tuple[int, ...], bool], Value]] = {}


def every_hand(game: NaiveGame, cards: list[Card], read: str = "high") -> Counter[Value]:
    """Every five-card hand of ``cards`` (all of them, enumerated), read by the naive game.

    Each hand is read once per class of hands that the rules cannot tell apart (the same natural
    ranks, the same number of wild cards, natural cards suited or not): the class is computed
    from the hand's own cards here, and its first hand is the one read.

    The hands are enumerated in the order of ``itertools.combinations`` (so the first hand of a
    class is the same), three cards by loops and the last two from a list of every pair of cards,
    the class of each hand added up from its three cards' and its pair's: each hand's class is
    still made from its own five cards, in C (``Counter.update``) rather than a Python loop per
    hand (issue 34, session 42: 2.6 million hands in a third of the time).
    """
    n = len(cards)
    # A card's part of the class: 3 bits per natural rank, a count of wild cards above them; its suit
    # as a bit (none for a wild card). Five cards are suited when the OR of their bits is one bit.
    word = [(1 << 60) if game.is_wild(c) else 1 << (3 * (c.rank - 2)) for c in cards]
    suit_bit = [0 if game.is_wild(c) else 1 << "cdhs".index(c.suit) for c in cards]
    one_suit = [[(s | t) & ((s | t) - 1) == 0 for t in range(16)] for s in range(16)]
    pairs = [(d, e) for d in range(n) for e in range(d + 1, n)]
    pair_word = [word[d] + word[e] for d, e in pairs]
    pair_suits = [suit_bit[d] | suit_bit[e] for d, e in pairs]
    pairs_from: dict[int, int] = {}  # card d -> the index of the first pair (d, e)
    for i, (d, _) in enumerate(pairs):
        pairs_from.setdefault(d, i)
    seen: Counter[tuple[int, bool]] = Counter()
    first: dict[tuple[int, bool], tuple[int, ...]] = {}
    for a in range(n - 4):
        for b in range(a + 1, n - 3):
            for c in range(b + 1, n - 2):
                three = word[a] + word[b] + word[c]
                suits = suit_bit[a] | suit_bit[b] | suit_bit[c]
                start = pairs_from[c + 1]  # the pairs (d, e) with c < d < e, in order
                hands = list(zip(map(three.__add__, pair_word[start:]),
                                 map(one_suit[suits].__getitem__, pair_suits[start:])))
                known = len(seen)
                seen.update(hands)
                if len(seen) != known:  # a class met for the first time: its first hand here
                    for key in set(hands).difference(first):
                        first[key] = (a, b, c, *pairs[start + hands.index(key)])
    out: Counter[Value] = Counter()
    for key, count in seen.items():
        hand = [cards[i] for i in first[key]]
        out[game.value(hand) if read == "high" else game.low_value(hand)] += count
    return out


def by_classes(game: NaiveGame, wild_available: int, read: str = "high") -> Counter[Value]:
    """The same counts from the classes of hands and their sizes (products of binomials), each
    class read on one hand of real cards: faster than :func:`every_hand`, and a second way."""
    pool = [r for r in game.ranks if not (game.wild == "rank" and r == game.wild_rank)]
    wild_cards = ([JOKER] if game.wild in ("bug", "joker") else
                  [Card.of(game.wild_rank, s) for s in "cdhs"][4 - wild_available:] if game.wild == "rank" else [])
    out: Counter[Value] = Counter()
    for wilds in range(len(wild_cards) + 1):
        for naturals in combinations_with_replacement(pool, 5 - wilds):
            counts = Counter(naturals)
            if max(counts.values(), default=0) > 4:
                continue
            ways = comb(len(wild_cards), wilds) * prod(comb(4, m) for m in counts.values())
            if len(counts) == len(naturals):  # distinct ranks: a club, then spades
                mixed = [Card.of(r, "c" if i == 0 else "s") for i, r in enumerate(naturals)]
            else:  # the copies of a rank take the suits in turn
                used: Counter[int] = Counter()
                mixed = []
                for r in naturals:
                    mixed.append(Card.of(r, "cdhs"[used[r]]))
                    used[r] += 1
            extra = wild_cards[:wilds]
            value = game.value if read == "high" else game.low_value
            if len(counts) == len(naturals):
                suited_ways = comb(len(wild_cards), wilds) * 4
                out[value([Card.of(r, "s") for r in naturals] + extra)] += suited_ways
                if ways > suited_ways:
                    out[value(mixed + extra)] += ways - suited_ways
            else:
                out[value(mixed + extra)] += ways
    return out
