"""The facts of a dispute: every fact the decision tree may ask, with the question a floor person
is asked, its kind of answer and its name in a few words; what declares a kind of dispute
(:class:`DisputeKind`); and the small helpers that put facts into words.

>>> FACTS["opener"].question, FACTS["opener"].title
('Which seat opened the pot?', 'Opener')
>>> eligible_reopeners({"opener": 3, "active": [1, 2, 3, 5], "passed": ["1"]})
(2, 5)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.profiles import Profile
from rules.rulings.tree import SEATS_MOST, Branch, Facts, FactSpec, Node, Question

__all__ = ["DisputeKind", "FACTS", "eligible_reopeners", "count_words", "who", "seats_text",
           "cards", "card_text", "yes_no", "found_question"]


@dataclass(frozen=True)
class DisputeKind:
    """A kind of dispute, declared once, beside its branch of the tree: the value of the fact
    ``issue``, its words (the floor's first question, the printed tree's branch, the dealer's button
    to call the floor), the builder of its branch for a profile, the first sentence of its ruling
    (a template of the ruling's words: ``{Opener}``, ``{Seat}``, ``{count}``, ``{when}``), whether the
    log settles the opener's facts for it (not for a hand the log never saw: a card count, a refused
    call), and the facts only it asks. :data:`rules.rulings.DISPUTES` lists them in the tree's order;
    the fact ``issue``, the :class:`rules.rulings.Issue` enum, the dealer's list and the facts the log
    answers (:func:`rules.jackpot.disputes.known_facts`) are derived from them."""

    issue: str
    label: str
    short: str
    dealer: str
    node: Callable[[Profile], Node]
    intro: str = ""
    log_reads_hand: bool = True
    facts: tuple[FactSpec, ...] = ()


#: Each fact in a few words, for the printed ruling's list of facts found.
_TITLES = {
    "issue": "The dispute", "found": "Found", "opener": "Opener", "opener_all_in": "Opener all in for the ante",
    "raise_before_draw": "A raise before the draw", "callers": "Players who called the opening bet",
    "action_complete_before_draw": "Betting before the draw over", "passed": "Passed before the opening",
    "active": "Still in", "reopener": "Reopened by", "opener_bets": "The opener's bets",
    "bets": "Other players' bets this deal", "drawn_to": "Others drew against the opener",
    "everyone_folded": "Everyone else folded", "hands": "Hands shown", "opening_hand": "Opening hand",
    "final_hand": "The opener's final hand", "discards": "Escrowed discards", "drawn": "Cards the opener drew",
    "seat": "Seat concerned", "card_count": "Cards in the hand", "retrieval_allowed": "Retrieval allowed",
    "requirement": "Openers needed", "widow": "Widow card", "others_to_draw": "Others still to draw",
    "declared": "Hands declared",
}

#: Every fact the tree may ask that several disputes share, with the question a floor person is
#: asked; :data:`rules.rulings.FACTS` adds the fact ``issue`` and the facts of each dispute kind.
FACTS: dict[str, FactSpec] = {
    s.name: dataclasses.replace(s, title=_TITLES.get(s.name, s.name))
    for s in (
        FactSpec("found", "Was the false opening found before the draw or after it?", "choice",
                 ("before_draw", "after_draw"), ("before the draw", "after the draw")),
        FactSpec("opener", "Which seat opened the pot?", "seat"),
        FactSpec("opener_all_in", "Was the opener all in for the ante, or for part of it?", "bool"),
        FactSpec("raise_before_draw", "Did anyone raise before the draw?", "bool"),
        FactSpec("callers", "How many players called the opening bet?", "count",
                 most=SEATS_MOST - 1, most_why=f"at most {SEATS_MOST - 1} others call at a table of {SEATS_MOST}"),
        FactSpec("action_complete_before_draw",
                 "Had every player acted on the last bet before the draw (was the betting over)?", "bool"),
        FactSpec("passed", "Which seats passed before the pot was opened in this deal?", "seats"),
        FactSpec("active", "Which seats still hold live cards?", "seats"),
        FactSpec("reopener", "Which player now declares the pot open? (nobody, if no one does)",
                 "seat_or_none"),
        FactSpec("opener_bets", "What did the opener bet, in order? (the first is the opening bet)", "chips"),
        FactSpec("bets", "How many chips did each other player put in during this deal, antes aside?", "bets"),
        FactSpec("drawn_to", "Did other players draw cards against the opener?", "bool"),
        FactSpec("everyone_folded", "Had every other player folded?", "bool"),
        FactSpec("hands", "What cards does each player show at the showdown?", "hands"),
        FactSpec("opening_hand", "Which five cards did the opener hold before the draw? (leave empty if not "
                 "known)", "cards_or_none"),
        FactSpec("final_hand", "Which cards does the opener hold now? (leave empty if the hand is gone)",
                 "cards_or_none"),
        FactSpec("discards", "Which cards did the opener discard and keep under a chip? (leave empty if none)",
                 "cards_or_none"),
        FactSpec("drawn", "How many cards did the opener draw? (0 if the opener stood pat; leave empty if "
                 "not known)", "count_or_none", most=5, most_why="a player draws at most five cards"),
        FactSpec("seat", "Which seat is concerned?", "seat"),
        FactSpec("card_count", "How many cards does that hand hold?", "count",
                 most=53, most_why="a hand cannot hold more cards than the deck has (53 with the joker)"),
        FactSpec("retrieval_allowed", "Does the floor allow the discards to be retrieved?", "bool"),
        FactSpec("requirement", "What did it take to open this deal (progressive openers)?", "choice",
                 ("J", "Q", "K", "A"), ("jacks", "queens", "kings", "aces")),
        FactSpec("widow", "Which card was turned up as the widow (its rank is wild)?", "cards"),
        FactSpec("others_to_draw", "Are other players still waiting for their draw?", "bool"),
        FactSpec("declared", "The cards do not speak here: which hand did each player declare at the show "
                 "(two pair, flush, ...)?", "declarations"),
    )
}


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def count_words(n: int, word: str) -> str:
    """'Two players', 'One player', '12 players'."""
    text = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{text.capitalize()} {word}{'' if n == 1 else 's'}"


def who(seat: int) -> str:
    return f"seat {seat}"


def seats_text(seats: tuple[int, ...] | list[int]) -> str:
    names = [str(s) for s in seats]
    if not names:
        return "no seat"
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def eligible_reopeners(facts: Mapping[str, Any] | Facts) -> tuple[int, ...]:
    """Seats free to declare the pot open after false openers (F3): active, not the opener,
    and not among those who passed before the opening.

    >>> eligible_reopeners({"opener": 3, "active": [1, 2, 3, 5], "passed": ["1"]})
    (2, 5)
    """
    f = facts if isinstance(facts, Facts) else Facts(facts, FACTS)
    opener, passed = f["opener"], set(f["passed"])
    return tuple(s for s in f["active"] if s != opener and s not in passed)


def cards(value: Any) -> tuple[Any, ...]:
    from rules.cards import parse_cards

    return parse_cards(value)


def card_text(value: Any) -> str:
    from rules.cards import to_text

    return to_text(cards(value))


def yes_no(yes: Node, no: Node, yes_label: str = "yes", no_label: str = "no") -> tuple[Branch, ...]:
    return (Branch("yes", yes_label, yes), Branch("no", no_label, no))


def found_question(qid: str, before: Node, after: Node, text: str = "") -> Question:
    """When was it found: before the draw or after it (a question several disputes ask)."""
    return Question(qid, text or FACTS["found"].question, ("found",),
                    (Branch("before_draw", "before draw", before),
                     Branch("after_draw", "after draw", after)), title="When was it found?")
