"""A small decision-tree structure: question nodes, outcome leaves, walking and printing.

The floor's decision tree (:mod:`rules.rulings`) is built from these pieces (and drawn by
:mod:`rules.rulings.tree_drawing`); nothing here knows
about poker. A :class:`Question` asks one thing. Either it asks a fact directly (its answer is the
fact's value) or it is *derived*: a function computes the answer from named facts. A :class:`Leaf`
ends a walk with an outcome code, the rule ids it rests on and a list of movement words that the
caller interprets.

Facts are read through :class:`Facts`, which parses each raw value with its :class:`FactSpec` and
raises :class:`rules.MissingFact` (naming the fact and the question to ask) for a fact that was not
given. A derived question may read only the facts it declares.

>>> spec = {"colour": FactSpec("colour", "Which colour is the light?", "choice", ("red", "green"))}
>>> go, stop = Leaf("go", "GO", ("R1",)), Leaf("stop", "STOP", ("R2",))
>>> root = Question("light", "Which colour is the light?", ("colour",),
...                 (Branch("red", "red", stop), Branch("green", "green", go)))
>>> tree = Tree("Crossing", root, spec)
>>> walk = tree.walk({"colour": "green"})
>>> walk.leaf.outcome, [(s.node, s.answer) for s in walk.steps]
('GO', [('light', 'green')])
>>> tree.walk({})
Traceback (most recent call last):
...
rules.MissingFact: missing fact: colour
>>> print(tree.to_text())
Crossing
? Which colour is the light?  [colour]
  - red:
    => STOP  (R2)
  - green:
    => GO  (R1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from rules import IllegalAction, MissingFact, RulesError, parse

__all__ = [
    "FactSpec",
    "Facts",
    "Question",
    "Branch",
    "Leaf",
    "Node",
    "Step",
    "Walk",
    "Prompt",
    "Tree",
    "KINDS",
]

#: The kinds of answer a fact takes (the floor page picks its input from the kind).
KINDS = (
    "choice",  # one of FactSpec.choices
    "bool",  # yes / no
    "seat",  # a seat number
    "seat_or_none",  # a seat number, or nobody
    "seats",  # a list of seat numbers
    "count",  # a whole number, 0 or more
    "count_or_none",  # a whole number, or not known
    "chips",  # a list of chip amounts, in order
    "bets",  # seat -> chips
    "cards",  # cards in text or as a list
    "cards_or_none",  # cards, or not known
    "hands",  # seat -> cards
    "declarations",  # seat -> a hand's class as declared ("two_pair"), where cards do not speak (H9)
)

_TRUE = {"yes", "y", "true", "1", "on"}
_FALSE = {"no", "n", "false", "0", "off"}
_NONE = {"", "none", "null", "nobody", "unknown"}


#: The most seats at a table (``rules.jackpot.seating.MOST_SEATS``; not imported, so that the tree stays
#: free of the table's modules; tests/test_people_forms.py checks that the two agree).
SEATS_MOST = 10
#: A generous ceiling on any number of chips in a fact: it stops a typo of extra zeros.
CHIPS_MOST = 10_000_000


def _seat(name: str, value: Any) -> int:
    number = parse.seat(value, name, RulesError)
    if number > SEATS_MOST:
        raise RulesError(f"{name}: seats are numbered 1 to {SEATS_MOST}, not {number}")
    return number


def _chips(name: str, value: Any, most: int = CHIPS_MOST, why: str = "") -> int:
    number = parse.chips(value, name, error=RulesError)
    if number > most:
        raise RulesError(f"{name}: {why or 'at most %s' % f'{most:,}'}, not {number:,}")
    return number


def _count(spec: "FactSpec", value: Any) -> int:
    """A count fact (cards in a hand, callers): bounded by the fact's own ``most``."""
    return _chips(spec.name, value, spec.most if spec.most is not None else CHIPS_MOST, spec.most_why)


def _is_none(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in _NONE)


def _yes_no(name: str, value: Any) -> bool:
    """A yes-or-no answer: a boolean, or a word for one (yes, no, true, off...)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise RulesError(f"{name}: must be yes or no (true or false), not {value!r}")


def parse_value(spec: "FactSpec", value: Any) -> Any:
    """Normalise a raw answer by the fact's kind; raise :class:`rules.RulesError` naming the fact.

    >>> parse_value(FactSpec("seat", "Which seat?", "seat"), "3")
    3
    >>> parse_value(FactSpec("bets", "Bets?", "bets"), {"2": 10, 5: "20"})
    {2: 10, 5: 20}
    >>> parse_value(FactSpec("ok", "Is it?", "bool"), "yes")
    True
    >>> parse_value(FactSpec("found", "When?", "choice", ("before_draw", "after_draw")), "later")
    Traceback (most recent call last):
    ...
    rules.RulesError: found: must be one of before_draw, after_draw, not 'later'
    """
    name, kind = spec.name, spec.kind
    if kind == "choice":
        if value not in spec.choices:
            raise RulesError(f"{name}: must be one of {', '.join(spec.choices)}, not {value!r}")
        return value
    if kind == "bool":
        return _yes_no(name, value)
    if kind == "seat":
        return _seat(name, value)
    if kind == "seat_or_none":
        return None if _is_none(value) else _seat(name, value)
    if kind == "seats":
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise RulesError(f"{name}: must be a list of seats, not {value!r}")
        return tuple(_seat(name, v) for v in value)
    if kind == "count":
        return _count(spec, value)
    if kind == "count_or_none":
        return None if _is_none(value) else _count(spec, value)
    if kind == "chips":
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise RulesError(f"{name}: must be a list of chip amounts, not {value!r}")
        return tuple(_chips(name, v) for v in value)
    if kind == "bets":
        if not isinstance(value, Mapping):
            raise RulesError(f"{name}: must map seats to chips, not {value!r}")
        return {_seat(name, k): _chips(name, v) for k, v in value.items()}
    if kind == "cards":
        if _is_none(value):
            raise RulesError(f"{name}: cards are needed here")
        return value
    if kind == "cards_or_none":
        return None if _is_none(value) else value
    if kind == "hands":
        if not isinstance(value, Mapping):
            raise RulesError(f"{name}: must map seats to cards, not {value!r}")
        return {_seat(name, k): v for k, v in value.items()}
    if kind == "declarations":
        if not isinstance(value, Mapping):
            raise RulesError(f"{name}: must map seats to the hands declared ('3: two pair'), not {value!r}")
        return {_seat(name, k): str(v).strip().lower().replace(" ", "_").replace("-", "_")
                for k, v in value.items() if not _is_none(v)}
    raise RulesError(f"{name}: unknown kind of fact {kind!r}")


@dataclass(frozen=True)
class FactSpec:
    """One fact a tree may need: its name, the question that asks it, the kind of answer."""

    name: str
    question: str
    kind: str = "choice"
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()  # how each choice reads, same order as ``choices``
    title: str = ""  # the fact in a few words, for a printed list of facts ("Opener", "Found")
    most: int | None = None  # the largest count that can be true (a count fact), and why
    most_why: str = ""

    def parse(self, value: Any) -> Any:
        """The value normalised by its kind (see :func:`parse_value`)."""
        return parse_value(self, value)


class Facts:
    """Read-only access to the caller's facts, parsed once, missing ones raising MissingFact.

    >>> specs = {"seat": FactSpec("seat", "Which seat?", "seat")}
    >>> f = Facts({"seat": "4"}, specs)
    >>> f["seat"], "seat" in f
    (4, True)
    >>> Facts({}, specs)["seat"]
    Traceback (most recent call last):
    ...
    rules.MissingFact: missing fact: seat
    """

    def __init__(
        self,
        raw: Mapping[str, Any],
        specs: Mapping[str, FactSpec],
        allowed: frozenset[str] | None = None,
        _cache: dict[str, Any] | None = None,
        ask_unknown: bool = False,
    ) -> None:
        self._raw = raw
        self._specs = specs
        self._allowed = allowed
        self._cache: dict[str, Any] = {} if _cache is None else _cache
        self._ask_unknown = ask_unknown

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._raw

    def __getitem__(self, name: str) -> Any:
        if self._allowed is not None and name not in self._allowed:
            raise AssertionError(f"the tree read fact {name!r} without declaring it")
        if name in self._cache:
            return self._cache[name]
        spec = self._specs.get(name)
        if spec is None:
            raise AssertionError(f"no FactSpec for fact {name!r}")
        if name not in self._raw:
            raise MissingFact(name, spec.question)
        value = spec.parse(self._raw[name])
        self._cache[name] = value
        return value

    def get(self, name: str) -> Any:
        """A fact known only when known: its value, or None when the caller left it out.

        A tree reads such a fact (the opening hand, say) without demanding it: left out, it is
        unknown. A floor page walking the tree still asks it, once (``ask_unknown``), so that a
        person can give it or say it is not known.

        >>> specs = {"hand": FactSpec("hand", "Which cards?", "cards_or_none")}
        >>> Facts({}, specs).get("hand") is None, Facts({"hand": "As Kd"}, specs).get("hand")
        (True, 'As Kd')
        >>> Facts({}, specs, ask_unknown=True).get("hand")
        Traceback (most recent call last):
        ...
        rules.MissingFact: missing fact: hand
        """
        if name in self._raw or self._ask_unknown:
            return self[name]
        if self._allowed is not None and name not in self._allowed:
            raise AssertionError(f"the tree read fact {name!r} without declaring it")
        return None

    def only(self, names: Sequence[str]) -> "Facts":
        """A view that may read only ``names`` (sharing the parsed values)."""
        return Facts(self._raw, self._specs, frozenset(names), self._cache, self._ask_unknown)


#: What a derived question's function returns: a branch key, or (key, words saying why).
Answer = Union[str, tuple[str, str]]


@dataclass(frozen=True)
class Branch:
    """One answer of a question and the node it leads to."""

    key: str
    label: str
    node: "Node"


@dataclass(frozen=True)
class Question:
    """A question node.

    ``needs`` lists the facts it reads, in the order they are asked. Without ``derive`` it asks the
    single fact ``needs[0]`` and the branch key is the answer itself (``yes``/``no`` for a yes-or-no
    fact, ``seat``/``none`` for a seat-or-nobody fact). With ``derive`` the function computes the
    key from the facts. ``allowed`` (optional) lists the answers permitted given the facts so far
    (e.g. the seats that may reopen); any other answer raises :class:`rules.IllegalAction`.
    """

    id: str
    text: str
    needs: tuple[str, ...]
    branches: tuple[Branch, ...]
    derive: Callable[[Facts], Answer] | None = None
    title: str = ""  # a short form for diagrams; the text when empty
    rules: tuple[str, ...] = ()
    allowed: Callable[[Facts], tuple[Any, ...]] | None = None
    fact: str = ""  # the fact a plain question asks; ``needs[0]`` when empty
    #: Facts of ``needs`` that a derived question reads only when known (see :meth:`Facts.get`):
    #: left out, they are unknown and the question answers without them.
    when_known: tuple[str, ...] = ()

    @property
    def asks(self) -> str:
        """The fact a plain question asks (for a derived question: the first it reads)."""
        return self.fact or self.needs[0]

    @property
    def derived(self) -> bool:
        """True if the answer is computed from facts rather than asked."""
        return self.derive is not None

    @property
    def short(self) -> str:
        """The title used on diagrams."""
        return self.title or self.text

    def branch(self, key: str) -> Branch:
        """The branch for ``key``; a key with no branch is an error of the tree, not of the caller."""
        for b in self.branches:
            if b.key == key:
                return b
        raise RulesError(f"{self.id}: no branch for the answer {key!r}")

    def answer(self, facts: Facts) -> tuple[Any, str, str]:
        """(answer, branch key, detail) for these facts."""
        view = facts.only(self.needs)
        if self.derive is not None:
            result = self.derive(view)
            key, detail = result if isinstance(result, tuple) else (result, "")
            return key, key, detail
        if self.allowed is not None:
            permitted = self.allowed(view)
        value = view[self.asks]
        if self.allowed is not None:
            if value not in permitted:
                shown = ", ".join("nobody" if p is None else str(p) for p in permitted)
                raise IllegalAction(f"{self.asks}: {value!r} is not allowed here; allowed: {shown}")
        if isinstance(value, bool):
            key = "yes" if value else "no"
        elif value is None:
            key = "none"
        elif isinstance(value, int):
            key = "seat"
        else:
            key = str(value)
        return value, key, ""


@dataclass(frozen=True)
class Leaf:
    """An outcome: its code, the rule ids it rests on, movement words, the facts it reads."""

    id: str
    outcome: str
    rules: tuple[str, ...]
    moves: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    note: str = ""  # a short label for prints
    text: str = ""  # a sentence template for the ruling's summary


Node = Union[Question, Leaf]


@dataclass(frozen=True)
class Step:
    """One question on a walked path, with the answer taken."""

    node: str
    question: str
    facts: tuple[str, ...]
    answer: Any
    key: str
    label: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        answer: Any = self.answer
        if isinstance(answer, tuple):
            answer = list(answer)
        return {
            "node": self.node,
            "question": self.question,
            "facts": list(self.facts),
            "answer": answer,
            "key": self.key,
            "label": self.label,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Step":
        """The inverse of :meth:`to_dict`."""
        return cls(
            node=data["node"],
            question=data["question"],
            facts=tuple(data.get("facts", ())),
            answer=data.get("answer"),
            key=data.get("key", ""),
            label=data.get("label", ""),
            detail=data.get("detail", ""),
        )


@dataclass(frozen=True)
class Walk:
    """The result of walking a tree: the path and the leaf reached, and the parsed facts."""

    steps: tuple[Step, ...]
    leaf: Leaf
    facts: Facts = field(compare=False)


@dataclass(frozen=True)
class Prompt:
    """The next thing to ask: a fact, its question, its kind and (when fixed) its choices."""

    fact: str
    question: str
    kind: str
    choices: tuple[Any, ...] = ()
    labels: tuple[str, ...] = ()
    node: str = ""  # the question node (or leaf) that needs it
    path: tuple[Step, ...] = ()
    most: int | None = None  # the largest answer that can be true (a count or a seat)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data for a floor page."""
        return {
            "fact": self.fact,
            "question": self.question,
            "kind": self.kind,
            "choices": list(self.choices),
            "labels": list(self.labels),
            "node": self.node,
            "path": [s.to_dict() for s in self.path],
        }


@dataclass(frozen=True)
class Tree:
    """A decision tree: a title, a root node and the specs of every fact it may ask."""

    title: str
    root: Node
    facts: Mapping[str, FactSpec]

    # ----------------------------------------------------------------- walking
    def walk(self, raw: Mapping[str, Any]) -> Walk:
        """Follow the answers from the root to a leaf.

        Raises :class:`rules.MissingFact` for the first fact the path needs and ``raw`` lacks
        (including the facts the leaf itself reads).
        """
        facts = Facts(raw, self.facts)
        steps, leaf, _ = self._walk(facts)
        for name in leaf.needs:
            facts[name]
        return Walk(tuple(steps), leaf, facts.only(tuple(self.facts)))

    def _walk(self, facts: Facts) -> tuple[list[Step], Leaf, Question | None]:
        node: Node = self.root
        steps: list[Step] = []
        while isinstance(node, Question):
            answer, key, detail = node.answer(facts)
            branch = node.branch(key)
            steps.append(Step(node.id, node.text, node.needs, answer, key, branch.label, detail))
            node = branch.node
        return steps, node, None

    def prompt(self, raw: Mapping[str, Any]) -> Prompt | None:
        """The next fact to ask given the facts so far, or None when the tree can rule.

        >>> spec = {"ok": FactSpec("ok", "Is it fine?", "bool")}
        >>> t = Tree("t", Question("q", "Is it fine?", ("ok",), (
        ...     Branch("yes", "yes", Leaf("a", "A", ())), Branch("no", "no", Leaf("b", "B", ())))), spec)
        >>> t.prompt({}).fact, t.prompt({"ok": True})
        ('ok', None)
        """
        facts = Facts(raw, self.facts, ask_unknown=True)
        node: Node = self.root
        steps: list[Step] = []
        try:
            while isinstance(node, Question):
                answer, key, detail = node.answer(facts)
                branch = node.branch(key)
                steps.append(Step(node.id, node.text, node.needs, answer, key, branch.label, detail))
                node = branch.node
            for name in node.needs:
                facts[name]
        except MissingFact as missing:
            spec = self.facts[missing.fact]
            choices: tuple[Any, ...] = spec.choices
            if isinstance(node, Question) and node.allowed is not None and node.asks == missing.fact:
                choices = node.allowed(facts.only(node.needs))
            most = spec.most if spec.most is not None else SEATS_MOST if "seat" in spec.kind else None
            return Prompt(
                missing.fact, spec.question, spec.kind, choices, spec.labels, node.id, tuple(steps), most
            )
        return None

    # ----------------------------------------------------------------- traversal
    def nodes(self) -> Iterator[Node]:
        """Every node, depth first, parents before children."""
        stack: list[Node] = [self.root]
        while stack:
            node = stack.pop()
            yield node
            if isinstance(node, Question):
                stack.extend(b.node for b in reversed(node.branches))

    def questions(self) -> list[Question]:
        """Every question node, depth first."""
        return [n for n in self.nodes() if isinstance(n, Question)]

    def leaves(self) -> list[Leaf]:
        """Every leaf, depth first (the order they are printed)."""
        return [n for n in self.nodes() if isinstance(n, Leaf)]

    def used_facts(self) -> set[str]:
        """Every fact some path of this tree may read (its questions' and its leaves' needs)."""
        return {name for node in self.nodes() for name in node.needs}

    def outcomes(self) -> list[str]:
        """The distinct outcome codes the tree can reach, in print order."""
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            seen.setdefault(leaf.outcome, None)
        return list(seen)

    def citations(self) -> list[str]:
        """Every rule id the tree cites (questions and leaves), sorted."""
        ids = {r for n in self.nodes() for r in n.rules}
        return sorted(ids)

    def subtree(self, key: str) -> "Tree":
        """The tree below the root's branch ``key`` (e.g. one issue), for a smaller diagram."""
        if not isinstance(self.root, Question):
            raise RulesError("a single leaf has no branches")
        branch = self.root.branch(key)
        return Tree(f"{self.title}: {branch.label}", branch.node, self.facts)

    # ----------------------------------------------------------------- printing
    def to_text(self) -> str:
        """An indented outline: questions with their fact, answers, outcomes with rule ids."""
        lines = [self.title]

        def visit(node: Node, depth: int) -> None:
            pad = "  " * depth
            if isinstance(node, Leaf):
                rules = f"  ({', '.join(node.rules)})" if node.rules else ""
                note = f": {node.note}" if node.note else ""
                lines.append(f"{pad}=> {node.outcome}{rules}{note}")
                return
            marker = "?" if not node.derived else "?*"
            shown = tuple(f"{n} (when known)" if n in node.when_known else n
                          for n in (node.needs if node.derived else (node.asks,)))
            lines.append(f"{pad}{marker} {node.text}  [{', '.join(shown)}]")
            for b in node.branches:
                lines.append(f"{pad}  - {b.label}:")
                visit(b.node, depth + 2)

        visit(self.root, 0)
        return "\n".join(lines)
