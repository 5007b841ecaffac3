"""False openers in the decision tree (F2-F7, the cardroom way; F9, Foster's) and a caller who
wants the bet back (F10): the questions asked, the answers derived from the log, the leaves.

>>> from rules.profiles import get_profile
>>> node = false_openers_node(get_profile("cardroom"))
>>> node.id, [b.key for b in node.branches]
('fo_found', ['before_draw', 'after_draw'])
>>> false_openers_node(get_profile("foster")).branches[0].node.id
'fo_came_in_before'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.rulings.facts import FACTS, DisputeKind, count_words, eligible_reopeners, found_question, seats_text, yes_no
from rules.rulings.outcomes import Move, Outcome
from rules.profiles import Profile
from rules.rulings.tree import Branch, Facts, Leaf, Node, Question

__all__ = ["PLAYS_BECAUSE", "false_openers_node", "foster_node", "cardroom_node", "refund_node",
           "FALSE_OPENERS", "CALLER_REFUND"]

_M = Move
_O = Outcome


PLAYS_BECAUSE: dict[str, Callable[[Any], bool]] = {
    "action_complete_before_draw": bool,
    "raise_before_draw": bool,
    "callers": lambda n: bool(n >= 2),
}


def _pot_plays(f: Facts) -> tuple[str, str]:
    # Any one reason settles it (F5): the reasons already given are weighed first, so that a known
    # raise does not make the floor person say how many called.
    for name in sorted(PLAYS_BECAUSE, key=lambda name: name not in f):
        if PLAYS_BECAUSE[name](f[name]):
            if name == "action_complete_before_draw":
                return "yes", "The action before the draw was complete, so the pot plays (F5)."
            if name == "raise_before_draw":
                return "yes", "There was a raise before the draw, so the pot plays (F5)."
            return "yes", f"{count_words(f['callers'], 'player')} called the opening bet, so the pot plays (F5)."
    n = f["callers"]
    called = "Nobody" if n == 0 else "Only one player"
    return "no", (f"{called} called the opening bet, nobody raised and the betting before the draw "
                  "was still open, so the pot does not play on by itself (F5).")


def _can_reopen(f: Facts) -> tuple[str, str]:
    seats = eligible_reopeners(f)
    if seats:
        return "yes", f"Free to declare the pot open: {seats_text(seats)} (F3)."
    return "no", "No other active player is free to declare the pot open (F3)."


def _reopen_choices(f: Facts) -> tuple[Any, ...]:
    return (*eligible_reopeners(f), None)


def _came_in(f: Facts) -> tuple[str, str]:
    n = f["callers"]
    if n > 0:
        return "yes", f"{count_words(n, 'player')} came in against the opener (F9)."
    if f["raise_before_draw"]:
        return "yes", "A player raised, so came in against the opener (F9)."
    return "no", "Nobody came in against the opener (F9)."


def pot_plays_q(qid: str, yes: Node, no: Node) -> Question:
    return Question(
        qid, "Does the pot play anyway: was the betting before the draw over, was there a raise, "
        "or did two or more players call the opening bet?",
        ("action_complete_before_draw", "raise_before_draw", "callers"), yes_no(yes, no),
        derive=_pot_plays, title="Pot plays anyway? (raise, two calls or betting over)",
        rules=("F5",))

def can_reopen_q(qid: str, yes: Node, no: Node) -> Question:
    return Question(
        qid, "Is any other active player free to reopen (not the opener, and did not pass before "
        "the opening)?", ("opener", "active", "passed"), yes_no(yes, no),
        derive=_can_reopen, title="Anyone free to reopen?", rules=("F3",))

def reopener_q(qid: str, seat: Node, nobody: Node) -> Question:
    return Question(qid, FACTS["reopener"].question, ("opener", "active", "passed", "reopener"),
                    (Branch("seat", "a seat", seat), Branch("none", "nobody", nobody)),
                    title="Who reopens?", rules=("F3",), allowed=_reopen_choices,
                    fact="reopener")


def false_openers_node(p: Profile) -> Node:
    """The false-openers subtree of profile ``p``: the cardroom's (F2-F7) or Foster's (F9).

    Both first ask when the false opening came to light (before or after the draw)."""
    return foster_node() if p.false_openers == "foster" else cardroom_node()


#: What every false-openers leaf needs: the seat that opened.
_OPENER = ("opener",)


# --------------------------------------------------------------------------- Foster's penalty (F9)


def foster_node() -> Node:
    """Foster's false openers (F9): the opener forfeits, antes for all when drawn to, and the pot
    plays when anybody came in against the opener.

    >>> [b.node.id for b in foster_node().branches]
    ['fo_came_in_before', 'fo_drawn_to']
    """
    return found_question(
        "fo_found",
        _came_in_q("fo_came_in_before", _forfeit("fo_forfeit_plays", True, False),
                   _forfeit("fo_forfeit_stays", False, False)),
        Question("fo_drawn_to", FACTS["drawn_to"].question, ("drawn_to",), yes_no(
            _came_in_q("fo_came_in_drawn", _forfeit("fo_forfeit_drawn_plays", True, True),
                       _forfeit("fo_forfeit_drawn_stays", False, True)),
            _came_in_q("fo_came_in_after", _forfeit("fo_forfeit_after_plays", True, False),
                       _forfeit("fo_forfeit_after_stays", False, False))),
            title="Drawn to?", rules=("F9",)),
    )


def _forfeit(lid: str, plays: bool, antes: bool) -> Leaf:
    """Foster's forfeit (F9): the pot plays or stays; the opener antes for all when drawn to."""
    moves = [_M.OPENER_DEAD, _M.OPENER_FORFEITS]
    if antes:
        moves.append(_M.OPENER_ANTES_FOR_ALL)
    moves.append(_M.POT_PLAYS if plays else _M.POT_STAYS)
    text = "{Opener} forfeits every chip put into the pot and the hand is dead (F9)."
    if antes:
        text += " Because others drew cards against it, {opener} antes for every other player on the next deal (F9)."
    text += (" The players who came in stay and play for the pot (F9)." if plays
             else " Nobody came in, so the pot stays for the next deal (F9).")
    note = ("pot plays" if plays else "pot stays") + ("; antes for all" if antes else "")
    return Leaf(lid, _O.FOSTER_FORFEIT, ("F9",), tuple(moves), _OPENER, note, text)


def _came_in_q(qid: str, yes: Node, no: Node) -> Question:
    """Whether anybody came in against the false opener (F9), derived from the callers and raises."""
    return Question(qid, "Did anybody come in against the opener (call or raise)?",
                    ("callers", "raise_before_draw"), yes_no(yes, no), derive=_came_in,
                    title="Anybody came in against the opener?", rules=("F9",))


# --------------------------------------------------------------------------- the cardroom way (F2-F7)


def cardroom_node() -> Node:
    """The cardroom's false openers (F2-F7): found before the draw, an all-in opener is barred (F7)
    and any other opener's hand is dead, the pot playing on, reopened or carried over (F2-F6);
    found after the draw, the hand is dead and the pot plays on (F1, F5, F6).

    >>> [b.node.id for b in cardroom_node().branches]
    ['fo_all_in', 'fo_after_draw']
    """
    return found_question(
        "fo_found",
        Question("fo_all_in", FACTS["opener_all_in"].question, ("opener_all_in",),
                 yes_no(_all_in_opener(), _opener_dead()), title="Opener all in for the ante?", rules=("F7",)),
        Leaf("fo_after_draw", _O.POT_PLAYS_OPENER_DEAD, ("F1", "F5", "F6"),
             (_M.OPENER_DEAD, _M.POT_PLAYS), _OPENER, "pot plays on",
             "{Opener}'s hand is dead: without openers it cannot win (F1). The betting before the draw "
             "was over, so the pot plays on among the others (F5) and {opener} takes nothing back (F6)."),
    )


def _opener_dead() -> Node:
    """A false opener not all in (F2-F6): the hand is dead; the pot plays on, is reopened, or
    carries over with every bet but the opening bet handed back."""
    dead_plays_text = ("{Opener}'s hand is dead and the opening bet stays in the pot (F2); "
                       "the other players play on for the pot.")
    plays_complete = Leaf(
        "fo_plays_complete", _O.POT_PLAYS_OPENER_DEAD, ("F2", "F5", "F6"),
        (_M.OPENER_DEAD, _M.POT_PLAYS), _OPENER, "no bets go back",
        dead_plays_text + " With the betting before the draw over, {opener} takes nothing back (F6).")
    plays_open = Leaf(
        "fo_plays_open", _O.POT_PLAYS_OPENER_DEAD, ("F2", "F5"),
        (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.POT_PLAYS), (*_OPENER, "opener_bets"),
        "opener's raises go back",
        dead_plays_text + " The action before the draw was not complete, so {opener} takes back "
        "the bets made after the opening bet (F2).")
    reopened = Leaf(
        "fo_reopened", _O.REOPENED, ("F2", "F3"),
        (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.RETURN_OTHER_BETS, _M.OFFER_REOPEN, _M.REOPEN),
        (*_OPENER, "opener_bets", "bets"), "bets back; reopener opens",
        "{Opener}'s hand is dead and the opening bet stays in the pot with the antes (F2). "
        "{Reopener} declares the pot open (F3) and becomes the opener: every other bet of the deal "
        "goes back and the betting starts again with {reopener}'s opening bet.")
    carries = Leaf(
        "fo_carries", _O.POT_CARRIES_OVER, ("F2", "F4"),
        (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.RETURN_OTHER_BETS, _M.POT_STAYS,
         _M.EVERYONE_ANTES_AGAIN),
        (*_OPENER, "opener_bets", "bets"), "bets back but opening bet",
        "{Opener}'s hand is dead (F2). Nobody reopens, so every bet goes back except {opener}'s "
        "opening bet, which stays in the pot with the antes for the next deal; everyone in this "
        "deal may ante and play the next one (F4).")
    carries_none = Leaf(
        "fo_carries_nobody", _O.POT_CARRIES_OVER, ("F2", "F3", "F4"), carries.moves, carries.needs,
        carries.note, carries.text)
    return pot_plays_q("fo_pot_plays", Question(
        "fo_complete", FACTS["action_complete_before_draw"].question,
        ("action_complete_before_draw",), yes_no(plays_complete, plays_open),
        title="Betting before the draw over?", rules=("F2", "F6")),
        can_reopen_q("fo_can_reopen", reopener_q("fo_reopener", reopened, carries), carries_none))


def _all_in_opener() -> Node:
    """An opener all in for the ante who opened without openers (F7): barred until the pot is won,
    whether the pot plays on, is reopened or carries over."""
    barred_text = ("{Opener} was all in for the ante and opened without openers: the ante money "
                   "is lost and {opener} is dealt out of this pot's deals until someone else "
                   "has opened it legally and won it, even after buying more chips (F7).")
    barred_plays = Leaf(
        "fo_allin_plays", _O.ALL_IN_OPENER_BARRED, ("F7", "F5"),
        (_M.OPENER_DEAD, _M.BAR_OPENER, _M.POT_PLAYS), _OPENER, "pot plays; opener barred",
        barred_text + " The others play on for the pot (F5).")
    barred_reopened = Leaf(
        "fo_allin_reopened", _O.ALL_IN_OPENER_BARRED, ("F7", "F3"),
        (_M.OPENER_DEAD, _M.BAR_OPENER, _M.RETURN_OTHER_BETS, _M.OFFER_REOPEN, _M.REOPEN),
        (*_OPENER, "bets"), "reopened; opener barred",
        barred_text + " {Reopener} declares the pot open (F3): the other bets go back and the "
        "betting starts again with {reopener}'s opening bet.")
    barred_carries = Leaf(
        "fo_allin_carries", _O.ALL_IN_OPENER_BARRED, ("F7", "F4"),
        (_M.OPENER_DEAD, _M.BAR_OPENER, _M.RETURN_OTHER_BETS, _M.POT_STAYS, _M.EVERYONE_ANTES_AGAIN),
        (*_OPENER, "bets"), "carries over; barred",
        barred_text + " Nobody reopens, so the other bets go back and the pot stays for the next deal (F4).")
    barred_carries_none = Leaf(
        "fo_allin_carries_nobody", _O.ALL_IN_OPENER_BARRED, ("F7", "F3", "F4"), barred_carries.moves,
        barred_carries.needs, barred_carries.note, barred_carries.text)
    return pot_plays_q("fo_allin_pot_plays", barred_plays, can_reopen_q(
        "fo_allin_can_reopen", reopener_q("fo_allin_reopener", barred_reopened, barred_carries),
        barred_carries_none))


def refund_node(p: Profile) -> Node:
    """A caller who wants the bet back (F10): the call stays in."""
    # ---- a caller who wants the bet back
    refund = Leaf("cr_not_refunded", _O.CALLER_NOT_REFUNDED, ("F10",), (_M.POT_PLAYS,), ("seat",), "the call stays in",
                  "{Seat} called the opener's bet after the draw and cannot get it back, even if "
                  "{seat} cannot beat openers: seeing the opener's hand was the price of the call (F10).")
    return refund


FALSE_OPENERS = DisputeKind("false_openers", "false openers", "false openers", "False openers", false_openers_node,
                            "{Opener} opened without openers, and it came to light {when}.")
CALLER_REFUND = DisputeKind("caller_refund", "caller wants the bet back", "refund asked", "Caller wants the bet back",
                            refund_node, log_reads_hand=False)
