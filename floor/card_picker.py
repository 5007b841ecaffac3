"""The card picker's deck (``templates/_card_picker.html``, ``floor/static/cardpicker.js``): the cards
of a table's deck as the picker lays them out. The dealer's panel and the floor's dispute walk show it.
"""

from __future__ import annotations

from typing import Any

from rules import cards as cardlib
from rules import profiles

__all__ = ["picker_cards"]

SUIT_ROWS = (("s", "♠"), ("h", "♥"), ("d", "♦"), ("c", "♣"))


def picker_cards(profile: profiles.Profile) -> dict[str, Any]:
    """The cards of the table's deck, one row per suit (aces first) and the joker apart."""
    deck = cardlib.deck(wild=profile.wild, stripped=profile.stripped_deck)
    rows = []
    for suit, symbol in SUIT_ROWS:
        row = sorted((c for c in deck if not c.is_joker and c.suit == suit), key=lambda c: -c.rank)
        rows.append({"suit": suit, "symbol": symbol, "cards": [str(c) for c in row]})
    return {"rows": rows, "joker": any(c.is_joker for c in deck), "count": len(deck)}
