"""A box's decisions in order (B2, B3): a small state machine over immutable values.

After the deal a box may fold (losing the ante), exchange any cards by adding one ante, or bet
twice the ante box and stand. After a first exchange: fold, exchange one card by adding one
initial ante, or bet. After a second exchange: fold or bet. A box that folded or bet is closed.
Every refusal names the rule.

>>> o = banked_options()
>>> b = new_box(1, "Ah Ad 9c 6s 2h", ante=3, options=o)
>>> b.allowed()
(<Move.FOLD: 'fold'>, <Move.EXCHANGE: 'exchange'>, <Move.BET: 'bet'>)
>>> b = b.exchange("9c 6s 2h", "Ac Kd Qh")
>>> b.stage.value, b.ante_box, b.cards_text
('exchanged', 6, 'Ah Ad Ac Kd Qh')
>>> b = b.exchange("Qh", "Kc")
>>> b.ante_box, b.allowed()
(9, (<Move.FOLD: 'fold'>, <Move.BET: 'bet'>))
>>> b.exchange("Kc", "2c")
Traceback (most recent call last):
...
rules.IllegalAction: B3: box 1 has exchanged twice; it may fold or bet
>>> closed = b.bet()
>>> closed.bet_amount, closed.staked
(18, 27)
>>> closed.fold()
Traceback (most recent call last):
...
rules.IllegalAction: B2: box 1 has bet and is closed
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from rules import CardError, IllegalAction
from rules.banked.options import BankedOptions, ExchangePayment, banked_options
from rules.cards import Card, parse_cards, to_text

__all__ = ["Move", "Stage", "Box", "new_box", "deal"]


class Move(StrEnum):
    """A box's decision (B2, B3)."""

    FOLD = "fold"
    EXCHANGE = "exchange"
    BET = "bet"


class Stage(StrEnum):
    """Where a box stands: its exchanges so far, or closed by a fold or a bet."""

    DEALT = "dealt"
    EXCHANGED = "exchanged"
    EXCHANGED_TWICE = "exchanged_twice"
    FOLDED = "folded"
    BET = "bet"


_ALLOWED: dict[Stage, tuple[Move, ...]] = {
    Stage.DEALT: (Move.FOLD, Move.EXCHANGE, Move.BET),
    Stage.EXCHANGED: (Move.FOLD, Move.EXCHANGE, Move.BET),
    Stage.EXCHANGED_TWICE: (Move.FOLD, Move.BET),
    Stage.FOLDED: (),
    Stage.BET: (),
}


@dataclass(frozen=True)
class Box:
    """One box: its cards, its initial ante, what the ante box holds, its bet and its stage.

    Amounts are ints of the smallest unit. ``ante_box`` grows by one initial ante per exchange
    (the seed: the exchange is paid by adding to "the already placed Ante bet"); the bet is twice
    the ante box (B2, B3). With ``exchange_payment = 'fee'`` the exchanges' antes go to ``fees``
    instead (the house's whatever happens) and the box stays the initial ante.
    """

    box: int
    cards: tuple[Card, ...]
    ante: int
    ante_box: int
    stage: Stage = Stage.DEALT
    bet_amount: int = 0
    thrown: tuple[Card, ...] = ()
    options: BankedOptions = banked_options()
    fees: int = 0

    @property
    def cards_text(self) -> str:
        return to_text(self.cards)

    @property
    def staked(self) -> int:
        """All the box has put in: ante box, bet and exchange fees."""
        return self.ante_box + self.bet_amount + self.fees

    @property
    def closed(self) -> bool:
        return self.stage in (Stage.FOLDED, Stage.BET)

    def allowed(self) -> tuple[Move, ...]:
        """The moves the box may make now."""
        return _ALLOWED[self.stage]

    def _refuse(self, move: Move) -> None:
        if move in self.allowed():
            return
        if self.stage is Stage.BET:
            raise IllegalAction(f"B2: box {self.box} has bet and is closed")
        if self.stage is Stage.FOLDED:
            raise IllegalAction(f"B2: box {self.box} has folded and is closed")
        raise IllegalAction(f"B3: box {self.box} has exchanged twice; it may fold or bet")

    def fold(self) -> Box:
        """B2, B3: the box gives up; what it loses is :func:`rules.banked.fold_net`."""
        self._refuse(Move.FOLD)
        return replace(self, stage=Stage.FOLDED)

    def bet(self) -> Box:
        """B2, B3: the bet is twice the ante box; the box is closed."""
        self._refuse(Move.BET)
        return replace(self, stage=Stage.BET, bet_amount=2 * self.ante_box)

    def exchange(self, discards: str | Iterable[str | Card], drawn: str | Iterable[str | Card]) -> Box:
        """B2: the first exchange, of one to five cards, adds one ante to the ante box; B3: the
        second, of exactly one card, adds one initial ante. ``drawn`` are the next cards of the
        deck, as many as the discards, none of them already seen in this box."""
        self._refuse(Move.EXCHANGE)
        out = parse_cards(discards)
        new = parse_cards(drawn)
        second = self.stage is Stage.EXCHANGED
        for card in out:
            if card not in self.cards:
                raise IllegalAction(f"B2: box {self.box} does not hold {card} (it holds {self.cards_text})")
        if not out:
            raise IllegalAction(f"B2: an exchange changes at least one card (box {self.box})")
        if second and len(out) != 1:
            raise IllegalAction(f"B3: the second exchange changes exactly one card, not {len(out)} (box {self.box})")
        if len(new) != len(out):
            raise IllegalAction(f"B2: {len(out)} card(s) thrown, so {len(out)} drawn, not {len(new)} (box {self.box})")
        seen = set(self.cards) | set(self.thrown)
        for card in new:
            if card in seen:
                raise CardError(f"duplicate card: {card} is already in box {self.box}'s hand or discards")
        kept = tuple(c for c in self.cards if c not in out)
        stage = Stage.EXCHANGED_TWICE if second else Stage.EXCHANGED
        if self.options.exchange_payment is ExchangePayment.FEE:
            return replace(self, cards=kept + new, fees=self.fees + self.ante, thrown=self.thrown + out, stage=stage)
        return replace(self, cards=kept + new, ante_box=self.ante_box + self.ante, thrown=self.thrown + out,
                       stage=stage)

    def play(self, move: Move | str, discards: str | Iterable[str | Card] = (),
             drawn: str | Iterable[str | Card] = ()) -> Box:
        """One decision by name (as a dealer's tablet posts it).

        >>> new_box(2, "Ah Ad 9c 6s 2h", 3).play("shuffle")
        Traceback (most recent call last):
        ...
        rules.IllegalAction: B2: a box may fold, exchange or bet, not 'shuffle'
        """
        try:
            m = Move(move)
        except ValueError:
            raise IllegalAction(f"B2: a box may fold, exchange or bet, not {move!r}") from None
        if m is Move.FOLD:
            return self.fold()
        if m is Move.BET:
            return self.bet()
        return self.exchange(discards, drawn)


def new_box(box: int, cards: str | Iterable[str | Card], ante: int, options: BankedOptions | None = None) -> Box:
    """A box as dealt: five cards of the 53-card deck and an initial ante checked against B1.

    >>> new_box(1, "Ah Ad 9c 6s", 3)
    Traceback (most recent call last):
    ...
    rules.CardError: a hand has 5 cards, not 4
    >>> new_box(1, "Ah Ad 9c 6s 2h", 4)
    Traceback (most recent call last):
    ...
    rules.IllegalAction: B1: the ante must be a multiple of 0.3, not 0.4
    """
    opts = options or banked_options()
    hand = parse_cards(cards, count=5)
    opts.check_ante(ante)
    return Box(box, hand, ante, ante, options=opts)


def deal(shuffled: Sequence[Card], boxes: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """The deal (B1): one card at a time clockwise from the first box, the dealer last, five rounds.
    Returns the boxes' hands, the dealer's hand, and the rest of the deck (the next cards drawn).

    >>> from rules.cards import deck
    >>> hands, dealer, rest = deal(deck("joker"), 2)
    >>> to_text(hands[0]), to_text(dealer), len(rest)
    ('2c 2s 3h 4d 5c', '2h 3d 4c 4s 5h', 38)
    """
    if not 1 <= boxes <= 9:
        raise IllegalAction(f"B1: a banked table deals to 1 to 9 boxes, not {boxes}")
    seats = boxes + 1
    if len(shuffled) < 5 * seats:
        raise IllegalAction(f"B1: {len(shuffled)} cards cannot deal five to {boxes} boxes and the dealer")
    hands = tuple(tuple(shuffled[seat + seats * i] for i in range(5)) for seat in range(seats))
    return hands[:-1], hands[-1], tuple(shuffled[5 * seats:])

