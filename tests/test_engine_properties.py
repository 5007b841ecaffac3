"""Property tests of the table engine: random logs built from the legal actions and random junk.

For every accepted event: chips are conserved (stacks plus pots never change, as antes go in and
awards come out) and the state is well formed. A refused event changes nothing. Replaying the
accepted log gives the same state as applying it event by event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.cards import deck, to_text
from rules.jackpot import TableState, replay, start
from rules.jackpot.deal import WidowMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.events import Event
from rules.jackpot.irregularities import ReopenMove
from rules.jackpot.moves import MenuMove, Move, TurnMove, parse_move
from rules.jackpot.opening import OpenMove
from rules.jackpot.requests import ExposeMove, WrongCountMove
from rules.jackpot.seating import AddChipsMove, MoveSeatMove, SitMove
from rules.jackpot.showdown import ShowMove
from rules.jackpot.snapshot import resume, snapshot
from rules.jackpot.table import PHASES, STATUSES

T = TypeVar("T")

PROFILES: list[Any] = [
    "cardroom", "pagat", "foster",
    {"progressive_openers": True, "ante_deals": 1},
    {"postdraw_first": "left_of_button", "raise_cap": 1, "max_draw": 3, "button_moves_on_throw_in": False},
    {"ante_deals": None, "pot_limit": 30, "wild": "none"},
    {"check_open": True, "open_with_raise": False},  # O2 as the players' guide has it
    # the variants (issue 14): California with blinds and straddles, jacks back with its blind,
    # trips to win, three draws with four to an ace, Foster's blind game with the age
    {"opening_minimum": "none", "blinds": [5, 10], "straddle": True, "ante_deals": None},
    {"jacks_back": True, "jacks_back_blind": True},
    {"trips_to_win": True, "wild": "none"},
    {"draw_rounds": 3, "max_draw": 3, "ace_draws_four": True},
    {"base": "foster", "age": True},
    {"wild": "widow"}, {"wild": "rank", "wild_rank": "5", "stripped_deck": False},  # H4
]
CARDS = [to_text([c]) for c in deck(wild="bug")]
NATURAL = [to_text([c]) for c in deck()]
WIDOW = NATURAL[-1]  # the wild widow turned up in test_legal_moves_are_always_accepted
SHOWABLE = [c for c in NATURAL if c != WIDOW]
TYPES = ["deal", "straddle", "pass", "open", "call", "raise", "fold", "check", "bet", "draw", "show",
         "false_openers", "reopen", "muck", "void", "ruling", "correction", "shuffle",
         "sit", "add_chips", "leave", "sit_out", "sit_in", "move_seat"]


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(2, 7))
    seats = [{"seat": s, "player": f"P{s}", "stack": draw(st.sampled_from([0, 3, 8, 40, 200]))}
             for s in range(1, n + 1)]
    return {"profile": draw(st.sampled_from(PROFILES)), "ante": draw(st.sampled_from([0, 5])),
            "small_bet": 10, "big_bet": 20, "button": draw(st.integers(1, n)), "seats": seats}


NAMES = ["Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kai", "李娜"]


class Drawn:
    """The choices a random log makes, drawn by Hypothesis (``data.draw``): shrinks a failing log
    to a small one. Each draw costs Hypothesis's bookkeeping, tens of microseconds."""

    def __init__(self, draw: Callable[..., Any]) -> None:
        self.draw = draw

    def one(self, options: Sequence[T]) -> T:
        return cast(T, self.draw(st.sampled_from(options)))

    def number(self, low: int, high: int) -> int:
        return cast(int, self.draw(st.integers(low, high)))

    def coin(self) -> bool:
        return cast(bool, self.draw(st.booleans()))

    def distinct(self, options: Sequence[T], size: int) -> list[T]:
        return cast(list[T], self.draw(st.lists(st.sampled_from(options), min_size=size, max_size=size, unique=True)))


class Rolled:
    """The same choices from one seeded :class:`random.Random` that Hypothesis draws once per log:
    a failing log is made again from its seed (Hypothesis prints it, ``rng=Random(0)``, and tries
    smaller seeds first), but not shrunk move by move; each choice costs a microsecond. The
    1,500-log tests use it: Hypothesis's bookkeeping was half their CPU (py-spy, session 41).
    Uniform where Hypothesis leans to the first options and the ends of a range, so its logs mix
    the moves otherwise: docs/testing.md, "Issue 34, session 41: the random logs rolled"."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def one(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def number(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def coin(self) -> bool:
        return self.rng.random() < 0.5

    def distinct(self, options: Sequence[T], size: int) -> list[T]:
        return self.rng.sample(list(options), size)


Choices = Drawn | Rolled


def seating_event(choose: Choices, state: dict[str, Any], move: Move) -> Event:
    """A player coming or going between deals, from what ``legal`` offers."""
    match move:
        case SitMove():
            seated = {x["player"] for x in state["seats"].values()}
            return move.event(choose.one(move.seats),
                              choose.one([n for n in NAMES if n not in seated] or ["Zed"]),
                              choose.one([1, 20, 300]))
        case AddChipsMove():
            return move.event(choose.one(move.seats), choose.one([1, 50, 500]))
        case MoveSeatMove():
            return move.event(choose.one(move.seats), choose.one(move.to))
    raise AssertionError(f"not a seating move with a choice beside the seat: {move}")


def legal_event(choose: Choices, table: TableState, state: dict[str, Any]) -> dict[str, Any]:
    """An event one of the moves allowed now builds (:mod:`rules.jackpot.moves`), its choices drawn
    (the cards at random: a hand may be refused, as junk is)."""
    move = choose.one([*table.legal(), *table.requests()])
    return legal_move_event(choose, move, state).to_dict()


def legal_move_event(choose: Choices, move: Move, state: dict[str, Any]) -> Event:
    match move:
        case WidowMove():  # H4: the dealer turns up a card; its rank is wild
            return move.event(choose.one(NATURAL))
        case ExposeMove():
            return move.event(choose.one(move.seats), choose.one(NATURAL))
        case WrongCountMove():
            return move.event(choose.one(move.seats), choose.one(move.counts))
        case DrawMove():
            count = choose.one(move.cards) if move.cards else choose.number(move.min, move.max)
            if move.split and count and choose.coin():
                # S1: the escrow holds every discard
                escrow = choose.distinct(CARDS, count)
                return move.event(count, split=True, escrow=escrow)
            return move.event(count)
        case ShowMove():
            size = choose.one([5, 5, 5, 5, 5, 5, 4, 6])
            return move.event(choose.distinct(CARDS, size))
        case OpenMove():  # O2: the minimum, a raise, a check
            return move.event(amount=choose.one(move.amounts) if choose.coin() else None)
        case ReopenMove():
            return move.event(amount=move.amount if choose.coin() else None)
        case SitMove() | AddChipsMove() | MoveSeatMove():
            return seating_event(choose, state, move)
        case MenuMove():  # a menu whose only choice is the seat (leave, sit out or in, keep openers)
            return move.event(choose.one(move.seats))  # type: ignore[attr-defined, no-any-return]
    return move.event()  # type: ignore[attr-defined, no-any-return]  # a move with nothing left to choose


def junk_event(choose: Choices, state: dict[str, Any], size: int) -> dict[str, Any]:
    kind = choose.one(TYPES)
    event: dict[str, Any] = {"type": kind, "seat": choose.number(0, 8)}
    if kind == "false_openers" and state["jackpot"]["opener"] is not None and choose.coin():
        event["seat"] = state["jackpot"]["opener"]
    if kind == "void":
        event["event"] = choose.number(max(0, size - 3), size)
    if kind == "draw":
        event["count"] = choose.number(-1, 6)
    if kind == "show":
        event["cards"] = choose.one(["As Ad Kc 7h 2s", "Jk Jk", "Zz", "As Ad"])
    if kind in ("open", "reopen"):
        event["amount"] = choose.one([0, 5, 10, 20])
    if kind in ("sit", "add_chips", "move_seat"):
        event.update(player=choose.one(["Ann", "", "P1"]), chips=choose.one([0, 5, -1]),
                     amount=choose.one([0, 5]), to=choose.number(0, 12))
    if kind == "correction":
        give, get = choose.number(0, 8), choose.number(0, 8)
        amount = choose.one([1, 5, 50, 5000])
        event["moves"] = [{"seat": give, "amount": -amount}, {"seat": get, "amount": amount}]
        event["reason"] = choose.one(["miscount", ""])
    if kind == "ruling":
        event["ruling"] = choose.one([
            {"outcome": "CALLER_NOT_REFUNDED", "pot_plays": False},
            {"outcome": "HAND_DEAD_CARD_COUNT", "dead": [event["seat"]], "issue": "wrong_card_count"},
            {"outcome": "X", "returns": {str(event["seat"]): 5}, "pot_plays": True},
            {"outcome": "X", "winner": event["seat"]},
            {"outcome": "X", "dead": [state["jackpot"]["opener"] or 1], "pot_plays": False},
        ])
    return event


def check_state(state: dict[str, Any], total: int) -> None:
    # the conservation law: stacks + pot == starting stacks + chips_in - chips_out, every event
    ledger = state["ledger"]
    assert sum(x["stack"] for x in state["seats"].values()) + state["pot"] == \
        total + ledger["chips_in"] - ledger["chips_out"]
    assert sum(p["amount"] for p in state["pots"]) == state["pot"]
    assert all(x["stack"] >= 0 and x["put"] >= 0 for x in state["seats"].values())
    assert state["phase"] in PHASES
    assert all(x["status"] in STATUSES for x in state["seats"].values())
    if state["phase"] == "between_deals":
        # the deal is offered only when it can be dealt (issue 22); seating moves always are; no
        # seat is to act, so every move is the dealer's or a menu of seats
        assert state["to_act"] is None and state["legal"]
        assert not [m for m in map(parse_move, state["legal"]) if isinstance(m, TurnMove)]
    else:
        assert state["to_act"] in state["seats"] and state["legal"]
        # the one to act is in the hand, or is an opener who folded showing the kept hand (F12)
        kept = state["keep_openers"] is not None and state["to_act"] == state["jackpot"]["opener"]
        assert state["seats"][state["to_act"]]["status"] == "active" or kept


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), data=st.data())
def test_random_logs_conserve_chips_and_refusals_change_nothing(setup: dict[str, Any], data: st.DataObject) -> None:
    """Chips conserved after every accepted event; a refused event leaves the state as it was;
    replay of the accepted log equals applying it event by event, and resuming a snapshot taken
    before a deal with the events after it (120 logs: the 1,500 below are the slow run). Drawn by
    Hypothesis, which shrinks a failing log to a small one."""
    random_log(setup, Drawn(data.draw))


@pytest.mark.slow
@pytest.mark.parametrize("part", [1, 2, 3])
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), rng=st.randoms(use_true_random=True))
def test_random_logs_conserve_chips_and_refusals_change_nothing_over_many_logs(
        part: int, setup: dict[str, Any], rng: random.Random) -> None:
    """The same over 1,500 random logs, as three tests of 500 (each drawn afresh): one test of
    1,500 took minutes of one core, the second longest of `make test`, while the other worker ran
    out of work; xdist spreads the three (docs/testing.md, "What the suite's time goes to"). Each
    log's choices come from a seeded generator (:class:`Rolled`), not one Hypothesis draw each."""
    random_log(setup, Rolled(rng))


def random_log(setup: dict[str, Any], choose: Choices) -> None:
    """Up to 80 events, mostly legal, some junk, checked after each (see the tests above)."""
    table = start(setup)
    total = sum(s["stack"] for s in setup["seats"])
    accepted: list[dict[str, Any]] = []
    snapshots: list[tuple[int, dict[str, Any]]] = []
    current = table.to_dict()
    steps = choose.number(5, 80)
    for _ in range(steps):
        if choose.number(0, 9) < 8:
            event = legal_event(choose, table, current)
        else:
            event = junk_event(choose, current, len(accepted))
        try:
            nxt = table.apply(event)
        except IllegalAction:
            assert table.to_dict() == current
            continue
        if event.get("type") == "deal":
            snapshots.append((len(accepted), json.loads(json.dumps(snapshot(table)))))
        accepted.append(event)
        table, current = nxt, nxt.to_dict()
        check_state(current, total)
    assert replay(setup, accepted) == current
    # a snapshot taken where a deal follows, resumed with the events after it, is the replay
    for index, data in snapshots:
        assert resume(setup, data, accepted[index:]).to_dict() == current


@settings(max_examples=150, deadline=None)
@given(setup=setups(), data=st.data())
def test_legal_moves_are_always_accepted(setup: dict[str, Any], data: st.DataObject) -> None:
    """Whatever ``legal`` offers is accepted (a deal only needs two players left), so a tablet built
    on it never offers a dead button."""
    table = start(setup)
    for _ in range(data.draw(st.integers(5, 60))):
        state = table.to_dict()
        move = data.draw(st.sampled_from([*table.legal(), *table.requests()]))
        match move:
            case ExposeMove():
                continue  # the card faced must be one no hand holds: tests/walks.py deals real cards
            case WidowMove():
                event = move.event(WIDOW)
            case DrawMove():
                event = move.event(0)  # standing pat: nothing to keep apart even when asked (F12)
            case ShowMove():
                # a different hand for each seat, never holding the card turned up on the table (H4)
                event = move.event(SHOWABLE[5 * move.seat:5 * move.seat + 5])
            case _:  # D8: any count a wrong_count request offers is ruled
                event = legal_move_event(Drawn(data.draw), move, state)
        table = table.apply(event)  # every move legal offers is accepted (issue 22), the deal too


def test_a_state_does_not_grow_with_the_day() -> None:
    """A table's state holds the pot in play, not the day: after 300 pots, each ended by a ruling
    (the opener could not prove openers, F8) and each with a withdrawn tap, its plain data is as
    large as after 10."""
    setup = {"profile": "cardroom", "ante": 1, "small_bet": 2, "big_bet": 4, "button": 1,
             "seats": [{"seat": s, "player": f"P{s}", "stack": 10_000} for s in (1, 2, 3)]}
    table = start(setup)
    sizes = {}
    for n in range(1, 301):
        table = table.apply({"type": "deal"})
        table = table.apply({"type": "pass", "seat": table.to_act})
        table = table.apply({"type": "void", "event": table.version - 1})
        opener = table.to_act
        table = table.apply({"type": "open", "seat": opener})
        table = table.apply({"type": "fold", "seat": table.to_act})
        caller = table.to_act
        table = table.apply({"type": "call", "seat": caller})
        for _ in range(2):
            table = table.apply({"type": "draw", "seat": table.to_act, "count": 0})
        for _ in range(2):
            table = table.apply({"type": "check", "seat": table.to_act})
        table = table.apply({"type": "show", "seat": opener, "cards": "Ts 9d 7h 4c 2c"})  # no openers
        # the caller's is the one live hand left: it takes the pot without showing (issue 22)
        assert table.to_dict()["rulings"][-1]["outcome"] == "OPENER_DEAD_BEST_OTHER_WINS"
        assert dict(table.to_dict()["awards"]) == {caller: 7}
        if n in (10, 300):
            sizes[n] = len(json.dumps(table.to_dict(), default=str))
    assert sizes[300] <= sizes[10] * 1.05, sizes
