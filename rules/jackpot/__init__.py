"""The table engine: ``replay(setup, events) -> state``.

This is the contract the web layer and the dealer's tablet use (docs/contract.md, "Table setup and
events"). The state of a table is always the replay of its setup and its event log; every event
is checked against the state before it, and a refused event raises :class:`rules.IllegalAction`
whose message says what was wrong and what is allowed now.

>>> setup = {"profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
...          "seats": [{"seat": 1, "player": "Ann", "stack": 500},
...                    {"seat": 2, "player": "Bob", "stack": 500},
...                    {"seat": 3, "player": "Cy", "stack": 500}]}
>>> log = [{"type": "deal"}, {"type": "pass", "seat": 2}, {"type": "open", "seat": 3},
...        {"type": "call", "seat": 1}, {"type": "fold", "seat": 2}]
>>> state = replay(setup, log)
>>> state["phase"], state["to_act"], state["pot"], state["jackpot"]["opener"]
('draw', 3, 35, 3)

Seat 2 folded, so the draw starts with seat 3, the first live seat left of the button (D2):

>>> state["legal"]
[{'type': 'draw', 'min': 0, 'max': 5, 'split': True}]
>>> replay(setup, log + [{"type": "call", "seat": 4}])
Traceback (most recent call last):
...
rules.IllegalAction: there is no seat 4 at this table (seats: 1, 2, 3); seat 3 may draw 0 to 5 cards
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.jackpot.events import Event, parse_event
from rules.jackpot.snapshot import resume, snapshot
from rules.jackpot.table import Seat, TableState

__all__ = ["replay", "replay_state", "apply", "start", "TableState", "Seat", "parse_event", "snapshot", "resume"]


def start(setup: Mapping[str, Any]) -> TableState:
    """The table before its first event.

    >>> start({"ante": 1, "small_bet": 2, "button": 1,
    ...        "seats": [{"seat": 1, "player": "A", "stack": 9}]}).phase
    <Phase.BETWEEN_DEALS: 'between_deals'>
    """
    return TableState.from_setup(setup)


def apply(state: TableState, event: Mapping[str, Any] | Event) -> TableState:
    """The state after one more event (the old state is left as it was)."""
    return state.apply(event)


def replay_state(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any] | Event]) -> TableState:
    """The :class:`TableState` after the log; the error of a refused event names its index."""
    state = TableState.from_setup(setup)
    for event in events:
        state = state.apply(event)
    return state


def replay(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any] | Event]) -> dict[str, Any]:
    """The table's state after the log, as plain data (see :meth:`TableState.to_dict`)."""
    return replay_state(setup, events).to_dict()
