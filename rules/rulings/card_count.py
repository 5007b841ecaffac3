"""A hand of the wrong size in the decision tree (H6, D8): dead after the draw; before it, as the
house rule says (put right or dead). A card exposed while the draw is dealt (D12): the card is dead
and the player's replacement waits until everyone else has drawn.
"""

from __future__ import annotations

from rules.rulings.facts import FACTS, DisputeKind, found_question, yes_no
from rules.rulings.outcomes import Move, Outcome
from rules.profiles import Profile
from rules.rulings.tree import Leaf, Node, Question

__all__ = ["wrong_count_node", "exposed_card_node", "WRONG_CARD_COUNT", "EXPOSED_CARD"]

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


def exposed_card_node(p: Profile) -> Node:
    """D12 (FOSTER): a card turned face up while the draw is dealt is not the player's; it goes to
    the discards, and the player is given another only once every other player has been helped, so
    the faced card changes nobody else's draw. The same in every profile (no source disagrees).

    >>> from rules.rulings import resolve
    >>> r = resolve({"issue": "exposed_card", "seat": 2, "others_to_draw": True})
    >>> r.outcome.value, r.citations, r.pot_plays
    ('EXPOSED_CARD_REPLACED', ('D12',), True)
    """
    base = ("seat",)
    later = Leaf("ec_after_others", _O.EXPOSED_CARD_REPLACED, ("D12",), (_M.POT_PLAYS,), base,
                 "replaced after the others draw",
                 "The card faced in dealing {seat}'s draw is dead and goes to the discards. The dealer "
                 "finishes the draw for every other player first, and then gives {seat} a card in its "
                 "place (D12).")
    now = Leaf("ec_now", _O.EXPOSED_CARD_REPLACED, ("D12",), (_M.POT_PLAYS,), base, "replaced at once",
               "The card faced in dealing {seat}'s draw is dead and goes to the discards. Everyone else "
               "has drawn already, so {seat} gets a card in its place at once (D12).")
    return Question("ec_others", FACTS["others_to_draw"].question, ("others_to_draw",), yes_no(later, now),
                    title="Others still to draw?", rules=("D12",))


WRONG_CARD_COUNT = DisputeKind("wrong_card_count", "wrong number of cards", "card count", "Wrong number of cards",
                               wrong_count_node, "{Seat} holds {count} cards instead of five, found {when}.",
                               log_reads_hand=False)
EXPOSED_CARD = DisputeKind("exposed_card", "card exposed in the draw", "card exposed", "Card exposed in the draw",
                           exposed_card_node)
