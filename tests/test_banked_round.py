"""A banked table's round as a log (rules.banked.round.replay): order of play (B2, B3), the dealer's
exchange as the rules decide it (B4), payouts (B5), refusals naming the rule, and money conserved
between the boxes and the house on random shuffled rounds."""

from __future__ import annotations

import random

import pytest

from rules import CardError, IllegalAction
from rules.banked import dealer_decision, settle
from rules.banked.round import replay
from rules.cards import deck, to_text

SETUP = {"boxes": 3}
DEAL = {"type": "deal", "antes": {"1": 3, "2": 6, "3": 3},
        "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c", "3": "7h 7d 7c Js 2d"}}


def test_b2_boxes_act_in_order_and_reveal_waits_for_all():
    """B2: "Then the move goes to the next box, or the dealer's cards are revealed"."""
    s = replay(SETUP, [DEAL])
    assert (s["stage"], s["to_act"], s["boxes"][0]["allowed"]) == ("boxes", 1, ["fold", "exchange", "bet"])
    with pytest.raises(IllegalAction, match="B2: box 1 acts now"):
        replay(SETUP, [DEAL, {"type": "bet", "box": 2}])
    with pytest.raises(IllegalAction, match="B4: the dealer's cards are revealed once every box has decided; box 2"):
        replay(SETUP, [DEAL, {"type": "bet", "box": 1}, {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}])
    with pytest.raises(IllegalAction, match="B1: round 1 is not over"):
        replay(SETUP, [DEAL, DEAL])


def test_b4_dealer_draws_exactly_what_the_list_throws():
    """B4: the tablet shows the cards to change; a draw of another count is refused, naming them."""
    log = [DEAL, {"type": "bet", "box": 1}, {"type": "fold", "box": 2}, {"type": "bet", "box": 3},
           {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}]
    s = replay(SETUP, log)
    assert (s["stage"], s["dealer"]["throw"]) == ("dealer_draw", ["7s", "5d", "4h"])
    with pytest.raises(IllegalAction, match=r"B4: the dealer changes 3 card\(s\) \(a pair: .*7s 5d 4h\), so draws 3, not 1"):
        replay(SETUP, log + [{"type": "dealer_draw", "drawn": "2c"}])
    with pytest.raises(CardError, match="duplicate card: 7h was already seen"):
        replay(SETUP, log + [{"type": "dealer_draw", "drawn": "7h 2s 3s"}])


def test_b5_payouts_of_three_boxes_and_the_house():
    """B5: every box settled against the dealer's final hand; the house takes what the boxes lose."""
    log = [DEAL, {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "As Kd Qh"},
           {"type": "bet", "box": 1}, {"type": "fold", "box": 2}, {"type": "bet", "box": 3},
           {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}, {"type": "dealer_draw", "drawn": "Td 3s 2s"}]
    s = replay(SETUP, log)
    pays = {p["box"]: (p["outcome"], p["player_net"]) for p in s["payouts"]}
    # box 1: three aces, box 6 and bet 12: 6 + 3 x 12; box 2 folds its 6; box 3: three sevens, 3 + 3 x 6
    assert pays == {1: ("player_wins", 42), 2: ("folded", -6), 3: ("player_wins", 21)}
    assert s["house_net"] == -57 and s["house_total"] == -57 and s["stage"] == "settled"
    assert s["dealer"]["hand"].startswith("pair of kings") and s["dealer"]["qualifies"]


def test_refusals_name_the_rule():
    with pytest.raises(IllegalAction, match="B1: this table has boxes 1 to 3, not 4"):
        replay(SETUP, [{"type": "deal", "antes": {"4": 3}, "cards": {"4": "Ah Ad 9c 6s 2h"}}])
    with pytest.raises(IllegalAction, match="B1: the ante must be a multiple of 0.3"):
        replay(SETUP, [{"type": "deal", "antes": {"1": 4}, "cards": {"1": "Ah Ad 9c 6s 2h"}}])
    with pytest.raises(CardError, match="duplicate card: Ah was already seen this round .box 2."):
        replay(SETUP, [{"type": "deal", "antes": {"1": 3, "2": 3}, "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ah Kd 9d 6d 2d"}}])
    with pytest.raises(IllegalAction, match="B1: no round is being played"):
        replay(SETUP, [{"type": "bet", "box": 1}])
    with pytest.raises(IllegalAction, match="unknown event type 'shuffle'"):
        replay(SETUP, [{"type": "shuffle"}])
    with pytest.raises(IllegalAction, match="B2: box 2 is not playing"):
        replay(SETUP, [{"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}, {"type": "bet", "box": 2}])


def test_random_rounds_conserve_money_and_pay_as_settle():
    """B1-B5 on 200 shuffled rounds of 1-3 boxes with random legal decisions: each payout is what
    settle says for the box's stakes, the house's net is minus the boxes', and the total adds up."""
    rng = random.Random(15)
    cards = list(deck("joker"))
    log: list[dict] = []
    house = 0
    for i in range(200):
        if i % 10 == 0:  # a fresh table every ten rounds: the replays stay short
            log, house = [], 0
        rng.shuffle(cards)
        top = iter(cards)
        n = rng.randint(1, 3)
        hands = {str(b): to_text([next(top) for _ in range(5)]) for b in range(1, n + 1)}
        antes = {str(b): 3 * rng.randint(1, 40) for b in range(1, n + 1)}
        log.append({"type": "deal", "antes": antes, "cards": hands})
        for b in range(1, n + 1):
            for step in range(3):
                state = replay(SETUP, log)
                allowed = state["boxes"][b - 1]["allowed"]
                move = rng.choice(allowed)
                if move == "exchange":
                    held = state["boxes"][b - 1]["cards"]
                    k = rng.randint(1, 5) if step == 0 else 1
                    log.append({"type": "exchange", "box": b, "discards": " ".join(rng.sample(held, k)),
                                "drawn": to_text([next(top) for _ in range(k)])})
                else:
                    log.append({"type": move, "box": b})
                    break
            else:
                raise AssertionError("a box decides within three moves")
        dealer = [next(top) for _ in range(5)]
        log.append({"type": "reveal", "dealer": to_text(dealer)})
        throw = dealer_decision(dealer).throw
        log.append({"type": "dealer_draw", "drawn": to_text([next(top) for _ in throw])})
        state = replay(SETUP, log)
        final = state["dealer"]["final"]
        for box, pay in zip(state["boxes"], state["payouts"]):
            if box["stage"] == "bet":
                assert pay["player_net"] == settle(box["cards"], final, box["ante_box"], box["bet"])["player_net"]
            else:
                assert pay["player_net"] == -box["ante_box"] and pay["outcome"] == "folded"
        assert state["house_net"] == -sum(p["player_net"] for p in state["payouts"])
        house += state["house_net"]
        assert state["house_total"] == house
