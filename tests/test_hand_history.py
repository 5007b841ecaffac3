"""A table's log cut into hands (rules.reports.hand_history) and written as PokerStars-style text
(rules.reports.hand_text), checked against the engine itself on randomly played deals with real shuffled
decks: every deal is one hand, chips are conserved hand by hand (O4 antes, D7 awards), the text
holds each action once and the award the engine made."""

from __future__ import annotations

import random
import re

import pytest

from rules import RulesError, jackpot
from rules.cards import deck
from rules.reports.hand_history import hands, result_words
from rules.reports.hand_text import hand_text, hands_text

SETUP = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
         "seats": [{"seat": s, "player": p, "stack": 400} for s, p in
                   enumerate(["Ann", "王小明", "Cleo", "Анастасия"], start=1)]}


def play(seed: int, deals: int = 25) -> list[dict]:
    """A log of ``deals`` deals played by random legal choices; shown hands come off a real shuffled
    deck (53 cards with the joker), five distinct cards a seat, as a dealer would see them."""
    rng = random.Random(seed)
    state, log = jackpot.start(SETUP), []

    def add(event):
        nonlocal state
        state = state.apply(event)
        log.append(event)

    for _ in range(deals):
        if "deal" not in [m["type"] for m in state.legal()]:
            break
        add({"type": "deal"})
        cards = [str(c) for c in deck(wild="bug")]
        rng.shuffle(cards)
        while state.phase.value != "between_deals":
            moves = {m["type"]: m for m in state.legal()}
            seat = state.to_act
            if "show" in moves:
                if "muck" in moves and rng.random() < 0.3:
                    add({"type": "muck", "seat": seat})
                else:
                    hand, cards = cards[:5], cards[5:]
                    try:
                        add({"type": "show", "seat": seat, "cards": hand})
                    except RulesError:  # the proof of openers needs other cards: muck instead
                        add({"type": "muck", "seat": seat})
                continue
            if "draw" in moves:
                add({"type": "draw", "seat": seat, "count": rng.randint(moves["draw"].get("min", 0), 3)})
                continue
            kind = rng.choice([k for k in ("pass", "open", "call", "check", "bet", "raise", "fold") if k in moves]
                              or list(moves))
            event = {"type": kind, "seat": seat}
            if kind == "open":
                event["amount"] = moves["open"]["amount"]
            add(event)
    return log


@pytest.mark.parametrize("seed", range(6))
def test_each_deal_is_one_hand_and_chips_are_conserved_hand_by_hand(seed):
    log = play(seed)
    cut = hands(SETUP, log)
    assert [h.deal for h in cut] == list(range(1, sum(e["type"] == "deal" for e in log) + 1))
    assert sum(len(h.steps) for h in cut) == len(log)  # every event in exactly one hand
    for h in cut:
        assert h.steps[0].event["type"] == "deal"
        assert sum(h.stacks_before.values()) + h.pot_in == sum(h.stacks_after.values()) + h.pot_left, h.deal
        assert h.pot_in + sum(h.antes.values()) + sum(s.chips for s in h.steps) >= sum(h.awards.values())
    final = jackpot.replay(SETUP, log)
    assert {s: x["stack"] for s, x in final["seats"].items()} == cut[-1].stacks_after
    won = [h for h in cut if h.awards]
    assert won, "the random play should win some pots"
    for h in won:  # who took what, in words (one winner, a split, or side pots won apart)
        words = result_words(h)
        takers = [s for s, a in h.awards.items() if a]
        assert all(f"seat {s} ({h.names[s]})" in words for s in takers)
        assert str(sum(h.awards.values())) in words or all(f"wins {h.awards[s]}" in words for s in takers)


@pytest.mark.parametrize("seed", range(3))
def test_the_text_holds_every_action_once_and_the_award(seed):
    log = play(seed)
    cut = hands(SETUP, log)
    text = hands_text(cut, "Table 9", 9)
    assert text.count("Jackpot floor Hand #9-") == len(cut)
    for h in cut:
        one = hand_text(h, "Table 9", 9)
        actions = [ln for ln in one.splitlines() if re.match(r"^\S.*: (checks|bets|calls|raises|folds|stands pat|"
                                                              r"discards|shows|mucks)", ln)]
        assert len(actions) == len(h.played) - 1  # each event after the deal, once
        for seat, amount in h.awards.items():
            if amount:
                assert f"{h.names[seat]} collected {amount} from pot" in one
        if not h.awards:
            assert "collected" not in one


def test_a_withdrawn_event_is_not_in_the_text_but_stays_in_the_hand():
    log = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "void", "event": 1},
           {"type": "open", "seat": 2, "amount": 10}]
    (h,) = hands(SETUP, log)
    assert [s.voided for s in h.steps] == [False, True, False, False]
    assert [s.words for s in h.steps][1:] == ["seat 2 (王小明) passes", "undo: entry 2 withdrawn", "seat 2 (王小明) opens for 10"]
    text = hand_text(h, "T", 1)
    assert "王小明: checks" not in text and "王小明: bets 10" in text
