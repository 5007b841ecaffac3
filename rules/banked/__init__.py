"""The banked joker game (the BANKED seed, B1-B5 and H3 of docs/rules.md): each box plays against the
dealer; the dealer's hand is exchanged once by a fixed list and must hold a pair of jacks.

The contract's names (docs/contract.md, "The banked game"):

- :func:`dealer_exchange` ``(cards) -> tuple[str, ...]``: the cards the dealer throws (B4);
- :func:`settle` ``(player_cards, dealer_cards, ante, bet, paytable) -> dict``: ``outcome``
  (``no_game``, ``dealer_wins``, ``player_wins``, ``push``) and ``player_net`` (B5, H3).

The modules: :mod:`~rules.banked.options` (the banked profile: money, paytable, every reading of
the seed as an option), :mod:`~rules.banked.dealer` (the dealer's exchange, the qualifier),
:mod:`~rules.banked.box` (a box's decisions in order, B2-B3), :mod:`~rules.banked.settle`
(settlement), :mod:`~rules.banked.strategy` (the player's expected values and the house edge;
``python -m rules.banked edge``). A table's log, on the jackpot engine's pattern:
:mod:`~rules.banked.events` (each event type declared once), :mod:`~rules.banked.play` (what each
does and whether it may happen now), :mod:`~rules.banked.round` (the immutable
:class:`~rules.banked.round.BankedState`, ``replay``, ``legal()`` as move values),
:mod:`~rules.banked.readings` (what the state shows, typed); the floor's disputes,
:mod:`~rules.banked.disputes`.

Money is an int of the smallest unit (0.1 by default: the seed's ante of 0.3 is 3).

>>> dealer_exchange("Jk 9c 9d 4s 2h")
('4s', '2h')
>>> r = settle("Ah Ad 7c 7s 2d", "Kh Kd 9s 5c 3h", ante=3, bet=6, paytable=None)
>>> r["outcome"], r["player_net"]
('player_wins', 15)
"""

from __future__ import annotations

from rules.banked.box import Box, Move, Stage, deal, new_box
from rules.banked.dealer import DealerExchange, Item, dealer_decision, dealer_exchange, dealer_qualifies
from rules.banked.options import DEFAULT_PAYTABLE, PAYTABLE_SOURCE, BankedOptions, Paytable, banked_options
from rules.banked.settle import Outcome, fold_net, settle, settle_bonus, settle_box

# each event type's rules (may it happen now, what it does) declare themselves in the events'
# registry as the package loads, before any state is replayed (rules.banked.round reads them there)
from rules.banked import play  # noqa: E402,F401,I001

__all__ = [
    "BankedOptions",
    "banked_options",
    "Paytable",
    "DEFAULT_PAYTABLE",
    "PAYTABLE_SOURCE",
    "Item",
    "DealerExchange",
    "dealer_decision",
    "dealer_exchange",
    "dealer_qualifies",
    "Box",
    "Move",
    "Stage",
    "new_box",
    "deal",
    "Outcome",
    "settle",
    "settle_bonus",
    "settle_box",
    "fold_net",
]
