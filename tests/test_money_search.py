"""Who gets each chip, over combinations of mistakes (issue 29): the money model of tests/money read on
the issue's own situations, and the exhaustive search with a short N (``make search`` runs a long one).

The model is written apart from ``rules/`` (tests/money/model.py); these first tests check it says what
the seeds say where the engine was once wrong, so that the search's "0 disagreements" is the engine
agreeing with the seeds, not with itself."""

from __future__ import annotations

import pytest

from tests.money.model import Model
from tests.money.search import PROFILES, Table, search
from tests.notation import log, table

OPENING = {1: ("Ac", "Tc", "8d", "6s", "4d"), 2: ("9h", "8h", "6c", "5d", "3c"),
           3: ("9s", "8s", "6d", "5h", "3d"), 4: ("4h", "4d", "Ah", "Kh", "Qc"), 5: ("Kc", "Qd", "Jh", "9c", "2d")}


def follow(setup: dict, text: str) -> Model:
    model = Model.of(setup)
    for event in log(text):
        model.apply(event, OPENING)
        if model.awards and model.pending_pot:  # the model's own split of an award (no odd chips here)
            assert model.pay_awards({s: lo for s, (lo, _) in model.awards.items()}) is None
    return model


def test_the_model_keeps_a_first_false_opener_s_bet_in_the_pot_by_both_paths() -> None:
    """F2, F3, F4, F8: seat 3 opens falsely, seat 4 reopens and is false too; by the floor's finding
    or by seat 4 failing to prove at the show, seat 3 stays on 485 and the pot carries 45."""
    five = table(5)
    start = "deal; 2 pass; 3 open; 4 call; 5 fold; 1 fold; 3 false_openers; 4 reopen"
    found = follow(five, start + "; 4 false_openers")
    shown = follow(five, start + "; 2 fold; 4 show 4h 4d Ah Kh Qc")
    for model in (found, shown):
        stacks, pot = model.money()
        assert stacks[3] == 485 and stacks[4] == 485 and pot == 45 and model.ended == "carried"


def test_the_model_reads_foster_s_penalty_for_a_split_that_proves_false() -> None:
    """F9, S2: drawn to, a false opener antes for all the others next deal, however it was found."""
    foster = table(3, profile="foster")
    model = follow(foster, "deal; 2 pass; 3 open; 1 call; 2 fold; 3 draw 1 split 9s; 1 draw 1; 3 check; 1 check; "
                           "3 show 8s 6d 5h 3d Qd; deal")
    stacks, pot = model.money()
    assert stacks[3] == 485 - 15 and pot == 15


def test_the_search_plays_every_mistake_the_seeds_name() -> None:
    """A very short search of one table, to see every kind of move and ruling come up: N 7 here."""
    figures = search(7, seats=(4,), profiles=("cardroom",))
    assert figures.disagreements == []
    assert {"false_openers", "reopen", "split", "keep_openers", "wrong_count", "expose", "muck", "raise",
            "leave", "sit"} <= set(figures.events)
    assert {"POT_PLAYS_OPENER_DEAD", "REOPENED", "POT_CARRIES_OVER", "HAND_DEAD_CARD_COUNT"} <= set(figures.outcomes)


@pytest.mark.slow
def test_every_combination_of_mistakes_up_to_n_events_agrees_with_the_money_model() -> None:
    """The exhaustive search, short: every sequence of up to 8 events on 3 to 5 seats (with and without
    a player all in for part of the ante) in the three main profiles, each state checked against the
    money model (who holds each chip, no pot to a dead hand, one situation one answer)."""
    figures = search(8)
    assert {t.profile for t in (Table(p, 3, False) for p in PROFILES)} == set(PROFILES)
    problems = [f"{d['table']}: {d['kind']}: {d['what']} after {'; '.join(d['path'])}" for d in figures.disagreements]
    assert problems == []
    assert figures.sequences > 25_000 and len(figures.distinct) > 20_000
    assert {"ALL_IN_OPENER_BARRED", "FOSTER_FORFEIT", "SPLIT_FAILED", "OPENER_DEAD_POT_STAYS"} <= set(figures.outcomes)
