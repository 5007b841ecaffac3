"""The house's model: the expected value of every decision a box can take with five cards and the
best one, for a given profile (paytable, no-game ratio, ...), in pure Python.
:mod:`rules.banked.house` takes the same model to every hand at once and measures the house edge.

Values are in initial antes, from the moment the ante is placed (a fold on the deal is -1). They
are expectations, so floats; money stays ints elsewhere.

How they are computed (the model; every approximation stated):

1. **The dealer.** The distribution of the dealer's final hand (after the exchange by B4) is
   estimated once by a seeded simulation of ``dealer_rounds`` dealer hands from the 53-card deck
   less the box's five cards (random natural cards, with or without the joker: a box holding the
   joker faces a dealer who cannot have it, the one removal effect that moves a box's chances by
   whole percents), and by how many of the box's natural cards rank at the qualifier or higher
   (jacks to aces: they are the cards of the dealer's qualifying pairs), eleven tables in all.
   From them, :meth:`Model.e` gives the value of betting any final hand: per unit
   of ante box, ``P(no game) × ratio + P(lower) × (1 + 2 × pays) − 3 × P(higher)`` (the bet is
   twice the box, B2/B3; a tie is a push unless H3 decides it). Other card-removal effects (which
   ranks and suits exactly the box holds, what it threw) are ignored; ``bench/bench_banked.py``
   measures the difference against a direct simulation with the real remaining deck. For one
   hand, :meth:`Model.for_hand` does better: the dealer given exactly the five cards dealt, by
   keeping the rounds of one whole-deck simulation (:func:`dealer_sample`) that avoid them.
2. **The box.** What it has at stake follows ``exchange_payment``: each exchange adds an ante to
   the box (and so doubles into the bet) or is a fee the house keeps. After the second exchange:
   fold or bet. After the first: fold, bet, or change one card, averaged over every one of the 48
   cards the box has not got in hand (the cards thrown in the first exchange are treated as still
   in the deck: a small approximation that lets the value be cached by the hand's suit pattern).
   On the deal: fold, bet, or any of the 31 exchanges, averaged over the draws from the 48 unseen
   cards: exactly over every draw for one or two cards (48 and 1,128 draws), and over ``samples``
   seeded random draws for three to five cards, reported with a 95% half-width (1.96 standard
   errors). (:func:`rules.banked.house.hand_choices` averages every exchange over every draw.)

>>> model = Model(banked_options(), dealer_rounds=1_000)
>>> best = model.choices("Ah Kh Qh Jh Th", samples=100)[0]
>>> best.move, best.ev > 50
('bet', True)
>>> model.choices("As Kd 9h 6c 2d", samples=200)[0].move
'exchange'
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from rules.banked.dealer import dealer_decision, dealer_qualifies
from rules.banked.options import BankedOptions, ExchangePayment, FoldLoses, JokerTie, banked_options  # noqa: F401 (doctests)
from rules.cards import Card, deck, parse_cards
from rules.hands import HandRules, HandValue
from rules.hands.tables import RANK_SHIFT, SUIT_SHIFT, table

__all__ = ["DealerTable", "DealerSample", "Choice", "Model", "dealer_table", "dealer_sample"]

_JOKER_GAME = HandRules("joker")
_DECK = deck("joker")
_NATURALS = deck("none")
# Suit fields of hands whose natural cards share one suit (the evaluator's layout, see tables.py).
_ONE_SUIT = frozenset(n << (3 * s) for s in range(4) for n in range(1, 6))
_SUIT_MASK = 0xFFF


@dataclass(frozen=True)
class DealerTable:
    """The dealer's final hands over ``rounds`` simulated deals: how many had no game, and the
    sorted strengths of the qualifying ones (H3's joker bit included)."""

    joker_held: bool
    rounds: int
    no_game: int
    qualifying: tuple[int, ...] = field(repr=False)
    high: int | None = None

    def chances(self, value: HandValue, joker_tie: JokerTie = JokerTie.JOKER_WINS) -> tuple[float, float, float, float]:
        """P(no game), P(dealer lower), P(tie), P(dealer higher) against a box's final hand."""
        n = self.rounds
        if joker_tie is JokerTie.JOKER_WINS:
            low, high = bisect_left(self.qualifying, value.strength), bisect_right(self.qualifying, value.strength)
        else:  # a tie ignores the joker bit: both strengths of the same hand count as equal
            base = value.strength & ~1
            low, high = bisect_left(self.qualifying, base), bisect_right(self.qualifying, base | 1)
        q = len(self.qualifying)
        return self.no_game / n, low / n, (high - low) / n, (q - high) / n


def dealer_table(options: BankedOptions, joker_held: bool, rounds: int = 40_000, seed: int = 15,
                 high: int | None = None) -> DealerTable:
    """Simulate ``rounds`` dealer hands (seeded): five cards from the deck less the box's five, the
    exchange by B4 from the cards left, the final hand. The box's cards are the joker when
    ``joker_held`` and random natural cards, ``high`` of them (when given) of a rank that makes the
    dealer's qualifying pair (the qualifier or higher: jacks to aces by default).

    >>> t = dealer_table(banked_options(), joker_held=False, rounds=2_000, high=2)
    >>> t.rounds, t.high, 0.3 < t.no_game / t.rounds < 0.7
    (2000, 2, True)
    """
    rng = random.Random(seed * 16 + 2 * (high if high is not None else 7) + joker_held)
    pool = list(_NATURALS) if joker_held else list(_DECK)
    taken = 4 if joker_held else 5
    tops = [c for c in _NATURALS if c.rank >= options.qualifier]
    lows = [c for c in _NATURALS if c.rank < options.qualifier]
    if high is not None and not (0 <= high <= min(taken, len(tops)) and taken - high <= len(lows)):
        raise ValueError(f"a box of {taken} natural cards cannot hold {high} of rank {options.qualifier} or higher")
    plain, flush, word = table(_JOKER_GAME)
    no_game = 0
    strengths: list[int] = []
    for _ in range(rounds):
        if high is None:
            cards = rng.sample(pool, taken + 10)[taken:]
        else:
            box = set(rng.sample(tops, high)) | set(rng.sample(lows, taken - high))
            cards = rng.sample([c for c in pool if c not in box], 10)
        hand = tuple(cards[:5])
        decision = dealer_decision(hand, options)
        final = decision.keep + tuple(cards[5:5 + len(decision.throw)])
        total = sum(word[c] for c in final)
        value = (flush if (total >> SUIT_SHIFT) & _SUIT_MASK in _ONE_SUIT else plain)[total >> RANK_SHIFT]
        if dealer_qualifies(value, options):
            strengths.append(value.strength)
        else:
            no_game += 1
    strengths.sort()
    return DealerTable(joker_held, rounds, no_game, tuple(strengths), high)


@dataclass(frozen=True, eq=False)
class DealerSample:
    """Simulated dealer rounds from the whole 53-card deck, for conditioning on any box's cards.

    Each round keeps the five cards dealt (a bitmask of card codes), the cards the list keeps, the
    ten cards that followed in the deck (packed six bits each), and its final strength with the
    first cards drawn (-1: no game). Given a box's cards (:meth:`given`): the rounds dealt none of
    them are a sample of the dealer's hand from the rest of the deck, and a round whose draw met a
    box card draws the next spare instead (and is read again), so the draws too come from the
    cards left. One simulation serves every hand.
    """

    options: BankedOptions
    # Hundreds of thousands of rounds each: kept out of repr (a sample equals only itself).
    dealt: tuple[int, ...] = field(repr=False)
    drew: tuple[int, ...] = field(repr=False)
    strength: tuple[int, ...] = field(repr=False)
    keep: tuple[tuple[Card, ...], ...] = field(repr=False)
    spares: tuple[int, ...] = field(repr=False)

    def given(self, seen: Iterable[Card]) -> DealerTable:
        """The dealer's table for a box that holds ``seen``.

        >>> sample = dealer_sample(banked_options(), 3_000)
        >>> t = sample.given(parse_cards("Ah Ad 9c 6s 2h"))
        >>> 1_500 < t.rounds < 2_500
        True
        """
        mask = 0
        for c in seen:
            mask |= 1 << c
        plain, flush, word = table(_JOKER_GAME)
        # Most rounds neither dealt nor drew a box card: their strength stands as simulated.
        qualifying = [s for d, w, s in zip(self.dealt, self.drew, self.strength)
                      if not (d | w) & mask and s >= 0]
        rounds = sum(1 for d in self.dealt if not d & mask)
        redraw = [i for i, (d, w) in enumerate(zip(self.dealt, self.drew)) if not d & mask and w & mask]
        for i in redraw:  # a drawn card is the box's: the dealer's draw takes the next spares instead
            keep, spares = self.keep[i], self.spares[i]
            drawn: list[int] = []
            while len(drawn) < 5 - len(keep):
                code = spares & 63
                spares >>= 6
                if not mask >> code & 1:
                    drawn.append(code)
            total = sum(word[c] for c in keep) + sum(word[c] for c in drawn)
            value = (flush if (total >> SUIT_SHIFT) & _SUIT_MASK in _ONE_SUIT else plain)[total >> RANK_SHIFT]
            if dealer_qualifies(value, self.options):
                qualifying.append(value.strength)
        qualifying.sort()
        return DealerTable(bool(mask >> 52 & 1), rounds, rounds - len(qualifying), tuple(qualifying))


def dealer_sample(options: BankedOptions, rounds: int = 300_000, seed: int = 15) -> DealerSample:
    """Simulate ``rounds`` dealer hands (seeded) from the whole deck: the deal, the exchange by B4."""
    rng = random.Random(seed)
    plain, flush, word = table(_JOKER_GAME)
    dealt: list[int] = []
    drew: list[int] = []
    strengths: list[int] = []
    keeps: list[tuple[Card, ...]] = []
    spares: list[int] = []
    for _ in range(rounds):
        cards = rng.sample(_DECK, 15)
        hand = tuple(cards[:5])
        decision = dealer_decision(hand, options)
        drawn = tuple(cards[5:5 + len(decision.throw)])
        total = sum(word[c] for c in decision.keep) + sum(word[c] for c in drawn)
        value = (flush if (total >> SUIT_SHIFT) & _SUIT_MASK in _ONE_SUIT else plain)[total >> RANK_SHIFT]
        dealt.append(sum(1 << c for c in hand))
        drew.append(sum(1 << c for c in drawn))
        strengths.append(value.strength if dealer_qualifies(value, options) else -1)
        keeps.append(decision.keep)
        spares.append(sum(int(c) << (6 * i) for i, c in enumerate(cards[5:])))
    return DealerSample(options, tuple(dealt), tuple(drew), tuple(strengths), tuple(keeps), tuple(spares))


@dataclass(frozen=True)
class Choice:
    """One decision on the deal and its expected value in initial antes; ``half_width`` is the 95%
    half-width of its sampling error (0 when averaged over every draw)."""

    move: str
    discards: tuple[Card, ...]
    ev: float
    half_width: float = 0.0
    draws: int = 0

    @property
    def exact(self) -> bool:
        return self.half_width == 0.0

    def __str__(self) -> str:
        what = self.move if self.move != "exchange" else "exchange " + " ".join(map(str, self.discards))
        err = "" if self.exact else f" ± {self.half_width:.4f}"
        return f"{what}: {self.ev:+.4f}{err}"


@dataclass
class Model:
    """The expected values under one profile: the dealer's tables and the caches of box values.

    Not frozen: it holds caches (values of hands by suit pattern) that make later hands faster.
    """

    options: BankedOptions
    dealer_rounds: int = 40_000
    seed: int = 15
    #: The dealer's tables by (the box holds the joker, how many of its natural cards rank at the
    #: qualifier or higher); simulated, ``dealer_rounds`` each, unless given.
    tables: dict[tuple[bool, int], DealerTable] = field(default_factory=dict)
    _v2: dict[tuple[int, ...], float] = field(default_factory=dict, repr=False)
    _draws: dict[tuple[int, int], float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.tables:
            self.tables = {(held, high): dealer_table(self.options, held, self.dealer_rounds, self.seed, high)
                           for held in (False, True) for high in range((4 if held else 5) + 1)}
        # The rank slots (3 bits each, deuce first) that count as high cards in a rank key.
        self._high_shifts = tuple(3 * (r - 2) for r in range(self.options.qualifier, 15))
        plain, flush, self._word = table(_JOKER_GAME)
        self._plain, self._flush = plain, flush
        o = self.options
        # After 0, 1, 2 exchanges: the ante box and the fees paid, in initial antes (B2, B3).
        fee = o.exchange_payment is ExchangePayment.FEE
        self._box = (1, 1, 1) if fee else (1, 2, 3)
        self._fees = (0, 1, 2) if fee else (0, 0, 0)
        lost = [-float(b if o.fold_loses is FoldLoses.ANTE_BOX else 1) - f for b, f in zip(self._box, self._fees)]
        self._fold: tuple[float, float, float] = (lost[0], lost[1], lost[2])
        # e by rank key, for plain and flush hands: the value of betting, per unit of ante box.
        self._e_plain = {k: self.e(v, self._high(k)) for k, v in plain.items()}
        self._e_flush = {k: self.e(v, self._high(k)) for k, v in flush.items()}
        # With three units in the box (after a second exchange) the box bets or folds: its value.
        f3, b3, c3 = self._fold[2], self._box[2], self._fees[2]
        self._v3_plain = {k: max(f3, b3 * e - c3) for k, e in self._e_plain.items()}
        self._v3_flush = {k: max(f3, b3 * e - c3) for k, e in self._e_flush.items()}

    @property
    def stakes(self) -> tuple[tuple[int, int, int], tuple[int, int, int], tuple[float, float, float]]:
        """After 0, 1 and 2 exchanges: the ante box and the fees paid (in initial antes), and what
        a fold then loses (B2, B3, and the profile's ``exchange_payment`` and ``fold_loses``)."""
        return self._box, self._fees, self._fold

    @classmethod
    def for_hand(cls, options: BankedOptions, sample: DealerSample, cards: Iterable[Card]) -> Model:
        """A model for one dealt hand: the dealer's table from ``sample`` given exactly the five cards
        the box was dealt (the cards it draws later are still treated as unseen by the dealer).

        >>> sample = dealer_sample(banked_options(), 2_000)
        >>> Model.for_hand(banked_options(), sample, parse_cards("Ah Ad 9c 6s 2h")).choices("Ah Ad 9c 6s 2h", samples=20)[0].move
        'exchange'
        """
        t = sample.given(cards)
        return cls(options, tables={(held, high): t for held in (False, True) for high in range(6)})

    def _high(self, rank_key: int) -> int:
        """How many natural cards of a hand (its rank key) rank at the qualifier or higher."""
        return sum((rank_key >> shift) & 7 for shift in self._high_shifts)

    def e(self, value: HandValue, high: int) -> float:
        """The value of betting ``value`` per unit of ante box (B5), against the dealer of a box
        holding ``high`` cards at the qualifier or higher: no game pays the ratio on the box and
        returns the bet; a lower dealer pays the box 1:1 and the bet (twice the box) by the
        paytable; a higher one takes both."""
        o = self.options
        ng, lower, _tie, higher = self.tables[(value.joker, high)].chances(value, o.joker_tie)
        win, staked = o.no_game_pays
        return ng * win / staked + lower * (1 + 2 * o.paytable.pays(value)) - 3 * higher

    def _value(self, cards: Sequence[Card]) -> HandValue:
        total = sum(self._word[c] for c in cards)
        return (self._flush if (total >> SUIT_SHIFT) & _SUIT_MASK in _ONE_SUIT else self._plain)[total >> RANK_SHIFT]

    def bet(self, cards: Sequence[Card], box: int = 1) -> float:
        """The value of betting these five cards with ``box`` initial antes in the ante box."""
        total = sum(self._word[c] for c in cards)
        return box * self.e(self._value(cards), self._high(total >> RANK_SHIFT))

    def after_one_exchange(self, cards: Sequence[Card]) -> float:
        """The box's value after a first exchange (two antes in the box): the best of fold, bet, and
        changing one card (B3), cached by the hand's suit pattern."""
        key = _pattern(cards)
        found = self._v2.get(key)
        if found is None:
            found = self._v2[key] = self.second_decision(cards)[0]
        return found

    def second_decision(self, cards: Sequence[Card]) -> tuple[float, str, Card | None]:
        """After a first exchange (B3): the best of fold, bet and changing one card, as (value in
        initial antes, move, the card to change or None)."""
        words = [self._word[c] for c in cards]
        total = sum(words)
        e = self._e_flush if (total >> SUIT_SHIFT) & _SUIT_MASK in _ONE_SUIT else self._e_plain
        bet = self._box[1] * e[total >> RANK_SHIFT] - self._fees[1]
        best, move, change = (bet, "bet", None) if bet > self._fold[1] else (self._fold[1], "fold", None)
        plain, flush = self._v3_plain, self._v3_flush
        hand_ranks = total >> RANK_SHIFT
        for c, w in zip(cards, words):
            base = total - w
            rank = base >> RANK_SHIFT
            suits = (base >> SUIT_SHIFT) & _SUIT_MASK
            s = self._draws.get((hand_ranks, rank))
            if s is None:
                s = self._draws[(hand_ranks, rank)] = self._plain_draws(hand_ranks, rank)
            if suits in _ONE_SUIT:  # the four kept are of one suit (the joker fits any)
                suit = (suits.bit_length() - 1) // 3
                for slot in range(13):
                    if slot * 4 + suit not in cards:
                        step = 1 << (3 * slot)
                        s += flush[rank + step] - plain[rank + step]
                if not hand_ranks >> 39 & 7:  # the joker is left: it completes the suited four as a flush
                    step = 1 << 39
                    s += flush[rank + step] - plain[rank + step]
            if s / 48 > best:
                best, move, change = s / 48, "exchange", c
        return best, move, change

    def _plain_draws(self, hand_ranks: int, kept_ranks: int) -> float:
        """The sum of the value after a second exchange over the 48 cards not in hand added to the
        four kept, every draw read as a plain hand (the flushes are added by the caller). It
        depends on the ranks alone: those of the hand (which say how many of each rank are left,
        the joker its own rank) and those of the four kept; cached by them."""
        plain = self._v3_plain
        s = 0.0
        for slot in range(14):
            left = (1 if slot == 13 else 4) - (hand_ranks >> (3 * slot) & 7)
            if left:
                step = 1 << (3 * slot)
                s += left * plain[kept_ranks + step]
        return s

    def last_decision(self, cards: Sequence[Card]) -> str:
        """After a second exchange (B3): ``bet`` or ``fold``, whichever is worth more."""
        return "bet" if self.bet(cards, self._box[2]) - self._fees[2] > self._fold[2] else "fold"

    def choices(self, cards: str | Iterable[str | Card], samples: int = 1500, seed: int = 0,
                exact_up_to: int = 2) -> tuple[Choice, ...]:
        """Every decision on the deal with its expected value, best first (B2).

        Exchanges of up to ``exact_up_to`` cards average over every draw; larger ones over
        ``samples`` seeded draws, with the 95% half-width.
        """
        hand = parse_cards(cards, count=5)
        out = [Choice("fold", (), self._fold[0]), Choice("bet", (), self.bet(hand))]
        unseen = [c for c in _DECK if c not in hand]
        rng = random.Random(seed)
        for k in range(1, 6):
            for thrown in combinations(hand, k):
                kept = tuple(c for c in hand if c not in thrown)
                if k <= exact_up_to:
                    draws: Iterable[tuple[Card, ...]] = combinations(unseen, k)
                    values = [self.after_one_exchange(kept + d) for d in draws]
                    out.append(Choice("exchange", thrown, sum(values) / len(values), 0.0, len(values)))
                else:
                    values = [self.after_one_exchange(kept + tuple(rng.sample(unseen, k))) for _ in range(samples)]
                    mean = sum(values) / samples
                    var = sum((v - mean) ** 2 for v in values) / (samples - 1)
                    out.append(Choice("exchange", thrown, mean, 1.96 * math.sqrt(var / samples), samples))
        return tuple(sorted(out, key=lambda c: -c.ev))


def _pattern(cards: Sequence[Card]) -> tuple[int, ...]:
    """The hand up to a change of suits: the joker, and the ranks of each suit (as bits), sorted."""
    suits = [0, 0, 0, 0]
    joker = 0
    for c in cards:  # the card codes: 4 x rank index + suit, the joker 52 (rules.cards)
        if c == 52:
            joker = 1
        else:
            suits[c & 3] |= 1 << (c >> 2)
    suits.sort()
    return (joker, *suits)
