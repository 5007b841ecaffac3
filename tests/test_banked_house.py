"""The house's numbers for every hand at once (issue 15; rules.banked.allhands, rules.banked.house).

Each array computation is held against the rules' own Python functions on real shuffled cards:
the evaluator and the qualifier (H3, B4), the dealer's exchange (B4), the settlement (B5, H3), and
whole rounds played card for card with :class:`rules.banked.Box`, ``dealer_exchange`` and
``settle_box``. The values for one hand are held against the pure-Python model, and the edge's
control variate against its known mean.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

import numpy as np
import pytest

from rules.banked import banked_options, dealer_decision, dealer_exchange, dealer_qualifies, new_box, settle, settle_box
from rules.banked.__main__ import main
from rules.banked.allhands import (
    HANDS,
    Settlement,
    all_hands,
    dealer_keeps,
    hand_index,
    hand_table,
    parse_hands,
    subset_index,
    subsets,
)
from rules.banked.dealer import Item
from rules.banked.house import (
    BET,
    BET_2,
    FOLD,
    FOLD_2,
    Tally,
    _best,
    _exclude,
    dealer_hands,
    hand_choices,
    play,
    played_edge,
    redealt,
    round_nets,
    shuffled,
    strategy,
)
from rules.banked.strategy import Model
from rules.cards import Card, deck, parse_cards
from rules.hands import evaluate

DECK = deck("joker")
PROFILES = {
    "default": banked_options(),
    "house rules": banked_options({"dealer_made_hand": "trips_rule", "dealer_two_pair": "keep_higher_pair",
                                   "qualifier": 12, "joker_tie": "push", "paytable": {"flush": 6, "two_pair": 3}}),
    "fees": banked_options({"exchange_payment": "fee", "fold_loses": "initial_ante", "no_game_pays": [1, 1]}),
}


def shuffled_hands(n: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(DECK, 5)) for _ in range(n)]


@pytest.fixture(scope="module")
def model() -> Model:
    return Model(banked_options(), dealer_rounds=3_000)


@pytest.fixture(scope="module")
def plan(model):
    return strategy(model)


def test_every_hand_has_one_row_and_its_index_is_its_row():
    rows = all_hands()
    assert rows.shape == (HANDS, 5) == (2_869_685, 5)
    assert (np.diff(rows.astype(np.int16), axis=1) > 0).all()  # five distinct cards, sorted
    assert (hand_index(rows) == np.arange(HANDS)).all()


def test_subsets_index_every_subset_as_subset_index_does():
    """The strategy's sums read each subset's index built one card at a time (``subsets``): on
    every 7th hand of the deck, all 31 subsets are the rows' ``subset_index`` of those columns, and
    those of each size come in the order of ``itertools.combinations`` (the order the sums add in)."""
    hands = all_hands()[::7]
    found = list(subsets(hands))
    assert [m for m, _ in found if bin(m).count("1") == 3] == \
        [sum(1 << j for j in kept) for kept in combinations(range(5), 3)]
    assert sorted(m for m, _ in found) == list(range(1, 32))
    for mask, index in found:
        assert (index == subset_index(hands[:, [j for j in range(5) if mask >> j & 1]])).all(), mask


def test_the_strategys_array_steps_give_what_the_plain_numpy_steps_gave():
    """``_best`` is ``argmax`` and ``max`` across rows (ties to the first row), ``_exclude`` the
    inclusion-exclusion loop it replaced: bit for bit, on values with many exact ties."""
    rng = np.random.Generator(np.random.PCG64(13))
    choices = rng.integers(0, 6, (33, 20_000)) / 4 - 0.5
    first, best = _best(choices)
    assert (first == choices.argmax(axis=0)).all() and (best == choices.max(axis=0)).all()
    g = rng.random((32, 5_000)) * 1e3
    loop = g.copy()
    for bit in (1, 2, 4, 8, 16):
        for m in range(32):
            if not m & bit:
                loop[m] -= loop[m | bit]
    _exclude(g)
    assert np.array_equal(g, loop)


@pytest.mark.parametrize("name", PROFILES)
def test_h3_b4_b5_values_match_the_evaluator_on_shuffled_hands(name):
    """H3 (the joker), B4 (the qualifier), B5 (the paytable): every row as ``evaluate``,
    ``dealer_qualifies`` and the paytable read the hand."""
    options = PROFILES[name]
    hands = shuffled_hands(20_000, seed=1)
    t = hand_table(parse_hands(hands), options)
    for i, hand in enumerate(hands):
        value = evaluate(hand, "joker")
        assert t.strength[i] == value.strength, hand
        assert t.pays[i] == options.paytable.pays(value), hand
        assert t.qualifies[i] == dealer_qualifies(value, options), hand


@pytest.mark.parametrize("name", PROFILES)
def test_b4_dealer_keeps_what_dealer_decision_keeps(name):
    """B4, the seed's list in its strict order ("four cards of the same suit ... even if there is a
    pair"): the array's kept cards are dealer_decision's on 30,000 shuffled hands: the same cards
    for a flush draw, the same ranks otherwise (between two cards of one rank the choice changes
    nothing)."""
    options = PROFILES[name]
    hands = shuffled_hands(30_000, seed=2)
    rows = parse_hands(hands)
    keeps = dealer_keeps(rows, options)
    items = set()
    for i, hand in enumerate(hands):
        decision = dealer_decision(hand, options)
        items.add(decision.item)
        mine = [Card(int(c)) for j, c in enumerate(rows[i]) if keeps[i] >> j & 1]
        if decision.item is Item.FLUSH_DRAW:
            assert set(mine) == set(decision.keep), hand
        else:
            assert sorted(c.rank if not c.is_joker else 0 for c in mine) == \
                sorted(c.rank if not c.is_joker else 0 for c in decision.keep), hand
    assert len(items) >= 7  # every item of the list met (two pair and made hands by the profile)


@pytest.mark.parametrize("name", PROFILES)
def test_b5_h3_settlement_matches_settle(name):
    """B5 (no game, dealer higher, dealer lower by the paytable) and H3 (the joker's tie): the
    array's net is settle's for every box size, on shuffled deals."""
    options = PROFILES[name]
    rng = random.Random(3)
    players, dealers, boxes = [], [], []
    for _ in range(8_000):
        cards = rng.sample(DECK, 10)
        players.append(tuple(cards[:5]))
        dealers.append(tuple(cards[5:]))
        boxes.append(rng.choice((1, 2, 3)))
    # Exact ties are rare in shuffled deals: a natural one, and H3's tie of the joker's hand.
    for mine, theirs in (("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c"), ("Jk Ad 7c 5h 2h", "Ac Ah 7d 5s 2c")):
        players.append(parse_cards(mine))
        dealers.append(parse_cards(theirs))
        boxes.append(2)
    values = hand_table(all_hands(), options)
    p, d = hand_index(parse_hands(players)), hand_index(parse_hands(dealers))
    nets = Settlement(options).bet(np.array(boxes), values, p, d)
    unit = options.no_game_pays[1]
    outcomes = set()
    for i in range(len(players)):
        ante = 3 * boxes[i]  # the ante box, in the smallest unit (0.3 an initial ante)
        r = settle(players[i], dealers[i], ante, 2 * ante, None, options)
        outcomes.add(r["outcome"])
        assert nets[i] == r["player_net"] * unit // 3, (players[i], dealers[i])
    assert outcomes == {"no_game", "dealer_wins", "player_wins", "push"}


def python_round(plan, row) -> int:
    """One round played card for card with the rules' own Python: Box, dealer_exchange, settle_box
    (ante 0.3); the box's decisions read from ``plan``. The net in units of a third of the ante."""
    options = plan.options
    cards = [Card(int(c)) for c in row]
    hand = sorted(cards[:5])
    box = new_box(1, hand, 3, options)
    code = int(plan.first[hand_index(parse_hands([hand]))[0]])
    nxt = 10
    if code == FOLD:
        box = box.fold()
    elif code == BET:
        box = box.bet()
    else:
        thrown = [c for j, c in enumerate(hand) if not code >> j & 1]
        box = box.exchange(thrown, cards[nxt:nxt + len(thrown)])
        nxt += len(thrown)
        now = sorted(box.cards)
        second = int(plan.second[hand_index(parse_hands([now]))[0]])
        if second == FOLD_2:
            box = box.fold()
        elif second == BET_2:
            box = box.bet()
        else:
            box = box.exchange([now[second]], [cards[nxt]])
            nxt += 1
            last = sorted(box.cards)
            box = box.bet() if plan.third[hand_index(parse_hands([last]))[0]] else box.fold()
    dealer = cards[5:10]
    thrown = {str(c) for c in dealer_exchange(dealer, options)}
    final = [c for c in dealer if str(c) not in thrown] + cards[nxt:nxt + len(thrown)]
    return int(settle_box(box, final)["player_net"]) * options.no_game_pays[1] // 3


@pytest.mark.parametrize("name", ["default", pytest.param("house rules", marks=pytest.mark.slow),
                                  pytest.param("fees", marks=pytest.mark.slow)])
def test_b2_b5_rounds_match_the_rules_played_card_for_card(name, request):
    """B2, B3 (the box's moves and what they cost), B4 (the dealer's exchange from the same deck),
    B5 and H3 (the settlement): every one of 3,000 shuffled rounds nets what the Python rules give.
    The default profile plays the module's plan (built once for the tests beside this one: a
    strategy costs seconds); the others build their own."""
    plan = request.getfixturevalue("plan") if name == "default" else \
        strategy(Model(PROFILES[name], dealer_rounds=1_000))
    decks = shuffled(np.random.Generator(np.random.PCG64(4)), 3_000)
    nets = round_nets(plan, decks)
    assert [python_round(plan, row) for row in decks] == nets.tolist()
    assert len(set(nets.tolist())) > 10  # folds, pushes, no games, wins and losses of many sizes


def test_values_for_one_hand_match_the_python_model(model):
    """B2, B3: fold, bet and the one- and two-card exchanges (which the Python model averages over
    every draw) agree to rounding; the larger exchanges (which it samples) within four
    half-widths; 33 decisions, every exchange once, best first."""
    for hand in shuffled_hands(6, seed=5) + [tuple(Card(c) for c in (48, 49, 44, 40, 52))]:
        mine = hand_choices(model, hand)
        assert len(mine) == 33 and [c.ev for c in mine] == sorted((c.ev for c in mine), reverse=True)
        assert {frozenset(c.discards) for c in mine if c.move == "exchange"} == \
            {frozenset(t) for k in range(1, 6) for t in combinations(hand, k)}
        python = {(c.move, frozenset(c.discards)): c for c in model.choices(hand, samples=1_500, exact_up_to=2)}
        for c in mine:
            other = python[(c.move, frozenset(c.discards))]
            if other.exact:
                assert c.ev == pytest.approx(other.ev, abs=1e-9), (hand, c, other)
            else:
                assert abs(c.ev - other.ev) <= 4 * other.half_width + 1e-9, (hand, c, other)


@pytest.mark.parametrize("hands", [8, pytest.param(40, marks=pytest.mark.slow)])
def test_the_table_of_every_hand_holds_each_hands_best_decision(model, plan, hands):
    """The whole-deck table and the one-hand computation agree: the best value and decision (8
    shuffled hands; 40 in the slow run)."""
    for hand in shuffled_hands(hands, seed=6):
        sorted_hand = sorted(hand)
        row = int(hand_index(parse_hands([hand]))[0])
        best = hand_choices(model, hand)[0]
        assert plan.value[row] == pytest.approx(best.ev, abs=1e-9), hand
        code = int(plan.first[row])
        if best.move == "exchange":
            kept = sum(1 << j for j, c in enumerate(sorted_hand) if c not in best.discards)
            assert code == kept, hand
        else:
            assert code == {"bet": BET, "fold": FOLD}[best.move], hand
    counts = plan.first_counts()
    assert sum(counts.values()) == HANDS and counts["exchange 3"] > 0


def test_played_edge_control_variate_has_its_known_mean(plan):
    """The control's mean over played rounds agrees with its exact mean (within 4 standard errors),
    the edge it gives agrees with the plain mean of the nets, and it narrows the interval."""
    tally = play(plan, 400_000, seed=11)
    n, unit = tally.rounds, 3
    my, mx = tally.y / n, tally.x / n
    sy = math.sqrt((tally.yy / n - my * my) / n)
    assert abs(my - plan.value.mean() * unit) < 4 * sy
    edge = played_edge(plan, tally)
    assert edge.half_width < edge.plain_half_width
    assert abs(edge.edge - (-mx / unit)) < 2 * edge.plain_half_width
    assert play(plan, 1_000, seed=(1, 2)) == play(plan, 1_000, seed=(1, 2))
    assert Tally(1, 2.0) + Tally(3, 4.0) == Tally(4, 6.0)


def test_shuffled_decks_and_redealt_dealers_are_fair():
    """Every card equally likely in every place of the deck; a dealer dealt again never gets a
    card the box has seen."""
    rng = np.random.Generator(np.random.PCG64(12))
    top = shuffled(rng, 53_000)
    assert all(len(set(r)) == 21 for r in top[:2_000].tolist())
    for place in (0, 9, 20):
        counts = np.bincount(top[:, place], minlength=53)
        chi2 = ((counts - 1_000) ** 2 / 1_000).sum()
        assert chi2 < 110, place  # 52 degrees of freedom: far above its 99.99th percentile is broken
    seen = np.zeros((5_000, 53), dtype=np.bool_)
    for i in range(5_000):
        seen[i, random.Random(i).sample(range(53), 11)] = True
    again = redealt(rng, seen)
    assert not seen[np.arange(5_000)[:, None], again].any()
    assert all(len(set(r)) == 10 for r in again.tolist())
    assert [dealer_hands(p) for p in (1, 20, 100)] == [1, 11, 32]


def test_command_prints_exact_values_for_a_hand(capsys):
    main(["hand", "Ah Ad 9c 6s 2h", "--dealer-rounds", "2000"])
    out = capsys.readouterr().out
    assert "33 decisions" in out and "exchange 9c 6s 2h" in out and "every draw" in out and " ± " not in out


@pytest.mark.slow
def test_command_prints_the_played_edge(capsys):
    main(["edge", "--half-width", "20", "--pilot", "20000", "--dealer-rounds", "500", "--profile",
          '{"no_game_pays": [1, 1]}'])
    out = capsys.readouterr().out
    assert "house edge" in out and "no game pays 1 to 1" in out and "rounds played" in out
    assert "first decisions: " in out and "(95%, " in out
