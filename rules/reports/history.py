"""A table's night by player, read from its log: the hands each player was dealt, the chips each
brought in and took away, and the net. Nothing here is stored: it is the log replayed (docs/contract.md,
"Players come and go": the ledger and the conservation law).

Decisions, where the log leaves a choice:

* A player is known by name (case as first seated). The director's seating is each starting
  player's first buy-in (``start``); a ``sit`` is a buy-in (or the arrival of a player moved from
  another table, who brings the chips the other table let go), ``add_chips`` a rebuy; ``leave``
  takes the stack away.
* Net = taken away + stack now − starting stack − bought in. Chips a player has in a pot still in
  play (a carried jackpot) count as spent until the pot is won, so over a table the nets add up to
  minus the pot: ``sum(net) + pot == 0`` (the conservation law read by player).
* A hand played is a deal the player was dealt into; a deal withdrawn by a void is no hand.

>>> setup = {"ante": 5, "small_bet": 10, "big_bet": 20, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> events = [{"type": "sit", "seat": 3, "player": "Cleo", "chips": 50}, {"type": "deal"},
...           {"type": "open", "seat": 2}, {"type": "fold", "seat": 3}, {"type": "fold", "seat": 1},
...           {"type": "show", "seat": 2, "cards": "Jc Jd 4h 5s 7c"}, {"type": "add_chips", "seat": 1, "amount": 20}, {"type": "leave", "seat": 3}]
>>> h = table_history(setup, events)
>>> [(p.player, p.hands, p.start, p.bought_in, p.taken_away, p.stack, p.net) for p in h.players]
[('Ann', 1, 100, 20, 0, 115, -5), ('Bob', 1, 100, 0, 0, 110, 10), ('Cleo', 1, 0, 50, 45, None, -5)]
>>> h.pot, sum(p.net for p in h.players) + h.pot
(0, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.jackpot import TableState, replay_state

__all__ = ["Hand", "PlayerLine", "SeatingStep", "TableHistory", "table_history"]

#: The events that change who sits where or with how much (rules.jackpot.seating), shown in the history.
SEATING = ("sit", "add_chips", "leave", "sit_out", "sit_in", "move_seat")


@dataclass
class Hand:
    """One deal: its number, who was dealt in (seat → player), and what it ended in."""

    deal: int
    index: int  # the position of its ``deal`` event in the log (the engine's numbering)
    players: dict[int, str]
    end: str | None = None  # "won", "throw_in", "carried" (rules.jackpot.state.DealEnd), None while in play
    awards: dict[str, int] = field(default_factory=dict)  # player → chips won


@dataclass
class PlayerLine:
    """One player at one table: hands dealt, chips in and out, the stack now (None once gone), net."""

    player: str
    seats: list[int] = field(default_factory=list)
    hands: int = 0
    start: int = 0
    bought_in: int = 0
    taken_away: int = 0
    stack: int | None = None
    won: int = 0  # chips awarded from pots (gross, for the record; the net already counts them)

    @property
    def net(self) -> int:
        return self.taken_away + (self.stack or 0) - self.start - self.bought_in


@dataclass(frozen=True)
class SeatingStep:
    """A seating event as it stood in the log (withdrawn ones marked), in words."""

    index: int
    player: str
    text: str
    voided: bool


@dataclass
class TableHistory:
    """A table's night: one line per player (in order of arrival), the hands, the seating steps."""

    players: list[PlayerLine]
    hands: list[Hand]
    seating: list[SeatingStep]
    ledger: dict[str, int]
    pot: int

    def player(self, name: str) -> PlayerLine | None:
        folded = name.casefold()
        return next((p for p in self.players if p.player.casefold() == folded), None)


def _words(kind: str, event: Mapping[str, Any], player: str) -> str:
    if kind == "sit":
        return f"{player} sits in seat {event['seat']} with {event['chips']}"
    if kind == "add_chips":
        return f"{player} (seat {event['seat']}) adds {event['amount']}"
    if kind == "move_seat":
        return f"{player} moves from seat {event['seat']} to seat {event['to']}"
    verb = {"leave": "leaves", "sit_out": "sits out", "sit_in": "is back in"}[kind]
    return f"{player} (seat {event['seat']}) {verb}"


def table_history(setup: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> TableHistory:
    """Replay ``events`` over ``setup`` and read the night by player (see the module's doc)."""
    state = replay_state(setup, [])
    night = _Night(state.to_dict())
    payloads: list[Mapping[str, Any]] = []
    # The whole state (to_dict) is read only where the night changes: a seating event, a deal, a
    # deal's end, an undo. A bet or a draw changes nobody's line, and skipping them keeps a night's
    # history a few times cheaper than reading every state.
    prev: TableState = state
    prev_dict: dict[str, Any] | None = night.start
    for index, event in enumerate(events):
        payloads.append(event)
        state = state.apply(event)
        kind = event.get("type")
        ended = prev.phase != "between_deals" and state.phase == "between_deals"
        if not (ended or kind in SEATING or kind in ("void", "deal")):
            prev, prev_dict = state, None
            continue
        before = prev_dict if prev_dict is not None else prev.to_dict()
        after = state.to_dict()
        target = event
        if kind == "void":
            target = payloads[int(event["event"])]
            night.withdraw(int(event["event"]), target, before, after)
        night.chips(target, before, after)
        if kind in SEATING:
            night.seated(index, event, before, after)
        if kind == "deal":
            night.dealt(index, after)
        if ended and after["deal"] in night.hands:
            night.ended(after)
        prev, prev_dict = state, after
    return night.close(prev_dict if prev_dict is not None else prev.to_dict())


class _Night:
    """The night read by player while the log replays: a line per player (by name, any case), the
    hands dealt, the seating steps."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.start = start
        self.lines: dict[str, PlayerLine] = {}
        self.hands: dict[int, Hand] = {}
        self.seating: list[SeatingStep] = []
        for seat, x in start["seats"].items():  # the director's seating: each one's first buy-in
            p = self.line(x["player"])
            p.start += x["stack"]
            p.seats.append(seat)

    def line(self, name: str) -> PlayerLine:
        """The player's line, opened on first sight."""
        key = name.casefold()
        if key not in self.lines:
            self.lines[key] = PlayerLine(name)
        return self.lines[key]

    def withdraw(self, voided: int, target: Mapping[str, Any], before: Mapping[str, Any],
                 after: Mapping[str, Any]) -> None:
        """A void: the seating step it withdraws is marked, a withdrawn deal is no hand, and a
        withdrawn end of a deal puts the deal back in play."""
        self.seating[:] = [s if s.index != voided else SeatingStep(s.index, s.player, s.text, True)
                           for s in self.seating]
        if target.get("type") == "deal":
            self.hands.pop(before["deal"], None)
        elif before["phase"] == "between_deals" and after["phase"] != "between_deals" and after["deal"] in self.hands:
            self.hands[after["deal"]].end, self.hands[after["deal"]].awards = None, {}  # the deal's end withdrawn

    def chips(self, target: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """Chips brought in and taken away: the ledger's change, on the player at the seat concerned."""
        came = after["ledger"]["chips_in"] - before["ledger"]["chips_in"]
        went = after["ledger"]["chips_out"] - before["ledger"]["chips_out"]
        if (came or went) and "moves" in target:  # the house's correction (a recount, a chip race)
            for move in target["moves"]:
                x = before["seats"].get(int(move["seat"])) or {}
                if x.get("player"):
                    p = self.line(str(x["player"]))
                    p.bought_in += max(int(move["amount"]), 0)
                    p.taken_away += max(-int(move["amount"]), 0)
        elif came or went:
            seat = int(target["seat"])
            who = (before["seats"].get(seat) or after["seats"].get(seat) or {}).get("player") or target.get("player")
            p = self.line(str(who))
            p.bought_in += came  # a withdrawn buy-in or leave comes back off (a void's change is negative)
            p.taken_away += went

    def seated(self, index: int, event: Mapping[str, Any], before: Mapping[str, Any],
               after: Mapping[str, Any]) -> None:
        """A seating event: the seats a player took, and the step in words."""
        kind = str(event["type"])
        seat = int(event["seat"])
        who = (after["seats"].get(int(event.get("to", seat))) or before["seats"].get(seat) or {}).get("player", "?")
        p = self.line(who)
        if kind == "sit" and seat not in p.seats:
            p.seats.append(seat)
        if kind == "move_seat":
            p.seats.append(int(event["to"]))
        self.seating.append(SeatingStep(index, who, _words(kind, event, who), False))

    def dealt(self, index: int, after: Mapping[str, Any]) -> None:
        """A deal: a hand for each player dealt in."""
        self.hands[after["deal"]] = Hand(after["deal"], index, {s: after["seats"][s]["player"] for s in after["dealt"]})

    def ended(self, after: Mapping[str, Any]) -> None:
        """A deal's end: how it ended, and who won what when a hand won the pot."""
        hand = self.hands[after["deal"]]
        hand.end = after["last_end"]
        hand.awards = {after["seats"][s]["player"] if s in after["seats"] else str(s): a
                       for s, a in after["awards"].items()} if after["last_end"] == "won" else {}

    def close(self, now: Mapping[str, Any]) -> TableHistory:
        """The history at the log's end: hands and winnings counted on each line, the stacks now."""
        for hand in self.hands.values():
            for name in hand.players.values():
                self.line(name).hands += 1
            for name, amount in hand.awards.items():
                self.line(name).won += amount
        for x in now["seats"].values():
            self.line(x["player"]).stack = x["stack"]
        return TableHistory(list(self.lines.values()), sorted(self.hands.values(), key=lambda h: h.deal),
                            self.seating, dict(now["ledger"]), now["pot"])
