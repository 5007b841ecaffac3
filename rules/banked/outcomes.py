"""The outcome codes of a banked ruling and what each decides in the floor's words: read by the
disputes that decide them (:mod:`rules.banked.disputes`) and by the logged ruling that carries one
(:mod:`rules.banked.events`), which is why they live apart from both.

>>> OUTCOME_WORDS[BankedOutcome.PAYOUT_CORRECTED]
'the payout is corrected'
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["BankedOutcome", "OUTCOME_WORDS"]


class BankedOutcome(StrEnum):
    """The outcome codes of a banked ruling."""

    EXCHANGE_STANDS = "EXCHANGE_STANDS"  # the dealer threw what the list throws (B4)
    DEALER_HAND_REMADE = "DEALER_HAND_REMADE"  # wrong, found unseen: re-made by the list (B4)
    DEALER_HAND_AS_FELL = "DEALER_HAND_AS_FELL"  # wrong, seen: settled as the cards fell (B4, option)
    DEALER_HAND_VOID = "DEALER_HAND_VOID"  # wrong, seen: the boxes that bet take their stakes back (option)
    PAYOUT_RIGHT = "PAYOUT_RIGHT"  # the box was paid what settle pays (B5)
    PAYOUT_CORRECTED = "PAYOUT_CORRECTED"  # the difference moves between the house and the box (B5)


#: What each outcome decides, in the floor's words (the code is for the record and the search).
OUTCOME_WORDS: dict[str, str] = {
    BankedOutcome.EXCHANGE_STANDS: "the dealer's exchange stands",
    BankedOutcome.DEALER_HAND_REMADE: "the dealer's hand is re-made by the list",
    BankedOutcome.DEALER_HAND_AS_FELL: "the round is settled on the dealer's cards as they fell",
    BankedOutcome.DEALER_HAND_VOID: "the dealer's hand is void: the boxes that bet take their stakes back",
    BankedOutcome.PAYOUT_RIGHT: "the payout stands",
    BankedOutcome.PAYOUT_CORRECTED: "the payout is corrected",
}
