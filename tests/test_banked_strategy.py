"""The banked game's numbers (issue 15, rules.banked.strategy): the model's values checked against
independent computations with the evaluator and settle (B2, B3, B5, H3), the exchange-payment
readings, and the command ``python -m rules.banked``."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules.banked import banked_options, dealer_exchange, dealer_qualifies, settle
from rules.banked.strategy import DealerTable, Model, dealer_sample, dealer_table
from rules.cards import Card, deck, parse_cards
from rules.hands import evaluate

DECK = deck("joker")
#: Final dealer hands standing for a dealer table: two without a game, the others qualifying.
DEALER_HANDS = ("Ah Kd 9c 6s 2h", "Th Tc 8s 4d 3c", "Jh Jd 7s 5c 2d", "Qh Qd Qs 5c 2c", "9h 8h 7d 6c 5s",
                "Ks Kc 4h 4d 2s", "Kh Kd 8c 3s 2c", "Jk Jc 9d 6h 3h")


@pytest.fixture(scope="module")
def small_model() -> Model:
    """A model whose dealer is exactly the eight hands above (both tables alike but the joker)."""
    options = banked_options()
    tables = {}
    for held in (False, True):
        hands = [h for h in DEALER_HANDS if not (held and "Jk" in h)]
        values = [evaluate(h, "joker") for h in hands]
        qualifying = sorted(v.strength for v in values if v.category != "high_card" and
                            not (v.category == "one_pair" and v.ranks[0] < 11))
        for high in range(6):  # the same stand-in dealer whatever the box holds
            tables[(held, high)] = DealerTable(held, len(hands), len(hands) - len(qualifying), tuple(qualifying), high)
    return Model(options, tables=tables)


@pytest.fixture(scope="module")
def model() -> Model:
    return Model(banked_options(), dealer_rounds=2_000)


def test_b5_bet_value_is_the_mean_of_settle_over_the_dealers_hands(small_model):
    """B5, H3: the value of betting a hand is what settle pays, averaged over the dealer's hands
    (per initial ante; ante 0.3 and bet 0.6)."""
    # Hands sharing no card with the dealer's (the joker hand faces the seven without the joker).
    for text in ("As Ad 9s 6d 3d", "Jk Js 9s 6d 3d", "Qc Td 4s 4c 3d", "Ts 9s 8d 7c 6d", "Ac Ad As 5d 5h",
                 "Jk Qc Td 9s 8d"):
        hand = parse_cards(text)
        dealers = [parse_cards(d) for d in DEALER_HANDS if not ("Jk" in text and "Jk" in d)]
        assert all(not set(d) & set(hand) for d in dealers), text
        assert len(dealers) == small_model.tables[("Jk" in text, 0)].rounds
        nets = [settle(hand, d, 3, 6)["player_net"] / 3 for d in dealers]
        assert small_model.bet(hand) == pytest.approx(sum(nets) / len(nets)), text


def test_dealer_given_the_boxs_cards_matches_dealing_from_what_is_left():
    """The whole-deck sample, conditioned on a box's five cards, is the dealer dealt from the 48 left:
    its no-game rate and its chance to beat a pair of aces agree with a direct simulation with
    dealer_exchange on the real remaining deck (within 4 standard errors), and no round uses a box card."""
    options = banked_options()
    box = parse_cards("Ah Ad Jk Kc 2s")
    table_ = dealer_sample(options, 20_000, seed=8).given(box)
    assert not any(s & 1 for s in table_.qualifying)  # the box holds the joker: never the dealer's
    rng = random.Random(9)
    rest = [c for c in DECK if c not in box]
    no_game = beats = 0
    n = 12_000
    aces = evaluate("Ah Ad Kc 7s 2s", "joker")
    for _ in range(n):
        cards = rng.sample(rest, 10)
        thrown = set(parse_cards(dealer_exchange(cards[:5])))
        final = [c for c in cards[:5] if c not in thrown] + cards[5:5 + len(thrown)]
        value = evaluate(final, "joker")
        if not dealer_qualifies(value):
            no_game += 1
        elif value > aces:
            beats += 1
    ng, _, _, higher = table_.chances(aces)
    for model, direct in ((ng, no_game / n), (higher, beats / n)):
        se = (direct * (1 - direct) * (1 / n + 1 / table_.rounds)) ** 0.5
        assert abs(model - direct) < 4 * se, (model, direct)


def test_the_dealer_depends_on_the_boxs_high_cards():
    """Card removal: a box holding jacks to aces leaves the dealer fewer qualifying pairs."""
    low = dealer_table(banked_options(), False, 4_000, seed=5, high=0)
    high = dealer_table(banked_options(), False, 4_000, seed=5, high=5)
    assert high.no_game > low.no_game + 200


def brute_second(model: Model, hand: tuple[Card, ...]) -> float:
    """B3 read directly: after a first exchange (two antes in the box): fold (-2), bet (twice the
    box's value), or change one card (a third ante) then fold (-3) or bet, over the 48 cards left."""
    fold, bet = -2.0, model.bet(hand, 2)
    left = [c for c in DECK if c not in hand]
    best = max(fold, bet)
    for thrown in hand:
        kept = [c for c in hand if c != thrown]
        values = [max(-3.0, model.bet(kept + [c], 3)) for c in left]
        best = max(best, sum(values) / len(values))
    return best


@pytest.mark.parametrize("text", ["Ah Ad Kc 7s 3h", "Jk 9h 6h 3h Kc", "Ah Kh Qh Jh 2c", "9s 8d 7h 6c 2d",
                                  "7h 7d 7c 6s 2h", "Jk Ah Kh Qh Jh", "4s 4d Kh 9c 2d", "Ks Qd 8h 5c 3c"])
def test_b3_value_after_one_exchange_matches_brute_force(model, text):
    """B3: the grouped, cached computation equals the plain loop over every card with evaluate."""
    hand = parse_cards(text)
    assert model.after_one_exchange(hand) == pytest.approx(brute_second(model, hand))


def test_b2_one_card_exchange_is_exact_over_every_draw(model):
    """B2: an exchange of one card averages the value after it over all 48 draws (no sampling)."""
    hand = parse_cards("Ah Kh Qh Jh 2c")
    choices = {(c.move, c.discards): c for c in model.choices(hand, samples=50)}
    one = choices[("exchange", (hand[4],))]
    left = [c for c in DECK if c not in hand]
    expected = sum(brute_second(model, tuple(hand[:4]) + (c,)) for c in left) / len(left)
    assert (one.ev, one.half_width, one.draws) == (pytest.approx(expected), 0.0, 48)
    assert choices[("fold", ())].ev == -1.0 and len(choices) == 33  # fold, bet, 31 exchanges


def test_b2_best_decisions_a_player_would_recognise(model):
    """B2 with the default profile: a royal flush bets; four to a royal changes its odd card;
    with nothing, the box exchanges rather than bets."""
    assert model.choices("Ah Kh Qh Jh Th", samples=50)[0].move == "bet"
    best = model.choices("Ah Kh Qh Jh 2c", samples=50)[0]
    assert (best.move, [str(c) for c in best.discards]) == ("exchange", ["2c"])
    assert model.choices("As Kd 9h 6c 2d", samples=200)[0].move == "exchange"


def test_b2_exchange_payment_fee_changes_what_is_at_stake():
    """B2/B3 option exchange_payment: as a fee, a fold after one exchange still costs two antes, but
    a bet stakes only the first ante's box (value e - 1), not a doubled one."""
    fee = Model(banked_options({"exchange_payment": "fee"}), dealer_rounds=1_000)
    hand = parse_cards("7h 7d 7c 6s 2h")
    value, move, _ = fee.second_decision(hand)
    box = Model(banked_options(), tables=fee.tables)
    assert fee._fold == (-1.0, -2.0, -3.0)
    assert value < box.second_decision(hand)[0]
    assert fee.second_decision(parse_cards("Ks Qd 8h 5c 3c")) == (-2.0, "fold", None)


def test_dealer_table_is_seeded_and_counts_every_round():
    """The simulation is reproducible: same seed, same table; every round counted once."""
    a = dealer_table(banked_options(), False, 1_000, seed=3, high=2)
    b = dealer_table(banked_options(), False, 1_000, seed=3, high=2)
    assert a == b and a.no_game + len(a.qualifying) == 1_000
    held = dealer_table(banked_options(), True, 1_000, seed=3, high=4)
    assert not any(s & 1 for s in held.qualifying)  # the box holds the joker: the dealer never has it


def test_random_hands_choices_are_ordered_and_complete(model):
    rng = random.Random(4)
    for _ in range(3):
        hand = tuple(rng.sample(DECK, 5))
        choices = model.choices(hand, samples=30)
        assert [c.ev for c in choices] == sorted((c.ev for c in choices), reverse=True)
        exchanges = {c.discards for c in choices if c.move == "exchange"}
        assert exchanges == {t for k in range(1, 6) for t in combinations(hand, k)}
