"""Two seed items as table events (issue 22): a card exposed in dealing the draw (D12, FOSTER), and a
player's request that the opener keep the opening hand (F12: G-R8, C12), with the decision tree's
branch for the first and the engine holding the opener to the second; checked on real decks.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from rules import IllegalAction
from rules.cards import deck, to_text
from rules.jackpot import replay
from rules.openers import qualifies
from rules.rulings import build_tree, resolve
from tests.notation import log, stacks, table

T = table()
HEADS_UP = "deal; 2 pass; 3 open; 4 call; 1 fold; 2 fold"  # seats 3 and 4 play a pot of 40


def _events(text: str, *extra: dict[str, Any]) -> list[dict[str, Any]]:
    return log(text) + list(extra)


# --------------------------------------------------------------------------- D12: a card exposed in the draw


def test_D12_the_faced_card_is_replaced_after_every_other_player_has_drawn() -> None:
    """D12 (FOSTER): "Any card faced in dealing for the draw cannot be replaced until all the others
    are helped." Seat 3 draws two and one is faced: seat 4 draws next from the stub as it stands,
    and seat 3's card comes only after that."""
    events = _events(f"{HEADS_UP}; 3 draw 2", {"type": "expose", "seat": 3, "card": "Qh"})
    state = replay(T, events)
    assert state["phase"] == "draw" and state["to_act"] == 4 and state["owed"] == [3]
    assert state["exposed"] == [{"seat": 3, "card": "Qh"}]
    r = state["rulings"][-1]
    assert (r["outcome"], r["citations"], r["leaf"]) == ("EXPOSED_CARD_REPLACED", ["D12"], "ec_after_others")
    assert state["stub"] == 53 - 20 - 2
    after = replay(T, events + log("4 draw 3"))
    # seat 4's three come first, then seat 3's one in place of the faced queen
    assert after["phase"] == "postdraw" and after["owed"] == [] and after["stub"] == 53 - 20 - 2 - 3 - 1
    assert "now gets the card in place of the one faced (D12)" in after["message"]
    assert sum(x["stack"] for x in after["seats"].values()) + after["pot"] == 2000


def test_D12_the_faced_card_is_dead() -> None:
    """D12: the faced card is out of play: no hand may show it."""
    events = _events(f"{HEADS_UP}; 3 draw 2", {"type": "expose", "seat": 3, "card": "Qh"})
    with pytest.raises(IllegalAction, match="Qh was faced in the draw and is dead"):
        replay(T, events + log("4 draw 1; 3 check; 4 check; 3 show Qh Qd Qc 5s 2h"))


def test_D12_the_last_to_draw_gets_the_replacement_at_once() -> None:
    """D12: when nobody else is waiting, there is nobody to wait for: the card comes at once."""
    events = _events(f"{HEADS_UP}; 3 draw 2; 4 draw 3", {"type": "expose", "seat": 4, "card": "2c"})
    state = replay(T, events)
    assert state["phase"] == "postdraw" and state["owed"] == []
    assert state["rulings"][-1]["leaf"] == "ec_now" and state["stub"] == 53 - 20 - 5 - 1
    assert state["to_act"] == 3  # the betting after the draw starts with the opener (D4)


def test_D12_only_a_player_who_drew_has_a_card_faced() -> None:
    """D12: the seat concerned must have drawn in this draw, and no more cards faced than drawn."""
    state = replay(T, log(f"{HEADS_UP}; 3 draw 0"))
    assert "expose" not in [m["type"] for m in state["requests"]]
    assert {"type": "expose", "seats": [3]} in replay(T, log(f"{HEADS_UP}; 3 draw 1"))["requests"]
    with pytest.raises(IllegalAction, match="D12"):
        replay(T, _events(f"{HEADS_UP}; 3 draw 0", {"type": "expose", "seat": 3, "card": "Qh"}))
    one = _events(f"{HEADS_UP}; 3 draw 1", {"type": "expose", "seat": 3, "card": "Qh"})
    assert replay(T, one)["to_act"] == 4
    with pytest.raises(IllegalAction, match="D12"):
        replay(T, one + [{"type": "expose", "seat": 3, "card": "Kh"}])
    with pytest.raises(IllegalAction, match="D12"):  # betting has started: the draw is over
        replay(T, _events(f"{HEADS_UP}; 3 draw 1; 4 draw 1; 3 check", {"type": "expose", "seat": 4, "card": "Kh"}))


def test_D12_the_tree_has_a_branch_for_it() -> None:
    """D12 in the floor's tree: issue exposed_card; the answer depends on whether anyone still draws."""
    tree = build_tree("cardroom")
    assert "EXPOSED_CARD_REPLACED" in map(str, tree.outcomes()) and "D12" in tree.citations()
    later = resolve({"issue": "exposed_card", "seat": 5, "others_to_draw": True})
    now = resolve({"issue": "exposed_card", "seat": 5, "others_to_draw": False}, "foster")
    assert "every other player first" in later.summary and "at once" in now.summary
    assert later.pot_plays and now.citations == ("D12",)


# --------------------------------------------------------------------------- F12: keep the opening hand


def test_F12_a_player_asks_and_the_opener_keeps_every_discard_apart() -> None:
    """G-R8 (GUIDE): "Players can ask that the opener hold on to their opening hand cards to prove
    that they had the opener after the showdown." C12 (CARDROOM): "Any player can request that the
    opener retain the opening hand and show it after the winner of the pot has been determined."
    The opener's draw must put every discard under the chip; the escrow and the kept cards are
    the opening hand, which proves openers."""
    asked = _events(HEADS_UP, {"type": "keep_openers", "seat": 4})
    state = replay(T, asked)
    assert state["keep_openers"] == 4
    draw = [m for m in state["legal"] if m["type"] == "draw"][0]
    assert draw["keep"] is True
    with pytest.raises(IllegalAction, match="F12"):
        replay(T, asked + log("3 draw 2"))
    kept = asked + [{"type": "draw", "seat": 3, "count": 2, "escrow": ["8c", "4d"]}]
    state = replay(T, kept)
    assert state["escrow"] == {3: ["8c", "4d"]} and state["split"] is False
    # seat 4 bets and shows first; the opener's jacks with the escrow prove openers and win
    done = replay(T, kept + log("4 draw 1; 3 check; 4 bet; 3 call; 4 show Ts Td 6c 6h 2s; 3 show Jc Jd Js 5s 2h"))
    assert done["awards"] == {3: 80} and done["rulings"] == []


def test_F12_the_opener_asked_shows_and_may_not_muck() -> None:
    """F12: at the showdown the opener asked to keep the hand shows it: there is no muck."""
    text = f"{HEADS_UP}; 3 draw 0; 4 draw 1; 3 check; 4 bet; 3 call; 4 show Ts Td Tc 6h 2s"
    events = log(HEADS_UP) + [{"type": "keep_openers", "seat": 1}] + log(text)[len(log(HEADS_UP)):]
    state = replay(T, events)
    assert state["to_act"] == 3 and [m["type"] for m in state["legal"]] == ["show"]
    with pytest.raises(IllegalAction, match="F12"):
        replay(T, events + log("3 muck"))
    shown = replay(T, events + log("3 show Qc Qd 9s 5s 2h"))
    assert shown["awards"] == {4: 80} and shown["rulings"] == []


def test_F12_an_opener_who_folds_still_shows_the_kept_hand_before_the_pot_is_paid() -> None:
    """F12 with F9 (FOSTER: "If drawn to, they must ante for all the others for the next deal"): the
    opener folds after the request; the pot is decided for seat 4, but the opener shows the kept
    hand first. It holds no openers: in Foster's game the false opener, drawn to, antes for all."""
    setup = table(profile="foster")
    events = _events(HEADS_UP, {"type": "keep_openers", "seat": 4},
                     {"type": "draw", "seat": 3, "count": 3, "escrow": ["9c", "7d", "2s"]}) + \
        log("4 draw 1; 3 bet; 4 raise; 3 fold")
    state = replay(setup, events)
    assert state["phase"] == "showdown" and state["to_act"] == 3 and state["pot"] == 100
    assert "shows the opening hand kept" in state["message"]
    done = replay(setup, events + log("3 show Tc Th Kd 8s 3h"))  # T-T with 9-7-2: no openers
    r = done["rulings"][-1]
    assert r["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS" and r["ante_for_all"] == 3
    assert done["awards"] == {4: 100} and stacks(done)[4] == 545
    nxt = replay(setup, events + log("3 show Tc Th Kd 8s 3h; deal"))
    assert stacks(nxt)[3] == stacks(done)[3] - 20 and stacks(nxt)[4] == 545  # seat 3 antes for everyone


def test_F12_when_the_request_is_refused() -> None:
    """F12: asked once, by a player other than the opener, after the opening, while the opening hand
    is whole."""
    with pytest.raises(IllegalAction, match="nobody has opened"):
        replay(T, log("deal") + [{"type": "keep_openers", "seat": 4}])
    with pytest.raises(IllegalAction, match="of themselves"):
        replay(T, _events(HEADS_UP, {"type": "keep_openers", "seat": 3}))
    twice = _events(HEADS_UP, {"type": "keep_openers", "seat": 4})
    with pytest.raises(IllegalAction, match="seat 4 has asked already"):
        replay(T, twice + [{"type": "keep_openers", "seat": 1}])
    with pytest.raises(IllegalAction, match="no longer whole"):
        replay(T, _events(f"{HEADS_UP}; 3 draw 2", {"type": "keep_openers", "seat": 4}))
    split = _events(f"{HEADS_UP}; 3 draw 1 split Jd", {"type": "keep_openers", "seat": 4})
    assert replay(T, split)["keep_openers"] == 4  # the split's escrow keeps the hand whole


def test_F12_the_kept_hand_proves_openers_over_300_real_deals() -> None:
    """F12 on real shuffled decks: a random seat opens (openers or not), another asks it to keep the
    hand, the opener draws with every discard kept apart, and shows. An opener who held openers is
    never refused (O1, H2); one refused could not have held them: no cards of the final hand, as
    many as were kept, make openers with the discards kept apart (the proof of F1 and S2)."""
    rng = random.Random(22)
    cards = [to_text([c]) for c in deck(wild="bug")]
    verdicts = {True: 0, False: 0}
    for _ in range(300):
        rng.shuffle(cards)
        hands = {s: cards[5 * (s - 1):5 * s] for s in (1, 2, 3, 4)}
        stub = cards[20:]
        opener = rng.choice([2, 3, 4, 1])
        order = [2, 3, 4, 1]
        events: list[dict[str, Any]] = [{"type": "deal"}]
        for s in order[:order.index(opener)]:
            events.append({"type": "pass", "seat": s})
        events.append({"type": "open", "seat": opener})
        rest = order[order.index(opener) + 1:] + order[:order.index(opener)]
        caller = rest[0]
        events.append({"type": "call", "seat": caller})
        events += [{"type": "fold", "seat": s} for s in rest[1:]]
        events.append({"type": "keep_openers", "seat": caller})
        count = rng.randint(0, 3)
        thrown = rng.sample(hands[opener], count)
        kept = [c for c in hands[opener] if c not in thrown]
        final = kept + stub[:count]
        for s in order:
            if s == opener:
                events.append({"type": "draw", "seat": s, "count": count, "escrow": thrown})
            elif s == caller:
                events.append({"type": "draw", "seat": s, "count": 0})
        events += [{"type": "check", "seat": opener}, {"type": "bet", "seat": caller},
                   {"type": "call", "seat": opener}, {"type": "show", "seat": caller, "cards": hands[caller]},
                   {"type": "show", "seat": opener, "cards": final}]
        state = replay(T, events)
        truth = qualifies(hands[opener], wild="bug")
        engine = not any(r["issue"] == "opener_cannot_show" for r in state["rulings"])
        could = any(qualifies(list(keep) + thrown, wild="bug") for keep in combinations(final, 5 - count))
        assert engine == could and (engine or not truth), (hands[opener], thrown, final, state["rulings"])
        verdicts[truth] += 1
        assert sum(x["stack"] for x in state["seats"].values()) + state["pot"] == 2000
    assert verdicts[True] > 20 and verdicts[False] > 100


# --------------------------------------------------------------------------- D16 the Bosnian exchange

BOSNIAN = {"base": "cardroom", "bosnian": True, "max_draw": 4}


def test_D16_the_bosnian_exchange() -> None:
    """D16 (PAGAT, P26): "A player who asks to exchange four cards discards four and is first dealt
    three cards face down to look at. Then the dealer deals one card face up and one face down, and
    the player must choose which of these to take as the fourth card. If the face up card is chosen
    the face down card is discarded unseen." Five cards leave the stub for a four-card draw; a
    face-up card left behind is dead."""
    setup = table(profile=BOSNIAN)
    state = replay(setup, log(HEADS_UP))
    assert [m for m in state["legal"] if m["type"] == "draw"][0]["bosnian"] is True
    up = replay(setup, log(HEADS_UP) + [{"type": "draw", "seat": 3, "count": 4, "take": "up", "up": "Kh"}])
    assert up["stub"] == 53 - 20 - 5 and up["discards"] == 5 and "takes the face-up card Kh" in up["message"]
    down = log(HEADS_UP) + [{"type": "draw", "seat": 3, "count": 4, "take": "down", "up": "Kh"}]
    assert replay(setup, down)["exposed"] == [{"seat": 3, "card": "Kh"}]
    with pytest.raises(IllegalAction, match="Kh was faced in the draw and is dead"):
        replay(setup, down + log("4 draw 1; 3 check; 4 check; 3 show Kh Kd Kc 5s 2h"))
    with pytest.raises(IllegalAction, match="D16"):  # only a four-card draw, only where the house plays it
        replay(setup, log(HEADS_UP) + [{"type": "draw", "seat": 3, "count": 3, "take": "up", "up": "Kh"}])
    with pytest.raises(IllegalAction, match="D16"):
        replay(table(), log(HEADS_UP) + [{"type": "draw", "seat": 3, "count": 4, "take": "up", "up": "Kh"}])
    plain = replay(setup, log(HEADS_UP) + [{"type": "draw", "seat": 3, "count": 3}])
    assert plain["stub"] == 53 - 20 - 3
