"""The floor's disputes at a banked table (B1-B5, H3): a wrong dealer exchange and a wrong payout,
settled by a decision tree of the same shape as the jackpot game's (:mod:`rules.rulings.tree`): question
nodes (some derived from facts), leaves with an outcome code and the rule ids they rest on.

The tree never decides a rule itself: "the right exchange" is :func:`rules.banked.dealer_decision`
(the seed's list, B4) and "the right payout" is :func:`rules.banked.settle` (B5, H3), so a ruling
and the dealer's tablet can never disagree.

Decisions of this project, where the seed is silent (written down here and in the banked profile):

- A wrong exchange found while the cards drawn are still unseen: the hand is re-made. The dealer
  takes back the cards thrown, the unseen cards drawn go back on top of the deck in the order they
  were dealt, and the dealer throws what the list throws (B4). Nobody saw anything, so nobody is
  helped or hurt by undoing it.
- Found once the cards drawn were seen: the profile's ``dealer_error_seen`` decides: ``as_fell``
  (default: the round is settled on the dealer's cards as they fell) or ``void`` (every box that
  bet takes back its ante box and bet; a folded box stays folded).
- A wrong payout is about one box that bet. ``paid`` is everything the dealer handed the box (the
  stakes returned and the winnings; 0 when the dealer took them), so it is never negative; the
  right amount is ``ante_box + bet + player_net`` of :func:`settle`, and the difference moves
  between the house and the box (positive: the house pays the box; negative: the box gives back).
  Money is an int of the smallest unit, never a float.

>>> r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Kh Kc 7s 5d 4h",
...                      "dealer_thrown": "7s 5d", "draw_seen": False})
>>> r.outcome.value, r.right_throw, r.citations
('DEALER_HAND_REMADE', ('7s', '5d', '4h'), ('B4',))
>>> r = resolve_dispute({"issue": "wrong_payout", "box": 2, "box_cards": "9h 9d 9c 4s 2d",
...                      "dealer_final": "Kh Kd 7s 5c 3h", "ante_box": 6, "bet": 12, "paid": 42})
>>> r.outcome.value, r.right_paid, r.difference, r.moves, r.paytable_entry
('PAYOUT_CORRECTED', 60, 18, {2: 18}, 'three of a kind pays 3 to 1')
>>> resolve_dispute({"issue": "wrong_payout", "box": 2})
Traceback (most recent call last):
...
rules.MissingFact: missing fact: box_cards
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rules import IllegalAction, RulesError, parse
from rules.banked.box import Stage
from rules.banked.dealer import dealer_decision
from rules.banked.options import BankedOptions, DealerErrorSeen, banked_options
from rules.banked.outcomes import OUTCOME_WORDS, BankedOutcome
from rules.banked.settle import settle
from rules.cards import parse_cards, to_text
from rules.hands import evaluate
from rules.rulings.tree import Branch, Facts, FactSpec, Leaf, Prompt, Question, Step, Tree

if TYPE_CHECKING:
    from rules.banked.round import BankedState

__all__ = ["Dispute", "BankedOutcome", "BANKED_FACTS", "BankedRuling", "build_banked_tree", "resolve_dispute",
           "banked_questions", "paytable_words", "round_facts", "banked_headline", "OUTCOME_WORDS"]


class Dispute(StrEnum):
    """What a banked dispute is about: the answers of the tree's first question."""

    WRONG_EXCHANGE = "wrong_exchange"
    WRONG_PAYOUT = "wrong_payout"


def banked_headline(record: Mapping[str, Any], money: Any = str) -> str:
    """A banked ruling in one sentence: what it decides, and for a payout who pays whom (``money``
    formats an amount of units).

    >>> banked_headline({"outcome": "PAYOUT_CORRECTED", "box": 2, "difference": 15}, lambda n: f"{n / 10:g}")
    'Box 2: the house pays 1.5 more'
    >>> banked_headline({"outcome": "PAYOUT_CORRECTED", "box": 2, "difference": -5})
    'Box 2 gives 5 back to the house'
    >>> banked_headline({"outcome": "EXCHANGE_STANDS"})
    "The dealer's exchange stands"
    """
    outcome, box, difference = str(record.get("outcome", "")), record.get("box"), int(record.get("difference") or 0)
    if outcome == BankedOutcome.PAYOUT_CORRECTED and difference > 0:
        return f"Box {box}: the house pays {money(difference)} more"
    if outcome == BankedOutcome.PAYOUT_CORRECTED and difference < 0:
        return f"Box {box} gives {money(-difference)} back to the house"
    words = OUTCOME_WORDS.get(outcome, outcome.replace("_", " ").lower())
    if outcome == BankedOutcome.PAYOUT_RIGHT and box is not None:
        words = f"box {box}: {words}"
    return words[:1].upper() + words[1:]


def _fact(name: str, question: str, kind: str, title: str, **kw: Any) -> FactSpec:
    return FactSpec(name, question, kind, title=title, **kw)


#: Every fact the banked tree may ask. Amounts are ints of the smallest unit (the page converts).
BANKED_FACTS: dict[str, FactSpec] = {s.name: s for s in (
    _fact("issue", "What is the dispute about?", "choice", "The dispute",
          choices=tuple(d.value for d in Dispute), labels=("a wrong dealer exchange", "a wrong payout")),
    _fact("dealer_cards", "Which five cards did the dealer hold before the exchange?", "cards",
          "The dealer's cards before the exchange"),
    _fact("dealer_thrown", "Which cards did the dealer throw? (leave empty if none)", "cards_or_none",
          "Cards the dealer threw"),
    _fact("draw_seen", "Were any of the cards the dealer drew seen (turned face up) before the floor was called?",
          "bool", "The cards drawn were seen"),
    _fact("dealer_drawn", "Which cards did the dealer draw, as they fell?", "cards_or_none", "Cards the dealer drew"),
    _fact("box", "Which box is concerned?", "seat", "Box"),
    _fact("box_cards", "Which five cards does the box hold (its final hand)?", "cards", "The box's cards"),
    _fact("dealer_final", "Which five cards did the dealer end with (after the exchange)?", "cards",
          "The dealer's final cards"),
    _fact("ante_box", "How much was in the box's ante box?", "count", "Ante box"),
    _fact("bet", "How much was the box's bet?", "count", "Bet"),
    _fact("paid", "How much did the dealer hand the box in all (stakes returned and winnings; 0 if the dealer "
          "took them)?", "count", "Paid at the table"),
)}

_PAY_FACTS = ("box_cards", "dealer_final", "ante_box", "bet")
_SETTLED = ("no_game", "dealer_wins", "player_wins", "push")
_SETTLED_LABELS = ("the dealer does not qualify", "the dealer is higher", "the box is higher", "a tie")
#: The rule ids each way of settling rests on (H3 is added when the joker decided a tie).
_SETTLED_RULES = {"no_game": ("B4", "B5"), "dealer_wins": ("B5",), "player_wins": ("B5",), "push": ("B5",)}


def paytable_words(category: str, pays: int) -> str:
    """The paytable entry in words.

    >>> paytable_words("full_house", 7)
    'full house pays 7 to 1'
    """
    return f"{category.replace('_', ' ')} pays {pays} to 1"


def _cards5(value: Any, name: str) -> tuple[Any, ...]:
    try:
        return parse_cards(value, count=5)
    except RulesError as exc:
        raise RulesError(f"{name}: {exc}") from None


def _thrown(f: Facts) -> tuple[Any, ...]:
    hand = _cards5(f["dealer_cards"], "dealer_cards")
    raw = f["dealer_thrown"]
    thrown = parse_cards(raw) if raw is not None else ()
    for card in thrown:
        if card not in hand:
            raise RulesError(f"B4: the dealer threw {card}, which is not among the dealer's five cards "
                             f"({to_text(hand)})")
    return thrown


def _settled(f: Facts, options: BankedOptions) -> dict[str, Any]:
    return settle(f["box_cards"], f["dealer_final"], f["ante_box"], f["bet"], None, options)


@functools.lru_cache(maxsize=32)
def build_banked_tree(options: BankedOptions | None = None) -> Tree:
    """The banked floor tree for a profile (its ``dealer_error_seen`` picks the seen leaf).

    >>> print(build_banked_tree().to_text().splitlines()[2])
      - a wrong dealer exchange:
    >>> "DEALER_HAND_VOID" in build_banked_tree(banked_options({"dealer_error_seen": "void"})).outcomes()
    True
    """
    opts = options or banked_options()
    checks = _BankedChecks(opts)
    root = Question("issue", BANKED_FACTS["issue"].question, ("issue",), (
        Branch(Dispute.WRONG_EXCHANGE.value, "a wrong dealer exchange", _exchange_node(checks)),
        Branch(Dispute.WRONG_PAYOUT.value, "a wrong payout", Question(
            "box", BANKED_FACTS["box"].question, ("box",), (Branch("seat", "the box", _payout_node(checks)),),
            title="Which box?"))), title="What is the dispute about?")
    return Tree(f"Banked floor decision tree, profile {opts.name}", root, BANKED_FACTS)


@dataclass(frozen=True)
class _BankedChecks:
    """The banked tree's derived questions, bound to the table's options: they ask the dealer's
    list (B4) and the settlement (B5) rather than decide anything themselves."""

    opts: BankedOptions

    def exchange_right(self, f: Facts) -> tuple[str, str]:
        """Whether the dealer threw what the list throws (B4)."""
        thrown = _thrown(f)
        d = dealer_decision(f["dealer_cards"], self.opts)
        right = to_text(d.throw) or "no card"
        if set(thrown) == set(d.throw):
            return "right", f"the list: {d.words}; throw {right}"
        return "wrong", f"the list: {d.words}; throw {right}, not {to_text(thrown) or 'no card'}"

    def settlement(self, f: Facts) -> tuple[str, str]:
        """How the box's hand stands against the dealer's final cards (B4, B5)."""
        s = _settled(f, self.opts)
        return s["outcome"], s["reason"]

    def paid_right(self, f: Facts) -> tuple[str, str]:
        """Whether the box was handed what the rules pay (B5)."""
        s = _settled(f, self.opts)
        right = f["ante_box"] + f["bet"] + s["player_net"]
        paid = f["paid"]
        if paid == right:
            return "right", f"the rules hand back {self.opts.money(right)}, as paid"
        return "wrong", f"the rules hand back {self.opts.money(right)}, not {self.opts.money(paid)}"


def _exchange_node(checks: _BankedChecks) -> Question:
    """A wrong dealer exchange (B4): right by the list, the exchange stands; wrong, the hand is
    re-made while the cards drawn are unseen, else the house's ``dealer_error_seen`` decides."""
    seen: Leaf = (Leaf("hand_as_fell", BankedOutcome.DEALER_HAND_AS_FELL.value, ("B4",), needs=("dealer_drawn",),
                       note="settled as the cards fell (dealer_error_seen as_fell)")
                  if checks.opts.dealer_error_seen is DealerErrorSeen.AS_FELL else
                  Leaf("hand_void", BankedOutcome.DEALER_HAND_VOID.value, ("B4", "B5"),
                       note="the boxes that bet take back ante box and bet (dealer_error_seen void)"))
    return Question(
        "exchange_right", "Did the dealer throw the cards the list throws?", ("dealer_cards", "dealer_thrown"), (
            Branch("right", "yes, the list's cards", Leaf("exchange_stands", BankedOutcome.EXCHANGE_STANDS.value,
                                                           ("B4",), note="the exchange stands")),
            Branch("wrong", "no", Question(
                "draw_seen", BANKED_FACTS["draw_seen"].question, ("draw_seen",), (
                    Branch("yes", "seen", seen),
                    Branch("no", "unseen", Leaf("hand_remade", BankedOutcome.DEALER_HAND_REMADE.value, ("B4",),
                                                note="the hand is re-made by the list"))),
                title="Were the cards drawn seen?"))),
        derive=checks.exchange_right, title="The list's exchange?", rules=("B4",))


def _payout_node(checks: _BankedChecks) -> Question:
    """A wrong payout (B5): how the box stood against the dealer, then whether it was paid right."""

    def paid_node(key: str) -> Question:
        rules = _SETTLED_RULES[key]
        return Question(f"paid_{key}", "Was the box handed what the rules pay?", _PAY_FACTS + ("paid",), (
            Branch("right", "yes", Leaf(f"{key}_right", BankedOutcome.PAYOUT_RIGHT.value, rules)),
            Branch("wrong", "no", Leaf(f"{key}_corrected", BankedOutcome.PAYOUT_CORRECTED.value, rules))),
            derive=checks.paid_right, title="Paid right?", rules=rules)

    return Question("settlement", "How does the box's hand stand against the dealer's final cards?", _PAY_FACTS,
                    tuple(Branch(k, label, paid_node(k)) for k, label in zip(_SETTLED, _SETTLED_LABELS)),
                    derive=checks.settlement, title="Box against dealer", rules=("B4", "B5"))


@dataclass(frozen=True)
class BankedRuling:
    """A banked floor ruling: the outcome, the path, the rules cited, a summary in plain words, and
    the money that moves (``moves``: box -> amount the house hands the box, negative when the box
    gives back), in ints of the smallest unit.

    The exchange fields: ``thrown`` (what the dealer threw), ``right_throw``/``right_keep`` (the
    list's), ``item`` (the list's item), ``dealer_final`` (the hand the round is settled on when it
    is settled as the cards fell), ``void``. The payout fields: ``box``, ``paid``, ``right_paid``,
    ``difference``, ``settlement`` (settle's outcome) and ``paytable_entry``.
    """

    outcome: BankedOutcome
    issue: str
    profile: str
    path: tuple[Step, ...]
    citations: tuple[str, ...]
    summary: str
    leaf: str = ""
    moves: dict[int, int] = field(default_factory=dict)
    thrown: tuple[str, ...] = ()
    right_throw: tuple[str, ...] = ()
    right_keep: tuple[str, ...] = ()
    item: str = ""
    dealer_final: tuple[str, ...] = ()
    void: bool = False
    box: int | None = None
    paid: int | None = None
    right_paid: int | None = None
    difference: int = 0
    settlement: str = ""
    paytable_entry: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (the stored record).

        >>> r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "7h 7d 7s Kc 2d", "dealer_thrown": "Kc 2d"})
        >>> BankedRuling.from_dict(r.to_dict()) == r, r.to_dict()["outcome"]
        (True, 'EXCHANGE_STANDS')
        """
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "path":
                value = [s.to_dict() for s in value]
            elif f.name == "moves":
                value = {str(k): v for k, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BankedRuling":
        """A ruling from its stored record; a field that cannot be read raises RulesError naming it."""
        if not isinstance(data, Mapping):
            raise RulesError("a ruling is a JSON object of its fields")
        try:
            outcome = BankedOutcome(str(data.get("outcome")))
        except ValueError:
            raise RulesError(f"outcome: {data.get('outcome')!r} is not a banked outcome code") from None
        moves_raw = data.get("moves") or {}
        if not isinstance(moves_raw, Mapping):
            raise RulesError("moves: maps boxes to amounts")
        moves = {parse.seat(k, "moves", RulesError): int(v) for k, v in moves_raw.items()}
        kw: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in ("outcome", "path", "moves") or f.name not in data:
                continue
            value = data[f.name]
            kw[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(outcome=outcome, path=tuple(Step.from_dict(p) for p in data.get("path") or ()), moves=moves,
                   **{k: v for k, v in kw.items() if k not in ("issue", "profile", "citations", "summary")},
                   issue=str(data.get("issue") or ""), profile=str(data.get("profile") or ""),
                   citations=tuple(data.get("citations") or ()), summary=str(data.get("summary") or ""))


def banked_questions(facts: Mapping[str, Any], options: BankedOptions | Mapping[str, Any] | None = None
                     ) -> Prompt | None:
    """The next fact to ask, or None when the tree can rule.

    >>> banked_questions({"issue": "wrong_exchange"}).fact
    'dealer_cards'
    >>> banked_questions({"issue": "wrong_exchange", "dealer_cards": "7h 7d 7s Kc 2d", "dealer_thrown": "Kc"}).fact
    'draw_seen'
    """
    return build_banked_tree(banked_options(options)).prompt(facts)


def _uniq(ids: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(ids))


def resolve_dispute(facts: Mapping[str, Any], options: BankedOptions | Mapping[str, Any] | None = None
                    ) -> BankedRuling:
    """Walk the banked tree with ``facts`` and rule. Raises :class:`rules.MissingFact` for the first
    fact the path needs and ``facts`` lacks, :class:`rules.RulesError` (naming the rule) for facts
    that cannot be (a card thrown that the dealer did not hold, a bet that is not twice the ante box).

    >>> r = resolve_dispute({"issue": "wrong_exchange", "dealer_cards": "Ah 9h 5h 2h 2c", "dealer_thrown": "Ah 9h 5h",
    ...                      "draw_seen": True, "dealer_drawn": "Kc Qd 3s"})
    >>> r.outcome.value, r.dealer_final
    ('DEALER_HAND_AS_FELL', ('2h', '2c', 'Kc', 'Qd', '3s'))
    """
    opts = banked_options(options)
    walk = build_banked_tree(opts).walk(facts)
    f, leaf = walk.facts, walk.leaf
    base: dict[str, Any] = {"outcome": BankedOutcome(leaf.outcome), "profile": opts.name, "path": walk.steps,
                            "leaf": leaf.id, "issue": f["issue"]}
    if f["issue"] == Dispute.WRONG_EXCHANGE:
        return _exchange_ruling(f, leaf, opts, base)
    return _payout_ruling(f, leaf, opts, base)


def _exchange_ruling(f: Facts, leaf: Leaf, opts: BankedOptions, base: dict[str, Any]) -> BankedRuling:
    """A wrong dealer exchange (B4): what the list throws, and whether the exchange stands, the hand
    is re-made (the cards drawn unseen), or, seen, the round is settled as the cards fell or void."""
    outcome = base["outcome"]
    hand = _cards5(f["dealer_cards"], "dealer_cards")
    thrown = _thrown(f)
    d = dealer_decision(hand, opts)
    right, keep = to_text(d.throw) or "no card", to_text(d.keep)
    said = (f"The dealer held {to_text(hand)}. The list (B4) says: {d.words}, so the dealer throws {right}"
            + (f" and keeps {keep}." if d.keep else "."))
    base.update(thrown=tuple(map(str, thrown)), right_throw=tuple(map(str, d.throw)),
                right_keep=tuple(map(str, d.keep)), item=d.item.value, citations=leaf.rules)
    if outcome is BankedOutcome.EXCHANGE_STANDS:
        return BankedRuling(summary=f"{said} That is what the dealer threw: the exchange stands and the round goes on.",
                            **base)
    wrong = f" The dealer threw {to_text(thrown) or 'no card'} instead."
    if outcome is BankedOutcome.DEALER_HAND_REMADE:
        summary = (f"{said}{wrong} The cards drawn were not seen, so the hand is re-made: the dealer takes back "
                   "the cards thrown, the unseen cards drawn go back on top of the deck in the order they "
                   f"were dealt, and the dealer throws {right} and draws {len(d.throw)} (B4).")
    elif outcome is BankedOutcome.DEALER_HAND_AS_FELL:
        final = _as_fell(f, hand, thrown)
        base["dealer_final"] = tuple(map(str, final))
        summary = (f"{said}{wrong} The cards drawn were seen, so under this house's rule the round is settled "
                   f"on the dealer's cards as they fell: {to_text(final)}, "
                   f"{evaluate(final, 'joker').describe()} (B4, dealer_error_seen as_fell).")
    else:
        base["void"] = True
        summary = (f"{said}{wrong} The cards drawn were seen, so under this house's rule the dealer's hand is "
                   "void: every box that bet takes back its ante box and bet; a box that folded stays folded "
                   "(B4, B5, dealer_error_seen void).")
    return BankedRuling(summary=summary, **base)


def _as_fell(f: Facts, hand: tuple[Any, ...], thrown: tuple[Any, ...]) -> tuple[Any, ...]:
    """The dealer's hand as the cards fell (B4, ``dealer_error_seen`` as_fell): the cards kept and
    the cards drawn, as many as were thrown, none of them already in the hand."""
    drawn = parse_cards(f["dealer_drawn"]) if f["dealer_drawn"] is not None else ()
    if len(drawn) != len(thrown):
        raise RulesError(f"B4: the dealer drew {len(drawn)} card(s) for the {len(thrown)} thrown; "
                         "give the cards drawn, as many as were thrown")
    kept = tuple(c for c in hand if c not in thrown)
    for card in drawn:
        if card in hand:
            raise RulesError(f"B4: the dealer drew {card}, which was already in the dealer's hand")
    return kept + drawn


def _payout_ruling(f: Facts, leaf: Leaf, opts: BankedOptions, base: dict[str, Any]) -> BankedRuling:
    """A wrong payout (B5, H3): what the rules hand the box back, against what it was handed; the
    difference moves between the house and the box."""
    money = opts.money
    s = _settled(f, opts)
    box, ante_box, bet, paid = f["box"], f["ante_box"], f["bet"], f["paid"]
    right = ante_box + bet + s["player_net"]
    difference = right - paid
    entry = _paytable_entry(f, s) if s["outcome"] == "player_wins" else ""
    citations = _uniq(leaf.rules + tuple(r for r in s["rules"] if r not in leaf.rules))
    said = (f"Box {box}: ante box {money(ante_box)}, bet {money(bet)}; {s['reason']}"
            + (f" (the paytable: {entry})" if entry else "") + f". The box is handed back {money(right)}"
            + (f" (it wins {money(s['player_net'])})." if s["player_net"] > 0 else
               " (it loses ante box and bet)." if right == 0 else "."))
    if difference == 0:
        summary = f"{said} It was handed {money(paid)}: the payout stands ({', '.join(citations)})."
    elif difference > 0:
        summary = (f"{said} It was handed {money(paid)}: the house pays the box {money(difference)} more "
                   f"({', '.join(citations)}).")
    else:
        summary = (f"{said} It was handed {money(paid)}: the box gives back {money(-difference)} to the house "
                   f"({', '.join(citations)}).")
    base.update(citations=citations, box=box, paid=paid, right_paid=right, difference=difference,
                moves={box: difference} if difference else {}, settlement=s["outcome"], paytable_entry=entry)
    return BankedRuling(summary=summary, **base)


def _paytable_entry(f: Facts, s: Mapping[str, Any]) -> str:
    """The paytable's line that pays a box which beat a qualifying dealer (B5), in words."""
    value = evaluate(parse_cards(f["box_cards"], count=5), "joker")
    royal = value.category == "straight_flush" and value.ranks[0] == 14  # as Paytable.pays reads it
    return paytable_words("royal_flush" if royal else value.category, s["pays"])


def round_facts(state: BankedState, issue: str, box: Any = None) -> dict[str, Any]:
    """The facts of ``issue`` that a banked table's logged round settles (its
    :class:`rules.banked.round.BankedState`), so the floor page asks only the rest. What the log
    cannot know is left out: what the dealer physically threw, whether the cards drawn were seen,
    what was handed to a box.

    >>> from rules.banked.round import BankedState
    >>> s = BankedState.replay({"boxes": 1}, [{"type": "deal", "antes": {"1": 3}, "cards": {"1": "Ah Ad 9c 6s 2h"}},
    ...                                       {"type": "bet", "box": 1}, {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"},
    ...                                       {"type": "dealer_draw", "drawn": "2c 3d 9h"}])
    >>> round_facts(s, "wrong_exchange")
    {'issue': 'wrong_exchange', 'dealer_cards': 'Kh Kc 7s 5d 4h'}
    >>> round_facts(s, "wrong_payout", "1")
    {'issue': 'wrong_payout', 'box': 1, 'box_cards': 'Ah Ad 9c 6s 2h', 'dealer_final': 'Kh Kc 2c 3d 9h', 'ante_box': 3, 'bet': 6}
    """
    facts: dict[str, Any] = {"issue": BANKED_FACTS["issue"].parse(issue)}
    if facts["issue"] == Dispute.WRONG_EXCHANGE:
        if state.dealer:
            facts["dealer_cards"] = to_text(state.dealer)
        return facts
    if box in (None, ""):
        return facts
    facts["box"] = BANKED_FACTS["box"].parse(box)
    logged = state.boxes.get(facts["box"])
    if logged is not None and logged.stage is Stage.FOLDED:
        raise IllegalAction(f"B2: box {facts['box']} folded this round and lost its ante box; a payout dispute is "
                            "for a box that bet")
    if logged is not None:
        facts["box_cards"] = to_text(logged.cards)
        if state.final:
            facts["dealer_final"] = to_text(state.final)
        if logged.bet_amount:
            facts.update(ante_box=logged.ante_box, bet=logged.bet_amount)
    return facts
