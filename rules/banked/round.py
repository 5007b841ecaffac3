"""A banked table's round as a log of events (B1-B5): the state is always ``replay(setup, events)``,
the way :func:`rules.jackpot.replay` gives a jackpot table's. A refused event raises
:class:`rules.IllegalAction` (or :class:`rules.CardError`) naming the rule.

setup: ``{"boxes": 3, "options": {...banked options...}}``. Events (a mapping each, ``type`` plus):

| type | fields | meaning |
|---|---|---|
| ``deal`` | ``antes`` {box: ante}, ``cards`` {box: five cards}, ``players``? {box: name} | a new round: each playing box's ante and cards (B1), and who plays it |
| ``fold`` / ``bet`` | ``box`` | the box to act folds, or bets twice its ante box (B2, B3) |
| ``exchange`` | ``box``, ``discards``, ``drawn`` | the box to act changes cards for the next of the deck (B2, B3) |
| ``reveal`` | ``dealer`` (five cards) | once every box is closed, the dealer's cards are shown (B4) |
| ``dealer_draw`` | ``drawn`` | the cards the dealer takes for those the list throws, no more, no fewer (B4) |
| ``ruling`` | ``ruling`` (its id), ``outcome``, and ``dealer_final`` / ``void`` / ``box`` + ``box_net`` + ``paid`` | a floor ruling (:mod:`rules.banked.disputes`) |

A ``ruling`` event carries the floor's sealed ruling into the round: ``dealer_final`` settles the
round on the dealer's cards as they fell (after the reveal, or again after the draw); ``void``
gives every box that bet its ante box and bet back (net 0); ``box_net`` is a box's net by a payout
ruling (with ``paid``, what the dealer handed the box, so the payout shows the correction) and
replaces the settlement's for that box. Any other ruling (the exchange stands, the hand is re-made)
is only recorded. The house's net is always minus the boxes' total: nothing is lost.

Boxes act in box order ("then the move goes to the next box"). Every card of a round is seen at
most once. When the dealer has drawn, every box is settled (B5) and the round is over; money
moves only between the boxes and the house (``house_net`` is minus the boxes' total).

>>> events = [
...     {"type": "deal", "antes": {"1": 3, "2": 6}, "cards": {"1": "Ah Ad 9c 6s 2h", "2": "Ks Qd 8h 5c 3c"}},
...     {"type": "exchange", "box": 1, "discards": "9c 6s 2h", "drawn": "Ac Kd Qh"},
...     {"type": "bet", "box": 1},
...     {"type": "fold", "box": 2},
...     {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
... ]
>>> s = replay({"boxes": 2}, events)
>>> s["stage"], s["dealer"]["throw"], s["dealer"]["words"]
('dealer_draw', ['7s', '5d', '4h'], 'a pair: change the other three cards')
>>> s = replay({"boxes": 2}, events + [{"type": "dealer_draw", "drawn": "2c 3d 9h"}])
>>> [(p["box"], p["outcome"], p["player_net"]) for p in s["payouts"]], s["house_net"]
([(1, 'player_wins', 42), (2, 'folded', -6)], -36)
>>> replay({"boxes": 2}, events[:2] + [{"type": "bet", "box": 2}])
Traceback (most recent call last):
...
rules.IllegalAction: B2: box 1 acts now (boxes act in order), not box 2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules import CardError, IllegalAction
from rules.banked.box import Box, Move, new_box
from rules.banked.dealer import dealer_decision, dealer_qualifies
from rules.banked.options import BankedOptions, banked_options
from rules.banked.settle import settle_box
from rules.cards import Card, parse_cards, to_text
from rules.hands import evaluate

__all__ = ["EVENT_TYPES", "replay", "check_setup"]

EVENT_TYPES = ("deal", "fold", "bet", "exchange", "reveal", "dealer_draw", "ruling")
MAX_BOXES = 9


def check_setup(setup: Mapping[str, Any]) -> tuple[int, BankedOptions]:
    """The number of boxes (1-9, B1) and the banked options of a table's setup.

    >>> check_setup({"boxes": 10})
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B1: a banked table has 1 to 9 boxes, not 10
    """
    boxes = setup.get("boxes")
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not 1 <= boxes <= MAX_BOXES:
        raise IllegalAction(f"B1: a banked table has 1 to {MAX_BOXES} boxes, not {boxes!r}")
    return boxes, banked_options(setup.get("options"))


class _Round:
    """The working state of one round while the log is replayed."""

    def __init__(self, number: int, boxes: dict[int, Box], options: BankedOptions) -> None:
        self.number = number
        self.boxes = boxes
        self.options = options
        self.dealer: tuple[Card, ...] = ()
        self.final: tuple[Card, ...] = ()
        self.seen: set[Card] = {c for b in boxes.values() for c in b.cards}
        self.void = False  # a floor ruling voided the dealer's hand
        self.nets: dict[int, dict[str, Any]] = {}  # box -> a payout ruling's net, paid and id
        self.rulings: list[dict[str, Any]] = []
        self.players: dict[int, str] = {}  # box -> the player's name, as the deal gave it

    def to_act(self) -> int | None:
        return next((n for n, b in sorted(self.boxes.items()) if not b.closed), None)

    def stage(self) -> str:
        if self.final or self.void:
            return "settled"
        if self.dealer:
            return "dealer_draw"
        return "boxes" if self.to_act() is not None else "reveal"

    def see(self, cards: Iterable[Card], whose: str) -> None:
        for card in cards:
            if card in self.seen:
                raise CardError(f"duplicate card: {card} was already seen this round ({whose})")
            self.seen.add(card)


def _box_number(event: Mapping[str, Any]) -> int:
    box = event.get("box")
    try:
        return int(box)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise IllegalAction(f"B2: which box? {box!r} is not a box number") from None


def _players(names: Any, dealt: Mapping[int, Box]) -> dict[int, str]:
    """The players' names of a deal's ``players`` ({box: name}), for the boxes dealt; a box left
    out is played by nobody named.

    >>> _players({"1": " Ann ", "2": ""}, {1: None, 2: None})
    {1: 'Ann'}
    """
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise IllegalAction("B1: a deal's 'players' names the player of each box ({box: name})")
    out: dict[int, str] = {}
    for key, name in names.items():
        n = _box_number({"box": key})
        if n not in dealt:
            raise IllegalAction(f"B1: box {n} is not dealt this round, so nobody plays it")
        if not isinstance(name, str) or len(name.strip()) > 80:
            raise IllegalAction(f"B1: box {n}'s player is a name of at most 80 characters")
        if name.strip():
            out[n] = name.strip()
    return out


def _apply(current: _Round | None, event: Mapping[str, Any], boxes: int, options: BankedOptions,
           number: int) -> _Round:
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise IllegalAction(f"unknown event type {kind!r}; one of {', '.join(EVENT_TYPES)}")
    if kind == "deal":
        if current is not None and current.stage() != "settled":
            raise IllegalAction(f"B1: round {current.number} is not over ({current.stage().replace('_', ' ')})")
        antes, cards = event.get("antes"), event.get("cards")
        if not isinstance(antes, Mapping) or not isinstance(cards, Mapping) or not antes:
            raise IllegalAction("B1: a deal gives 'antes' and 'cards' for each playing box")
        if {str(k) for k in antes} != {str(k) for k in cards}:
            raise IllegalAction("B1: every playing box has an ante and five cards, and only those")
        dealt: dict[int, Box] = {}
        for key, ante in antes.items():
            n = _box_number({"box": key})
            if not 1 <= n <= boxes:
                raise IllegalAction(f"B1: this table has boxes 1 to {boxes}, not {n}")
            hand = cards.get(key, cards.get(str(key)))
            dealt[n] = new_box(n, hand, ante if isinstance(ante, int) else options.amount(str(ante)), options)
        new = _Round(number, {}, options)
        for n, box in sorted(dealt.items()):
            new.see(box.cards, f"box {n}")
            new.boxes[n] = box
        new.players = _players(event.get("players"), dealt)
        return new
    if current is None or (current.stage() == "settled" and kind != "ruling"):  # a ruling may follow the settlement
        raise IllegalAction(f"B1: no round is being played; deal first (a {kind} needs a deal)")
    if kind in ("fold", "bet", "exchange"):
        n = _box_number(event)
        if n not in current.boxes:
            raise IllegalAction(f"B2: box {n} is not playing this round")
        acting = current.to_act()
        if acting is None:
            raise IllegalAction(f"B2: every box has decided; the dealer's cards are next (box {n} is closed)")
        if n != acting:
            raise IllegalAction(f"B2: box {acting} acts now (boxes act in order), not box {n}")
        box = current.boxes[n]
        if kind == "exchange":
            drawn = parse_cards(event.get("drawn") or ())
            played = box.play(Move.EXCHANGE, event.get("discards") or (), drawn)  # B2/B3 first
            current.see(drawn, f"drawn by box {n}")
            current.boxes[n] = played
        else:
            current.boxes[n] = box.play(kind)
        return current
    if kind == "reveal":
        if current.stage() != "reveal":
            raise IllegalAction(f"B4: the dealer's cards are revealed once every box has decided; "
                                f"box {current.to_act()} has not" if current.stage() == "boxes"
                                else "B4: the dealer's cards are already revealed")
        dealer = parse_cards(event.get("dealer") or (), count=5)
        current.see(dealer, "the dealer's hand")
        current.dealer = dealer
        return current
    if kind == "ruling":
        return _ruling(current, event, options)
    # dealer_draw
    if current.stage() != "dealer_draw":
        raise IllegalAction("B4: the dealer draws after the reveal, once" if current.stage() != "boxes"
                            else "B4: the dealer draws after every box has decided and the cards are revealed")
    decision = dealer_decision(current.dealer, options)
    drawn = parse_cards(event.get("drawn") or ())
    if len(drawn) != len(decision.throw):
        raise IllegalAction(f"B4: the dealer changes {len(decision.throw)} card(s) ({decision.words}: "
                            f"{to_text(decision.throw) or 'none'}), so draws {len(decision.throw)}, not {len(drawn)}")
    current.see(drawn, "drawn by the dealer")
    current.final = decision.keep + drawn
    return current


def _ruling(current: _Round, event: Mapping[str, Any], options: BankedOptions) -> _Round:
    """A floor ruling's effect on the round (see the module's table)."""
    record = {"ruling": event.get("ruling"), "outcome": str(event.get("outcome") or "")}
    if event.get("dealer_final") is not None or event.get("void"):
        if current.stage() not in ("dealer_draw", "settled"):
            raise IllegalAction("B4: a ruling on the dealer's hand comes after the dealer's cards are revealed")
        if event.get("void"):
            current.void, current.final = True, ()
        else:
            final = parse_cards(event.get("dealer_final") or (), count=5)
            known = set(current.dealer) | set(current.final)
            current.see((c for c in final if c not in known), "the dealer's cards as they fell")
            current.final, current.void = final, False
        current.nets.clear()  # a payout ruled on the old hand does not stand on the new one
    elif event.get("box") is not None:
        n = _box_number(event)
        if current.stage() != "settled" or n not in current.boxes:
            raise IllegalAction(f"B5: a payout ruling is for a box settled this round, not box {n}")
        net, paid = event.get("box_net"), event.get("paid")
        box = current.boxes[n]
        for name, value in (("box_net", net), ("paid", paid)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalAction(f"B5: a payout ruling gives {name} in the smallest unit, not {value!r}")
        stakes = box.ante_box + box.bet_amount
        if net < -stakes or paid < 0:  # type: ignore[operator]
            raise IllegalAction(f"B5: box {n} cannot lose more than its stakes ({options.money(stakes)})")
        current.nets[n] = {"net": net, "paid": paid, "ruling": record["ruling"]}
        record["box"] = n
    current.rulings.append(record)
    return current


def _payouts(current: _Round) -> list[dict[str, Any]]:
    """Every box's settlement, with the floor's rulings applied (empty before the round is settled)."""
    if current.stage() != "settled":
        return []
    out = []
    for n, b in sorted(current.boxes.items()):
        if current.void and b.stage.value != "folded":
            result: dict[str, Any] = {"outcome": "void", "player_net": -b.fees, "ante_net": 0, "bet_net": 0,
                                      "pays": None, "rules": ("B4", "B5"),
                                      "reason": "the dealer's hand is void by a floor ruling: ante box and bet returned"}
        else:
            result = dict(settle_box(b, current.final))  # a folded box never reads the dealer's cards
        ruled = current.nets.get(n)
        if ruled is not None:
            stakes = b.ante_box + b.bet_amount
            result.update(player_net=ruled["net"], paid=ruled["paid"], ruling=ruled["ruling"],
                          correction=stakes + ruled["net"] - ruled["paid"])
            result["reason"] = f"{result.get('reason', '')}; ruled by the floor (ruling #{ruled['ruling']})"
        out.append({"box": n, **result})
    return out


def replay(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The table's state after its log: the current round (boxes, the dealer's exchange as the
    rules decide it, the payouts once settled), the rounds played, and the money.

    The state: ``round`` (its number, 0 before the first deal), ``stage`` (``deal``, ``boxes``,
    ``reveal``, ``dealer_draw``, ``settled``), ``to_act``, ``boxes`` (each: ``box``, ``player``, ``cards``,
    ``ante``, ``ante_box``, ``bet``, ``fees``, ``stage``, ``allowed``), ``dealer`` (``cards``,
    ``throw``, ``keep``, ``item``, ``words``, ``final``, ``hand``, ``qualifies``), ``payouts``
    (each box's settlement), ``house_net`` (this round) and ``house_total`` (every round).
    """
    boxes, options = check_setup(setup)
    current: _Round | None = None
    number = 0
    house_total = 0
    for event in events:
        if not isinstance(event, Mapping):
            raise IllegalAction(f"an event is a mapping with a 'type', not {event!r}")
        if event.get("type") == "deal":
            number += 1
            if current is not None:  # the round before is over: its money, rulings included
                house_total -= sum(p["player_net"] for p in _payouts(current))
        current = _apply(current, event, boxes, options, number)
    if current is not None:
        house_total -= sum(p["player_net"] for p in _payouts(current))
    return _state(current, boxes, options, house_total)


def _state(current: _Round | None, boxes: int, options: BankedOptions, house_total: int) -> dict[str, Any]:
    state: dict[str, Any] = {"boxes_at_table": boxes, "round": 0, "stage": "deal", "to_act": None, "boxes": [], "rulings": [],
                             "dealer": None, "payouts": [], "house_net": 0, "house_total": house_total,
                             "scale": options.scale, "ante_unit": options.ante_unit,
                             "minimum_ante": options.minimum_ante, "maximum_ante": options.maximum_ante}
    if current is None:
        return state
    stage = current.stage()
    state.update(round=current.number, stage=stage,
                 to_act=current.to_act())
    for n, b in sorted(current.boxes.items()):
        state["boxes"].append({"box": n, "player": current.players.get(n), "cards": [str(c) for c in b.cards],
                               "ante": b.ante, "ante_box": b.ante_box,
                               "bet": b.bet_amount, "fees": b.fees, "stage": b.stage.value,
                               "hand": evaluate(b.cards, "joker").describe(),
                               "allowed": [m.value for m in b.allowed()] if n == current.to_act() else []})
    state["rulings"] = list(current.rulings)
    if current.dealer:
        d = dealer_decision(current.dealer, options)
        dealer: dict[str, Any] = {"cards": [str(c) for c in current.dealer], "throw": [str(c) for c in d.throw],
                                  "keep": [str(c) for c in d.keep], "item": d.item.value, "words": d.words,
                                  "final": [str(c) for c in current.final]}
        if current.final:
            value = evaluate(current.final, "joker")
            dealer.update(hand=value.describe(), qualifies=dealer_qualifies(value, options))
        dealer["void"] = current.void
        state["payouts"] = _payouts(current)
        state["house_net"] = -sum(p["player_net"] for p in state["payouts"])
        state["dealer"] = dealer
    return state
