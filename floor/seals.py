"""Keyed seals: what makes the history tamper-evident (issue 11).

A plain SHA-256 of a record proves nothing against someone who can write the database: they edit
the record and compute the digest again. So every seal is an HMAC-SHA-256 keyed with the
installation's seal key (:mod:`floor.keys`: ``FLOOR_SEAL_KEY`` or ``FLOOR_SEAL_KEY_FILE`` from the
configuration, else ``instance/seal_key``; never in git, never in the database, which keeps only its
fingerprint). Whoever can rewrite the database but not read the key cannot make a seal that verifies.

What is sealed (all as :func:`canonical` JSON):

- each ruling's content and a floor person's confirmation of it (``IssuedRuling.seal``);
- each entry of a table's log, together with the digest of the entry before it: the log is a hash
  chain, so an edited, inserted, re-ordered or deleted entry breaks every link after it;
- each table's head: its version, the digest of its last entry and its setup, re-sealed at every
  append, so that deleting the last entries (and setting the version back), or editing the stakes
  the log is replayed from, is detected too; a banked table's head also seals where its round in
  play begins (``round_start``);
- each pot snapshot (issue 20), chained to the log entry at its version: a snapshot is derived data,
  and one whose seal does not match is never resumed from (the state is replayed from the log).

- the rows that decide who may act and what is paid (issue 30, :mod:`floor.sealed`): each user's
  role, state, password and token digest, each stored print of a ruling, each tournament's
  structure and its entries, clock moves, desk actions and bounties.

What rows a rollback or a deletion could take away (the tail of a log, a ruling, a whole table) is
remembered outside the database, by :mod:`floor.witness`.

:mod:`floor.verify` checks all of it (``flask --app floor verify``, the ruling's verify page).
This module knows no model (``floor.models`` imports it).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime
from json.encoder import encode_basestring
from typing import Any, Callable

from flask import current_app

from floor.cache import LRU


class SealBroken(Exception):
    """A table whose stored record does not match its seals (changed outside the app): the app shows
    and logs nothing there (issue 20); ``flask verify`` names what was changed."""


#: The encoder of every canonical text, built once: ``json.dumps`` given these settings builds a new
#: encoder at each call, which cost more than spelling a short value (issue 34: a tap spells some
#: twenty-five values, most of them the members of its seals' records). ``encode`` keeps no state
#: between calls.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def canonical(data: Any) -> str:
    """The one byte-exact spelling of a record that its seal is taken over (a :class:`Spelled`
    text is that spelling already): ``json.dumps`` with sorted keys, no spaces, the text as it is
    (not escaped to ASCII), and ``str()`` of what JSON has no type for. A text, a whole number,
    null, true and false are spelled as the encoder spells them, without it.

    >>> canonical({"b": 1, "a": [1, "ü"]})
    '{"a":[1,"ü"],"b":1}'
    >>> values = ["ü", 'a"b', "tab" + chr(9), 7, -3, None, True, False, 2.5, [1], {"x": None}]
    >>> [canonical(v) for v in values] == [json.dumps(v, sort_keys=True, separators=(",", ":"),
    ...                                                 ensure_ascii=False, default=str) for v in values]
    True
    """
    kind = type(data)
    if kind is str:
        return encode_basestring(data)
    if kind is int:
        return int.__repr__(data)
    if data is None:
        return "null"
    if kind is bool:
        return "true" if data else "false"
    if isinstance(data, Spelled):
        return data
    return _CANONICAL.encode(data)


class Stored(str):
    """A JSON text spelled already, which a JSON column stores as it is (:func:`json_serializer`):
    for a value whose text the caller needs too (the witness's pending lines, which the record's
    next move compares as stored: :mod:`floor.witness.anchor`), spelled once for both."""


class Spelled(Stored):
    """A record's :func:`canonical` text, spelled once (issue 34: one canonical JSON per entry).
    A seal takes it as it is (:func:`keyed_digest`), and so does a JSON column
    (:func:`json_serializer`): an entry's seal and its stored row share one serialisation, and a
    table's setup is spelled once for its head's seals and its cached state's key."""


def spelled(data: Any) -> Spelled:
    """``data``'s :func:`canonical` text, as a :class:`Spelled`."""
    return Spelled(canonical(data))


#: Per record shape (its member names, in the order given), the members in the canonical text's
#: order, each with what comes before its value (``{"name":`` or ``,"name":``): worked out once a
#: shape, a seal's few shapes are spelled without sorting or spelling their names again (issue 34,
#: session 43: a tap seals two records). Only :func:`spelled_with` adds to it, with the names of
#: the models' sealed records: a closed set.
_LAYOUTS: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = {}


def spelled_with(data: dict[str, Any], parts: dict[str, str]) -> Spelled:
    """The canonical text of ``data`` with more members whose values are spelled already: the
    canonical text of the whole record, without spelling those values again (a member of both is
    ``parts``'s: ``data`` may still hold the value ``parts`` spells). Member names are text.

    >>> setup = {"seats": [{"seat": 1}], "ante": 5}
    >>> spelled_with({"table": 1, "head": "ab"}, {"setup": spelled(setup)}) == canonical(
    ...     {"table": 1, "head": "ab", "setup": setup})
    True
    >>> spelled_with({"b": "ü", "a": None, "setup": setup}, {"setup": spelled(setup)}) == canonical(
    ...     {"b": "ü", "a": None, "setup": setup})
    True
    >>> spelled_with({}, {})
    '{}'
    """
    names = (*data, *parts)
    layout = _LAYOUTS.get(names)
    if layout is None:
        ordered = sorted(set(names))
        layout = _LAYOUTS[names] = tuple((name, ("{" if n == 0 else ",") + canonical(name) + ":")
                                         for n, name in enumerate(ordered))
    if not layout:
        return Spelled("{}")
    return Spelled("".join([before + (parts[name] if name in parts else canonical(data[name]))
                            for name, before in layout]) + "}")


def json_serializer(value: Any) -> str:
    """The engine's JSON serializer (``create_app``): a :class:`Stored` text (a :class:`Spelled` one
    among them) is stored as it is, anything else as SQLAlchemy's default spells it."""
    return str(value) if isinstance(value, Stored) else json.dumps(value)


def seal_key() -> bytes:
    """The installation's seal key, as the app's start checked it against the database's
    fingerprint (:func:`floor.keys.check_seal_key`), or as its loader finds it now when the start
    could not (:func:`floor.keys.load_seal_key`, registered by the app factory)."""
    key: bytes | None = current_app.extensions.get("floor_seal_key")
    if key is None:
        key = current_app.extensions["floor_seal_key_loader"]()
        current_app.extensions["floor_seal_key"] = key
    return key


def keyed_digest(data: Any, key: bytes | None = None) -> str:
    """HMAC-SHA-256 of the record's canonical JSON, as 64 hex digits.

    >>> keyed_digest({"a": 1}, b"k") == keyed_digest({"a": 1}, b"k") != keyed_digest({"a": 2}, b"k")
    True
    >>> keyed_digest({"a": 1}, b"k") == hashlib.sha256(canonical({"a": 1}).encode()).hexdigest()
    False
    """
    return hmac.new(key if key is not None else seal_key(), canonical(data).encode(), hashlib.sha256).hexdigest()


def setup_spelled(row: Any) -> Spelled:
    """A table row's setup spelled once for as long as the row holds that setup (a setup edited is
    a new value: JSON columns are assigned, never changed in place)."""
    setup = row.setup
    held = row.__dict__.get("_floor_setup_spelled")
    if held is None or held[0] is not setup:
        held = (setup, spelled(setup))
        row.__dict__["_floor_setup_spelled"] = held  # beside the mapped attributes: not a column
    text: Spelled = held[1]
    return text


def same(a: str | None, b: str | None) -> bool:
    """Digests compared in constant time."""
    return hmac.compare_digest(a or "", b or "")


#: Seals found good, by everything each was taken over and the key (issue 34: a tap checked the
#: token's user and the table's head against their seals on every request, spelling their canonical
#: JSON each time). Only a seal found good is kept, under the exact typed values read: a row changed
#: since (a role, a version, a setup, the seal itself) is another key, so it misses and is checked.
_FOUND_GOOD: LRU[tuple[Any, ...], bool] = LRU(4096)


def seal_holds(seal: str, covered: tuple[Any, ...], compute: Callable[[], str], key: bytes | None = None) -> bool:
    """Whether ``seal`` is the seal ``compute()`` takes of a row, ``covered`` being every value that
    seal is taken over (hashable, each with its type, so that ``1`` never stands for ``True`` or
    ``1.0``; see :func:`typed`): checked once per process for those exact values and the seal key
    (``key``, default the installation's), then remembered.

    >>> calls = []
    >>> def compute():
    ...     calls.append(1)
    ...     return "abc"
    >>> seal_holds("abc", ((int, 7),), compute, b"k"), seal_holds("abc", ((int, 7),), compute, b"k"), len(calls)
    (True, True, 1)
    >>> seal_holds("abd", ((int, 7),), compute, b"k"), len(calls)  # another seal over the same values: checked
    (False, 2)
    >>> seal_holds("abc", ((int, 7),), compute, b"other key"), len(calls)  # under another key: checked
    (True, 3)
    """
    known = (seal, key if key is not None else seal_key(), covered)
    if _FOUND_GOOD.get(known):
        return True
    good = same(seal, compute())
    if good:
        _FOUND_GOOD.put(known, True)
    return good


def taken(seal: str, covered: tuple[Any, ...], key: bytes | None = None) -> None:
    """Remember ``seal`` as the seal of ``covered`` (as :func:`seal_holds` does once it has checked
    it): for a seal this process has just taken itself, which the next read of the row finds."""
    _FOUND_GOOD.put((seal, key if key is not None else seal_key(), covered), True)


def typed(values: Any) -> tuple[tuple[type, Any], ...]:
    """``values`` each with its type: a key for :func:`seal_holds`."""
    return tuple((type(value), value) for value in values)


def moment(when: datetime | None) -> str | None:
    """A stored time as the seal spells it (microseconds: what both databases keep)."""
    return when.isoformat(timespec="microseconds") if when is not None else None


def entry_content(table_id: int, seq: int, payload: Any, logged_by_id: int | None, logged_at: datetime | None,
                  prev: str) -> dict[str, Any]:
    """What a log entry's seal vouches for: where it stands, what it says, who logged it and when,
    and the seal of the entry before it (``""`` for the first)."""
    return {"table": table_id, "seq": seq, "event": payload, "logged_by": logged_by_id,
            "logged_at": moment(logged_at), "prev": prev}


def head_content(table_id: int, version: int, head: str, setup: Any) -> dict[str, Any]:
    """What a table's head seal vouches for: how long its log is, how the log ends, and the setup
    (seats, stacks, stakes, profile) that the log is replayed from."""
    return {"table": table_id, "version": version, "head": head, "setup": setup}


def snapshot_content(table_id: int, version: int, entry_digest: str, setup: Any, data: Any) -> dict[str, Any]:
    """What a pot snapshot's seal vouches for: the table, the log's length it was taken at and the
    digest of the entry there (``""`` at 0: it is bound to that one history), the setup replayed
    from, and the snapshot's data."""
    # as JSON reads it back (seat keys as strings), so a snapshot seals the same before and after storing
    return {"snapshot": table_id, "version": version, "entry": entry_digest,
            "setup": json.loads(canonical(setup)), "data": json.loads(canonical(data))}


#: Sums of :func:`set_member` are kept modulo this (a 256-bit number, 64 hex digits).
SET_MODULUS = 2**256


def set_member(of: str, row_id: int, digest: str | None, key: bytes | None = None) -> int:
    """A row's part in the keyed sum of a set of rows (issue 30): the rows of one kind the room's
    witness saw, the entries, clock moves, desk actions and bounties of one tournament. The sum over
    a set is kept as rows come and change (add the new part, take away the old), and recomputed
    from the rows when checked: a row removed, or put back as it was before, changes it. Keyed, so
    whoever can write the database cannot pick rows whose parts cancel. An absent row (``digest``
    None or empty) has no part.

    >>> set_member("users", 1, "") == 0 and set_member("users", 1, "ab", b"k") != set_member("users", 2, "ab", b"k")
    True
    """
    if not digest:
        return 0
    text = f"{of}\0{row_id}\0{digest}".encode()
    return int(hmac.new(key if key is not None else seal_key(), text, hashlib.sha256).hexdigest(), 16)


def sum_text(total: int) -> str:
    """A sum of set members as stored: 64 hex digits.

    >>> sum_text(SET_MODULUS + 5)[-3:]
    '005'
    """
    return f"{total % SET_MODULUS:064x}"
