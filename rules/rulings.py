"""The floor decision tree: ``resolve(facts, profile) -> Ruling``.

A floor person settles a dispute by answering the tree's questions; most answers come straight
from the logged hand. The tree is data (:mod:`rules.tree`): question nodes, some of them derived
from named facts, and outcome leaves that cite the rule ids of the catalogue
(:mod:`rules.catalogue`) and list chip movements from a small vocabulary (:class:`Move`).
:func:`build_tree` builds it for a profile, so a house rule changes the tree's shape, and the
printed tree shows the reading the table plays.

>>> r = resolve({"issue": "false_openers", "found": "before_draw", "opener": 3,
...              "opener_all_in": False, "action_complete_before_draw": False,
...              "raise_before_draw": False, "callers": 2, "opener_bets": [10, 10]})
>>> r.outcome, r.dead, r.returns, r.pot_plays, r.citations
(<Outcome.POT_PLAYS_OPENER_DEAD: 'POT_PLAYS_OPENER_DEAD'>, (3,), {3: 10}, True, ('F2', 'F5'))
>>> print(r.summary)  # doctest: +NORMALIZE_WHITESPACE
Seat 3 opened without openers, and it came to light before the draw. Two players called the
opening bet, so the pot plays (F5). Seat 3's hand is dead and the opening bet stays in the pot
(F2); the other players play on for the pot. The action before the draw was not complete, so
seat 3 takes back the bets made after the opening bet (F2). Handed back from the pot: seat 3 gets 10.

A fact the path needs and the caller did not give is never guessed:

>>> resolve({"issue": "false_openers", "found": "before_draw", "opener": 3})
Traceback (most recent call last):
...
rules.MissingFact: missing fact: opener_all_in
>>> questions_for({"issue": "false_openers"}).question
'Was the false opening found before the draw or after it?'

Chip semantics, where the sources leave room (decisions of this project, documented in the
outcome texts):

- ``POT_PLAYS_OPENER_DEAD``: nothing goes back except, while the action before the draw is not
  complete, the opener's bets after the opening bet (F2, F6).
- ``REOPENED``: every bet of the deal is handed back except the false opener's opening bet, which
  stays in the pot with the antes; the reopener's opening starts the betting afresh (F2, F3).
- ``POT_CARRIES_OVER``: the same bets go back; the opening bet and the antes stay for the next
  deal (F4).
- ``ALL_IN_OPENER_BARRED``: the all-in opener loses the ante money and is barred until the pot is
  won (F7). Other players may still reopen: ``pot_plays`` is true when the pot plays anyway (F5)
  or a reopener is named; otherwise every other bet goes back and the pot carries over.
- ``FOSTER_FORFEIT``: nothing goes back to the false opener; ``ante_for_all`` names the opener when
  others drew against the hand; the pot plays when anybody came in against the opener (F9).
- ``OPENER_DEAD_BEST_OTHER_WINS``: the best other live hand wins; an exact tie splits the pot
  (H5): ``winner`` is then null and ``winners`` lists the seats that share it. Hands of the wrong
  size are foul and are passed over (H6).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rules import RulesError
from rules.profiles import Profile, get_profile
from rules.tree import Branch, Facts, FactSpec, Leaf, Node, Prompt, Question, Step, Tree

__all__ = [
    "Outcome",
    "Move",
    "Issue",
    "Ruling",
    "FACTS",
    "resolve",
    "build_tree",
    "questions_for",
    "eligible_reopeners",
]


class Outcome(str, Enum):
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

    def __str__(self) -> str:
        return self.value


class Issue(str, Enum):
    """What a dispute is about: the answers of the tree's first question."""

    FALSE_OPENERS = "false_openers"
    OPENER_CANNOT_SHOW = "opener_cannot_show"
    SPLIT_OPENERS = "split_openers"
    WRONG_CARD_COUNT = "wrong_card_count"
    DISCARD_RETRIEVAL = "discard_retrieval"
    CALLER_REFUND = "caller_refund"


class Move(str, Enum):
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


# --------------------------------------------------------------------------- facts

_ISSUE_LABELS = (
    "false openers",
    "opener cannot show openers",
    "split openers",
    "wrong number of cards",
    "retrieving discards",
    "caller wants the bet back",
)

_ISSUE_SHORT = ("false openers", "cannot show", "split openers", "card count", "retrieval",
                "refund asked")

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
    "requirement": "Openers needed",
}

#: Every fact the tree may ask, with the question a floor person is asked.
FACTS: dict[str, FactSpec] = {
    s.name: dataclasses.replace(s, title=_TITLES.get(s.name, s.name))
    for s in (
        FactSpec("issue", "What is the dispute about?", "choice",
                 tuple(i.value for i in Issue), _ISSUE_LABELS),
        FactSpec("found", "Was the false opening found before the draw or after it?", "choice",
                 ("before_draw", "after_draw"), ("before the draw", "after the draw")),
        FactSpec("opener", "Which seat opened the pot?", "seat"),
        FactSpec("opener_all_in", "Was the opener all in for the ante, or for part of it?", "bool"),
        FactSpec("raise_before_draw", "Did anyone raise before the draw?", "bool"),
        FactSpec("callers", "How many players called the opening bet?", "count"),
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
                 "not known)", "count_or_none"),
        FactSpec("seat", "Which seat is concerned?", "seat"),
        FactSpec("card_count", "How many cards does that hand hold?", "count"),
        FactSpec("retrieval_allowed", "Does the floor allow the discards to be retrieved?", "bool"),
        FactSpec("requirement", "What did it take to open this deal (progressive openers)?", "choice",
                 ("J", "Q", "K", "A"), ("jacks", "queens", "kings", "aces")),
    )
}


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int, word: str) -> str:
    """'Two players', 'One player', '12 players'."""
    text = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    return f"{text.capitalize()} {word}{'' if n == 1 else 's'}"


def _who(seat: int) -> str:
    return f"seat {seat}"


def _seats_text(seats: tuple[int, ...] | list[int]) -> str:
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


# --------------------------------------------------------------------------- derived answers


_PLAYS_BECAUSE: dict[str, Callable[[Any], bool]] = {
    "action_complete_before_draw": bool,
    "raise_before_draw": bool,
    "callers": lambda n: bool(n >= 2),
}


def _pot_plays(f: Facts) -> tuple[str, str]:
    # Any one reason settles it (F5): the reasons already given are weighed first, so that a known
    # raise does not make the floor person say how many called.
    for name in sorted(_PLAYS_BECAUSE, key=lambda name: name not in f):
        if _PLAYS_BECAUSE[name](f[name]):
            if name == "action_complete_before_draw":
                return "yes", "The action before the draw was complete, so the pot plays (F5)."
            if name == "raise_before_draw":
                return "yes", "There was a raise before the draw, so the pot plays (F5)."
            return "yes", f"{_count(f['callers'], 'player')} called the opening bet, so the pot plays (F5)."
    n = f["callers"]
    called = "Nobody" if n == 0 else "Only one player"
    return "no", (f"{called} called the opening bet, nobody raised and the betting before the draw "
                  "was still open, so the pot does not play on by itself (F5).")


def _all_in_at_show(f: Facts) -> tuple[str, str]:
    # F7 bars an all-in false opener however it came to light. At the show the fact is taken when
    # known (the engine always knows it, a floor page asks it): left out, no bar is imposed, for a
    # penalty is never applied on a guess.
    if f.get("opener_all_in"):
        return "yes", "The opener was all in for the ante (F7)."
    if f.get("opener_all_in") is None:
        return "no", "Whether the opener was all in for the ante is not known, so no bar is imposed (F7)."
    return "no", "The opener was not all in for the ante (F7)."


def _can_reopen(f: Facts) -> tuple[str, str]:
    seats = eligible_reopeners(f)
    if seats:
        return "yes", f"Free to declare the pot open: {_seats_text(seats)} (F3)."
    return "no", "No other active player is free to declare the pot open (F3)."


def _reopen_choices(f: Facts) -> tuple[Any, ...]:
    return (*eligible_reopeners(f), None)


def _came_in(f: Facts) -> tuple[str, str]:
    n = f["callers"]
    if n > 0:
        return "yes", f"{_count(n, 'player')} came in against the opener (F9)."
    if f["raise_before_draw"]:
        return "yes", "A player raised, so came in against the opener (F9)."
    return "no", "Nobody came in against the opener (F9)."


def _cards(value: Any) -> tuple[Any, ...]:
    from rules.cards import parse_cards

    return parse_cards(value)


def _text(value: Any) -> str:
    from rules.cards import to_text

    return to_text(_cards(value))


def _make_card_checks(profile: Profile) -> dict[str, Any]:
    """The derived questions that read cards, bound to the profile's wild mode and minimum."""

    def minimum(f: Facts) -> str:
        return str(f["requirement"]) if profile.progressive_openers else profile.opening_minimum

    def proves(f: Facts, final: Any, drawn: int, escrow: Any) -> tuple[Any, ...] | None:
        # the one proof of openers (rules.openers.proof), bound to this table's game
        from rules.openers import proof

        return proof(_cards(final), drawn, _cards(escrow or ()), wild=profile.wild, minimum=minimum(f),
                     southern=profile.southern_hands)

    def shows_openers(f: Facts) -> tuple[str, str]:
        hand = f.get("opening_hand")
        if hand is not None:
            # the opening hand itself is shown (F12): it proves openers as it was dealt
            if proves(f, hand, 0, ()) is not None:
                return "yes", f"The opener shows the opening hand {_text(hand)}, which opens (O1)."
            return "no", f"The opener shows the opening hand {_text(hand)}, which does not open (O1)."
        final = f.get("final_hand")
        if final is None:
            return "no", "The opener cannot show the hand, so cannot prove openers (F1)."
        drawn, escrow = f["drawn"], f.get("discards")
        if drawn is None:
            return "no", (f"The opener shows {_text(final)}, but how many cards were drawn is not known, so "
                          "the cards kept from the opening hand cannot be told apart (F1).")
        kept = proves(f, final, drawn, escrow)
        if kept is not None:
            return "yes", (f"The opener shows {_text(final)} after drawing {drawn}: {_text(kept)}, kept "
                           "from the opening hand, hold openers (F1, O1).")
        return "no", (f"The opener shows {_text(final)} after drawing {drawn}: no {5 - drawn} of those cards "
                      + ("with the escrow " if escrow else "") + "hold openers, and what the draw brought "
                      "proves nothing (F1).")

    def opening_known(f: Facts) -> tuple[str, str]:
        if f.get("opening_hand") is None:
            return "no", "The hand held before the draw is not known, so the escrowed discards decide (S1)."
        return "yes", f"The hand held before the draw is known: {_text(f['opening_hand'])}."

    def kept(f: Facts) -> tuple[str, str]:
        from rules.openers import keeps_openers

        if keeps_openers(_cards(f["opening_hand"]), _cards(f["discards"] or ()), wild=profile.wild,
                         minimum=minimum(f)):
            return "yes", f"After throwing {_text(f['discards'] or ())} the opener still held openers (S3)."
        return "no", f"Throwing {_text(f['discards'] or ())} broke the openers (S1)."

    def opening_qualifies(f: Facts) -> tuple[str, str]:
        if proves(f, f["opening_hand"], 0, ()) is not None:
            return "yes", "The hand before the draw did hold openers (O1)."
        return "no", "The hand before the draw did not hold openers (S2)."

    def could_have(f: Facts) -> tuple[str, str]:
        final, discards = f["final_hand"], f["discards"] or ()
        if final is None:
            return "no", "The final hand is gone, so nothing can be compared with the discards (S2)."
        thrown = _cards(discards)
        drawn = f.get("drawn")
        if drawn is not None and drawn != len(thrown):
            return "no", (f"The opener drew {drawn} but kept {len(thrown)} under the chip: a split keeps every "
                          "discard apart (S1), so openers cannot be proved (S2).")
        words_final, words_thrown = _text(final), _text(discards)
        if proves(f, final, len(thrown), thrown) is not None:
            return "yes", f"Cards of the final hand {words_final} with the discards {words_thrown} can make openers (S2)."
        return "no", f"No cards of the final hand {words_final} with the discards {words_thrown} make openers (S2)."

    return {
        "shows_openers": shows_openers,
        "opening_known": opening_known,
        "kept": kept,
        "opening_qualifies": opening_qualifies,
        "could_have": could_have,
    }


# --------------------------------------------------------------------------- the tree

_M = Move
_O = Outcome


def _yes_no(yes: Node, no: Node, yes_label: str = "yes", no_label: str = "no") -> tuple[Branch, ...]:
    return (Branch("yes", yes_label, yes), Branch("no", no_label, no))


@functools.lru_cache(maxsize=64)
def build_tree(profile: str | Profile = "cardroom") -> Tree:
    """The floor's decision tree for a profile (a name or a :class:`rules.profiles.Profile`).

    The profile's options shape it: ``false_openers`` picks the cardroom subtree (F2–F7) or
    Foster's (F9), ``discard_retrieval`` and ``wrong_count_before_draw`` pick leaves or add a question.

    >>> sorted(map(str, set(build_tree("cardroom").outcomes()) ^ set(build_tree("foster").outcomes())))
    ['ALL_IN_OPENER_BARRED', 'CARD_COUNT_CORRECTED', 'DISCARDS_RETRIEVED', 'FOSTER_FORFEIT', \
'OPENER_DEAD_POT_STAYS', 'POT_CARRIES_OVER', 'POT_PLAYS_OPENER_DEAD', 'REOPENED']
    """
    p = get_profile(profile)
    checks = _make_card_checks(p)
    req: tuple[str, ...] = ("requirement",) if p.progressive_openers else ()

    def found_q(qid: str, before: Node, after: Node, text: str = "") -> Question:
        return Question(qid, text or FACTS["found"].question, ("found",),
                        (Branch("before_draw", "before draw", before),
                         Branch("after_draw", "after draw", after)), title="When was it found?")

    def pot_plays_q(qid: str, yes: Node, no: Node) -> Question:
        return Question(
            qid, "Does the pot play anyway: was the betting before the draw over, was there a raise, "
            "or did two or more players call the opening bet?",
            ("action_complete_before_draw", "raise_before_draw", "callers"), _yes_no(yes, no),
            derive=_pot_plays, title="Pot plays anyway? (raise, two calls or betting over)",
            rules=("F5",))

    def can_reopen_q(qid: str, yes: Node, no: Node) -> Question:
        return Question(
            qid, "Is any other active player free to reopen (not the opener, and did not pass before "
            "the opening)?", ("opener", "active", "passed"), _yes_no(yes, no),
            derive=_can_reopen, title="Anyone free to reopen?", rules=("F3",))

    def reopener_q(qid: str, seat: Node, nobody: Node) -> Question:
        return Question(qid, FACTS["reopener"].question, ("opener", "active", "passed", "reopener"),
                        (Branch("seat", "a seat", seat), Branch("none", "nobody", nobody)),
                        title="Who reopens?", rules=("F3",), allowed=_reopen_choices,
                        fact="reopener")

    # ---- false openers
    fo_base = ("opener",)
    if p.false_openers == "foster":
        def forfeit(lid: str, plays: bool, antes: bool) -> Leaf:
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
            return Leaf(lid, _O.FOSTER_FORFEIT, ("F9",), tuple(moves), fo_base, note, text)

        def came_in_q(qid: str, yes: Node, no: Node) -> Question:
            return Question(qid, "Did anybody come in against the opener (call or raise)?",
                            ("callers", "raise_before_draw"), _yes_no(yes, no), derive=_came_in,
                            title="Anybody came in against the opener?", rules=("F9",))

        false_openers: Node = found_q(
            "fo_found",
            came_in_q("fo_came_in_before", forfeit("fo_forfeit_plays", True, False),
                      forfeit("fo_forfeit_stays", False, False)),
            Question("fo_drawn_to", FACTS["drawn_to"].question, ("drawn_to",), _yes_no(
                came_in_q("fo_came_in_drawn", forfeit("fo_forfeit_drawn_plays", True, True),
                          forfeit("fo_forfeit_drawn_stays", False, True)),
                came_in_q("fo_came_in_after", forfeit("fo_forfeit_after_plays", True, False),
                          forfeit("fo_forfeit_after_stays", False, False))),
                title="Drawn to?", rules=("F9",)),
        )
    else:
        dead_plays_text = ("{Opener}'s hand is dead and the opening bet stays in the pot (F2); "
                           "the other players play on for the pot.")
        plays_complete = Leaf(
            "fo_plays_complete", _O.POT_PLAYS_OPENER_DEAD, ("F2", "F5", "F6"),
            (_M.OPENER_DEAD, _M.POT_PLAYS), fo_base, "no bets go back",
            dead_plays_text + " With the betting before the draw over, {opener} takes nothing back (F6).")
        plays_open = Leaf(
            "fo_plays_open", _O.POT_PLAYS_OPENER_DEAD, ("F2", "F5"),
            (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.POT_PLAYS), (*fo_base, "opener_bets"),
            "opener's raises go back",
            dead_plays_text + " The action before the draw was not complete, so {opener} takes back "
            "the bets made after the opening bet (F2).")
        reopened = Leaf(
            "fo_reopened", _O.REOPENED, ("F2", "F3"),
            (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.RETURN_OTHER_BETS, _M.OFFER_REOPEN, _M.REOPEN),
            (*fo_base, "opener_bets", "bets"), "bets back; reopener opens",
            "{Opener}'s hand is dead and the opening bet stays in the pot with the antes (F2). "
            "{Reopener} declares the pot open (F3) and becomes the opener: every other bet of the deal "
            "goes back and the betting starts again with {reopener}'s opening bet.")
        carries = Leaf(
            "fo_carries", _O.POT_CARRIES_OVER, ("F2", "F4"),
            (_M.OPENER_DEAD, _M.RETURN_OPENER_LATER_BETS, _M.RETURN_OTHER_BETS, _M.POT_STAYS),
            (*fo_base, "opener_bets", "bets"), "bets back but opening bet",
            "{Opener}'s hand is dead (F2). Nobody reopens, so every bet goes back except {opener}'s "
            "opening bet, which stays in the pot with the antes for the next deal; everyone in this "
            "deal may ante and play the next one (F4).")
        carries_none = Leaf(
            "fo_carries_nobody", _O.POT_CARRIES_OVER, ("F2", "F3", "F4"), carries.moves, carries.needs,
            carries.note, carries.text)

        barred_text = ("{Opener} was all in for the ante and opened without openers: the ante money "
                       "is lost and {opener} is dealt out of this pot's deals until someone else "
                       "has opened it legally and won it, even after buying more chips (F7).")
        barred_plays = Leaf(
            "fo_allin_plays", _O.ALL_IN_OPENER_BARRED, ("F7", "F5"),
            (_M.OPENER_DEAD, _M.BAR_OPENER, _M.POT_PLAYS), fo_base, "pot plays; opener barred",
            barred_text + " The others play on for the pot (F5).")
        barred_reopened = Leaf(
            "fo_allin_reopened", _O.ALL_IN_OPENER_BARRED, ("F7", "F3"),
            (_M.OPENER_DEAD, _M.BAR_OPENER, _M.RETURN_OTHER_BETS, _M.OFFER_REOPEN, _M.REOPEN),
            (*fo_base, "bets"), "reopened; opener barred",
            barred_text + " {Reopener} declares the pot open (F3): the other bets go back and the "
            "betting starts again with {reopener}'s opening bet.")
        barred_carries = Leaf(
            "fo_allin_carries", _O.ALL_IN_OPENER_BARRED, ("F7", "F4"),
            (_M.OPENER_DEAD, _M.BAR_OPENER, _M.RETURN_OTHER_BETS, _M.POT_STAYS),
            (*fo_base, "bets"), "carries over; barred",
            barred_text + " Nobody reopens, so the other bets go back and the pot stays for the next deal (F4).")
        barred_carries_none = Leaf(
            "fo_allin_carries_nobody", _O.ALL_IN_OPENER_BARRED, ("F7", "F3", "F4"), barred_carries.moves,
            barred_carries.needs, barred_carries.note, barred_carries.text)
        after = Leaf(
            "fo_after_draw", _O.POT_PLAYS_OPENER_DEAD, ("F1", "F5", "F6"),
            (_M.OPENER_DEAD, _M.POT_PLAYS), fo_base, "pot plays on",
            "{Opener}'s hand is dead: without openers it cannot win (F1). The betting before the draw "
            "was over, so the pot plays on among the others (F5) and {opener} takes nothing back (F6).")

        false_openers = found_q(
            "fo_found",
            Question(
                "fo_all_in", FACTS["opener_all_in"].question, ("opener_all_in",), _yes_no(
                    pot_plays_q("fo_allin_pot_plays", barred_plays, can_reopen_q(
                        "fo_allin_can_reopen",
                        reopener_q("fo_allin_reopener", barred_reopened, barred_carries),
                        barred_carries_none)),
                    pot_plays_q("fo_pot_plays", Question(
                        "fo_complete", FACTS["action_complete_before_draw"].question,
                        ("action_complete_before_draw",), _yes_no(plays_complete, plays_open),
                        title="Betting before the draw over?", rules=("F2", "F6")),
                        can_reopen_q("fo_can_reopen", reopener_q("fo_reopener", reopened, carries),
                                     carries_none))),
                title="Opener all in for the ante?", rules=("F7",)),
            after,
        )

    # ---- opener cannot show openers
    cs_base = ("opener",)
    proved = Leaf("cs_proved", _O.OPENER_PROVED, ("F1", "O1"), (_M.OPENER_STANDS, _M.POT_PLAYS), cs_base,
                  "the hand stands", "{Opener} has proved openers (F1); the hand stands and play goes on.")
    if p.false_openers == "foster":
        def cs_folded(lid: str, antes: bool) -> Leaf:
            moves = (_M.OPENER_DEAD, _M.OPENER_FORFEITS, *((_M.OPENER_ANTES_FOR_ALL,) if antes else ()),
                     _M.POT_STAYS)
            text = ("{Opener} cannot prove openers, so cannot take the pot even uncalled (D7); "
                    "everything {opener} put in is forfeit and the pot stays for the next deal (F9).")
            if antes:
                text += " Because others drew against the hand, {opener} antes for every other player next deal (F9)."
            return Leaf(lid, _O.FOSTER_FORFEIT, ("F9", "D7"), moves, cs_base,
                        "pot stays" + ("; antes for all" if antes else ""), text)

        def cs_best(lid: str, antes: bool) -> Leaf:
            moves = (_M.OPENER_DEAD, _M.OPENER_FORFEITS, *((_M.OPENER_ANTES_FOR_ALL,) if antes else ()),
                     _M.BEST_OTHER_WINS)
            text = ("{Opener} cannot prove openers; the hand is dead and what {opener} put in is "
                    "forfeit (F9, D7). The players who came in play for the pot (F9).")
            if antes:
                text += " Because others drew against the hand, {opener} antes for every other player next deal (F9)."
            return Leaf(lid, _O.OPENER_DEAD_BEST_OTHER_WINS, ("F9", "D7", "H5", "H6"), moves,
                        (*cs_base, "hands"), "best other" + ("; antes for all" if antes else ""),
                        text)

        def drawn_q(qid: str, yes: Node, no: Node) -> Question:
            return Question(qid, FACTS["drawn_to"].question, ("drawn_to",), _yes_no(yes, no),
                            title="Drawn to?", rules=("F9",))

        not_proved: Node = Question(
            "cs_folded", FACTS["everyone_folded"].question, ("everyone_folded",), _yes_no(
                drawn_q("cs_folded_drawn_to", cs_folded("cs_forfeit_drawn", True), cs_folded("cs_forfeit", False)),
                drawn_q("cs_showdown_drawn_to", cs_best("cs_best_drawn", True), cs_best("cs_best", False))),
            title="Everyone else folded?", rules=("F9",))
    else:
        stays_text = ("{Opener} cannot prove openers and so cannot win the pot, even though everyone "
                      "else folded (F1). The pot stays for the next deal (F8).")
        not_proved = Question(
            "cs_folded", FACTS["everyone_folded"].question, ("everyone_folded",), _yes_no(
                # F7: found at the show or found before the draw, an all-in false opener is barred
                Question("cs_all_in", FACTS["opener_all_in"].question, ("opener_all_in",), _yes_no(
                    Leaf("cs_pot_stays_barred", _O.OPENER_DEAD_POT_STAYS, ("F1", "F8", "F7"),
                         (_M.OPENER_DEAD, _M.BAR_OPENER, _M.POT_STAYS), cs_base, "pot stays; opener barred",
                         stays_text + " {Opener} was all in for the ante and opened without openers: "
                         "the ante money is lost and {opener} is dealt out of this pot's deals until "
                         "someone else has opened it legally and won it, even after buying more chips (F7)."),
                    Leaf("cs_pot_stays", _O.OPENER_DEAD_POT_STAYS, ("F1", "F8"), (_M.OPENER_DEAD, _M.POT_STAYS),
                         cs_base, "pot stays for next deal", stays_text)),
                    derive=_all_in_at_show, title="Opener all in for the ante?", rules=("F7",),
                    when_known=("opener_all_in",)),
                Leaf("cs_best_other", _O.OPENER_DEAD_BEST_OTHER_WINS, ("F1", "F8", "H5", "H6"),
                     (_M.OPENER_DEAD, _M.BEST_OTHER_WINS), (*cs_base, "hands"), "best other hand wins",
                     "{Opener} cannot prove openers, so {opener}'s hand is dead (F1); the best of the "
                     "other hands shown takes the pot (F8).")),
            title="Everyone else folded?", rules=("F8",))
    cannot_show = Question(
        "cs_shows", "Do the cards the opener shows prove openers: the opening hand itself, or cards of "
        "the final hand the opener kept (with any escrow)?",
        ("opening_hand", "final_hand", "drawn", "discards", *req), _yes_no(proved, not_proved),
        derive=checks["shows_openers"], title="Opener proves openers?", rules=("F1", "O1", "F12"),
        when_known=("opening_hand", "final_hand", "discards"))

    # ---- split openers
    sp_base = ("opener",)
    verified = Leaf("sp_verified", _O.SPLIT_VERIFIED, ("S1", "S2"), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                    "opener may win the pot",
                    "{Opener} split openers and the cards prove that the hand held openers (S1, S2); "
                    "the hand stands.")
    failed = Leaf("sp_failed", _O.SPLIT_FAILED, ("S1", "S2"), (_M.OPENER_DEAD, _M.POT_PLAYS), sp_base,
                  "opener loses the pot",
                  "{Opener} split openers but could not have held openers, so {opener} loses the pot "
                  "(S2); it goes to the best other live hand.")
    split = Question(
        "sp_known", "Is the opener's hand before the draw known?", ("opening_hand",), _yes_no(
            Question("sp_kept", "Do the cards the opener kept still hold openers?",
                     ("opening_hand", "discards", *req), _yes_no(
                         Leaf("sp_not_splitting", _O.NOT_SPLITTING, ("S3",), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                              "no split to prove",
                              "{Opener} kept openers after the discard, so this is not splitting "
                              "openers (S3); nothing more needs proving and the hand stands."),
                         Question("sp_opening_qualifies", "Did the hand before the draw hold openers?",
                                  ("opening_hand", *req), _yes_no(verified, failed),
                                  derive=checks["opening_qualifies"], title="Opening hand qualifies?",
                                  rules=("O1", "S2"))),
                     derive=checks["kept"], title="Kept openers?", rules=("S3",)),
            Question("sp_could_have", "Could some cards of the final hand, with the escrowed discards, "
                     "have made openers?", ("final_hand", "discards", "drawn", *req), _yes_no(
                         Leaf("sp_verified_escrow", _O.SPLIT_VERIFIED, ("S1", "S2"), (_M.OPENER_STANDS, _M.POT_PLAYS), sp_base,
                              verified.note, verified.text),
                         Leaf("sp_failed_escrow", _O.SPLIT_FAILED, ("S1", "S2"), (_M.OPENER_DEAD, _M.POT_PLAYS),
                              sp_base, failed.note, failed.text)),
                     derive=checks["could_have"], title="Final hand + discards could open?",
                     rules=("S1", "S2"), when_known=("drawn",))),
        derive=checks["opening_known"], title="Opening hand known?", rules=("F12",), when_known=("opening_hand",))

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

    # ---- retrieving discards
    rd_base = ("opener",)
    retrieved = Leaf("rd_retrieved", _O.DISCARDS_RETRIEVED, ("F11",), (_M.POT_PLAYS,), rd_base, "discards come back",
                     "{Opener}'s discards are taken back from the discard pile so that openers can be "
                     "proved (F11).")
    refused = Leaf("rd_refused", _O.RETRIEVAL_REFUSED, ("F11",), (_M.POT_PLAYS,), rd_base, "no retrieval",
                   "{Opener}'s discards are not taken back (F11); openers must be proved from the cards "
                   "in hand and any escrowed split.")
    if p.discard_retrieval == "always":
        retrieval: Node = Leaf(retrieved.id, retrieved.outcome, retrieved.rules, (_M.POT_PLAYS,), rd_base,
                               "house rule: always", retrieved.text)
    elif p.discard_retrieval == "never":
        retrieval = Leaf(refused.id, refused.outcome, refused.rules, (_M.POT_PLAYS,), rd_base, "house rule: never",
                         refused.text)
    else:
        retrieval = Question("rd_allowed", FACTS["retrieval_allowed"].question, ("retrieval_allowed",),
                             _yes_no(retrieved, refused), title="Floor allows retrieval?", rules=("F11",))

    # ---- a caller who wants the bet back
    refund = Leaf("cr_not_refunded", _O.CALLER_NOT_REFUNDED, ("F10",), (_M.POT_PLAYS,), ("seat",), "the call stays in",
                  "{Seat} called the opener's bet after the draw and cannot get it back, even if "
                  "{seat} cannot beat openers: seeing the opener's hand was the price of the call (F10).")

    root = Question(
        "issue", FACTS["issue"].question, ("issue",), tuple(
            Branch(issue.value, label, node) for issue, label, node in zip(
                Issue, _ISSUE_SHORT, (false_openers, cannot_show, split, wrong_count, retrieval, refund))),
        title="What is the dispute about?")
    return Tree(f"Floor decision tree, profile {p.name}", root, FACTS)


# --------------------------------------------------------------------------- the ruling


@dataclass(frozen=True)
class Ruling:
    """A floor ruling: the outcome, the path taken, the rules cited and the chip movements.

    ``returns`` maps seats to chips handed back from the pot. ``winners`` lists the seats that
    share the pot when the best other hand is tied (``winner`` is then null). ``reopener`` names
    the seat that declared the pot open again, ``opener`` the seat that opened, ``issue`` the
    dispute, ``leaf`` the tree's leaf id.
    """

    outcome: Outcome
    profile: str
    path: tuple[Step, ...]
    citations: tuple[str, ...]
    summary: str
    dead: tuple[int, ...] = ()
    returns: dict[int, int] = field(default_factory=dict)
    pot_plays: bool = False
    may_reopen: tuple[int, ...] = ()
    barred: tuple[int, ...] = ()
    ante_for_all: int | None = None
    winner: int | None = None
    winners: tuple[int, ...] = ()
    best_hand, foul = "", ()
    reopener: int | None = None
    opener: int | None = None
    issue: str = ""
    leaf: str = ""
    proved: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (the stored record); ``returns`` keys stay ints.

        >>> r = resolve({"issue": "caller_refund", "seat": 5})
        >>> d = r.to_dict()
        >>> d["outcome"], d["citations"], d["path"][0]["answer"]
        ('CALLER_NOT_REFUNDED', ['F10'], 'caller_refund')
        >>> Ruling.from_dict(d) == r
        True
        """
        return {
            "outcome": self.outcome.value,
            "profile": self.profile,
            "path": [s.to_dict() for s in self.path],
            "citations": list(self.citations),
            "dead": list(self.dead),
            "returns": dict(self.returns),
            "pot_plays": self.pot_plays,
            "may_reopen": list(self.may_reopen),
            "barred": list(self.barred),
            "ante_for_all": self.ante_for_all,
            "winner": self.winner,
            "winners": list(self.winners),
            "reopener": self.reopener,
            "opener": self.opener,
            "proved": self.proved,
            "summary": self.summary,
            "issue": self.issue,
            "leaf": self.leaf,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Ruling":
        """A ruling from its stored record (seat keys may be strings, as JSON gives them back)."""

        def opt(value: Any) -> int | None:
            return None if value is None else int(value)

        return cls(
            outcome=Outcome(data["outcome"]),
            profile=data["profile"],
            path=tuple(Step.from_dict(s) for s in data.get("path", ())),
            citations=tuple(data.get("citations", ())),
            summary=data.get("summary", ""),
            dead=tuple(int(s) for s in data.get("dead", ())),
            returns={int(k): int(v) for k, v in data.get("returns", {}).items()},
            pot_plays=bool(data.get("pot_plays", False)),
            may_reopen=tuple(int(s) for s in data.get("may_reopen", ())),
            barred=tuple(int(s) for s in data.get("barred", ())),
            ante_for_all=opt(data.get("ante_for_all")),
            winner=opt(data.get("winner")),
            winners=tuple(int(s) for s in data.get("winners", ())),
            reopener=opt(data.get("reopener")),
            opener=opt(data.get("opener")),
            proved=opt(data.get("proved")),
            issue=data.get("issue", ""),
            leaf=data.get("leaf", ""),
        )


def _hand_size(cards: Any) -> int:
    if isinstance(cards, str):
        return len([t for t in re.split(r"[\s,]+", cards) if t])
    return len(list(cards))


def _best_other(f: Facts, opener: int, prof: Profile) -> tuple[tuple[int, ...], str, tuple[int, ...]]:
    """Seats holding the best live hand other than the opener's (more than one on an exact tie),
    that hand described in words, and the foul hands passed over (H6)."""
    from rules.hands import evaluate

    others = {s: c for s, c in f["hands"].items() if s != opener}
    if not others:
        raise RulesError("hands: no hand other than the opener's was shown; if everyone else folded, "
                         "answer everyone_folded: yes")
    foul = tuple(sorted(s for s, c in others.items() if _hand_size(c) != 5))
    live = {s: evaluate(_cards(c), prof.wild, prof.southern_hands)
            for s, c in others.items() if s not in foul}
    if not live:
        raise RulesError("hands: every other hand shown is foul (not five cards); nobody can take the "
                         "pot at this showdown")
    best = max(live.values())
    return tuple(sorted(s for s, v in live.items() if v == best)), best.describe(), foul


def _other_bets(f: Facts, opener: int) -> dict[int, int]:
    bets = dict(f["bets"])
    if opener in bets:
        # Tolerated only when it repeats what opener_bets says (an engine may list every seat).
        expected = sum(f["opener_bets"]) if "opener_bets" in f else 0
        if bets[opener] != expected:
            raise RulesError("bets: list the other players' bets only; the opener's bets go in opener_bets")
        del bets[opener]
    return bets


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def resolve(facts: Mapping[str, Any], profile: str | Profile | Mapping[str, Any] = "cardroom") -> Ruling:
    """Walk the profile's tree with ``facts`` and return the ruling.

    Raises :class:`rules.MissingFact` naming the first fact the path needs and ``facts`` lacks,
    :class:`rules.IllegalAction` for an answer the rules forbid (a reopener who passed), and
    :class:`rules.RulesError` for a value that cannot be read.

    >>> r = resolve({"issue": "false_openers", "found": "before_draw", "opener": 2,
    ...              "opener_all_in": False, "action_complete_before_draw": False,
    ...              "raise_before_draw": False, "callers": 1, "active": [1, 2, 4],
    ...              "passed": [1], "reopener": None, "opener_bets": [10], "bets": {"4": 10}})
    >>> r.outcome.value, r.returns, r.pot_plays, r.citations
    ('POT_CARRIES_OVER', {4: 10}, False, ('F2', 'F4'))
    """
    prof = get_profile(profile)
    tree = build_tree(prof)
    walk = tree.walk(facts)
    leaf, f = walk.leaf, walk.facts
    moves = set(leaf.moves)

    opener: int | None = f["opener"] if "opener" in leaf.needs else None
    seat: int | None = f["seat"] if "seat" in leaf.needs else None
    dead: list[int] = []
    returns: dict[int, int] = {}
    pot_plays = _M.POT_PLAYS in moves
    may_reopen: tuple[int, ...] = ()
    barred: list[int] = []
    ante_for_all: int | None = None
    winners: tuple[int, ...] = ()
    best_hand: str = ""
    foul: tuple[int, ...] = ()
    reopener: int | None = None

    def give(s: int, chips: int) -> None:
        if chips > 0:
            returns[s] = returns.get(s, 0) + chips

    if _M.OPENER_DEAD in moves and opener is not None:
        dead.append(opener)
    if _M.SEAT_DEAD in moves and seat is not None:
        dead.append(seat)
    if _M.RETURN_OPENER_LATER_BETS in moves and opener is not None:
        give(opener, sum(f["opener_bets"][1:]))
    if _M.RETURN_OTHER_BETS in moves and opener is not None:
        for s, chips in sorted(_other_bets(f, opener).items()):
            give(s, chips)
    if _M.OFFER_REOPEN in moves:
        may_reopen = eligible_reopeners(f)
    if _M.REOPEN in moves:
        reopener = f["reopener"]
        pot_plays = True
    if _M.BAR_OPENER in moves and opener is not None:
        barred.append(opener)
    if _M.OPENER_ANTES_FOR_ALL in moves:
        ante_for_all = opener
    proved = opener if _M.OPENER_STANDS in moves else None
    if _M.BEST_OTHER_WINS in moves and opener is not None:
        winners, best_hand, foul = _best_other(f, opener, prof)
        pot_plays = True

    if leaf.outcome == _O.CARD_COUNT_CORRECTED or leaf.outcome == _O.HAND_DEAD_CARD_COUNT:
        if f["card_count"] == 5:
            raise RulesError("card_count: a hand of five cards is the right size; there is nothing to rule")

    # ---- the summary a floor person reads aloud
    words = {
        "Opener": _sentence(_who(opener)) if opener is not None else "The opener",
        "opener": _who(opener) if opener is not None else "the opener",
        "Seat": _sentence(_who(seat)) if seat is not None else "The player",
        "seat": _who(seat) if seat is not None else "the player",
        "Reopener": _sentence(_who(reopener)) if reopener is not None else "",
        "reopener": _who(reopener) if reopener is not None else "",
        "count": str(f["card_count"]) if "card_count" in leaf.needs else "",
    }
    intro = _intro(f, leaf, words)
    details = [s.detail for s in walk.steps if s.detail]
    body = leaf.text.format(**words)
    tail: list[str] = []
    if winners:
        names = _seats_text(winners)
        if foul:
            tail.append(f"{_sentence(_seats_text(foul))} cannot win: not five cards (H6).")
        else:
            tail.append("Every hand compared holds five cards (H6).")
        if len(winners) == 1:
            tail.append(f"The best of the other hands is {names}'s, {best_hand}, which takes the pot (H5).")
        else:
            tail.append(f"{_sentence(names)} tie with {best_hand} and split the pot (H5).")
    if returns:
        back = ", ".join(f"seat {s} gets {c}" for s, c in sorted(returns.items()))
        tail.append(f"Handed back from the pot: {back}.")
    elif {_M.RETURN_OTHER_BETS, _M.RETURN_OPENER_LATER_BETS} & moves:
        tail.append("No bets need handing back.")
    summary = " ".join(x for x in (intro, *details, body, *tail) if x)

    citations = tuple(dict.fromkeys(leaf.rules))
    return Ruling(
        outcome=Outcome(leaf.outcome),
        profile=prof.name,
        path=walk.steps,
        citations=citations,
        summary=summary,
        dead=tuple(dead),
        returns=returns,
        pot_plays=pot_plays,
        may_reopen=may_reopen,
        barred=tuple(barred),
        ante_for_all=ante_for_all,
        winner=winners[0] if len(winners) == 1 else None,
        winners=winners,
        reopener=reopener,
        opener=opener,
        issue=str(f["issue"]),
        leaf=leaf.id,
        proved=proved,
    )


def _intro(f: Facts, leaf: Leaf, words: Mapping[str, str]) -> str:
    issue = f["issue"]
    if issue == Issue.FALSE_OPENERS.value:
        when = "before the draw" if f["found"] == "before_draw" else "after the draw"
        return f"{words['Opener']} opened without openers, and it came to light {when}."
    if issue == Issue.OPENER_CANNOT_SHOW.value:
        return f"{words['Opener']} opened the pot and is asked to show openers."
    if issue == Issue.SPLIT_OPENERS.value:
        return f"{words['Opener']} opened and discarded part of the opening cards."
    if issue == Issue.WRONG_CARD_COUNT.value:
        when = "before the draw" if f["found"] == "before_draw" else "after the draw"
        return f"{words['Seat']} holds {words['count']} cards instead of five, found {when}."
    if issue == Issue.DISCARD_RETRIEVAL.value:
        return f"{words['Opener']} asks for the discards back to prove openers."
    return ""


def questions_for(
    facts: Mapping[str, Any], profile: str | Profile | Mapping[str, Any] = "cardroom"
) -> Prompt | None:
    """The next question the floor page should ask, given the facts so far; None when the tree
    can rule. The prompt names the fact, its question, the kind of answer and the allowed choices
    (for a reopener: the eligible seats and nobody).

    >>> p = questions_for({"issue": "false_openers", "found": "before_draw", "opener": 3,
    ...     "opener_all_in": False, "action_complete_before_draw": False, "raise_before_draw": False,
    ...     "callers": 1, "active": [1, 3, 4, 6], "passed": [1]})
    >>> p.fact, p.kind, p.choices
    ('reopener', 'seat_or_none', (4, 6, None))
    >>> questions_for({"issue": "caller_refund", "seat": 4}) is None
    True
    """
    return build_tree(get_profile(profile)).prompt(facts)

