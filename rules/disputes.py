"""The facts of a dispute that a table's logged hand already answers.

The floor page asks the decision tree (:mod:`rules.rulings`) only what the log cannot tell.
:func:`known_facts` reads a replayed state (``rules.jackpot.replay``) and returns the facts of
DESIGN.md that follow from it for one issue, using the tree's fact names. A fact the state does
not settle beyond doubt is left out, so the tree asks for it instead of guessing.

>>> from rules.jackpot import replay
>>> setup = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": s, "player": p, "stack": 500}
...                    for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cleo"), (4, "Dev"))]}
>>> log = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
...        {"type": "call", "seat": 4}]
>>> f = known_facts(replay(setup, log), "false_openers")
>>> f["opener"], f["found"], f["callers"], f["passed"], f["active"], f["bets"]
(3, 'before_draw', 1, [2], [1, 2, 3, 4], {1: 0, 2: 0, 4: 10})
>>> f["opener_bets"], f["raise_before_draw"], f["action_complete_before_draw"]
([10], False, False)
>>> known_facts(replay(setup, log), "wrong_card_count", seat="2")
{'issue': 'wrong_card_count', 'found': 'before_draw', 'seat': 2}
>>> known_facts(replay(setup, []), "caller_refund")
{'issue': 'caller_refund'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.rulings import FACTS, Issue

__all__ = ["known_facts", "ISSUES"]

#: The issues a dispute can be about, in the tree's order.
ISSUES: tuple[str, ...] = tuple(i.value for i in Issue)


def _seat_no(value: Any) -> int:
    return int(FACTS["seat"].parse(value))


def _seats(state: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    return {int(s): x for s, x in (state.get("seats") or {}).items()}


def known_facts(state: Mapping[str, Any], issue: str, seat: Any = None) -> dict[str, Any]:
    """The facts of ``issue`` that the table's state settles; ``seat`` is the player concerned.

    Outside a deal (between deals) only the issue and the seat are known. The bets are read per
    seat for this deal, antes aside; the opener's bets are the opening bet and, when the opener
    put in more, the rest in one sum (the tree hands back only their total). ``callers`` is known
    while nobody has raised before the draw; after a raise it is not needed in the cardroom
    reading, and the tree asks for it where a profile does need it.

    >>> known_facts({"phase": "between_deals"}, "split_openers")
    {'issue': 'split_openers'}
    >>> known_facts({}, "bluffing")
    Traceback (most recent call last):
    ...
    rules.RulesError: issue: must be one of false_openers, opener_cannot_show, split_openers, wrong_card_count, discard_retrieval, caller_refund, not 'bluffing'
    """
    facts: dict[str, Any] = {"issue": FACTS["issue"].parse(issue)}
    concerned = None if seat in (None, "") else _seat_no(seat)
    phase = state.get("phase", "between_deals")
    if phase == "between_deals":
        if concerned is not None:
            facts["seat"] = concerned
        return facts

    seats = _seats(state)
    dealt = [int(s) for s in state.get("dealt") or seats]
    jackpot = state.get("jackpot") or {}
    opener = jackpot.get("opener")
    nobody_drew = all(seats[s].get("drawn") is None for s in dealt if s in seats)
    before = phase == "predraw" or (phase == "draw" and nobody_drew)
    facts["found"] = "before_draw" if before else "after_draw"

    if facts["issue"] in ("wrong_card_count", "caller_refund"):
        if concerned is not None:
            facts["seat"] = concerned
        return facts

    if opener is None:
        return facts
    opener = int(opener)
    op = seats[opener]
    small_bet = int(state.get("small_bet") or 0)
    opener_total = int(op.get("bets") or 0)
    all_in_at_opening = int(op.get("stack") or 0) == 0 and opener_total < small_bet
    facts["opener"] = opener
    facts["opener_all_in"] = all_in_at_opening
    facts["action_complete_before_draw"] = phase != "predraw"
    facts["passed"] = [int(s) for s in state.get("passed") or ()]
    facts["active"] = [s for s in sorted(seats) if seats[s].get("status") == "active" and s in dealt]
    facts["bets"] = {s: int(seats[s].get("bets") or 0) for s in sorted(dealt) if s != opener and s in seats}
    if all_in_at_opening:
        facts["opener_bets"] = [opener_total]
    elif opener_total >= small_bet:
        rest = opener_total - small_bet
        facts["opener_bets"] = [small_bet] + ([rest] if rest else [])
    if phase == "predraw":
        raised = int(state.get("raises") or 0) > 0
        facts["raise_before_draw"] = raised
        if not raised and opener_total > 0:
            # Without a raise, every other seat that put chips in this round called the opening
            # bet (an opening of nothing, O6, is called by checking: the log cannot count those).
            facts["callers"] = sum(1 for s, chips in facts["bets"].items() if chips > 0)
    others = [s for s in facts["active"] if s != opener]
    facts["everyone_folded"] = not others
    facts["drawn_to"] = any(seats[s].get("drawn") is not None for s in dealt if s != opener and s in seats)
    shown = {s: list(x["shown"]) for s, x in seats.items() if x.get("shown") is not None}
    if shown:
        facts["hands"] = shown
    if opener in shown:
        facts["final_hand"] = shown[opener]
    escrow = {int(s): list(c) for s, c in (state.get("escrow") or {}).items()}
    if escrow.get(opener):
        facts["discards"] = escrow[opener]
    if concerned is not None and concerned != opener:
        facts["seat"] = concerned
    return facts

