"""``legal()`` and ``requests()`` ask only the checks of the event types that may happen in the
table's phase (``@may(Event, phases)``, :mod:`rules.jackpot.event_base`), and of those only the
checks whose declared test holds (``when``: a betting round under way, the pot still to be opened):
a type's declared phases must hold every phase its check can allow it in, and its test every table
it can allow it at, or a move would silently go missing from the tablet. These tests keep the
declarations true: over every state a few hundred random walks and the short search of mistakes
reach (false openers, reopen offers, rulings: tests/money/search.py), the moves listed are exactly
those that asking every check, as ``legal()`` did before issue 34, gives.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import rules.jackpot.table as table_module
from rules.jackpot.event_base import MAY, MAY_IN, MAY_WHEN, NotNow, Who
from rules.jackpot.moves import legal, requests
from rules.jackpot.state import PHASES, WorkingTable
from tests.money.search import search
from tests.walks import walks


def every_check(t: WorkingTable) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``legal()`` and ``requests()`` the way they were: every check asked, in the order declared."""
    found: tuple[list[Any], list[Any]] = ([], [])
    for cls, check in MAY.items():
        listed = 0 if cls.ask is None and cls.by is Who.DEALER else 1 if cls.ask is not None else None
        if listed is None:
            continue
        try:
            found[listed].append(check(t, None))
        except NotNow:
            pass
    return tuple(sorted(found[0], key=lambda m: m.place)), tuple(sorted(found[1], key=lambda m: m.place))


@pytest.fixture
def states(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[WorkingTable]]:
    """Every working table whose moves a state works out (each state's ``legal()``, asked by its
    ``to_dict()``), while the test drives the engine."""
    seen: list[WorkingTable] = []

    def recording(t: WorkingTable) -> Any:
        seen.append(t)
        return legal(t)

    monkeypatch.setattr(table_module, "legal", recording)
    yield seen


def test_the_moves_of_each_phase_are_those_every_check_gives(states: list[WorkingTable]) -> None:
    """Over 100 random walks and the search of mistakes up to 6 events: the same moves, in the same
    order, as every check asked; every phase met, reopen offers and the widow card among them (a
    logged event meets its check, not the declaration: it still says why not, in any phase)."""
    walks(range(100))
    search(6)
    assert len(states) > 10_000 and len(MAY_IN) >= 20 and len(MAY_WHEN) >= 7
    phases: Counter[str] = Counter()
    for t in states:
        assert (legal(t), requests(t)) == every_check(t), f"in {t.phase}: {t.message}"
        phases[str(t.phase)] += 1
    assert set(phases) == set(PHASES)
    assert any(t.reopen is not None for t in states) and any(t.widow_due for t in states)
