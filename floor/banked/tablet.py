"""The banked tablet's log: what stands, what the dealer may undo, the round's entries in words, and
the cards already seen (the card picker greys them out).

Undo (issue 25) is an entry of its own, ``{"type": "void", "event": seq}``: the log stays append-only
and hash-chained, and the round is replayed from the entries that stand (:func:`standing`). Decisions:

- Only the latest standing entry of the round is withdrawn, one at a time (undo again for the one
  before): never one in the middle, whose later entries were logged on top of it.
- A floor ruling is never withdrawn by an undo, by anyone: it is the floor's sealed word on the log
  as it stood; a wrong ruling is corrected by a new ruling. Nor is anything before a ruling (the
  ruling blocks the way back), nor an undo itself.
- A dealer may withdraw a dealer's kind of entry (deal, fold, bet, exchange, reveal, the dealer's
  draw): the entries the tablet logs. The deal itself may be withdrawn (wrong cards entered): the
  round before it is then the table's round again, as it was settled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules import RulesError
from rules.banked.disputes import OUTCOME_WORDS
from rules.cards import parse_cards

__all__ = ["DEALER_KINDS", "standing", "withdrawable", "check_undo", "entry_words", "seen_cards"]

#: The entries the dealer's tablet logs, and so the ones an undo may withdraw.
DEALER_KINDS = ("deal", "fold", "bet", "exchange", "reveal", "dealer_draw")

Entry = tuple[int, Mapping[str, Any]]  # (seq, payload)


def _withdrawn(entries: Iterable[Entry]) -> set[int]:
    return {int(p["event"]) for _, p in entries if p.get("type") == "void" and str(p.get("event", "")).isdigit()}


def standing(entries: Sequence[Entry]) -> list[Entry]:
    """The entries that stand: neither an undo nor withdrawn by one.

    >>> standing([(1, {"type": "deal"}), (2, {"type": "fold", "box": 1}), (3, {"type": "void", "event": 2})])
    [(1, {'type': 'deal'})]
    """
    gone = _withdrawn(entries)
    return [(s, p) for s, p in entries if s not in gone and p.get("type") != "void"]


def withdrawable(entries: Sequence[Entry]) -> Entry | None:
    """The entry an undo would withdraw now (the latest standing one, if a dealer's kind), else None.

    >>> withdrawable([(1, {"type": "deal"}), (2, {"type": "ruling", "ruling": 4})]) is None
    True
    >>> withdrawable([(1, {"type": "deal"}), (2, {"type": "bet", "box": 1})])
    (2, {'type': 'bet', 'box': 1})
    """
    left = standing(entries)
    if not left or left[-1][1].get("type") not in DEALER_KINDS:
        return None
    return left[-1]


def check_undo(entries: Sequence[Entry], event: Mapping[str, Any]) -> Entry:
    """The entry ``event`` (an undo) withdraws; RulesError in plain words when it may not."""
    target = event.get("event")
    left = standing(entries)
    if not left:
        raise RulesError("undo: nothing of this round is left to withdraw")
    seq, latest = left[-1]
    if latest.get("type") == "ruling":
        raise RulesError(f"undo: the last entry is the floor's ruling #{latest.get('ruling')}: a ruling is never "
                         "withdrawn by undo (the floor corrects it with a new ruling), nor anything before it")
    if latest.get("type") not in DEALER_KINDS:
        raise RulesError(f"undo: entry {seq} is not the dealer's to withdraw")
    if isinstance(target, bool) or not isinstance(target, int) or target != seq:
        raise RulesError(f"undo withdraws only the last entry standing, entry {seq} ({entry_words(latest)}), "
                         f"not entry {target}")
    return seq, latest


def _cards(text: Any) -> list[str]:
    try:
        return [str(c) for c in parse_cards(text)] if text else []
    except (ValueError, RulesError):
        return []


def entry_words(p: Mapping[str, Any], money: Any = str) -> str:
    """A banked log entry in a few plain words (``money`` formats an amount of units).

    >>> entry_words({"type": "exchange", "box": 1, "discards": "9c 6s", "drawn": "Ac Kd"})
    'box 1 changes 9c 6s for Ac Kd'
    >>> entry_words({"type": "void", "event": 4})
    'undo: entry 4 withdrawn'
    """
    kind = p.get("type")
    if kind == "deal":
        antes, players = p.get("antes") or {}, p.get("players") or {}
        return "deal: " + "; ".join(f"box {b}{f' ({players[b]})' if players.get(b) else ''} ante "
                                    f"{money(antes.get(b, 0))}, {' '.join(_cards(c))}"
                                    for b, c in sorted((p.get("cards") or {}).items()))
    if kind in ("fold", "bet"):
        return f"box {p.get('box')} {'folds' if kind == 'fold' else 'bets'}"
    if kind == "exchange":
        return f"box {p.get('box')} changes {' '.join(_cards(p.get('discards')))} for {' '.join(_cards(p.get('drawn')))}"
    if kind == "reveal":
        return f"the dealer's cards: {' '.join(_cards(p.get('dealer')))}"
    if kind == "dealer_draw":
        return f"the dealer draws {' '.join(_cards(p.get('drawn')))}"
    if kind == "ruling":
        outcome = str(p.get("outcome", ""))
        return f"floor ruling #{p.get('ruling')}: {OUTCOME_WORDS.get(outcome, outcome.replace('_', ' ').lower())}"
    if kind == "void":
        return f"undo: entry {p.get('event')} withdrawn"
    return str(kind)


def seen_cards(events: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Every card already seen in the round (each is seen at most once): card -> where it is.

    >>> seen_cards([{"type": "deal", "cards": {"1": "Ah Ad 9c 6s 2h"}}, {"type": "reveal", "dealer": "Kh Kc 7s 5d 4h"}])["9c"]
    'box 1'
    """
    seen: dict[str, str] = {}
    for p in events:
        kind = p.get("type")
        if kind == "deal":
            for box, text in (p.get("cards") or {}).items():
                seen.update((c, f"box {box}") for c in _cards(text))
        elif kind == "exchange":
            seen.update((c, f"box {p.get('box')}") for c in _cards(p.get("discards")) + _cards(p.get("drawn")))
        elif kind in ("reveal", "dealer_draw"):
            seen.update((c, "the dealer") for c in _cards(p.get("dealer") or p.get("drawn")))
    return seen
