"""The banked floor tree (rules.banked.disputes): a wrong dealer exchange (B4) and a wrong payout (B5,
H3), checked case by case with the rule ids and against the rules' own functions on real shuffled deals."""

from __future__ import annotations

import random

import pytest

from rules import MissingFact, RulesError
from rules.banked import banked_options, dealer_exchange, settle
from rules.banked.disputes import (BANKED_FACTS, BankedOutcome, BankedRuling, banked_questions, build_banked_tree,
                                   resolve_dispute)
from rules.cards import parse_cards

DECK = [str(c) for c in parse_cards(
    " ".join(r + s for r in "23456789TJQKA" for s in "cdhs") + " Jk")]
VOID = banked_options({"dealer_error_seen": "void"})


def exchange(cards: str, thrown: str, **more: object) -> BankedRuling:
    return resolve_dispute({"issue": "wrong_exchange", "dealer_cards": cards, "dealer_thrown": thrown, **more})


# ------------------------------------------------------------------ a wrong dealer exchange (B4)


def test_b4_three_of_a_kind_changes_two_and_the_right_exchange_stands() -> None:
    """B4: 'If the dealer has a Three of kind hand, it is strengthened by the exchange of two cards.'"""
    r = exchange("7h 7d 7s Kc 2d", "Kc 2d")
    assert r.outcome is BankedOutcome.EXCHANGE_STANDS
    assert r.citations == ("B4",) and r.moves == {}
    assert "three of a kind" in r.summary and "the exchange stands" in r.summary


def test_b4_flush_draw_even_holding_a_pair_wrong_exchange_unseen_is_remade() -> None:
    """B4: 'The card is exchanged even if there is a pair': the dealer who kept the pair threw wrongly;
    found before the cards drawn were seen, the hand is re-made by the list."""
    r = exchange("Ah 9h 5h 2h 2c", "Ah 9h 5h", draw_seen=False)
    assert r.outcome is BankedOutcome.DEALER_HAND_REMADE
    assert r.right_throw == ("2c",) and r.right_keep == ("Ah", "9h", "5h", "2h")
    assert r.item == "flush_draw" and r.citations == ("B4",)
    assert "re-made" in r.summary and "throws 2c" in r.summary and "draws 1" in r.summary
    assert r.moves == {} and not r.void and r.dealer_final == ()


def test_b4_wrong_exchange_seen_is_settled_as_the_cards_fell_by_default() -> None:
    """B4 with the house option dealer_error_seen = as_fell (the default): the fallen hand is the dealer's."""
    r = exchange("Ah 9h 5h 2h 2c", "Ah 9h 5h", draw_seen=True, dealer_drawn="Kc Qd 3s")
    assert r.outcome is BankedOutcome.DEALER_HAND_AS_FELL
    assert r.dealer_final == ("2h", "2c", "Kc", "Qd", "3s")
    assert "as they fell" in r.summary and "as_fell" in r.summary


def test_b4_b5_wrong_exchange_seen_is_void_under_the_void_option() -> None:
    """B4, B5 with dealer_error_seen = void: the boxes that bet take back ante box and bet."""
    r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Kh Kc 7s 5d 4h", "dealer_thrown": "Kh",
                         "draw_seen": True}, VOID)
    assert r.outcome is BankedOutcome.DEALER_HAND_VOID and r.void
    assert r.citations == ("B4", "B5") and "void" in r.summary


def test_b4_joker_pair_keeps_joker_and_top_card() -> None:
    """B4 with H3: the joker and a natural card are a pair; the other three are changed."""
    assert exchange("Jk 9c 9d 4s 2h", "4s 2h").outcome is BankedOutcome.EXCHANGE_STANDS
    r = exchange("Jk Kc 9d 4s 2h", "Jk 9d 4s 2h", draw_seen=False)
    assert r.outcome is BankedOutcome.DEALER_HAND_REMADE and set(r.right_throw) == {"9d", "4s", "2h"}


def test_b4_nothing_changes_all_five_and_thrown_order_does_not_matter() -> None:
    """B4: 'the dealer exchanges all five of his cards'."""
    assert exchange("Ks Qd 8h 5c 3c", "3c 5c 8h Qd Ks").outcome is BankedOutcome.EXCHANGE_STANDS
    assert exchange("Ks Qd 8h 5c 3c", "3c 5c 8h Qd", draw_seen=False).outcome is BankedOutcome.DEALER_HAND_REMADE


def test_b4_made_hand_stands_so_throwing_none_is_right() -> None:
    """B4 (dealer_made_hand stand): a straight or better changes no card; thrown empty is right."""
    assert exchange("9c 8d 7h 6s 5c", "").outcome is BankedOutcome.EXCHANGE_STANDS
    r = exchange("9c 8d 7h 6s 5c", "5c", draw_seen=False)
    assert r.outcome is BankedOutcome.DEALER_HAND_REMADE and r.right_throw == ()
    assert "throws no card" in r.summary


def test_b4_refuses_a_thrown_card_the_dealer_did_not_hold() -> None:
    with pytest.raises(RulesError, match="B4: the dealer threw As, which is not among"):
        exchange("7h 7d 7s Kc 2d", "As")


def test_b4_as_fell_needs_as_many_drawn_as_thrown_and_new_cards() -> None:
    with pytest.raises(RulesError, match="B4: the dealer drew 3 card"):
        exchange("Kh Kc 7s 5d 4h", "7s 5d", draw_seen=True, dealer_drawn="Ac Ad 2c")
    with pytest.raises(RulesError, match="already in the dealer's hand"):
        exchange("Kh Kc 7s 5d 4h", "7s", draw_seen=True, dealer_drawn="Kh")


def test_missing_facts_are_asked_not_guessed() -> None:
    with pytest.raises(MissingFact) as missing:
        resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Kh Kc 7s 5d 4h", "dealer_thrown": "Kh"})
    assert missing.value.fact == "draw_seen"
    with pytest.raises(MissingFact) as missing:
        resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Kh Kc 7s 5d 4h", "dealer_thrown": "Kh",
                         "draw_seen": True})
    assert missing.value.fact == "dealer_drawn"
    assert banked_questions({}).fact == "issue"
    assert banked_questions({"issue": "wrong_payout", "box": 1}).fact == "box_cards"
    assert banked_questions({"issue": "wrong_payout", "box": 1, "box_cards": "As Ad 7c 5h 2h",
                             "dealer_final": "Kc Kh 7d 5s 2c", "ante_box": 3, "bet": 6}).fact == "paid"


def test_b4_real_shuffled_deals_the_trees_right_exchange_is_dealer_exchange() -> None:
    """B4 on 3,000 shuffled deals: the tree's right exchange is the contract's dealer_exchange; the
    dealer's own exchange stands, any other is ruled wrong."""
    rng = random.Random(15)
    stands = remade = 0
    for _ in range(3000):
        hand = rng.sample(DECK, 5)
        right = dealer_exchange(" ".join(hand))
        r = exchange(" ".join(hand), " ".join(right), draw_seen=False)
        assert r.outcome is BankedOutcome.EXCHANGE_STANDS and set(r.right_throw) == set(right)
        stands += 1
        other = tuple(c for c in hand if rng.random() < 0.5)
        r = exchange(" ".join(hand), " ".join(other), draw_seen=False)
        if set(other) == set(right):
            assert r.outcome is BankedOutcome.EXCHANGE_STANDS
        else:
            remade += 1
            assert r.outcome is BankedOutcome.DEALER_HAND_REMADE and set(r.right_throw) == set(right)
    assert stands == 3000 and remade > 2000


@pytest.mark.parametrize("item, cards, right, wrong", [
    ("three_of_a_kind", "7h 7d 7s Kc 2d", "Kc 2d", "7s Kc 2d"),
    ("flush_draw", "Ah 9h 5h 2h 2c", "2c", "Ah 9h 5h"),
    ("open_straight_draw", "9c 8d 7h 6s Kc", "Kc", "Kc 6s"),
    ("pair", "Qs Qd 9h 5c 3c", "9h 5c 3c", "3c"),
    ("inside_straight_draw", "9c 8d 6h 5s Kc", "Kc", "Kc 9c 8d 6h 5s"),
    ("nothing", "Ks Qd 8h 5c 3c", "Ks Qd 8h 5c 3c", "8h 5c 3c"),
    ("two_pair", "Qs Qd 9h 9c 3c", "3c", "9h 9c 3c"),
    ("made_hand", "Jk 8h 8c 3s 3d", "", "3s 3d"),
])
def test_b4_each_item_of_the_dealers_list(item: str, cards: str, right: str, wrong: str) -> None:
    """B4, the seed's list in order: 'Three of kind ... exchange of two cards'; 'four cards of the same
    suit, one card is exchanged ... even if there is a pair'; 'four cards, to which at least 2 cards of
    different rank match to make a Straight, one card'; 'any pair, the remaining three cards'; 'four cards
    to which a card of a certain rank is needed to make Straight, one card'; 'no hand ... all five'. Two pair
    and a made hand (with the joker: a full house) are the profile's options (change_kicker, stand)."""
    ok = exchange(cards, right)
    assert ok.outcome is BankedOutcome.EXCHANGE_STANDS and ok.item == item
    assert set(ok.right_throw) == set(right.split())
    bad = exchange(cards, wrong, draw_seen=False)
    assert bad.outcome is BankedOutcome.DEALER_HAND_REMADE and bad.item == item
    assert bad.path[1].key == "wrong" and "B4" in bad.citations


@pytest.mark.parametrize("options", [
    {}, {"dealer_two_pair": "keep_higher_pair"}, {"dealer_made_hand": "trips_rule"}])
def test_b4_real_shuffled_deals_under_each_reading_of_the_list(options: dict[str, str]) -> None:
    """B4 on 1,500 shuffled deals per reading of the list: the ruling follows the table's profile."""
    opts = banked_options(options)
    rng = random.Random(len(options) + 4)
    for _ in range(1500):
        hand = " ".join(rng.sample(DECK, 5))
        right = dealer_exchange(hand, opts)
        r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": hand, "dealer_thrown": " ".join(right)}, opts)
        assert r.outcome is BankedOutcome.EXCHANGE_STANDS and r.right_throw == right


def test_b4_options_shape_the_right_exchange() -> None:
    """B4 dealer_two_pair: with keep_higher_pair the list's 'any pair' rule applies to two pair."""
    keep = banked_options({"dealer_two_pair": "keep_higher_pair"})
    assert exchange("Qs Qd 9h 9c 3c", "3c").outcome is BankedOutcome.EXCHANGE_STANDS
    r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Qs Qd 9h 9c 3c", "dealer_thrown": "3c",
                         "draw_seen": False}, keep)
    assert r.outcome is BankedOutcome.DEALER_HAND_REMADE and r.right_throw == ("9h", "9c", "3c")


# ------------------------------------------------------------------ a wrong payout (B5, H3)


def payout(box: str, dealer: str, ante: int, paid: int, options: object = None) -> BankedRuling:
    return resolve_dispute({"issue": "wrong_payout", "box": 3, "box_cards": box, "dealer_final": dealer,
                            "ante_box": ante, "bet": 2 * ante, "paid": paid}, options)  # type: ignore[arg-type]


def test_b5_no_game_pays_the_ante_2_to_3_and_returns_the_bet() -> None:
    """B5: dealer does not qualify (B4: no pair of jacks): ante 2 to 3, the bet returned. Ante 3, bet 6:
    the box is handed 3 + 2 + 6 = 11; it was paid 12 (the ante even money): it gives 1 back."""
    r = payout("As Kd 7c 5h 2h", "Ac Kh 7d 5s 2c", 3, 12)
    assert r.outcome is BankedOutcome.PAYOUT_CORRECTED and r.settlement == "no_game"
    assert (r.right_paid, r.difference, r.moves) == (11, -1, {3: -1})
    assert r.citations == ("B4", "B5") and "gives back 0.1" in r.summary and r.paytable_entry == ""


def test_b5_dealer_higher_takes_ante_and_bet() -> None:
    """B5: 'Dealer higher: player loses ante and bet'. Paid 0 is right; paid the stakes back is wrong."""
    assert payout("9h 9d 8c 4s 2d", "Kh Kd 7s 5c 3h", 6, 0).outcome is BankedOutcome.PAYOUT_RIGHT
    r = payout("9h 9d 8c 4s 2d", "Kh Kd 7s 5c 3h", 6, 18)
    assert r.outcome is BankedOutcome.PAYOUT_CORRECTED and r.difference == -18 and r.right_paid == 0


def test_b5_dealer_lower_pays_the_paytable_entry() -> None:
    """B5: 'ante paid 1:1 and the bet by the paytable': a flush (with the joker) pays 5 to 1.
    Ante 3, bet 6: 3 + 6 + 3 + 30 = 42; it was paid 24 (the bet at 2 to 1): 18 more."""
    r = payout("Jk Ah Kh 4h 9h", "Ad Ac 7s 4c 3d", 3, 24)
    assert r.outcome is BankedOutcome.PAYOUT_CORRECTED and r.settlement == "player_wins"
    assert (r.right_paid, r.difference) == (42, 18) and r.paytable_entry == "flush pays 5 to 1"
    assert "flush pays 5 to 1" in r.summary and "pays the box 1.8 more" in r.summary
    royal = payout("Ts Js Qs Ks As", "Ad Ac 7s 4c 3d", 3, 0)
    assert royal.paytable_entry == "royal flush pays 100 to 1" and royal.right_paid == 3 + 6 + 3 + 600


def test_h3_joker_tie_cites_h3() -> None:
    """H3: 'a hand with the joker does not lose to an equal hand without it' (joker_wins: it wins)."""
    r = payout("Jk Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 9)
    assert r.settlement == "player_wins" and "H3" in r.citations and r.outcome is BankedOutcome.PAYOUT_CORRECTED
    push = banked_options({"joker_tie": "push"})
    r = payout("Jk Ad 7c 5h 2h", "Ac Ah 7d 5s 2c", 3, 9, push)
    assert r.settlement == "push" and r.outcome is BankedOutcome.PAYOUT_RIGHT and "H3" in r.citations


def test_b2_a_bet_not_twice_the_ante_box_is_refused() -> None:
    with pytest.raises(RulesError, match="B2: the bet is twice the ante box"):
        resolve_dispute({"issue": "wrong_payout", "box": 1, "box_cards": "As Ad 7c 5h 2h",
                         "dealer_final": "Kc Kh 7d 5s 2c", "ante_box": 3, "bet": 5, "paid": 0})


def test_b5_real_shuffled_deals_the_right_payout_is_settle() -> None:
    """B5 on 3,000 shuffled deals: the right payout is the stakes plus settle's player_net; the money
    moved brings what was paid to exactly that (nothing lost: paid + difference = right)."""
    rng = random.Random(5)
    options = banked_options()
    seen = set()
    for _ in range(3000):
        cards = rng.sample(DECK, 10)
        box, dealer = " ".join(cards[:5]), " ".join(cards[5:])
        ante = options.ante_unit * rng.randint(1, 40)
        net = settle(box, dealer, ante, 2 * ante)["player_net"]
        paid = max(0, 3 * ante + net + rng.choice((0, 0, -ante, ante, 3)))
        r = payout(box, dealer, ante, paid)
        assert r.right_paid == 3 * ante + net
        assert paid + r.difference == r.right_paid
        assert r.outcome is (BankedOutcome.PAYOUT_RIGHT if paid == 3 * ante + net else BankedOutcome.PAYOUT_CORRECTED)
        assert r.moves == ({} if r.difference == 0 else {3: r.difference})
        seen.add(r.settlement)
    assert seen >= {"no_game", "dealer_wins", "player_wins"}  # a push is too rare to count on here


# ------------------------------------------------------------------ the tree as data


def test_tree_cites_only_rules_md_ids_and_every_fact_has_a_question() -> None:
    for options in (banked_options(), VOID):
        tree = build_banked_tree(options)
        assert set(tree.citations()) <= {"B1", "B2", "B3", "B4", "B5", "H3"}
        assert tree.used_facts() <= set(BANKED_FACTS)
        assert set(tree.outcomes()) <= {o.value for o in BankedOutcome}
    assert "DEALER_HAND_AS_FELL" in build_banked_tree().outcomes()
    assert "DEALER_HAND_VOID" not in build_banked_tree().outcomes()


def test_ruling_round_trips_through_its_record() -> None:
    r = payout("Jk Ah Kh 4h 9h", "Ad Ac 7s 4c 3d", 3, 24)
    d = r.to_dict()
    assert d["outcome"] == "PAYOUT_CORRECTED" and d["moves"] == {"3": 18}
    assert BankedRuling.from_dict(d) == r
    with pytest.raises(RulesError, match="outcome"):
        BankedRuling.from_dict({"outcome": "REOPENED"})
    assert [step["node"] for step in d["path"]] == ["issue", "box", "settlement", "paid_player_wins"]


# ------------------------------------------------------------------ a ruling in the round's log


from rules import IllegalAction  # noqa: E402
from rules.banked.round import replay  # noqa: E402

ROUND = [
    {"type": "deal", "antes": {"1": 3, "2": 6, "3": 3},
     "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c", "3": "Jk Th 8s 4h 3h"}},
    {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "Ac Kd Qh"},
    {"type": "bet", "box": 1},
    {"type": "fold", "box": 2},
    {"type": "bet", "box": 3},
    {"type": "reveal", "dealer": "Kh Kc 7s 5d 4d"},
]


def test_b4_ruling_as_fell_settles_the_round_on_the_fallen_cards_and_conserves_money() -> None:
    """B4 (dealer_error_seen as_fell): the dealer threw Kh instead of 7s 5d 4d; the round is settled on
    Kc 7s 5d 4d + the card drawn. Nothing is lost: the house's net is minus the boxes' total."""
    fell = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Kh Kc 7s 5d 4d", "dealer_thrown": "Kh",
                            "draw_seen": True, "dealer_drawn": "3s"})
    s = replay({"boxes": 3}, ROUND + [{"type": "ruling", "ruling": 1, "outcome": fell.outcome.value,
                                       "dealer_final": list(fell.dealer_final)}])
    assert s["stage"] == "settled" and s["dealer"]["final"] == ["Kc", "7s", "5d", "4d", "3s"]
    nets = {p["box"]: p["player_net"] for p in s["payouts"]}
    assert nets[1] == settle("Ah Ad Ac Kd Qh", "Kc 7s 5d 4d 3s", 6, 12)["player_net"]  # no game: 2 to 3
    assert nets[2] == -6 and s["house_net"] == -sum(nets.values()) == s["house_total"]
    assert s["rulings"] == [{"ruling": 1, "outcome": "DEALER_HAND_AS_FELL"}]


def test_b4_b5_ruling_void_returns_the_stakes_of_the_boxes_that_bet_only() -> None:
    s = replay({"boxes": 3}, ROUND + [{"type": "ruling", "ruling": 2, "outcome": "DEALER_HAND_VOID", "void": True}])
    nets = {p["box"]: (p["outcome"], p["player_net"]) for p in s["payouts"]}
    assert nets == {1: ("void", 0), 2: ("folded", -6), 3: ("void", 0)} and s["house_net"] == 6


def test_b5_payout_ruling_is_logged_and_the_settlement_shows_the_correction() -> None:
    """B5: box 1 was handed 24 for a win of 42 (stakes 18): the ruling's net stands, paid + correction
    is what the box takes home, and the house's total moves by nothing the rules did not pay."""
    settled = replay({"boxes": 3}, ROUND + [{"type": "dealer_draw", "drawn": "9s 8d 2c"}])
    box1 = next(p for p in settled["payouts"] if p["box"] == 1)
    r = resolve_dispute({"issue": "wrong_payout", "box": 1, "box_cards": "Ah Ad Ac Kd Qh",
                         "dealer_final": " ".join(settled["dealer"]["final"]), "ante_box": 6, "bet": 12, "paid": 24})
    assert r.right_paid == 18 + box1["player_net"]
    s = replay({"boxes": 3}, ROUND + [{"type": "dealer_draw", "drawn": "9s 8d 2c"},
                                      {"type": "ruling", "ruling": 3, "outcome": r.outcome.value, "box": 1,
                                       "box_net": r.right_paid - 18, "paid": r.paid}])
    p1 = next(p for p in s["payouts"] if p["box"] == 1)
    assert p1["paid"] + p1["correction"] == 18 + p1["player_net"] and p1["correction"] == r.difference
    assert s["house_net"] == settled["house_net"] == s["house_total"]
    with pytest.raises(IllegalAction, match="B5: a payout ruling is for a box settled"):
        replay({"boxes": 3}, ROUND + [{"type": "ruling", "ruling": 4, "box": 1, "box_net": 0, "paid": 0}])
    with pytest.raises(IllegalAction, match="cannot lose more than its stakes"):
        replay({"boxes": 3}, ROUND + [{"type": "dealer_draw", "drawn": "9s 8d 2c"},
                                      {"type": "ruling", "ruling": 4, "box": 1, "box_net": -19, "paid": 0}])


def test_b4_rulings_after_the_settlement_settle_the_round_again() -> None:
    """B4: a wrong exchange found after the draw was logged: as they fell, the round is settled again on
    the fallen cards; void, the boxes that bet are returned their stakes. Money is conserved each time."""
    settled = ROUND + [{"type": "dealer_draw", "drawn": "9s 8d 2c"}]
    s = replay({"boxes": 3}, settled + [{"type": "ruling", "ruling": 5, "outcome": "DEALER_HAND_AS_FELL",
                                         "dealer_final": "Kh Kc 9s 8d 2c"}])
    assert s["dealer"]["final"] == ["Kh", "Kc", "9s", "8d", "2c"]
    nets = {p["box"]: p["player_net"] for p in s["payouts"]}
    assert nets[3] == settle("Jk Th 8s 4h 3h", "Kh Kc 9s 8d 2c", 3, 6)["player_net"]
    assert s["house_net"] == -sum(nets.values()) == s["house_total"]
    s = replay({"boxes": 3}, settled + [{"type": "ruling", "ruling": 6, "outcome": "DEALER_HAND_VOID", "void": True}])
    assert [p["player_net"] for p in s["payouts"]] == [0, -6, 0]
    with pytest.raises(RulesError, match="duplicate card: 3h"):  # a box's card cannot be the dealer's
        replay({"boxes": 3}, settled + [{"type": "ruling", "ruling": 7, "dealer_final": "Kh Kc 9s 8d 3h"}])
    with pytest.raises(IllegalAction, match="after the dealer's cards are revealed"):
        replay({"boxes": 3}, ROUND[:3] + [{"type": "ruling", "ruling": 8, "void": True}])
