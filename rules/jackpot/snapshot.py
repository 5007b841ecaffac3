"""Snapshots: a table's state between deals as plain JSON data, and the state back from it.

A day's log grows; the state does not. The app stores a snapshot when a deal starts a new pot and,
after a restart, replays only from the latest one: the first request costs one pot, not the day.
A snapshot is exact: :func:`resume` with the events logged after it gives the same state as
replaying the whole log (the tests check it on random logs). It carries no undo step, so the app
takes one only where the next logged event is a deal, which closes the history before it anyway.

The encoding is tagged so that nothing is lost through JSON: tuples stay tuples, seat-keyed maps
keep int keys, the vocabularies come back as their enums.

>>> from rules.jackpot import replay_state
>>> setup = {"ante": 5, "small_bet": 10, "button": 1, "seats": [
...     {"seat": 1, "player": "Ann", "stack": 100}, {"seat": 2, "player": "Bob", "stack": 100}]}
>>> log = [{"type": "deal"}, {"type": "open", "seat": 2}, {"type": "fold", "seat": 1},
...        {"type": "show", "seat": 2, "cards": "Ks Kd 7h 4c 2s"}]
>>> state = replay_state(setup, log)
>>> import json
>>> data = json.loads(json.dumps(snapshot(state)))
>>> resume(setup, data, [{"type": "deal"}]) == replay_state(setup, log + [{"type": "deal"}])
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from rules import RulesError
from rules.jackpot.frozen import freeze
from rules.jackpot.event_base import Event, parse_event
from rules.profiles import Profile, get_profile
from rules.jackpot.state import DealEnd, Phase, ReopenOffer, Seat, SeatStatus, WorkingTable
from rules.jackpot.table import TableState

__all__ = ["snapshot", "resume", "FORMAT"]

#: The snapshot format; a snapshot of another format is not read (the app replays instead). 2: the
#: latest event is kept as the event value (issue 34); 3: the house's take and the least raise (issue 32).
FORMAT = 3
_ENUMS: dict[str, type[StrEnum]] = {"Phase": Phase, "SeatStatus": SeatStatus, "DealEnd": DealEnd}


#: The plain values a table is mostly made of (numbers, texts, flags, None), by their exact type:
#: each is its own encoding, known at one set lookup rather than down the chain of isinstance below,
#: which a snapshot or a resume met some seven hundred times (issue 34).
_PLAIN = frozenset({int, str, bool, type(None)})


def _enc(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return {"$t": [_enc(v) for v in value]}
    if kind is list:
        return [_enc(v) for v in value]
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, StrEnum):
        return {"$e": type(value).__name__, "v": value.value}
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return {"$t": [_enc(v) for v in value]}
    if isinstance(value, list):
        return [_enc(v) for v in value]
    if isinstance(value, Mapping):
        return {"$m": [[_enc(k), _enc(v)] for k, v in value.items()]}
    if isinstance(value, Seat):
        return {"$seat": {k: _enc(v) for k, v in value.__dict__.items()}}
    if isinstance(value, ReopenOffer):
        return {"$reopen": {k: _enc(v) for k, v in value.__dict__.items()}}
    if isinstance(value, Profile):
        return {"$profile": value.to_dict()}
    if isinstance(value, WorkingTable):
        return {"$table": {k: _enc(v) for k, v in value.__dict__.items()}}
    if isinstance(value, Event):
        return {"$event": value.to_dict()}
    raise TypeError(f"cannot snapshot a {type(value).__name__}")  # pragma: no cover - an engine bug


def _dec(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, list):
        return [_dec(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$e" in value:
        return _ENUMS[value["$e"]](value["v"])
    if "$t" in value:
        return tuple(_dec(v) for v in value["$t"])
    if "$m" in value:
        return {_dec(k): _dec(v) for k, v in value["$m"]}
    if "$seat" in value:
        return Seat(**{k: _dec(v) for k, v in value["$seat"].items()})
    if "$reopen" in value:
        return ReopenOffer(**{k: _dec(v) for k, v in value["$reopen"].items()})
    if "$profile" in value:
        return get_profile(value["$profile"])
    if "$event" in value:
        return parse_event(value["$event"])
    if "$table" in value:
        t = object.__new__(WorkingTable)
        t.__dict__.update({k: _dec(v) for k, v in value["$table"].items()})
        # the rulings are read-only records, as the engine keeps them (rules.jackpot.frozen)
        t.rulings, t.added = freeze(t.rulings), freeze(t.added)
        return t
    raise RulesError("snapshot: an unknown value in the data")


def snapshot(state: TableState) -> dict[str, Any]:
    """The state as JSON data. Only between deals: a deal in progress is replayed from its deal."""
    if state.phase != Phase.BETWEEN_DEALS:
        raise RulesError("a snapshot is taken between deals")
    return {"format": FORMAT, "version": state.version, "table": _enc(state._t),
            "voided": sorted(state._voided), "voids": sorted(state._voids)}


def resume(setup: Mapping[str, Any], data: Mapping[str, Any],
           events: Iterable[Mapping[str, Any] | Event] = ()) -> TableState:
    """The state a snapshot was taken of, then ``events`` applied (those logged after it).

    The setup must be the table's: a snapshot taken under another profile or other seats is
    refused rather than trusted.
    """
    if data.get("format") != FORMAT:
        raise RulesError(f"snapshot: format {data.get('format')!r} is not {FORMAT}")
    table = _dec(data["table"])
    if not isinstance(table, WorkingTable) or table.profile != get_profile(setup.get("profile")):
        raise RulesError("snapshot: it was not taken of this table's setup")
    state = TableState(table, None, frozenset(data["voided"]), frozenset(data["voids"]), int(data["version"]))
    for event in events:
        state = state.apply(event)
    return state
