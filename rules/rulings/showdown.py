"""Who shows first at the showdown (D6, PAGAT): the player who made the last bet or raise of the
final betting round; when every player checked it, the opener. The others show in turn after
that player, clockwise. The same in every profile (no other source says otherwise).

A card-room dispute of its own: two players each waiting for the other to turn the cards up. The
engine applies the order to a logged hand by itself (:mod:`rules.jackpot.flow`); this branch is the
floor's answer for a hand at the table, whatever the log holds.

>>> from rules.rulings import resolve
>>> r = resolve({"issue": "show_order", "last_bettor": 4})
>>> r.outcome.value, r.citations, r.pot_plays
('SHOWS_FIRST', ('D6',), True)
>>> print(r.summary)  # doctest: +NORMALIZE_WHITESPACE
At the showdown it is disputed who turns the cards up first. Seat 4 made the last bet or raise of
the final round (D6). That player shows first; the others show in turn after, clockwise (D6).
"""

from __future__ import annotations

from rules.rulings.facts import DisputeKind
from rules.rulings.outcomes import Move, Outcome
from rules.profiles import Profile
from rules.rulings.tree import Answer, Branch, Facts, FactSpec, Leaf, Node, Question

__all__ = ["LAST_BETTOR", "show_order_node", "SHOW_ORDER"]

#: The one fact this dispute asks: who made the final round's last bet or raise.
LAST_BETTOR = FactSpec("last_bettor", "Which seat made the last bet or raise of the final betting round? "
                       "(nobody, if every player checked)", "seat_or_none",
                       title="Last bet or raise of the final round")


def _who_bet(f: Facts) -> Answer:
    seat = f["last_bettor"]
    if seat is None:
        return "none", "Every player checked the final round (D6)."
    return "seat", f"Seat {seat} made the last bet or raise of the final round (D6)."


def show_order_node(p: Profile) -> Node:
    """D6: the last bettor or raiser of the final round shows first, else the opener."""
    bettor = Leaf("so_last_bettor", Outcome.SHOWS_FIRST, ("D6",), (Move.POT_PLAYS,), (), "the last bettor first",
                  "That player shows first; the others show in turn after, clockwise (D6).")
    opener = Leaf("so_opener", Outcome.SHOWS_FIRST, ("D6",), (Move.POT_PLAYS,), ("opener",), "the opener first",
                  "{Opener} opened the pot and shows first; the others show in turn after, clockwise (D6).")
    return Question("so_last_bettor", LAST_BETTOR.question, ("last_bettor",),
                    (Branch("seat", "a bet or raise", bettor), Branch("none", "all checked", opener)),
                    derive=_who_bet, title="A bet or raise in the final round?", rules=("D6",))


SHOW_ORDER = DisputeKind("show_order", "who shows first at the showdown", "show order", "Who shows first",
                         show_order_node, "At the showdown it is disputed who turns the cards up first.",
                         facts=(LAST_BETTOR,))
