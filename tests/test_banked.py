"""The banked joker game (issue 15, B1-B5 and H3 of docs/rules.md): the dealer's exchange item by item with
the seed's words, the box's decisions in order, settlement per outcome, the house-rule options,
and the dealer's exchange on thousands of real shuffled deals against an independent brute-force
reading of the seed's list (tests/test_banked.py::brute_force_throws)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules import CardError, IllegalAction, ProfileError
from rules.banked import (
    DEFAULT_PAYTABLE,
    Item,
    Move,
    Stage,
    banked_options,
    deal,
    dealer_decision,
    dealer_exchange,
    dealer_qualifies,
    fold_net,
    new_box,
    settle,
    settle_bonus,
)
from rules.banked.dealer import straight_completions
from rules.cards import JOKER, Card, deck, parse_cards
from rules.hands import evaluate

TRIPS_RULE = banked_options({"dealer_made_hand": "trips_rule"})
HIGHER_PAIR = banked_options({"dealer_two_pair": "keep_higher_pair"})


def throws(cards: str, options=None) -> set[str]:
    return set(dealer_exchange(cards, options))


# --- B4, the dealer's list, item by item (the seed's words quoted) -------------------------------

def test_b4_item1_three_of_a_kind_changes_two():
    """B4 item 1: "If the dealer has a 'Three of kind' hand, it is strengthened by the exchange of
    two cards." Also with the joker making the three, and before a four-card flush (priority)."""
    assert throws("7h 7d 7s Kc 2d") == {"Kc", "2d"}
    assert throws("Jk 7d 7s Kc 2d") == {"Kc", "2d"}
    assert throws("7h 7d 7s Kh 2h") == {"Kh", "2h"}  # three hearts + 7h: trips first
    assert dealer_decision("7h 7d 7s Kc 2d").item is Item.THREE_OF_A_KIND


def test_b4_item2_four_to_a_flush_changes_one_even_holding_a_pair():
    """B4 item 2: "If the dealer has four cards of the same suit, one card is exchanged to make a
    Flush. The card is exchanged even if there is a pair." The joker is a card of the suit (H3)."""
    assert throws("Ah 9h 5h 2h 2c") == {"2c"}
    assert throws("Ah 9h 5h 2h Kc") == {"Kc"}
    assert throws("Jk 9h 5h 2h Kc") == {"Kc"}
    assert throws("Qh Jh Th 9h 9c") == {"9c"}  # also four to a straight flush, pair of nines: flush first
    assert dealer_decision("Ah 9h 5h 2h 2c").item is Item.FLUSH_DRAW


def test_b4_item3_open_straight_changes_one():
    """B4 item 3: "If the dealer's five cards include four cards, to which at least 2 cards of
    different rank match to make a Straight, one card is exchanged." Above a pair in priority."""
    assert throws("9c 8d 7h 6s Kc") == {"Kc"}
    assert throws("2c 3d 4h 5s Kc") == {"Kc"}  # the ace or the six
    assert throws("9c 8d 7h 6s 6c") in ({"6s"}, {"6c"})  # the pair of sixes is broken
    assert dealer_decision("9c 8d 7h 6s 6c").item is Item.OPEN_STRAIGHT_DRAW
    # With the joker three cards within a five-rank window are completed by two ranks or more.
    assert throws("Jk 6d 7h 9s Kc") == {"Kc"}
    assert sorted(straight_completions(parse_cards("Jk 6d 7h 9s"))) == [5, 8, 10]


def test_b4_item4_any_pair_changes_the_other_three():
    """B4 item 4: "If the dealer's five cards include any pair, the remaining three cards are
    exchanged." The joker pairs the dealer's highest card."""
    assert throws("Qs Qd 9h 5c 3c") == {"9h", "5c", "3c"}
    assert throws("2s 2d Ah Kc 9c") == {"Ah", "Kc", "9c"}
    assert throws("Jk Kd 9h 5c 3c") == {"9h", "5c", "3c"}
    assert dealer_decision("Qs Qd 9h 5c 3c").item is Item.PAIR


def test_b4_item4_pair_beats_an_inside_straight():
    """B4 items 4 and 5 in their order: a pair comes before four to an inside straight."""
    assert throws("9c 9d 8h 6s 5c") == {"8h", "6s", "5c"}


def test_b4_item5_inside_straight_changes_one():
    """B4 item 5: "If the dealer's five cards include four cards to which a card of a certain rank
    is needed to make Straight, one card is exchanged." A-K-Q-J and A-2-3-4 need one rank."""
    assert throws("9c 8d 6h 5s Kc") == {"Kc"}
    assert throws("Ac Kd Qh Js 3c") == {"3c"}
    assert throws("Ac 2d 3h 4s 9c") == {"9c"}
    assert dealer_decision("9c 8d 6h 5s Kc").item is Item.INSIDE_STRAIGHT_DRAW


def test_b4_straight_draw_choice_keeps_the_higher_straight():
    """B4 items 3 and 5: two sets of four leave different cards: the higher straight is kept
    (the decision written in rules.banked.dealer)."""
    assert throws("5c 7d 8h 9s Jc") == {"5c"}  # 7-8-9-J (ten) over 5-7-8-9 (six)
    assert throws("Jk 5d 6h 9s Tc") == {"5d"}  # Jk-6-9-T over Jk-5-6-9


def test_b4_item6_nothing_changes_all_five():
    """B4 item 6: "If the dealer has no hand and there are no other exchange options, the dealer
    exchanges all five of his cards for the next cards in the deck." Never with the joker."""
    assert throws("Ks Qd 8h 5c 3c") == {"Ks", "Qd", "8h", "5c", "3c"}
    assert dealer_decision("Ks Qd 8h 5c 3c").item is Item.NOTHING


def test_b4_two_pair_is_a_house_rule():
    """B4 is silent on two pair: dealer_two_pair 'change_kicker' (default) or 'keep_higher_pair'."""
    assert throws("Qs Qd 9h 9c 3c") == {"3c"}
    assert throws("Qs Qd 9h 9c 3c", HIGHER_PAIR) == {"9h", "9c", "3c"}


def test_b4_made_hands_stand_or_full_house_by_the_trips_rule():
    """B4 is silent on straights and better: 'stand' (default), or 'trips_rule' where a full house
    changes its pair; straights, flushes, four of a kind and better stand under both."""
    for hand in ("9c 8d 7h 6s 5c", "Ah 9h 5h 3h 2h", "Ks Kd Kh 4c 4d", "Ks Kd Kh Kc 4d", "Jk Ks Kd Kh Kc",
                 "Jk 8h 7h 6h 5h", "Jk Ks Kd 4c 4d"):
        assert throws(hand) == set(), hand
    assert throws("Ks Kd Kh 4c 4d", TRIPS_RULE) == {"4c", "4d"}
    assert throws("Jk Ks Kd 4c 4d", TRIPS_RULE) == {"4c", "4d"}
    assert throws("Ks Kd Kh Kc 4d", TRIPS_RULE) == set()


def test_b4_bad_dealer_cards_refused():
    """Duplicate, unknown and a wrong count of cards are refused, naming the card."""
    with pytest.raises(CardError, match="duplicate card: Ks"):
        dealer_exchange("Ks Ks 8h 5c 3c")
    with pytest.raises(CardError, match="unknown card 'Zz'"):
        dealer_exchange("Ks Zz 8h 5c 3c")
    with pytest.raises(CardError, match="5 cards, not 4"):
        dealer_exchange("Ks Qd 8h 5c")


def test_b4_qualifies_with_a_pair_of_jacks():
    """B4 "Minimal Game": "the minimum dealer's hand is a Pair of Jacks"; the joker pairs."""
    assert dealer_qualifies("Jh Jc 7s 4d 2c") and dealer_qualifies("Jk Jc 7s 4d 2c")
    assert not dealer_qualifies("Th Tc As Kd Qc") and not dealer_qualifies("Ah Kd 9s 5c 3h")
    assert dealer_qualifies("2h 2c 3s 3d 4c")  # two pair qualifies whatever its ranks
    assert dealer_qualifies("Th Tc As Kd Qc", banked_options({"qualifier": 10}))


# --- An independent reading of the list: brute force with the evaluator --------------------------

NATURALS = deck("none")
STRAIGHTS = ("straight", "straight_flush")


def completing_ranks(four: tuple[Card, ...]) -> set[int]:
    """Ranks of which some card not among the four makes a straight with them (by evaluation)."""
    return {c.rank for c in NATURALS if c not in four
            and evaluate(four + (c,), "joker").category in STRAIGHTS}


def makes_flush(four: tuple[Card, ...]) -> bool:
    return any(evaluate(four + (c,), "joker").category in ("flush", "straight_flush")
               for c in NATURALS if c not in four)


def brute_force_throws(hand: tuple[Card, ...], two_pair: str = "change_kicker") -> set[frozenset[Card]]:
    """Every set of cards the seed's list allows the dealer to throw, read without rules.banked:
    the items tried in order on every subset of four cards, draws found by trying every card."""
    value = evaluate(hand, "joker")
    cat = value.category
    if cat not in ("high_card", "one_pair", "two_pair", "three_of_a_kind"):
        return {frozenset()}
    if cat == "three_of_a_kind":
        # keep three cards that are three of a kind on their own
        return {frozenset(hand) - frozenset(k) for k in combinations(hand, 3)
                if len({c.rank for c in k if not c.is_joker}) == 1}
    fours = [(k, frozenset(hand) - frozenset(k)) for k in combinations(hand, 4)]
    found = {t for k, t in fours if makes_flush(k)}
    if found:
        return found
    found = {t for k, t in fours if len(completing_ranks(k)) >= 2}
    if found:
        return found
    if cat in ("one_pair", "two_pair"):
        # keep the best pair (or both pairs): two cards of one rank, the joker with any card
        def pair_rank(k: tuple[Card, ...]) -> int | None:
            ranks = {c.rank for c in k if not c.is_joker}
            return ranks.pop() if len(ranks) == 1 else None
        pairs = [(pair_rank(k), k) for k in combinations(hand, 2) if pair_rank(k) is not None]
        top = max(r for r, _ in pairs)
        if cat == "two_pair" and two_pair == "change_kicker":
            return {frozenset(c for c in hand if sum(c.rank == d.rank for d in hand) == 1)}
        return {frozenset(hand) - frozenset(k) for r, k in pairs if r == top}
    found = {t for k, t in fours if len(completing_ranks(k)) == 1}
    if found:
        return found
    return {frozenset(hand)}


@pytest.mark.parametrize("two_pair", ["change_kicker", "keep_higher_pair"])
def test_b4_dealer_exchange_on_real_shuffled_deals_matches_brute_force(two_pair):
    """B4 on 3,000 real shuffled deals of the 53-card deck (seeded), each hand dealt to the dealer:
    the throw is one the brute-force reading allows, item for item."""
    rng = random.Random(15 + len(two_pair))
    options = banked_options({"dealer_two_pair": two_pair})
    cards = list(deck("joker"))
    seen_items = set()
    for _ in range(3000):
        rng.shuffle(cards)
        hand = tuple(cards[:5])
        decision = dealer_decision(hand, options)
        seen_items.add(decision.item)
        allowed = brute_force_throws(hand, two_pair)
        assert frozenset(decision.throw) in allowed, (hand, decision, allowed)
    assert len(seen_items) == len(Item)  # every item met on real deals


def test_b4_dealer_exchange_on_joker_hands_matches_brute_force():
    """B4 with the joker (H3): 1,500 shuffled dealer hands that hold it, against the brute force."""
    rng = random.Random(53)
    naturals = list(NATURALS)
    for _ in range(1500):
        hand = (JOKER, *rng.sample(naturals, 4))
        assert frozenset(dealer_decision(hand).throw) in brute_force_throws(hand), hand


# --- B2, B3: a box's decisions in order ----------------------------------------------------------

def test_b2_first_round_fold_exchange_or_bet():
    """B2: fold (lose the ante), exchange any number by adding one ante, or bet twice the ante."""
    box = new_box(1, "Ah Ad 9c 6s 2h", ante=3)
    assert box.allowed() == (Move.FOLD, Move.EXCHANGE, Move.BET)
    assert fold_net(box.fold()) == -3
    bet = box.bet()
    assert (bet.stage, bet.bet_amount, bet.staked) == (Stage.BET, 6, 9)
    five = box.exchange("Ah Ad 9c 6s 2h", "Kc Kd Ks 3c 4c")
    assert (five.ante_box, five.cards_text) == (6, "Kc Kd Ks 3c 4c")


def test_b3_second_exchange_one_card_then_fold_or_bet():
    """B3: after a first exchange: fold, exchange one card for one initial ante, or bet (twice the
    ante box); after the second: fold or bet only."""
    box = new_box(1, "Ah Ad 9c 6s 2h", ante=3).exchange("9c 6s 2h", "Ac Kd Qh")
    assert box.bet().bet_amount == 12
    with pytest.raises(IllegalAction, match="B3: the second exchange changes exactly one card, not 2"):
        box.exchange("Kd Qh", "2c 3c")
    twice = box.exchange("Qh", "Kc")
    assert (twice.ante_box, twice.allowed()) == (9, (Move.FOLD, Move.BET))
    assert twice.bet().bet_amount == 18
    assert fold_net(twice.fold()) == -9
    with pytest.raises(IllegalAction, match="B3: box 1 has exchanged twice; it may fold or bet"):
        twice.play("exchange", "Kc", "2c")


def test_b2_closed_box_and_bad_exchanges_refused():
    """B2: a box that bet or folded is closed; an exchange must throw cards the box holds and draw
    as many cards, none seen before."""
    box = new_box(3, "Ah Ad 9c 6s 2h", ante=3)
    with pytest.raises(IllegalAction, match="B2: box 3 has bet and is closed"):
        box.bet().exchange("2h", "3h")
    with pytest.raises(IllegalAction, match="B2: box 3 has folded and is closed"):
        box.fold().bet()
    with pytest.raises(IllegalAction, match="does not hold Kc"):
        box.exchange("Kc", "3h")
    with pytest.raises(IllegalAction, match="1 card.s. thrown, so 1 drawn, not 2"):
        box.exchange("2h", "3h 4h")
    with pytest.raises(CardError, match="duplicate card: 2h is already in box 3"):
        box.exchange("2h", "2h")
    with pytest.raises(CardError, match="duplicate card: 9c"):
        box.exchange("2h", "3h").exchange("3h", "9c")  # a discard never comes back
    with pytest.raises(IllegalAction, match="at least one card"):
        box.exchange("", "")


def test_b1_ante_off_the_unit_refused():
    """B1: the ante is a multiple of 0.3 between 0.3 and 12 (settings)."""
    with pytest.raises(IllegalAction, match="B1: the ante must be a multiple of 0.3, not 0.4"):
        new_box(1, "Ah Ad 9c 6s 2h", ante=4)
    with pytest.raises(IllegalAction, match="between 0.3 and 12.0, not 12.3"):
        new_box(1, "Ah Ad 9c 6s 2h", ante=123)
    o = banked_options()
    assert o.amount("0.3") == 3 and o.money(120) == "12.0"
    cents = banked_options({"scale": 100, "ante_unit": 30, "minimum_ante": 30, "maximum_ante": 1200})
    assert cents.amount("0.6") == 60 and cents.money(60) == "0.60"


def test_b1_deal_five_each_dealer_last():
    """B1: five cards to each box and to the dealer, one at a time from the first box."""
    cards = list(deck("joker"))
    random.Random(1).shuffle(cards)
    hands, dealer, rest = deal(cards, 3)
    everyone = [c for h in hands for c in h] + list(dealer)
    assert len(set(everyone)) == 20 and len(rest) == 33 and set(rest).isdisjoint(everyone)
    assert hands[0][0] == cards[0] and dealer[0] == cards[3] and hands[0][1] == cards[4]


# --- B5, H3: settlement ---------------------------------------------------------------------------

def test_b5_no_game_pays_ante_two_to_three_and_returns_the_bet():
    """B5: "If after the exchange, the dealer has no game combination ('No game' situation), the
    total Ante bet is paid in the ratio of 2 to 3." The bet comes back."""
    r = settle("2h 3d 7c 9s Kd", "Th Tc As Kh Qc", ante=9, bet=18, paytable=None)
    assert (r["outcome"], r["ante_net"], r["bet_net"], r["player_net"]) == ("no_game", 6, 0, 6)
    even = banked_options({"no_game_pays": [1, 1]})
    assert settle("2h 3d 7c 9s Kd", "Th Tc As Kh Qc", 9, 18, options=even)["player_net"] == 9


def test_b5_dealer_higher_takes_ante_and_bet():
    """B5: "If the dealer's hand is higher, the player loses the Bet and Ante." """
    r = settle("Qh Qd 7c 9s Kd", "Kh Kc As 4h 2c", 6, 12)
    assert (r["outcome"], r["player_net"]) == ("dealer_wins", -18)


def test_b5_dealer_lower_pays_ante_even_and_bet_by_the_paytable():
    """B5: "If the dealer's hand is lower, the dealer pays Ante in the ratio of 1:1 and Bet depending
    on the value of the player's hand" (the default paytable; a royal flush pays its own line)."""
    r = settle("Ts Js Qs Ks As", "Kh Kc Ad 4h 2c", 3, 6)
    assert (r["outcome"], r["pays"], r["player_net"]) == ("player_wins", 100, 3 + 600)
    r = settle("7h 7d 7c 9s Kd", "Kh Kc As 4h 2c", 3, 6, {"three_of_a_kind": 5})
    assert (r["pays"], r["player_net"]) == (5, 33)
    assert DEFAULT_PAYTABLE.pays(evaluate("Jk Ks Kd Kh Kc", "joker")) == 100


def test_b5_exact_tie_is_a_push():
    """An exact tie without the joker: ante and bet returned."""
    r = settle("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 6)
    assert (r["outcome"], r["player_net"]) == ("push", 0)


def test_h3_joker_does_not_lose_to_the_equal_hand():
    """H3: "the combination with a joker does not lose to the equal combination without a joker":
    it wins by default (joker_tie 'joker_wins'), or pushes with joker_tie 'push'."""
    r = settle("Jk Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 6)
    assert (r["outcome"], r["player_net"], r["rules"]) == ("player_wins", 9, ("B5", "H3"))
    r = settle("Ac Ah 7d 5s 2c", "Jk Ad 7c 5h 2h", 3, 6)
    assert (r["outcome"], r["player_net"]) == ("dealer_wins", -9)
    push = banked_options({"joker_tie": "push"})
    assert settle("Jk Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 6, options=push)["outcome"] == "push"


def test_h3_joker_in_a_flush_is_the_deuce():
    """H3: "In Flush, the joker is taken as Two": a natural flush with a higher fifth card wins."""
    r = settle("Ah Kh 9h 6h 4h", "Jk As Ks 9s 6s", 3, 6)
    assert r["outcome"] == "player_wins"


def test_b5_settle_refuses_bad_input():
    """Duplicates across the hands, a bet that is not twice the ante box, a non-positive ante."""
    with pytest.raises(CardError, match="As is in the box's hand and the dealer's"):
        settle("As Ad 7c 5h 2h", "As Ah 7d 5s 2c", 3, 6)
    with pytest.raises(IllegalAction, match="B2: the bet is twice the ante box"):
        settle("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 9)
    with pytest.raises(IllegalAction, match="B1: the ante is a positive amount"):
        settle("As Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 0, 0)


def test_b5_fold_after_exchange_loses_the_box_or_the_initial_ante():
    """B2/B3: a fold loses the ante box (default) or, read literally, "his initial Ante bet"."""
    literal = banked_options({"fold_loses": "initial_ante"})
    box = new_box(1, "Ah Ad 9c 6s 2h", 3, literal).exchange("9c 6s 2h", "Ac Kd Qh").exchange("Qh", "Kc")
    assert fold_net(box.fold()) == -3
    assert fold_net(new_box(1, "Ah Ad 9c 6s 2h", 3).exchange("2h", "Kc").fold()) == -6


def test_b5_bonus_is_off_unless_a_table_is_given():
    """B5: "The BONUS bet is paid according to the payout table" (not given): off by default."""
    with pytest.raises(IllegalAction, match="no bonus bet"):
        settle_bonus("Ah Ad As 6s 2h", 3, banked_options())
    bonus = banked_options({"bonus_paytable": {"high_card": 0, "one_pair": 0, "two_pair": 0, "three_of_a_kind": 5}})
    assert settle_bonus("Ah Ad As 6s 2h", 3, bonus) == 15 and settle_bonus("Ah Kd Qs 6s 2h", 3, bonus) == -3


# --- the profile's options ------------------------------------------------------------------------

def test_options_refused_with_the_option_named():
    with pytest.raises(ProfileError, match="unknown banked option 'paytabel'"):
        banked_options({"paytabel": {}})
    with pytest.raises(ProfileError, match="joker_tie: one of joker_wins, push"):
        banked_options({"joker_tie": "split"})
    with pytest.raises(ProfileError, match="no_game_pays: a ratio"):
        banked_options({"no_game_pays": "2:3"})
    with pytest.raises(ProfileError, match="paytable: unknown hand 'royal'"):
        banked_options({"paytable": {"royal": 250}})
    with pytest.raises(ProfileError, match="scale: a power of ten"):
        banked_options({"scale": 3})
    options = banked_options().options()
    assert all(meta["rules"] for meta in options.values())
