"""The vocabulary of a ruling: its outcome codes (a fixed contract) and the movement words the
decision tree's leaves use, which :func:`rules.rulings.resolve` turns into a ruling's fields.

>>> Outcome("REOPENED") == "REOPENED", Move.BAR_OPENER.name
(True, 'BAR_OPENER')
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Outcome", "Move"]


class Outcome(StrEnum):
    """The outcome codes of a ruling (a fixed contract: they serialise as their names)."""

    POT_PLAYS_OPENER_DEAD = "POT_PLAYS_OPENER_DEAD"
    REOPENED = "REOPENED"
    POT_CARRIES_OVER = "POT_CARRIES_OVER"
    ALL_IN_OPENER_BARRED = "ALL_IN_OPENER_BARRED"
    FOSTER_FORFEIT = "FOSTER_FORFEIT"
    OPENER_PROVED = "OPENER_PROVED"
    OPENER_DEAD_POT_STAYS = "OPENER_DEAD_POT_STAYS"
    OPENER_DEAD_BEST_OTHER_WINS = "OPENER_DEAD_BEST_OTHER_WINS"
    SPLIT_VERIFIED = "SPLIT_VERIFIED"
    SPLIT_FAILED = "SPLIT_FAILED"
    NOT_SPLITTING = "NOT_SPLITTING"
    HAND_DEAD_CARD_COUNT = "HAND_DEAD_CARD_COUNT"
    CARD_COUNT_CORRECTED = "CARD_COUNT_CORRECTED"
    DISCARDS_RETRIEVED = "DISCARDS_RETRIEVED"
    RETRIEVAL_REFUSED = "RETRIEVAL_REFUSED"
    CALLER_NOT_REFUNDED = "CALLER_NOT_REFUNDED"
    EXPOSED_CARD_REPLACED = "EXPOSED_CARD_REPLACED"
    SHOWS_FIRST = "SHOWS_FIRST"


class Move(StrEnum):
    """The vocabulary of a leaf's movements: what each word does to the ruling's fields."""

    OPENER_DEAD = "the opener's hand is dead"
    SEAT_DEAD = "the hand of the seat concerned is dead"
    RETURN_OPENER_LATER_BETS = "return the opener's bets after the first"
    RETURN_OTHER_BETS = "return every other player's bets of this deal"
    POT_PLAYS = "the pot plays on in this deal"
    POT_STAYS = "the pot stays for the next deal"
    OFFER_REOPEN = "list the players free to reopen"
    REOPEN = "the reopener opens the pot afresh"
    BAR_OPENER = "bar the opener until the pot is won"
    OPENER_FORFEITS = "the opener's chips stay in the pot"
    OPENER_ANTES_FOR_ALL = "the opener antes for every other player next deal"
    BEST_OTHER_WINS = "the best other live hand wins"
    OPENER_STANDS = "the opener's hand stands (openers proved)"
    EVERYONE_ANTES_AGAIN = "everyone of this deal antes again next deal"
    SHOWDOWN_PLAYS_ON = "those who folded are out of the pot; the rest ante again (D9)"
