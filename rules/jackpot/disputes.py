"""The facts of a dispute that a table's logged hand already answers.

The floor page asks the decision tree (:mod:`rules.rulings`) only what the log cannot tell.
:func:`known_facts` reads a table's state (``rules.jackpot.replay_state``) and returns the facts of
the contract (docs/contract.md, "Facts") that follow from it for one issue, using the tree's fact
names. A fact the state does not settle beyond doubt is left out, so the tree asks for it instead
of guessing.

>>> from rules.jackpot import replay_state
>>> setup = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": s, "player": p, "stack": 500}
...                    for s, p in ((1, "Ann"), (2, "Bob"), (3, "Cleo"), (4, "Dev"))]}
>>> log = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
...        {"type": "call", "seat": 4}]
>>> f = known_facts(replay_state(setup, log), "false_openers")
>>> f["opener"], f["found"], f["callers"], f["passed"], sorted(f["active"]), f["bets"] == {1: 0, 2: 0, 4: 10}
(3, 'before_draw', 1, [2], [1, 2, 3, 4], True)
>>> f["opener_bets"], f["raise_before_draw"], f["action_complete_before_draw"]
([10], False, False)
>>> known_facts(replay_state(setup, log), "wrong_card_count", seat="2")
{'issue': 'wrong_card_count', 'found': 'before_draw', 'seat': 2}
>>> known_facts(replay_state(setup, []), "caller_refund")
{'issue': 'caller_refund'}
"""

from __future__ import annotations

from typing import Any

from rules.rulings import DISPUTE_KINDS, DISPUTES, FACTS, build_tree
from rules.jackpot.table import TableState

__all__ = ["known_facts", "ISSUES"]

#: The issues a dispute can be about, in the tree's order (each kind's declaration, rules.rulings.DISPUTES).
ISSUES: tuple[str, ...] = tuple(k.issue for k in DISPUTES)


def _seat_no(value: Any) -> int:
    return int(FACTS["seat"].parse(value))


#: Facts of the engine's reading that the log settles whenever there is an opener.
_SETTLED = ("opener", "opener_all_in", "raise_before_draw", "callers", "action_complete_before_draw",
            "passed", "active", "opener_bets", "bets", "drawn_to", "everyone_folded", "requirement")


def known_facts(state: TableState, issue: str, seat: Any = None) -> dict[str, Any]:
    """The facts of ``issue`` that the table's state settles; ``seat`` is the player concerned.

    The reading is the engine's own (:meth:`rules.jackpot.table.TableState.facts`), so a floor person's
    dispute and the engine's automatic ruling can never disagree about the log. What the log
    cannot settle is left out: outside a deal only the issue and the seat are known; a hand is
    known only once shown, split openers (the escrow, how many cards the opener drew) only once an
    escrow was logged; a card count or a
    refused call concerns a hand the log never saw. Between deals the facts come from the deal just
    finished, so that a dispute raised at the award has the log's answers too.

    >>> from rules.jackpot import start
    >>> known_facts(start({"ante": 1, "small_bet": 2, "button": 1, "seats": [
    ...     {"seat": 1, "player": "A", "stack": 9}, {"seat": 2, "player": "B", "stack": 9}]}), "split_openers")
    {'issue': 'split_openers'}
    >>> known_facts(start({"ante": 1, "small_bet": 2, "button": 1, "seats": [
    ...     {"seat": 1, "player": "A", "stack": 9}]}), "bluffing")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.RulesError: issue: must be one of false_openers, opener_cannot_show, ..., not 'bluffing'
    """
    facts: dict[str, Any] = {"issue": FACTS["issue"].parse(issue)}
    concerned = None if seat in (None, "") else _seat_no(seat)
    # Only what this issue's branch of the tree can ever ask: a split-openers dispute is not
    # shown the callers of the opening bet.
    relevant = build_tree(state.profile).subtree(facts["issue"]).used_facts()
    if state.ruled_deal is not None:  # the deal in progress, or between deals the one just finished
        read = state.facts(facts["issue"])
        facts["found"] = read["found"]
        if DISPUTE_KINDS[facts["issue"]].log_reads_hand and read["opener"] is not None:
            facts.update((k, v) for k, v in read.items() if k in _SETTLED)
            if read["hands"]:
                facts["hands"] = read["hands"]
            if "declared" in read:  # H9: what each player declared, where cards do not speak
                facts["declared"] = read["declared"]
            if "final_hand" in read:
                facts["final_hand"] = read["final_hand"]
            if read["discards"]:
                facts["discards"] = read["discards"]
                # escrowed discards were logged with the opener's draw, so the log holds its count too
                facts["drawn"] = read["drawn"]
    if concerned is not None and concerned != facts.get("opener"):
        facts["seat"] = concerned
    return {k: v for k, v in facts.items() if k in relevant or k in ("issue", "seat")}
