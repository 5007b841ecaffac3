"""The walks `make test` runs (issue 34): a fixed corpus of seeds that reaches everything the 5,000
walks of `make test-deep` reach, measured, plus fresh seeds drawn for each run.

What "everything" means, for each walk of :func:`tests.walks.walk` (150 events):

- the arcs of ``rules/`` it runs (coverage.py, branch coverage: each jump from line to line), and
- the situations it meets: each phase with each move ``legal`` lists in it and each request beside
  the turn, each event applied in each phase, each ruling's outcome, each way a deal ends, each
  rule id a message cites, each profile option with each value it was given.

``python -m tests.walk_corpus`` measures every seed of the deep run (coverage.py is not one of the
project's packages: ``.venv/bin/uv pip install coverage`` first; about ten minutes of CPU), prints
how the arcs and situations grow as walks are added, and picks the corpus greedily: the seed that
adds the most not yet reached, until the corpus reaches all the deep run does. Run it again when the
engine changes, and paste the seeds it prints into :data:`WALK_SEEDS`: a corpus chosen on older code
still walks the same tables, but what it reaches of new code is left to the fresh seeds and to
`make test-deep` (docs/testing.md, "Issue 34, session 39: a corpus of walks, measured").
"""

from __future__ import annotations

import heapq
import json
import re
import sys
from collections.abc import Iterable
from typing import Any

#: The seeds of `make test-deep`: 5,000 walks of 150 events (tests/test_no_stuck_table.py).
DEEP_SEEDS = range(1000, 6000)

#: Chosen from :data:`DEEP_SEEDS` by ``python -m tests.walk_corpus`` (at 994f216): these 57 walks
#: reach every arc of ``rules/`` (4,379) and every situation (247) that the 5,000 reach, measured
#: again for the 57 alone in a fresh process (docs/testing.md,
#: "Issue 34, session 39: a corpus of walks, measured").
WALK_SEEDS: tuple[int, ...] = (
    1003, 1037, 1039, 1050, 1072, 1104, 1126, 1128, 1133, 1171, 1206, 1229, 1231, 1276, 1322, 1323,
    1365, 1378, 1398, 1417, 1522, 1538, 1549, 1569, 1583, 1590, 1629, 1662, 1989, 2012, 2146, 2411,
    2461, 2481, 2546, 2671, 2703, 2776, 2927, 2990, 3085, 3247, 3501, 3507, 3678, 3699, 3729, 3840,
    4344, 4579, 4640, 4691, 4696, 4715, 5338, 5359, 5865,
)

RULE_ID = re.compile(r"\b([A-Z]{1,2}\d{1,2})\b")


def situations(state: dict[str, Any], seen: set[tuple[str, ...]]) -> None:
    """Add what ``state`` (a table's plain data) shows to ``seen``: the moves listed in its phase,
    the requests, the rulings' outcomes, how the last deal ended, the rule ids its message cites."""
    phase = state["phase"]
    seen.update(("legal", phase, m["type"]) for m in state["legal"])
    seen.update(("request", phase, m["type"]) for m in state["requests"])
    seen.update(("ruling", str(r.get("outcome"))) for r in state["rulings"])
    seen.add(("end", state["last_end"]))
    seen.update(("rule", rule) for rule in RULE_ID.findall(state["message"] or ""))


def measure(seeds: Iterable[int]) -> dict[int, tuple[frozenset[Any], frozenset[tuple[str, ...]]]]:
    """Each seed's arcs of ``rules/`` and situations, one walk at a time."""
    import coverage  # a measuring tool, not one of the project's packages (see the docstring)

    from rules.jackpot.table import TableState
    from tests import walks

    seen: set[tuple[str, ...]] = set()
    to_dict, apply, random_profile = TableState.to_dict, TableState.apply, walks.random_profile

    def reading(self: TableState) -> dict[str, Any]:
        state = to_dict(self)
        situations(state, seen)
        return state

    def applying(self: TableState, event: Any) -> TableState:
        seen.add(("event", str(self.phase), event.kind))
        return apply(self, event)

    def profile(rng: Any) -> Any:
        chosen = random_profile(rng)
        seen.update(("option", k, json.dumps(v, sort_keys=True)) for k, v in chosen.to_dict().items())
        return chosen

    # the walk's own calls, watched (a measuring tool: the walks themselves are not changed)
    TableState.to_dict, TableState.apply = reading, applying  # type: ignore[method-assign]
    walks.random_profile = profile
    cov = coverage.Coverage(branch=True, source=["rules"], data_file=None)
    out = {}
    try:
        for seed in seeds:
            seen.clear()
            cov.start()
            walks.walk(seed, steps=150)
            cov.stop()
            data = cov.get_data()
            arcs = {(f.split("/rules/", 1)[1], arc)
                    for f in data.measured_files() for arc in data.arcs(f) or ()}
            cov.erase()
            out[seed] = (frozenset(arcs), frozenset(seen))
    finally:
        TableState.to_dict, TableState.apply = to_dict, apply  # type: ignore[method-assign]
        walks.random_profile = random_profile
    return out


def choose(reached: dict[int, tuple[frozenset[Any], frozenset[Any]]]) -> list[int]:
    """Few seeds that together reach all that ``reached`` does, picked greedily: the seed adding the
    most not yet reached first (lazily: what a seed adds only shrinks as others are picked)."""
    every = {seed: a | s for seed, (a, s) in reached.items()}
    left = set().union(*every.values())
    queue = [(-len(things), seed) for seed, things in every.items()]
    heapq.heapify(queue)
    chosen = []
    while left:
        _, seed = heapq.heappop(queue)
        gain = len(every[seed] & left)
        if queue and gain < -queue[0][0]:  # it adds less now: back in the queue at its new worth
            heapq.heappush(queue, (-gain, seed))
            continue
        chosen.append(seed)
        left -= every[seed]
    return chosen


def main(argv: list[str]) -> None:
    """``python -m tests.walk_corpus [FIRST STOP]``: the deep run's seeds, or ``range(FIRST, STOP)``."""
    seeds = range(int(argv[0]), int(argv[1])) if argv else DEEP_SEEDS
    reached = measure(seeds)
    arcs: set[Any] = set()
    seen: set[Any] = set()
    print("walks  arcs  situations")
    for n, seed in enumerate(seeds, 1):
        arcs |= reached[seed][0]
        seen |= reached[seed][1]
        if n in (1, 10, 50, 100, 200, 300, 500, 1000, 1500, 2000, 3000, 4000, 5000) or n == len(seeds):
            print(f"{n:5}  {len(arcs):5}  {len(seen):5}")
    corpus = choose(reached)
    print(f"corpus: {len(corpus)} seeds")
    print(tuple(sorted(corpus)))


if __name__ == "__main__":
    main(sys.argv[1:])
