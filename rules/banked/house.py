"""The house's numbers for every hand at once: the best play of all 2,869,685 deals, the value of
each of the 33 decisions for one hand averaged over every draw, and the house edge measured by
playing real shuffled rounds with that play.

Two parts, each doing what it is best at:

1. **The strategy** (:func:`strategy`). The model of :mod:`rules.banked.strategy` values a final
   hand by the dealer's simulated tables (``Model.e``). Here that value is taken for every hand,
   then, backwards: after a second exchange the box bets or folds; after a first it bets, folds or
   changes one card, averaged over the 48 cards it does not hold (the model's approximation: the
   cards thrown before count as unseen); on the deal it folds, bets or makes one of 31 exchanges,
   averaged over **every** draw from the 48 unseen cards, exactly. The averages over draws are
   sums over the hands that contain the kept cards and none of the thrown ones, which one pass
   of sums over every subset of every hand gives for all hands at once (inclusion-exclusion over
   the thrown cards). About a second of CPU for the whole table.
2. **The edge** (:func:`play`). Rounds dealt from a real shuffled 53-card deck (seeded): the box
   plays the strategy, the dealer is dealt from the same deck and exchanges by B4
   (:func:`~rules.banked.allhands.dealer_keeps`), the round settles by B5 and H3. Nothing of the
   model enters the result but the box's decisions: the edge is the true edge of that play, with
   a 95% interval from the spread of the rounds. Two things narrow that interval without moving
   its centre: a control variate (the model's value of the box as its cards fell, less what it
   expected of each draw, whose mean over every deal is known exactly: :func:`_control`), and the
   rounds whose hand pays big settled against several dealers (:func:`dealer_hands`).

>>> from rules.banked.options import banked_options
>>> from rules.banked.strategy import Model
>>> model = Model(banked_options(), dealer_rounds=2_000)
>>> best = hand_choices(model, "Ah Ad 9c 6s 2h")[0]
>>> best.move, [str(c) for c in best.discards], best.exact
('exchange', ['9c', '6s', '2h'], True)
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from rules.banked.allhands import (
    HandTable,
    Settlement,
    all_hands,
    dealer_keeps,
    hand_index,
    hand_table,
    popcount,
    replace,
    subset_index,
    subsets,
)
from rules.banked.options import BankedOptions, ExchangePayment, FoldLoses
from rules.banked.strategy import Choice, Model
from rules.cards import Card, parse_cards

__all__ = ["Strategy", "strategy", "hand_choices", "bet_values", "Tally", "play", "round_nets", "shuffled", "redealt",
           "dealer_hands", "PlayedEdge", "played_edge", "measure_edge", "BET", "FOLD", "BET_2", "FOLD_2"]

Floats = NDArray[np.float64]
Hands = NDArray[np.uint8]
Ints = NDArray[np.int64]
#: The first decision's codes beside the exchanges (0-30: the kept positions of the sorted hand).
BET, FOLD = 31, 32
#: The second decision's codes beside changing one card (0-4: the position changed).
BET_2, FOLD_2 = 5, 6
_CHUNK = 400_000
#: ``Model.stakes``: the ante box, the fees and a fold's loss after 0, 1 and 2 exchanges.
Stakes = tuple[tuple[int, int, int], tuple[int, int, int], tuple[float, float, float]]


@lru_cache(maxsize=2)
def _values(options: BankedOptions) -> HandTable:
    """Every hand's value under a profile, built once."""
    return hand_table(all_hands(), options)


@lru_cache(maxsize=2)
def _keeps(options: BankedOptions) -> NDArray[np.uint8]:
    """The dealer's kept positions (B4) of every hand under a profile, built once."""
    return dealer_keeps(all_hands(), options)


@lru_cache(maxsize=1)
def _four_subsets() -> tuple[NDArray[np.int64], ...]:
    """For each hand and each position, the index of the four cards left without it."""
    hands = all_hands()
    return tuple(subset_index(hands[:, [p for p in range(5) if p != j]]) for j in range(5))


def _bets_per_value(model: Model) -> Floats:
    """The model's value of betting each distinct hand value (``Model.e``), in the order of
    ``HandTable.values``."""
    values = _values(model.options)
    high = np.zeros(len(values.values), dtype=np.int64)
    high[values.value] = values.high
    return np.array([model.e(v, int(h)) for v, h in zip(values.values, high.tolist())])


def bet_values(model: Model) -> Floats:
    """The model's value of betting each hand, per unit of ante box (``Model.e``)."""
    per_hand: Floats = _bets_per_value(model)[_values(model.options).value]
    return per_hand


def _best(choices: Floats) -> tuple[NDArray[np.uint8], Floats]:
    """For each column, the first row holding its largest value, and that value: ``argmax`` and
    ``max`` over the rows, a row at a time (NumPy's ``argmax`` across rows copies the whole array
    into column order first, which cost more than all the sums of :func:`strategy`)."""
    best = choices[0].copy()
    first = np.zeros(choices.shape[1], dtype=np.uint8)
    for i in range(1, len(choices)):
        better = choices[i] > best  # strictly: on a tie the earlier row stays, as argmax keeps it
        first[better] = i
        np.copyto(best, choices[i], where=better)
    return first, best


def _backwards(stakes: Stakes, e: Floats) -> tuple[Floats, Floats, NDArray[np.uint8], NDArray[np.bool_], Floats]:
    """The values after a first and after a second exchange, the second decision, the third, and
    the sums of the value after a second exchange over the hands holding each four cards."""
    (_, b2, b3), (_, c2, c3), (_, f2, f3) = stakes
    bet3 = b3 * e - c3
    v3 = np.maximum(f3, bet3)
    fours = _four_subsets()
    sums = np.zeros(comb(53, 4))
    for idx in fours:
        sums += np.bincount(idx, weights=v3, minlength=len(sums))
    choices = np.empty((7, len(e)))
    for j, idx in enumerate(fours):  # changing the card at each position
        np.subtract(sums[idx], v3, out=choices[j])
        choices[j] /= 48
    choices[5] = b2 * e - c2
    choices[6] = f2
    second, v2 = _best(choices)
    return v2, v3, second, bet3 > f3, sums


@lru_cache(maxsize=2)
def _after_one(options: BankedOptions, stakes: Stakes, bets: bytes) -> Floats:
    """Every hand's value after a first exchange, for :func:`hand_choices`, which asks again for
    each hand under the same model. Keyed by all it is computed from (the profile, the stakes,
    the bytes of :func:`_bets_per_value`), so no other model's figures can answer."""
    v2 = _backwards(stakes, np.frombuffer(bets)[_values(options).value])[0]
    v2.flags.writeable = False  # shared by every caller
    return v2


@dataclass(frozen=True, eq=False)
class Strategy:
    """The best play of every hand under a model, as arrays by hand index (:func:`all_hands`).

    ``first``: the kept positions of the best exchange (0-30), :data:`BET` or :data:`FOLD`;
    ``second`` after one exchange: the position to change (0-4), :data:`BET_2` or :data:`FOLD_2`; ``third`` after
    two: bet (True) or fold; ``value``: the best first decision's value in initial antes;
    ``after_one``, ``after_two``: the value of a hand after the first, the second exchange;
    ``four_sums``: the sum of ``after_two`` over the 49 hands holding each four cards.
    """

    options: BankedOptions
    value: Floats
    after_one: Floats
    after_two: Floats
    four_sums: Floats
    first: NDArray[np.uint8]
    second: NDArray[np.uint8]
    third: NDArray[np.bool_]

    @property
    def model_edge(self) -> float:
        """The house edge the model itself predicts (its exact mean over every deal)."""
        return -float(self.value.mean())

    def first_counts(self) -> dict[str, int]:
        """How many of the 2,869,685 deals take each first decision (exchanges by cards thrown)."""
        out = {"fold": int((self.first == FOLD).sum()), "bet": int((self.first == BET).sum())}
        thrown = 5 - popcount(self.first[self.first < BET])
        for k in range(1, 6):
            out[f"exchange {k}"] = int((thrown == k).sum())
        return out


def strategy(model: Model) -> Strategy:
    """The model's best play for every deal (about a second; under 1 GB of memory at its peak)."""
    e = bet_values(model)
    v2, v3, second, third, four_sums = _backwards(model.stakes, e)
    hands = all_hands()
    (b1, _, _), (c1, _, _), (f1, _, _) = model.stakes
    # Sums of v2 over the hands holding each subset of 0-4 cards (of each size in the order of
    # itertools.combinations, as subsets() gives them: the sums add up in one fixed order).
    sums = [np.zeros(comb(53, k)) for k in range(5)]
    sums[0] += np.bincount(np.zeros(len(hands), dtype=np.intp), weights=v2, minlength=1)
    for mask, idx in subsets(hands):
        if mask != 31:
            k = bin(mask).count("1")
            sums[k] += np.bincount(idx, weights=v2, minlength=len(sums[k]))
    value = np.empty(len(hands))
    first = np.empty(len(hands), dtype=np.uint8)
    draws = np.array([comb(48, 5 - bin(m).count("1")) for m in range(31)], dtype=np.float64)
    # Rows 0-30: each exchange by its kept positions, first summed over the hands holding the
    # kept cards; 31: the hand itself (then the bet); 32: the fold. One buffer for every chunk.
    whole = np.empty((33, _CHUNK))
    for start in range(0, len(hands), _CHUNK):
        rows = hands[start:start + _CHUNK]
        g = whole[:, :len(rows)]
        g[0] = sums[0][0]
        for mask, idx in subsets(rows):
            if mask != 31:
                sums[bin(mask).count("1")].take(idx, out=g[mask])
        g[31] = v2[start:start + _CHUNK]
        _exclude(g[:32])
        g[:31] /= draws[:, None]
        g[31] = b1 * e[start:start + _CHUNK] - c1
        g[32] = f1
        first[start:start + _CHUNK], value[start:start + _CHUNK] = _best(g)
    return Strategy(model.options, value, v2, v3, four_sums, first, second, third)


def _exclude(g: Floats) -> None:
    """Inclusion-exclusion over the thrown cards, in place: row ``m`` of ``g`` (32 rows), a sum
    over the hands holding at least the positions of ``m``, becomes the sum over those holding
    exactly them (none of the others): ``g[m] -= g[m | bit]`` for each bit, lowest first, each
    bit's 16 rows at once (a row with the bit is not changed in its own pass)."""
    cube = g.view()
    cube.shape = (2,) * 5 + (-1,)  # a view of g (setting the shape never copies); axis 0 is bit 16
    for bit in range(5):
        axis = 4 - bit
        without, holding = ((slice(None),) * axis + (i,) for i in (0, 1))
        cube[without] -= cube[holding]


def hand_choices(model: Model, cards: str | Iterable[str | Card]) -> tuple[Choice, ...]:
    """Every decision on the deal for one hand with its value, best first (B2): each exchange
    averaged over every draw from the 48 unseen cards (exact: no sampling), the continuation the
    best of B3's choices. Pass ``Model.for_hand`` to face the dealer given exactly these cards.
    """
    hand = parse_cards(cards, count=5)
    codes = sorted(int(c) for c in hand)
    per_value = _bets_per_value(model)
    v2 = _after_one(model.options, model.stakes, per_value.tobytes())
    # Which of the hand's cards each hand of the deck holds, as a 5-bit mask.
    bit = np.zeros(53, dtype=np.uint8)
    for j, c in enumerate(codes):
        bit[c] = 1 << j
    hands = all_hands()
    held = bit[hands[:, 0]]
    for j in range(1, 5):
        held = held | bit[hands[:, j]]
    sums = np.bincount(held, weights=v2, minlength=32)
    (b1, _, _), (c1, _, _), (f1, _, _) = model.stakes
    row = int(hand_index(np.array([codes], dtype=np.uint8))[0])
    bet = b1 * per_value[_values(model.options).value[row]] - c1
    out = [Choice("fold", (), f1), Choice("bet", (), float(bet))]
    for m in range(31):  # m: the kept positions; the draws are the hands holding exactly those
        thrown = tuple(c for c in hand if not m >> codes.index(int(c)) & 1)
        draws = comb(48, len(thrown))
        out.append(Choice("exchange", thrown, float(sums[m] / draws), 0.0, draws))
    return tuple(sorted(out, key=lambda c: -c.ev))


def shuffled(rng: np.random.Generator, decks: int, cards: int = 21) -> NDArray[np.uint8]:
    """The top ``cards`` cards of ``decks`` shuffled 53-card decks, one deck a row: Fisher-Yates on
    the first ``cards`` places, every row at once (each place uniform over the cards left).

    >>> top = shuffled(np.random.Generator(np.random.PCG64(1)), 1_000)
    >>> top.shape, all(len(set(row)) == 21 for row in top.tolist())
    ((1000, 21), True)
    """
    deck = np.tile(np.arange(53, dtype=np.uint8), (decks, 1))
    rows = np.arange(decks)
    for i in range(cards):
        j = rng.integers(i, 53, decks)
        top = deck[:, i].copy()
        deck[:, i] = deck[rows, j]
        deck[rows, j] = top
    return deck[:, :cards]


@dataclass(frozen=True)
class Tally:
    """Sums over played rounds (nets ``x`` in units of ``1 / no_game_pays[1]`` of an initial ante;
    ``y`` the control, :func:`_control`, in the same units) from which the edge and its interval
    follow; tallies add."""

    rounds: int = 0
    x: float = 0.0
    xx: float = 0.0
    y: float = 0.0
    yy: float = 0.0
    xy: float = 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.rounds + other.rounds, self.x + other.x, self.xx + other.xx, self.y + other.y,
                     self.yy + other.yy, self.xy + other.xy)


def dealer_hands(pays: int) -> int:
    """How many dealer hands a round that bet is settled against, by what its hand pays (to 1):
    the round's own dealer and fresh ones dealt from the cards the box has not seen, averaged.
    A quad or a royal flush wins big or little as the dealer qualifies or not, and that coin is
    most of the spread of the result; flipping it more often for the few big hands narrows the
    interval at little cost (the average of several dealers is still the round's expected net).

    >>> [dealer_hands(p) for p in (1, 3, 7, 20, 100)]
    [1, 2, 4, 11, 32]
    """
    return min(32, 1 + pays // 2)


class _Box(NamedTuple):
    """One array per fact of the box's play in a batch of rounds (see :func:`_box_plays`)."""

    player: Hands  # the five cards dealt, sorted
    dealt: Ints  # their hand index
    exchanged: NDArray[np.bool_]
    keep: NDArray[np.uint8]  # the positions kept in the first exchange (31: none made)
    drawn: Ints  # cards drawn in the first exchange
    after_one: Hands
    one: Ints
    second: Ints  # the second decision (BET_2 when there was no first exchange)
    changed: NDArray[np.bool_]
    final: Ints  # the hand index of the box's last five cards
    bets: NDArray[np.bool_]
    box: Ints  # the ante box in initial antes
    fees: Ints  # exchange fees paid, in units
    lost: Ints  # what a fold loses, in units


def _box_plays(plan: Strategy, deck: Hands) -> _Box:
    """The box's play of each round (rows of ``deck``: its five, the dealer's five, then the draws)."""
    options = plan.options
    unit = options.no_game_pays[1]
    n = len(deck)
    player = np.sort(deck[:, :5], axis=1)
    dealt = hand_index(player)
    first = plan.first[dealt]
    exchanged = first < BET
    keep = np.where(exchanged, first, 31).astype(np.uint8)
    drawn = 5 - popcount(keep)
    after_one = replace(player, keep, deck, np.full(n, 10, dtype=np.int64))
    one = hand_index(after_one)
    second = np.where(exchanged, plan.second[one], BET_2).astype(np.int64)
    changed = second < 5
    keep2 = np.where(changed, 31 ^ (1 << np.minimum(second, 4)), 31).astype(np.uint8)
    final = hand_index(replace(after_one, keep2, deck, 10 + drawn))
    exchanges = exchanged.astype(np.int64) + changed
    bets = np.where(changed, plan.third[final], np.where(exchanged, second == BET_2, first == BET))
    fee = options.exchange_payment is ExchangePayment.FEE
    box = np.ones(n, dtype=np.int64) if fee else 1 + exchanges
    fees = exchanges * unit if fee else np.zeros(n, dtype=np.int64)
    lost = (box if options.fold_loses is FoldLoses.ANTE_BOX else np.ones(n, dtype=np.int64)) * unit
    return _Box(player, dealt, exchanged, keep, drawn, after_one, one, second, changed, final, bets, box, fees, lost)


def round_nets(plan: Strategy, deck: Hands) -> Ints:
    """What the box nets in each round (rows of ``deck``, as :func:`shuffled` gives them), in units
    of ``1 / no_game_pays[1]`` of an initial ante, against the dealer the deck deals: the box's five
    cards, the dealer's five, the box's draws, the dealer's draws, in that order."""
    b = _box_plays(plan, deck)
    won = Settlement(plan.options).bet(b.box, _values(plan.options), b.final, _dealer_final(plan.options, deck, b))
    nets: Ints = np.where(b.bets, won, -b.lost) - b.fees
    return nets


def _dealer_final(options: BankedOptions, deck: Hands, b: _Box) -> Ints:
    """The dealer's last five cards (hand index): dealt after the box's five, exchanged by B4 with
    the cards that follow the box's draws."""
    dealer = np.sort(deck[:, 5:10], axis=1)
    return hand_index(replace(dealer, _keeps(options)[hand_index(dealer)], deck, 10 + b.drawn + b.changed))


def play(plan: Strategy, rounds: int, seed: int | tuple[int, ...], batch: int = 100_000) -> Tally:
    """Play ``rounds`` rounds of one box against the dealer from seeded shuffled decks, the box by
    ``plan``, the dealer by B4, settled by B5/H3 (see the module's words); a round whose hand pays
    big is settled against :func:`dealer_hands` dealers.

    >>> from rules.banked.options import banked_options
    >>> from rules.banked.strategy import Model
    >>> plan = strategy(Model(banked_options(), dealer_rounds=1_000))
    >>> a, b = play(plan, 2_000, seed=3), play(plan, 2_000, seed=3)
    >>> a == b, a.rounds
    (True, 2000)
    """
    options = plan.options
    values, keeps = _values(options), _keeps(options)
    settle = Settlement(options)
    unit = settle.unit
    hands_for = np.array([dealer_hands(p) for p in range(int(values.pays.max()) + 1)], dtype=np.int64)
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    total = Tally()
    done = 0
    while done < rounds:
        n = min(batch, rounds - done)
        deck = shuffled(rng, n)
        b = _box_plays(plan, deck)
        won = settle.bet(b.box, values, b.final, _dealer_final(options, deck, b)).astype(np.float64)
        # Big hands against more dealers: dealt from the cards this box has not seen.
        more = np.where(b.bets, hands_for[values.pays[b.final]], 1) - 1
        again = np.repeat(np.arange(n), more)
        if len(again):
            seen = np.zeros((len(again), 53), dtype=np.bool_)
            rows = np.arange(len(again))
            for col in range(21):
                used = (col < 5) | ((col >= 10) & (col < 10 + b.drawn[again] + b.changed[again]))
                seen[rows[used], deck[again[used], col]] = True
            other = redealt(rng, seen)
            dealer2 = np.sort(other[:, :5], axis=1)
            final2 = hand_index(replace(dealer2, keeps[hand_index(dealer2)], other, np.full(len(again), 5)))
            extra = settle.bet(b.box[again], values, b.final[again], final2)
            won = (won + np.bincount(again, weights=extra, minlength=n)) / (1 + more)
        x = np.where(b.bets, won, -b.lost) - b.fees
        y = _control(plan, b) * unit
        total = total + Tally(n, float(x.sum()), float(x @ x), float(y.sum()), float(y @ y), float(x @ y))
        done += n
    return total


def _control(plan: Strategy, b: _Box) -> Floats:
    """The control variate: the model's value of the box as its cards fell, less what the model
    expected of each draw, which leaves a quantity whose mean over every deal is exactly the
    mean of ``plan.value``: the value of the deal; plus, after a first exchange, the value of the
    cards drawn less its average over every draw (``plan.value`` of the deal); plus, after a second,
    the value of the card drawn less its average over the cards the box had not seen (the 48 less
    the cards thrown in the first exchange, counted here exactly)."""
    y: Floats = np.where(b.exchanged, plan.after_one[b.one], plan.value[b.dealt])
    rows = np.flatnonzero(b.changed)
    if not len(rows):
        return y
    hand = b.after_one[rows]
    kept = np.array([[j for j in range(5) if j != p] for p in range(5)])[b.second[rows]]
    four = np.take_along_axis(hand, kept, axis=1)
    unseen_sum = plan.four_sums[subset_index(four)] - plan.after_two[b.one[rows]]
    thrown_keep = b.keep[rows]
    unseen = np.full(len(rows), 48.0)
    for j in range(5):  # the cards thrown in the first exchange are not in the deck any more
        out = ((thrown_keep >> j) & 1) == 0
        with_it = np.sort(np.concatenate([four, b.player[rows, j:j + 1]], axis=1), axis=1)
        index = np.where(out, hand_index(with_it), 0)  # a card kept would repeat one of the four
        unseen_sum -= np.where(out, plan.after_two[index], 0.0)
        unseen -= out
    y[rows] += plan.after_two[b.final[rows]] - unseen_sum / unseen
    return y


def redealt(rng: np.random.Generator, seen: NDArray[np.bool_]) -> NDArray[np.uint8]:
    """For each row, ten cards (a dealer's five and its draws) shuffled from the cards not ``seen``.

    >>> seen = np.zeros((2, 53), dtype=np.bool_); seen[:, :43] = True
    >>> sorted(redealt(np.random.Generator(np.random.PCG64(0)), seen)[0].tolist())
    [43, 44, 45, 46, 47, 48, 49, 50, 51, 52]
    """
    order = np.argsort(seen, axis=1, kind="stable").astype(np.uint8)  # the unseen cards first
    left = 53 - seen.sum(axis=1)
    rows = np.arange(len(order))
    for i in range(10):
        j = rng.integers(i, left)
        top = order[:, i].copy()
        order[:, i] = order[rows, j]
        order[rows, j] = top
    return order[:, :10]


@dataclass(frozen=True)
class PlayedEdge:
    """The house edge (a fraction of the initial ante) of a play, from played rounds, with the 95%
    half-width; ``plain_half_width`` is the interval without the control variate."""

    edge: float
    half_width: float
    plain_half_width: float
    rounds: int
    model_edge: float

    def __str__(self) -> str:
        return (f"house edge {100 * self.edge:+.3f}% ± {100 * self.half_width:.3f}% (95%, {self.rounds:,} rounds "
                f"played; the model alone says {100 * self.model_edge:+.3f}%)")


def played_edge(plan: Strategy, tally: Tally) -> PlayedEdge:
    """The edge from a tally: the mean net corrected by the control variate (its coefficient fitted
    on the same rounds; its mean over all deals is known exactly), and the 95% half-width."""
    n = tally.rounds
    unit = plan.options.no_game_pays[1]
    mx, my = tally.x / n, tally.y / n
    vx = (tally.xx - n * mx * mx) / (n - 1)
    vy = (tally.yy - n * my * my) / (n - 1)
    cxy = (tally.xy - n * mx * my) / (n - 1)
    beta = cxy / vy if vy > 0 else 0.0
    known = float(plan.value.mean()) * unit
    mean = mx - beta * (my - known)
    residual = max(vx - beta * cxy, 0.0)
    return PlayedEdge(-mean / unit, 1.96 * math.sqrt(residual / n) / unit, 1.96 * math.sqrt(vx / n) / unit, n,
                      plan.model_edge)


# The plan the worker processes play: set before they are forked, so that each inherits the
# arrays instead of receiving 100 MB through a pipe.
_PLAN: Strategy | None = None


def _play_chunk(rounds: int, seed: tuple[int, ...]) -> Tally:
    assert _PLAN is not None
    return play(_PLAN, rounds, seed)


def measure_edge(plan: Strategy, half_width: float = 0.001, seconds: float = 540.0, workers: int = 2,
                 seed: int = 1, pilot: int = 2_000_000, chunk: int = 5_000_000) -> tuple[PlayedEdge, Tally, float]:
    """The played house edge to a 95% half-width of ``half_width`` (a fraction of the ante).

    A pilot of ``pilot`` rounds per worker (its own seeds, then set aside) measures the spread;
    from it the number of rounds is fixed in advance (so the interval is not the product of
    stopping when it looks good), and that many are played on ``workers`` forked processes in
    chunks, the random streams ``(seed, 0, chunk)`` (the pilot's ``(seed, 1, worker)``). ``seconds`` caps the main run: when the machine is
    slower than the pilot promised, the rounds played so far are reported, with their wider
    interval. Returns the edge, the tally and the seconds taken by the main run.
    """
    global _PLAN
    _PLAN = plan
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        trial = Tally()
        for part in pool.map(_play_chunk, [pilot] * workers, [(seed, 1, i) for i in range(workers)]):
            trial = trial + part
        spread = played_edge(plan, trial)
        needed = int(trial.rounds * (spread.half_width / half_width) ** 2 * 1.05) + 1
        started = time.perf_counter()
        tally = Tally()
        sizes = [min(chunk, needed - start) for start in range(0, needed, chunk)]
        pending: set[Future[Tally]] = set()
        for i, size in enumerate(sizes):
            while len(pending) >= workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                tally = sum((f.result() for f in done), tally)
            if time.perf_counter() - started > seconds:
                break
            pending.add(pool.submit(_play_chunk, size, (seed, 0, i)))
        for f in pending:
            tally = tally + f.result()
    _PLAN = None
    return played_edge(plan, tally), tally, time.perf_counter() - started
