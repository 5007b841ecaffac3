"""What each banked event does to the round, and whether it may happen now (B1-B5): the rules of
:mod:`rules.banked.events`' types, each declared beside its type's rules (pokerkit's can/do).

``@EVENTS.checks(X)`` says whether an X may be logged now: it raises :class:`rules.IllegalAction`
naming the rule when it may not, and otherwise gives the moves of that type the rules allow now
(:class:`rules.banked.events.LegalMove`, what :meth:`BankedState.legal` lists). ``@EVENTS.handles(X)``
gives the next state from the event's fields, refusing what the fields make wrong (a box out of
turn, a card seen twice). :meth:`rules.banked.round.BankedState.apply` runs the one, reads the
event, then runs the other; both are pure (a state is never changed, a new one is returned).

Decisions: boxes act in box order ("then the move goes to the next box"); every card of a round is
seen at most once; a ruling may follow the settlement (the floor is called once the cards are
paid); an undo withdraws only the round's last standing entry, and never the floor's ruling nor
anything before it (the floor corrects a ruling with a new one). Withdrawing the deal makes the
round before the table's round again, as it was settled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from rules import CardError, IllegalAction
from rules.banked.box import Box, Move, new_box
from rules.banked.events import (EVENTS, Bet, BoxEvent, Deal, DealerDraw, Exchange, Fold, LegalMove, Reveal, Ruling,
                                 Void, Who)
from rules.banked.readings import BoxRuling, RoundStage, RulingNote
from rules.cards import Card, to_text

if TYPE_CHECKING:
    from rules.banked.round import BankedState

__all__ = ["see"]

Moves = tuple[LegalMove, ...]


def see(state: BankedState, cards: Iterable[Card], whose: str) -> frozenset[Card]:
    """The round's cards seen, with ``cards`` now seen too; a card seen before is refused, naming it."""
    seen = set(state.seen)
    for card in cards:
        if card in seen:
            raise CardError(f"duplicate card: {card} was already seen this round ({whose})")
        seen.add(card)
    return frozenset(seen)


def _in_round(state: BankedState, kind: str) -> None:
    """B1: nothing but a deal (and a ruling on the round just settled) without a round in play."""
    if not state.boxes or (state.stage is RoundStage.SETTLED and kind != Ruling.kind):
        raise IllegalAction(f"B1: no round is being played; deal first (a {kind} needs a deal)")


@EVENTS.checks(Deal)
def may_deal(state: BankedState) -> Moves:
    if state.boxes and state.stage is not RoundStage.SETTLED:
        raise IllegalAction(f"B1: round {state.number} is not over ({state.stage.words})")
    return (LegalMove(Deal, state.setup),)


@EVENTS.handles(Deal)
def deal(state: BankedState, event: Deal) -> BankedState:
    """B1: a new round, the one before settled (its money goes into the house's total)."""
    boxes = {d.box: new_box(d.box, d.cards, d.ante, state.setup.options) for d in event.boxes}
    return type(state)(setup=state.setup, number=state.number + 1, boxes=MappingProxyType(boxes),
                       players=MappingProxyType({d.box: d.player for d in event.boxes if d.player}),
                       seen=frozenset(c for d in event.boxes for c in d.cards),
                       house_before=state.house_total, before=state, version=state.version)


def _box_moves(state: BankedState, kind: type[BoxEvent], move: Move) -> Moves:
    _in_round(state, kind.kind)
    acting = state.to_act
    if acting is None or move not in state.boxes[acting].allowed():
        return ()
    cards = (1 if state.boxes[acting].thrown else 5) if move is Move.EXCHANGE else None
    return (LegalMove(kind, state.setup, box=acting, cards=cards),)


@EVENTS.checks(Fold)
def may_fold(state: BankedState) -> Moves:
    return _box_moves(state, Fold, Move.FOLD)


@EVENTS.checks(Bet)
def may_bet(state: BankedState) -> Moves:
    return _box_moves(state, Bet, Move.BET)


@EVENTS.checks(Exchange)
def may_exchange(state: BankedState) -> Moves:
    return _box_moves(state, Exchange, Move.EXCHANGE)


def _acting(state: BankedState, event: BoxEvent) -> Box:
    """B2: the box the event names, if it is the box to act."""
    n = event.box
    if n not in state.boxes:
        raise IllegalAction(f"B2: box {n} is not playing this round")
    acting = state.to_act
    if acting is None:
        raise IllegalAction(f"B2: every box has decided; the dealer's cards are next (box {n} is closed)")
    if n != acting:
        raise IllegalAction(f"B2: box {acting} acts now (boxes act in order), not box {n}")
    return state.boxes[n]


def _with_box(state: BankedState, box: Box) -> BankedState:
    return replace(state, boxes=MappingProxyType({**state.boxes, box.box: box}))


@EVENTS.handles(Fold)
def fold(state: BankedState, event: Fold) -> BankedState:
    return _with_box(state, _acting(state, event).fold())


@EVENTS.handles(Bet)
def bet(state: BankedState, event: Bet) -> BankedState:
    return _with_box(state, _acting(state, event).bet())


@EVENTS.handles(Exchange)
def exchange(state: BankedState, event: Exchange) -> BankedState:
    played = _acting(state, event).exchange(event.discards, event.drawn)  # B2/B3 first
    return replace(_with_box(state, played), seen=see(state, event.drawn, f"drawn by box {event.box}"))


@EVENTS.checks(Reveal)
def may_reveal(state: BankedState) -> Moves:
    _in_round(state, Reveal.kind)
    if state.stage is not RoundStage.REVEAL:
        raise IllegalAction(f"B4: the dealer's cards are revealed once every box has decided; box {state.to_act} "
                            "has not" if state.stage is RoundStage.BOXES else "B4: the dealer's cards are already revealed")
    return (LegalMove(Reveal, state.setup, cards=5),)


@EVENTS.handles(Reveal)
def reveal(state: BankedState, event: Reveal) -> BankedState:
    return replace(state, dealer=event.dealer, seen=see(state, event.dealer, "the dealer's hand"))


@EVENTS.checks(DealerDraw)
def may_draw(state: BankedState) -> Moves:
    _in_round(state, DealerDraw.kind)
    if state.stage is not RoundStage.DEALER_DRAW:
        raise IllegalAction("B4: the dealer draws after the reveal, once" if state.stage is not RoundStage.BOXES
                            else "B4: the dealer draws after every box has decided and the cards are revealed")
    return (LegalMove(DealerDraw, state.setup, cards=len(state.exchange.throw)),)


@EVENTS.handles(DealerDraw)
def dealer_draw(state: BankedState, event: DealerDraw) -> BankedState:
    """B4: the dealer takes as many cards as the list throws; every box is then settled (B5)."""
    decision = state.exchange
    if len(event.drawn) != len(decision.throw):
        raise IllegalAction(f"B4: the dealer changes {len(decision.throw)} card(s) ({decision.words}: "
                            f"{to_text(decision.throw) or 'none'}), so draws {len(decision.throw)}, "
                            f"not {len(event.drawn)}")
    return replace(state, final=decision.keep + event.drawn, seen=see(state, event.drawn, "drawn by the dealer"))


@EVENTS.checks(Ruling)
def may_rule(state: BankedState) -> Moves:
    _in_round(state, Ruling.kind)
    return (LegalMove(Ruling, state.setup),)


def _dealer_hand_ruled(state: BankedState, final: tuple[Card, ...] | None) -> BankedState:
    """B4: the round settled on the dealer's cards as they fell (``final``), or the hand void (None)."""
    if state.stage not in (RoundStage.DEALER_DRAW, RoundStage.SETTLED):
        raise IllegalAction("B4: a ruling on the dealer's hand comes after the dealer's cards are revealed")
    if final is None:
        return replace(state, void=True, final=(), ruled=MappingProxyType({}))
    known = set(state.dealer) | set(state.final)
    seen = see(state, (c for c in final if c not in known), "the dealer's cards as they fell")
    return replace(state, final=final, void=False, seen=seen, ruled=MappingProxyType({}))


@EVENTS.handles(Ruling)
def ruling(state: BankedState, event: Ruling) -> BankedState:
    """A floor ruling's effect on the round (:class:`rules.banked.events.Ruling`): the house's net is
    always minus the boxes' total, nothing is lost. A payout ruled on the dealer's old hand does not
    stand on a new one."""
    note = RulingNote(event.ruling, event.outcome)
    if event.void or event.dealer_final is not None:
        state = _dealer_hand_ruled(state, None if event.void else event.dealer_final)
    elif event.box is not None and event.box_net is not None and event.paid is not None:
        n = event.box
        if state.stage is not RoundStage.SETTLED or n not in state.boxes:
            raise IllegalAction(f"B5: a payout ruling is for a box settled this round, not box {n}")
        stakes = state.boxes[n].ante_box + state.boxes[n].bet_amount
        if event.box_net < -stakes or event.paid < 0:
            raise IllegalAction(f"B5: box {n} cannot lose more than its stakes ({state.setup.options.money(stakes)})")
        state = replace(state, ruled=MappingProxyType({**state.ruled, n: BoxRuling(event.box_net, event.paid,
                                                                                   event.ruling)}))
        note = RulingNote(event.ruling, event.outcome, n)
    return replace(state, rulings=state.rulings + (note,))


@EVENTS.checks(Void)
def may_undo(state: BankedState) -> Moves:
    if not state.entries:
        raise IllegalAction("undo: nothing of this round is left to withdraw")
    seq, latest = state.entries[-1]
    if isinstance(latest, Ruling):
        raise IllegalAction(f"undo: the last entry is the floor's ruling #{latest.ruling}: a ruling is never "
                            "withdrawn by undo (the floor corrects it with a new ruling), nor anything before it")
    if latest.by is not Who.DEALER:
        raise IllegalAction(f"undo: entry {seq} is not the dealer's to withdraw")
    return (LegalMove(Void, state.setup, entry=seq),)


@EVENTS.handles(Void)
def undo(state: BankedState, event: Void) -> BankedState:
    """The round as if its last standing entry had not been logged: replayed from before its deal
    without it (withdrawing the deal itself gives the table the round before, as it was settled)."""
    seq, latest = state.entries[-1]
    if event.event != seq:
        raise IllegalAction(f"undo withdraws only the last entry standing, entry {seq} "
                            f"({latest.words(state.setup.options.money)}), not entry {event.event}")
    assert state.before is not None  # a round's entries begin with its deal, which keeps the state before it
    before = state.before
    for at, standing in state.entries[:-1]:
        before = before.apply(standing, at)
    return before
