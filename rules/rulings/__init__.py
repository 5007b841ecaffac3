"""The floor decision tree: ``resolve(facts, profile) -> Ruling``.

A floor person settles a dispute by answering the tree's questions; most answers come straight
from the logged hand. The tree is data (:mod:`rules.rulings.tree`): question nodes, some of them derived
from named facts, and outcome leaves that cite the rule ids of the catalogue
(:mod:`rules.catalogue`) and list chip movements from a small vocabulary (:class:`Move`).
:func:`build_tree` builds it for a profile, so a house rule changes the tree's shape, and the
printed tree shows the reading the table plays. One builder per dispute, in modules named for
the rules they hold:

- :mod:`rules.rulings.false_openers`  false openers (F2-F7, F9) and a caller's refund (F10)
- :mod:`rules.rulings.proving`        an opener asked to show openers (F1, F7, F8, F12), split openers
  (S1-S3), retrieving discards (F11)
- :mod:`rules.rulings.card_count`     a hand of the wrong size (H6, D8), a card exposed in the draw (D12)
- :mod:`rules.rulings.showdown`       who shows first at the showdown (D6)

Each kind of dispute is declared once, beside its branch (:class:`rules.rulings.facts.DisputeKind`),
and listed in :data:`DISPUTES`; the fact ``issue``, :class:`Issue` and :data:`FACTS` are derived.
- :mod:`rules.rulings.facts`          the facts the tree asks; :mod:`rules.rulings.outcomes` its outcome codes
- :mod:`rules.rulings.awards`         what a leaf's moves do at the table: dead hands, chips handed back, who wins

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

import functools
from enum import StrEnum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules import RulesError, parse
import rules.rulings.card_count as card_count
import rules.rulings.facts as shared
import rules.rulings.false_openers as false_openers
import rules.rulings.proving as proving
import rules.rulings.showdown as showdown
from rules.rulings.awards import Awards, awards
from rules.rulings.facts import DisputeKind, cards, eligible_reopeners, seats_text, who
from rules.rulings.outcomes import Move, Outcome
from rules.profiles import Profile, get_profile
from rules.rulings.proving import hand_rules_of
from rules.rulings.tree import Branch, Facts, FactSpec, Leaf, Prompt, Question, Step, Tree, Walk

__all__ = [
    "Outcome",
    "Move",
    "Issue",
    "DisputeKind",
    "DISPUTES",
    "DISPUTE_KINDS",
    "Ruling",
    "FACTS",
    "resolve",
    "build_tree",
    "questions_for",
    "eligible_reopeners",
]


#: Every kind of dispute, in the order the tree's first question lists them; each is declared once,
#: beside its branch (:class:`rules.rulings.facts.DisputeKind`). A new kind is its module and a line here.
DISPUTES: tuple[DisputeKind, ...] = (
    false_openers.FALSE_OPENERS, proving.OPENER_CANNOT_SHOW, proving.SPLIT_OPENERS, card_count.WRONG_CARD_COUNT,
    proving.DISCARD_RETRIEVAL, false_openers.CALLER_REFUND, card_count.EXPOSED_CARD, showdown.SHOW_ORDER,
)
DISPUTE_KINDS: dict[str, DisputeKind] = {k.issue: k for k in DISPUTES}
#: What a dispute is about: the answers of the tree's first question (derived from :data:`DISPUTES`).
Issue = StrEnum("Issue", [(k.issue.upper(), k.issue) for k in DISPUTES])  # type: ignore[misc]
#: Every fact the tree may ask: the dispute's kind first, the facts several kinds share, then each
#: kind's own.
FACTS: dict[str, FactSpec] = {
    "issue": FactSpec("issue", "What is the dispute about?", "choice", tuple(k.issue for k in DISPUTES),
                      tuple(k.label for k in DISPUTES), title="The dispute"),
    **shared.FACTS,
    **{spec.name: spec for k in DISPUTES for spec in k.facts},
}


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
    root = Question(
        "issue", FACTS["issue"].question, ("issue",), tuple(Branch(k.issue, k.short, k.node(p)) for k in DISPUTES),
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
    ante_again: bool = False
    showdown_only: bool = False

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
            "ante_again": self.ante_again,
            "showdown_only": self.showdown_only,
            "summary": self.summary,
            "issue": self.issue,
            "leaf": self.leaf,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Ruling":
        """A ruling from its stored record or a client's JSON, typed once: seats and chips read by
        :mod:`rules.parse` (seat keys may be strings, as JSON gives them back), the outcome one of
        the codes. Raises :class:`rules.RulesError` naming the field that cannot be read.

        >>> Ruling.from_dict({"outcome": "HAND_DEAD_CARD_COUNT", "dead": ["3"], "pot_plays": True}).dead
        (3,)
        >>> Ruling.from_dict({"outcome": "X"})
        Traceback (most recent call last):
        ...
        rules.RulesError: outcome: 'X' is not an outcome code
        """
        if not isinstance(data, Mapping):
            raise RulesError("a ruling is a JSON object of its fields")
        try:
            outcome = Outcome(str(data.get("outcome")))
        except ValueError:
            raise RulesError(f"outcome: {data.get('outcome')!r} is not an outcome code") from None
        r = _Record(data)
        returns = r.returns()
        path, citations = r.path_and_citations()
        return cls(
            outcome=outcome,
            profile=str(data.get("profile") or ""),
            path=path,
            citations=citations,
            summary=str(data.get("summary") or ""),
            dead=r.seats("dead"),
            returns=returns,
            pot_plays=r.flag("pot_plays"),
            may_reopen=r.seats("may_reopen"),
            barred=r.seats("barred"),
            ante_for_all=r.one("ante_for_all"),
            winner=r.one("winner"),
            winners=r.seats("winners"),
            reopener=r.one("reopener"),
            opener=r.one("opener"),
            issue=str(data.get("issue") or ""),
            leaf=str(data.get("leaf") or ""),
            proved=r.one("proved"),
            ante_again=r.flag("ante_again"),
            showdown_only=r.flag("showdown_only"),
        )


@dataclass(frozen=True)
class _Record:
    """A stored ruling's fields read one by one, each refusal naming its field."""

    data: Mapping[str, Any]

    def seats(self, key: str) -> tuple[int, ...]:
        """A list of seats (the dead, the barred, the winners...)."""
        raw = self.data.get(key) or ()
        if isinstance(raw, (str, bytes)) or not isinstance(raw, (list, tuple)):
            raise RulesError(f"{key}: a list of seats, not {raw!r}")
        return tuple(parse.seat(x, key, RulesError) for x in raw)

    def one(self, key: str) -> int | None:
        """One seat, or nobody."""
        value = self.data.get(key)
        return None if value is None else parse.seat(value, key, RulesError)

    def flag(self, key: str) -> bool:
        """True or false, never a string that reads as one."""
        value = self.data.get(key, False)
        if not isinstance(value, bool):
            raise RulesError(f"{key}: true or false, not {value!r}")
        return value

    def returns(self) -> dict[int, int]:
        """The chips handed back from the pot, by seat."""
        returns_raw = self.data.get("returns") or {}
        if not isinstance(returns_raw, Mapping):
            raise RulesError("returns: maps seats to the chips handed back")
        return {parse.seat(k, "returns", RulesError): parse.chips(v, f"returns of seat {k}", error=RulesError)
                for k, v in returns_raw.items()}

    def path_and_citations(self) -> tuple[tuple[Step, ...], tuple[str, ...]]:
        """The path walked through the tree and the rule ids cited."""
        path = self.data.get("path") or ()
        citations = self.data.get("citations") or ()
        if not isinstance(path, (list, tuple)) or not all(isinstance(p, Mapping) for p in path):
            raise RulesError("path: a list of steps")
        if not isinstance(citations, (list, tuple)) or not all(isinstance(c, str) for c in citations):
            raise RulesError("citations: a list of rule ids")
        return tuple(Step.from_dict(p) for p in path), tuple(citations)


def _sentence(text: str) -> str:
    """A name or a clause at the start of a sentence."""
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
    walk = build_tree(prof).walk(facts)
    leaf, f = walk.leaf, walk.facts
    a = awards(leaf, f, prof)
    if leaf.outcome == Outcome.CARD_COUNT_CORRECTED or leaf.outcome == Outcome.HAND_DEAD_CARD_COUNT:
        if f["card_count"] == 5:
            raise RulesError("card_count: a hand of five cards is the right size; there is nothing to rule")
    return Ruling(
        outcome=Outcome(leaf.outcome),
        profile=prof.name,
        path=walk.steps,
        citations=tuple(dict.fromkeys(leaf.rules)),
        summary=_summary(walk, a),
        dead=a.dead,
        returns=a.returns,
        pot_plays=a.pot_plays,
        may_reopen=a.may_reopen,
        barred=a.barred,
        ante_for_all=a.ante_for_all,
        winner=a.winners[0] if len(a.winners) == 1 else None,
        winners=a.winners,
        reopener=a.reopener,
        opener=a.opener,
        issue=str(f["issue"]),
        leaf=leaf.id,
        proved=a.proved,
        ante_again=a.ante_again,
        showdown_only=a.showdown_only,
    )


def _summary(walk: Walk, a: Awards) -> str:
    """The ruling as a floor person reads it aloud: what happened, the path's findings, the leaf's
    text with the players named, then who wins and what is handed back."""
    leaf, f = walk.leaf, walk.facts
    words = _names(f, leaf, a)
    intro = _intro(f, leaf, words)
    details = [s.detail for s in walk.steps if s.detail]
    body = leaf.text.format(**words)
    tail = _best_other_words(a)
    if a.returns:
        back = ", ".join(f"seat {s} gets {c}" for s, c in sorted(a.returns.items()))
        tail.append(f"Handed back from the pot: {back}.")
    elif {Move.RETURN_OTHER_BETS, Move.RETURN_OPENER_LATER_BETS} & set(leaf.moves):
        tail.append("No bets need handing back.")
    return " ".join(x for x in (intro, *details, body, *tail) if x)


def _names(f: Facts, leaf: Leaf, a: Awards) -> dict[str, str]:
    """The words a leaf's text and a dispute's intro fill in: the opener, the seat concerned, the
    reopener (each at the start of a sentence or within one), the card count, when it came to light."""
    return {
        "Opener": _sentence(who(a.opener)) if a.opener is not None else "The opener",
        "opener": who(a.opener) if a.opener is not None else "the opener",
        "Seat": _sentence(who(a.seat)) if a.seat is not None else "The player",
        "seat": who(a.seat) if a.seat is not None else "the player",
        "Reopener": _sentence(who(a.reopener)) if a.reopener is not None else "",
        "reopener": who(a.reopener) if a.reopener is not None else "",
        "count": str(f["card_count"]) if "card_count" in leaf.needs else "",
        "when": ("before the draw" if f["found"] == "before_draw" else "after the draw") if "found" in f else "",
    }


def _best_other_words(a: Awards) -> list[str]:
    """Who takes the pot when the best other live hand wins: the foul hands passed over (H6), the
    one live hand left taking it unshown (D7), the best hand (H5) or a tie that splits it (H5)."""
    if not a.winners:
        return []
    names = seats_text(a.winners)
    tail = [f"{_sentence(seats_text(a.foul))} cannot win: not five cards (H6)." if a.foul
            else "Every hand compared holds five cards (H6)."]
    if len(a.winners) == 1 and not a.best_hand:
        tail[-1] = (f"{_sentence(names)} holds the only other live hand and takes the pot uncontested, "
                    "without showing (D7).")
    elif len(a.winners) == 1:
        tail.append(f"The best of the other hands is {names}'s, {a.best_hand}, which takes the pot (H5).")
    else:
        tail.append(f"{_sentence(names)} tie with {a.best_hand} and split the pot (H5).")
    return tail


def _intro(f: Facts, leaf: Leaf, words: Mapping[str, str]) -> str:
    """The ruling's first sentence, as the dispute's kind words it."""
    kind = DISPUTE_KINDS.get(str(f["issue"]))
    return kind.intro.format(**words) if kind is not None else ""


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

