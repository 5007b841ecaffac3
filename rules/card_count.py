"""A hand of the wrong size in the decision tree (H6, D8): dead after the draw; before it, as the
house rule says (put right or dead).
"""

from __future__ import annotations

from rules.facts import found_question
from rules.outcomes import Move, Outcome
from rules.profiles import Profile
from rules.tree import Leaf, Node

__all__ = ["wrong_count_node"]

_M = Move
_O = Outcome


def wrong_count_node(p: Profile) -> Node:
    """The wrong-number-of-cards subtree of profile ``p``."""
    found_q = found_question
    # ---- wrong number of cards
    wc_base = ("seat", "card_count")
    dead_after = Leaf("wc_dead_after", _O.HAND_DEAD_CARD_COUNT, ("H6", "D8"), (_M.SEAT_DEAD, _M.POT_PLAYS), wc_base,
                      "foul hand", "A hand of {count} cards after the draw is foul: {seat}'s hand is dead (H6, D8).")
    if p.wrong_count_before_draw == "dead":
        before: Node = Leaf("wc_dead_before", _O.HAND_DEAD_CARD_COUNT, ("D8",), (_M.SEAT_DEAD, _M.POT_PLAYS), wc_base,
                            "house rule: dead",
                            "Under this house's rule a hand of {count} cards before the draw is dead: "
                            "{seat}'s hand is dead (D8).")
    else:
        before = Leaf("wc_corrected", _O.CARD_COUNT_CORRECTED, ("D8",), (_M.POT_PLAYS,), wc_base, "house rule: corrected",
                      "Before the draw the hand is put right under this house's rule: the dealer gives "
                      "{seat} the missing cards from the deck, or takes back the extra ones, and play "
                      "goes on (D8).")
    wrong_count = found_q("wc_found", before, dead_after, "Was the wrong number of cards found before "
                          "the draw or after it?")
    return wrong_count
