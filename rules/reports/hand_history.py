"""A table's log as hands: each deal with its events in words, who won what, and what carried.

:func:`hands` replays a table's setup and log once, event by event, and cuts it into deals: a
:class:`Hand` starts at a ``deal`` event and holds every event up to the next one (what happens
between deals, a player sitting down or a correction, is kept in the hand it follows, marked
``between``). Each step has the event, the engine's own sentence for it, and the chips the seat
put in with it; each hand has the stacks before and after, the pot it found and the pot it left,
the awards, the rulings it produced and the cards shown. Nothing is guessed: every number is read
from the engine's state after the event.

>>> setup = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> log = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "pass", "seat": 1},
...        {"type": "deal"}, {"type": "open", "seat": 1, "amount": 10}, {"type": "fold", "seat": 2},
...        {"type": "show", "seat": 1, "cards": "Jh Jd 4s 5s 9c"}]
>>> first, second = hands(setup, log)
>>> first.deal, first.end, first.pot_in, first.pot_left, result_words(first)
(1, 'throw_in', 0, 10, 'nobody opened: the pot of 10 carries to the next deal')
>>> [step.words for step in second.steps]
['deal', 'seat 1 (Ann) opens for 10', 'seat 2 (Bob) folds', 'seat 1 (Ann) shows J♥ J♦ 4♠ 5♠ 9♣']
>>> second.awards, result_words(second), second.steps[1].chips
({1: 30}, 'seat 1 (Ann) wins 30', 10)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import RulesError
from rules.jackpot import start
from rules.jackpot.events import event_words
from rules.words import faces_in_text, seats_text

__all__ = ["Step", "Hand", "hands", "result_words"]


@dataclass(frozen=True)
class Step:
    """One logged event of a hand.

    ``index`` is the event's 0-based position in the log (as the engine's messages number it);
    ``chips`` what the seat put into the pot with it (antes of a deal are in ``Hand.antes``);
    ``bet_to`` the seat's bet in this betting round after it (for a raise: "raises to 20").
    """

    index: int
    event: Mapping[str, Any]
    words: str
    said: str
    voided: bool = False
    between: bool = False
    chips: int = 0
    bet_to: int = 0
    raised_by: int = 0
    phase_before: str = ""
    rulings: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Hand:
    """One deal of a table, as it was played (``complete`` False while it is still in play)."""

    deal: int
    button: int
    names: Mapping[int, str]
    stacks_before: Mapping[int, int]
    stacks_after: Mapping[int, int]
    dealt: tuple[int, ...]
    antes: Mapping[int, int]
    pot_in: int
    pot_left: int
    awards: Mapping[int, int]
    end: str
    ante: int
    small_bet: int
    big_bet: int
    requirement: str
    opener: int | None
    complete: bool
    profile: str = ""
    steps: tuple[Step, ...] = ()
    rulings: tuple[Mapping[str, Any], ...] = ()
    shown: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    raked: int = 0  # the house's rake of the pot this deal won (issue 32)
    dropped: int = 0  # and the drop set aside from it for a promotion
    #: each seat's player record as the log wrote it at the deal (None: a seat naming no record)
    player_ids: Mapping[int, int | None] = field(default_factory=dict)

    @property
    def first_index(self) -> int:
        return self.steps[0].index if self.steps else -1

    @property
    def played(self) -> tuple[Step, ...]:
        """The events that stand (not withdrawn, not a withdrawal), in the deal itself."""
        return tuple(s for s in self.steps if not s.voided and not s.between and s.event.get("type") != "void")


def hands(setup: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[Hand]:
    """The table's deals, oldest first, from its setup and whole log (one replay)."""
    state = start(setup)
    voided_at_end = _final_voided(events)
    out: list[Hand] = []
    current: dict[str, Any] | None = None
    for index, event in enumerate(events):
        kind = event.get("type")
        before = state
        try:
            state = state.apply(event)
        except RulesError:  # a log the rules now refuse: stop there, what was read stands
            break
        if kind == "deal" and index not in voided_at_end:
            if current is not None:
                out.append(_close(current, before))
            current = _open(before, state, index, event)
            continue
        if current is None:  # before the first deal: seats taken, chips added
            continue
        current["steps"].append(_step(before, state, index, event, current, index in voided_at_end))
        current["rulings"].extend(state.added)
        if state.phase.value == "between_deals" and not current["ended"]:
            current["ended"] = True
            current["end_state"] = state.to_dict()
        elif state.phase.value != "between_deals" and current["ended"]:  # an undo reopened the deal
            current["ended"], current["end_state"] = False, None
    if current is not None:
        out.append(_close(current, state))
    return out


def _final_voided(events: Sequence[Mapping[str, Any]]) -> frozenset[int]:
    """The indexes withdrawn by the end of the log (a withdrawn deal starts no hand)."""
    return frozenset(int(e["event"]) for e in events if e.get("type") == "void" and str(e.get("event", "")).isdigit())


def _open(before: Any, after: Any, index: int, event: Mapping[str, Any]) -> dict[str, Any]:
    d = after.to_dict()
    seats = sorted(int(s) for s in d["seats"])
    names = {int(s): str(x["player"]) for s, x in d["seats"].items()}
    player_ids = {int(s): x.get("player_id") for s, x in d["seats"].items()}
    known = set(before.to_dict()["seats"])
    stacks_before = {s: before.seat(s).stack for s in seats if s in known}
    antes = {s: stacks_before.get(s, 0) - after.seat(s).stack for s in seats}
    step = Step(index, dict(event), event_words(event, names), faces_in_text(after.message),
                phase_before=before.phase.value, rulings=tuple(after.added))
    return {
        "deal": d["deal"], "button": d["button"], "names": names, "player_ids": player_ids,
        "stacks_before": stacks_before,
        "dealt": tuple(int(s) for s in d["dealt"]), "antes": {s: a for s, a in antes.items() if a > 0},
        "pot_in": before.pot, "ante": d["ante"], "small_bet": d["small_bet"], "big_bet": d["big_bet"],
        "requirement": str(d["jackpot"]["requirement"]), "profile": d["profile"], "steps": [step],
        "rulings": list(after.added), "ended": False, "end_state": None, "in_deal": True,
    }


def _step(before: Any, after: Any, index: int, event: Mapping[str, Any], current: dict[str, Any],
          voided: bool) -> Step:
    names = current["names"]
    seat = event.get("seat")
    chips = bet_to = raised_by = 0
    if seat is not None and event.get("type") not in ("sit", "leave", "move_seat", "add_chips"):
        s = int(seat)
        try:
            chips = max(0, before.seat(s).stack - after.seat(s).stack)
            bet_to = after.seat(s).committed
            others = [before.seat(o).committed for o in names if o != s]
            raised_by = max(0, bet_to - max(others, default=0))
        except KeyError:
            pass
    return Step(index, dict(event), event_words(event, names), faces_in_text(after.message), voided,
                current["ended"], chips, bet_to, raised_by, before.phase.value, tuple(after.added))


def _close(current: dict[str, Any], state: Any) -> Hand:
    end = current["end_state"]
    final = end if end is not None else state.to_dict()
    won = end is not None and final["last_end"] == "won"
    seats = sorted(int(s) for s in final["seats"])
    shown: dict[int, tuple[str, ...]] = {}
    for step in current["steps"]:
        if step.event.get("type") == "show" and not step.voided:
            cards = step.event.get("cards") or ()
            # the log holds the cards as text ("Ah Kd ...") or as a list: each card, never each letter
            shown[int(step.event["seat"])] = tuple(cards.split() if isinstance(cards, str) else (str(c) for c in cards))
    return Hand(
        deal=current["deal"], button=current["button"], names=current["names"], player_ids=current["player_ids"],
        stacks_before=current["stacks_before"],
        stacks_after={s: int(final["seats"][s]["stack"]) for s in seats},
        dealt=current["dealt"], antes=current["antes"], pot_in=current["pot_in"],
        pot_left=int(final["pot"]),  # the pot it left, or while in play the pot so far
        awards={int(s): int(a) for s, a in final["awards"].items()} if end is not None and final["last_end"] == "won" else {},
        end=str(final["last_end"]) if end is not None else "in_play",
        ante=current["ante"], small_bet=current["small_bet"], big_bet=current["big_bet"],
        requirement=current["requirement"], opener=final["jackpot"]["opener"] if end is None else _opener(current),
        complete=end is not None, profile=current["profile"], steps=tuple(current["steps"]),
        rulings=tuple(current["rulings"]), shown=shown,
        raked=int(final["house"]["last_rake"]) if won else 0, dropped=int(final["house"]["last_drop"]) if won else 0,
    )


def _opener(current: dict[str, Any]) -> int | None:
    """The seat whose opening stands (the last one not withdrawn: a reopen after false openers)."""
    seat = None
    for step in current["steps"]:
        if step.event.get("type") in ("open", "reopen") and not step.voided:
            seat = int(step.event["seat"])
    return seat


def result_words(hand: Hand) -> str:
    """How the hand ended, in a few words.

    >>> h = Hand(3, 1, {2: "Bob", 4: "Dev"}, {}, {}, (2, 4), {}, 60, 0, {2: 90, 4: 90}, "won", 5, 10, 20, "J",
    ...          2, True)
    >>> result_words(h)
    'seat 2 (Bob) and seat 4 (Dev) split 180'
    >>> result_words(Hand(4, 1, {}, {}, {}, (), {}, 60, 80, {}, "carried", 5, 10, 20, "J", 2, True))
    'the pot of 80 stays for the next deal'
    """
    if not hand.complete:
        return "in play"
    if hand.end == "won" and hand.awards:
        takers = sorted(s for s, a in hand.awards.items() if a > 0)
        total = sum(hand.awards.values())
        if len(takers) == 1:
            return f"{seats_text(takers, hand.names)} wins {total}"
        if len(set(hand.awards[s] for s in takers)) == 1:
            return f"{seats_text(takers, hand.names)} split {total}"
        return "; ".join(f"{seats_text([s], hand.names)} wins {hand.awards[s]}" for s in takers)
    if hand.end == "throw_in":
        return f"nobody opened: the pot of {hand.pot_left} carries to the next deal"
    return f"the pot of {hand.pot_left} stays for the next deal"
