"""The banked game's moves as values (rules.banked.round.BankedState.legal): every move listed is
accepted, and every move of the dealer's that is not listed is refused naming its rule (B1-B5),
over rounds dealt from real shuffled 53-card decks; and every event type is declared whole."""

from __future__ import annotations

import random

import pytest

from rules import RulesError
from rules.banked.events import (EVENTS, Bet, Deal, DealerDraw, Event, Exchange, Fold, LegalMove, Reveal, Ruling,
                                 Void, Who)
from rules.banked.round import BankedState
from rules.cards import Card, deck, to_text

DECK = tuple(deck("joker"))


def test_every_event_type_says_who_logs_it_its_words_its_rules():
    assert EVENTS.incomplete(Event) == {}
    assert EVENTS.by(Who.DEALER) == ("deal", "fold", "bet", "exchange", "reveal", "dealer_draw", "void")
    assert EVENTS.by(Who.FLOOR) == ("ruling",)


def _unseen(state: BankedState, rng: random.Random) -> list[Card]:
    cards = [c for c in DECK if c not in state.seen]
    rng.shuffle(cards)
    return cards


def fields(move: LegalMove, state: BankedState, rng: random.Random) -> dict:
    """What the dealer fills in for ``move``, from cards nobody has seen this round."""
    unseen = _unseen(state, rng)
    if move.kind is Deal:  # a new round, a new deck
        shuffled = rng.sample(DECK, len(DECK))
        boxes = sorted(rng.sample(range(1, state.setup.boxes + 1), rng.randint(1, state.setup.boxes)))
        return {"antes": {str(b): 3 * rng.randint(1, 40) for b in boxes},
                "cards": {str(b): to_text(shuffled[5 * i:5 * i + 5]) for i, b in enumerate(boxes)}}
    if move.kind is Exchange:
        assert move.box is not None and move.cards is not None
        k = rng.randint(1, move.cards)
        return {"discards": to_text(rng.sample(state.boxes[move.box].cards, k)), "drawn": to_text(unseen[:k])}
    if move.kind is Reveal:
        return {"dealer": to_text(unseen[:5])}
    if move.kind is DealerDraw:
        return {"drawn": to_text(unseen[:move.cards])}
    return {}


def offers(state: BankedState) -> set[tuple[str, int | None]]:
    return {(m.type, m.box) for m in state.legal()}


def unlisted_are_refused(state: BankedState, rng: random.Random) -> None:
    """Every dealer's move not in ``legal()`` is refused: a box's decisions for each box dealt, the
    deal, the reveal, the dealer's draw and the undo of the last entry."""
    listed = offers(state)
    unseen = _unseen(state, rng)
    tries: list[tuple[tuple[str, int | None], dict]] = []
    for box in state.boxes:
        tries += [(("fold", box), {"type": "fold", "box": box}), (("bet", box), {"type": "bet", "box": box})]
        held = state.boxes[box].cards
        tries.append((("exchange", box), {"type": "exchange", "box": box, "discards": to_text(held[:1]),
                                          "drawn": to_text(unseen[:1])}))
    throw = len(state.exchange.throw) if state.dealer else 0
    tries += [(("deal", None), {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}),
              (("reveal", None), {"type": "reveal", "dealer": to_text(unseen[:5])}),
              (("dealer_draw", None), {"type": "dealer_draw", "drawn": to_text(unseen[:throw])}),
              (("void", None), {"type": "void", "event": state.entries[-1][0] if state.entries else 1})]
    for key, event in tries:
        if key not in listed:
            with pytest.raises(RulesError):
                state.apply(event)


@pytest.mark.parametrize("seed", range(6))
def test_legal_is_a_promise_and_the_whole_truth(seed):
    """B1-B5: from a table's first deal, 50 moves at a time chosen among those listed, undos
    included; at every state each listed move is accepted with fields the dealer could give, and
    the dealer's moves not listed are refused."""
    rng = random.Random(seed)
    state = BankedState.start({"boxes": rng.randint(1, 5), "options": rng.choice(
        [{}, {"exchange_payment": "fee"}, {"fold_loses": "initial_ante", "dealer_made_hand": "trips_rule"}])})
    rounds = 0
    for _ in range(400):
        moves = state.legal()
        assert moves, state.to_dict()
        for move in moves:
            state.apply(move.event(**fields(move, state, rng)))  # accepted (raises otherwise)
        unlisted_are_refused(state, rng)
        move = rng.choices(moves, weights=[0.3 if m.kind is Void else 1 for m in moves])[0]
        rounds += move.kind is Deal
        state = state.apply(move.event(**fields(move, state, rng)))
        assert state.house_total == state.house_before + state.house_net
    assert rounds >= 20


def test_an_undo_goes_back_to_the_round_before_its_deal():
    """Withdrawing a deal gives the table the round before it, as it was settled (issue 25)."""
    deal = {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}
    settled = BankedState.replay({"boxes": 1}, [deal, {"type": "bet", "box": 1},
                                                {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
                                                {"type": "dealer_draw", "drawn": "2c 3d 9h"}])
    again = settled.apply({**deal, "cards": {"1": "2s 3s 4s 5s 7d"}})
    assert [m.to_dict() for m in again.legal()][-1] == {"type": "void", "event": 5}
    back = again.apply({"type": "void", "event": 5})
    assert back.to_dict() == {**settled.to_dict()} and back.version == 6 and back.number == 1
    assert back.withdrawable == (4, settled.entries[-1][1])
    with pytest.raises(RulesError, match=r"undo withdraws only the last entry standing, entry 4 \(the dealer draws "
                                         r"2c 3d 9h\), not entry 3"):
        back.apply({"type": "void", "event": 3})


def test_a_floor_ruling_is_never_the_dealers_move_nor_undone():
    state = BankedState.replay({"boxes": 1}, [
        {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}, {"type": "bet", "box": 1},
        {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}, {"type": "dealer_draw", "drawn": "2c 3d 9h"},
        {"type": "ruling", "ruling": 7, "outcome": "PAYOUT_CORRECTED", "box": 1, "box_net": 42, "paid": 24}])
    assert [m.type for m in state.legal()] == ["deal"]
    assert [m.type for m in state.legal(Who.FLOOR)] == ["ruling"]
    assert state.withdrawable is None and isinstance(state.entries[-1][1], Ruling)
    with pytest.raises(RulesError, match="the last entry is the floor's ruling #7: a ruling is never withdrawn"):
        state.apply({"type": "void", "event": 5})
    assert {(m.type, m.box) for m in BankedState.replay({"boxes": 2}, [
        {"type": "deal", "antes": {"2": 3}, "cards": {"2": "Ah Ad 9c 6s 2h"}}]).legal()} == {
        ("fold", 2), ("bet", 2), ("exchange", 2), ("void", None)}
    assert Fold.kind in {m.type for m in BankedState.replay({"boxes": 1}, [
        {"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}}]).legal()} and Bet.by is Who.DEALER
