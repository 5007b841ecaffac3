"""Playing whole hands for the tournament tests: a winner beats a loser at the showdown, everyone
else folds. Works against anything with ``state(table) -> dict`` and ``log(table, event) -> dict``
(the engine directly, or the app's API), choosing every action from the table's ``legal`` list,
read back as move values (:func:`rules.jackpot.moves.parse_move`) that build the events, so each
hand is one the rules accept."""

from __future__ import annotations

from typing import Any, Callable

from rules.jackpot.betting import BetMove, CallMove, CheckMove, FoldMove, RaiseMove
from rules.jackpot.draw import DrawMove
from rules.jackpot.moves import Move, parse_move
from rules.jackpot.opening import OpenMove, PassMove
from rules.jackpot.showdown import MuckMove, ShowMove
from tests.conftest import bearer

WINNER_CARDS = "As Ad Ah Kc Kd"  # a full house: openers, and better than the losers'
LOSER_CARDS = ("2c 3d 4h 6s 8c", "2d 3h 4s 6c 9d", "2h 3s 4c 7d 9h", "2s 3c 5d 7h 9s")  # no pair, no straight

#: What each player prefers among the legal moves (the first legal one is taken).
WINNER: tuple[type[Move], ...] = (RaiseMove, OpenMove, BetMove, CallMove, CheckMove, DrawMove, ShowMove)
LOSER: tuple[type[Move], ...] = (CallMove, CheckMove, PassMove, DrawMove, ShowMove, MuckMove)
OTHER: tuple[type[Move], ...] = (PassMove, FoldMove, CheckMove, DrawMove, MuckMove)


def act(state: dict[str, Any], winner: int, loser: int | tuple[int, ...]) -> dict[str, Any]:
    """The event the seat to act logs (``loser``: one seat, or several who all call to the end)."""
    losers = loser if isinstance(loser, tuple) else (loser,)
    seat = state["to_act"]
    legal = {type(m): m for m in map(parse_move, state["legal"])}
    prefs = WINNER if seat == winner else LOSER if seat in losers else OTHER
    move = next(legal[k] for k in prefs if k in legal)
    match move:
        case RaiseMove() | OpenMove() | BetMove():
            return move.event(amount=max(move.amounts) if move.amounts else None).to_dict()
        case DrawMove():
            return move.event(0).to_dict()
        case ShowMove():
            return move.event(WINNER_CARDS if seat == winner else LOSER_CARDS[losers.index(seat) % len(LOSER_CARDS)]).to_dict()
    return move.event().to_dict()  # type: ignore[attr-defined, no-any-return]


def play_hand(state: Callable[[], dict[str, Any]], log: Callable[[dict[str, Any]], Any],
              winner: int, loser: int | tuple[int, ...], limit: int = 60) -> dict[str, Any]:
    """Deal and play one hand to its end; returns the state between deals.

    Each action is chosen from the state the log's answer carries when it has one (the app's answer
    to a tap: the table as the dealer's tablet goes on from it), else from ``state()``. Between
    deals the table is read again through ``state()`` and must be what the last answer said: both
    ways of reading a table are held to each other once a hand (issue 34, session 42: the table was
    read again after every action, a second request per tap)."""
    now = answered(log({"type": "deal"}), state)
    for _ in range(limit):
        if now["phase"] == "between_deals":
            read = state()
            assert read == now, (read, now)
            return now
        now = answered(log(act(now, winner, loser)), state)
    raise AssertionError(f"the hand did not end in {limit} actions: {state()}")


def answered(answer: Any, state: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The table's state as ``answer`` (a log's answer) carries it, else read by ``state()``."""
    if isinstance(answer, dict) and isinstance(answer.get("state"), dict):
        return answer["state"]
    return state()


def bust(state: Callable[[], dict[str, Any]], log: Callable[[dict[str, Any]], Any], winner: int,
         loser: int | tuple[int, ...], hands: int = 40) -> dict[str, Any]:
    """Play hands until the loser (every loser) has no chips and no claim."""
    losers = loser if isinstance(loser, tuple) else (loser,)
    for _ in range(hands):
        now = play_hand(state, log, winner, loser)
        seats = {int(k): v for k, v in now["seats"].items()}
        if all(s not in seats or (seats[s]["stack"] == 0 and seats[s]["put"] == 0) for s in losers):
            return now
    raise AssertionError(f"seat {loser} still has chips after {hands} hands")


class Api:
    """The JSON API through the test client, with each role's bearer token."""

    def __init__(self, client, tokens):
        self.client, self.tokens = client, tokens

    def call(self, method, url, role="director", json=None, status=None):
        response = self.client.open(url, method=method, json=json, headers=bearer(self.tokens[role]))
        if status is not None:
            assert response.status_code == status, response.get_json()
        return response

    def get(self, url, role="dealer", status=200):
        return self.call("GET", url, role, status=status).get_json()

    def post(self, url, json=None, role="director", status=None):
        return self.call("POST", url, role, json=json or {}, status=status).get_json()

    def table(self, table_id):
        return self.get(f"/api/tables/{table_id}")["state"]

    def log(self, table_id, event, role="dealer"):
        return self.post(f"/api/tables/{table_id}/events", event, role=role, status=201)
