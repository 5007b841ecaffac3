"""What a banked table's state shows, as typed values: the round's stage, each box in play, the
dealer's hand, each box's payout, the floor's rulings. The tablet's page reads these; the state's
plain data (:meth:`rules.banked.round.BankedState.to_dict`, the JSON answers) is made from them.

>>> RoundStage.DEALER_DRAW.words
'dealer draw'
>>> RulingNote(4, "PAYOUT_CORRECTED", 1).to_dict()
{'ruling': 4, 'outcome': 'PAYOUT_CORRECTED', 'box': 1}
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.banked.box import Move, Stage
from rules.banked.dealer import Item
from rules.cards import Card

__all__ = ["RoundStage", "RulingNote", "BoxRuling", "BoxInPlay", "DealerHand", "Payout"]


class RoundStage(StrEnum):
    """Where a banked table's round stands."""

    DEAL = "deal"  # no round yet: the first deal is next
    BOXES = "boxes"  # the boxes decide, in box order (B2, B3)
    REVEAL = "reveal"  # every box has decided: the dealer's cards are shown next (B4)
    DEALER_DRAW = "dealer_draw"  # the dealer's exchange by the list (B4)
    SETTLED = "settled"  # every box settled (B5); the next deal may come

    @property
    def words(self) -> str:
        return self.value.replace("_", " ")


@dataclass(frozen=True)
class RulingNote:
    """A floor ruling the round carries: its id, its outcome code and, for a payout, the box."""

    ruling: int | None
    outcome: str
    box: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruling": self.ruling, "outcome": self.outcome}
        if self.box is not None:
            out["box"] = self.box
        return out


@dataclass(frozen=True)
class BoxRuling:
    """A payout ruling on one box: its net by the ruling, what the dealer handed it, the ruling's id."""

    net: int
    paid: int
    ruling: int | None


@dataclass(frozen=True)
class BoxInPlay:
    """A box of the round as the tablet shows it: who plays it, its cards and their hand, what it
    has put in (amounts in the smallest unit), its stage, and what it may do now (the box to act)."""

    box: int
    player: str | None
    cards: tuple[Card, ...]
    hand: str
    ante: int
    ante_box: int
    bet: int
    fees: int
    stage: Stage
    allowed: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"box": self.box, "player": self.player, "cards": [str(c) for c in self.cards], "ante": self.ante,
                "ante_box": self.ante_box, "bet": self.bet, "fees": self.fees, "stage": self.stage.value,
                "hand": self.hand, "allowed": [m.value for m in self.allowed]}


@dataclass(frozen=True)
class DealerHand:
    """The dealer's hand once revealed: the cards, what the list throws and keeps and why (B4), the
    final hand once drawn (or ruled), whether it qualifies, and whether a ruling voided it."""

    cards: tuple[Card, ...]
    throw: tuple[Card, ...]
    keep: tuple[Card, ...]
    item: Item
    words: str
    final: tuple[Card, ...]
    hand: str | None
    qualifies: bool | None
    void: bool

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": [str(c) for c in self.cards], "throw": [str(c) for c in self.throw],
                               "keep": [str(c) for c in self.keep], "item": self.item.value, "words": self.words,
                               "final": [str(c) for c in self.final]}
        if self.hand is not None:
            out.update(hand=self.hand, qualifies=self.qualifies)
        out["void"] = self.void
        return out


@dataclass(frozen=True)
class Payout:
    """A box's settlement (B5, :func:`rules.banked.settle_box`), with the floor's rulings applied:
    ``player_net`` is what the box won (lost, negative); a box that bet also has the hands and
    whether the dealer qualified; a box whose payout the floor ruled has what it was handed
    (``paid``), the ruling and the ``correction`` (what the house pays the box more, or takes back)."""

    box: int
    outcome: str
    player_net: int
    ante_net: int
    bet_net: int
    pays: int | None
    rules: tuple[str, ...]
    reason: str
    player_hand: str | None = None
    dealer_hand: str | None = None
    dealer_qualifies: bool | None = None
    paid: int | None = None
    ruling: int | None = None
    correction: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"box": self.box}
        if self.player_hand is not None:
            out.update(player_hand=self.player_hand, dealer_hand=self.dealer_hand,
                       dealer_qualifies=self.dealer_qualifies)
        out.update(pays=self.pays, reason=self.reason, rules=self.rules, outcome=self.outcome,
                   ante_net=self.ante_net, bet_net=self.bet_net, player_net=self.player_net)
        if self.paid is not None:
            out.update(paid=self.paid, ruling=self.ruling, correction=self.correction)
        return out
