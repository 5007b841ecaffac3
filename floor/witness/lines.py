"""The room's witness line by line: what a line says, its link, and the fold of the lines.

A line is a JSON object, one per text line: ``{"n", "at", "kind", ...what it was..., "prev",
"link"}``. ``link`` is the keyed seal (:func:`link_of`) of the line with the ``link`` of the line
before it (``prev``): one chain over the whole room, in the order the acts were committed.

Kinds of line:

- an act: ``append`` / ``banked_append`` (a log entry: table, seq, digest), ``table`` /
  ``banked_table`` (a table set up), ``ruling`` / ``banked_ruling`` and ``confirm`` (a ruling
  issued, a floor person's confirmation: ruling, digest, the digest it replaced), ``row`` (a sealed
  row written, :mod:`floor.sealed`: of, id, digest, was; digest null when the row is gone);
- a ``checkpoint``: the fold's state at that line (below), sealed by its link; written every
  ``FLOOR_CHECKPOINT_LINES`` lines or ``FLOOR_CHECKPOINT_MINUTES``, also into the database and to
  the room's collector (:mod:`floor.witness.collector`);
- an epoch, which begins the record anew from the database as it stands (its state): ``start``
  (a new installation), ``restore`` (``flask restore``), ``adopt`` (``flask witness adopt``: a
  new machine, or a witness lost; the line numbers continue the lost ones'), ``upgrade`` (the
  first line after an upgrade from a witness without a record in the database).

**The tally** (:class:`Seen`) is what the lines add up to: each table's log reach (its last seq
and digest, and the line that saw it), each user's row seal (the staff of a room: few), the
rulings made by the rules and not yet confirmed (``pending``: few at any time), and for every
other kind of row a keyed sum of the rows' seals with their count (:func:`floor.seals.set_member`):
a row removed, added, or put back as it was changes the sum. Its size is that of the room (its
tables and staff), not of its history: a checkpoint carries it whole, and reading the witness
from the last checkpoint costs the lines since, whatever came before (issue 30).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from floor.seals import keyed_digest, same, set_member, sum_text

APPEND, BANKED_APPEND, TABLE, BANKED_TABLE = "append", "banked_append", "table", "banked_table"
RULING, BANKED_RULING, CONFIRM, ROW = "ruling", "banked_ruling", "confirm", "row"
START, RESTORE, ADOPT, UPGRADE, CHECKPOINT = "start", "restore", "adopt", "upgrade", "checkpoint"
#: The lines that begin the record anew from the database as it stands.
EPOCHS = frozenset({START, RESTORE, ADOPT, UPGRADE})
#: The lines a reader may begin at: each carries the whole state.
RESUME = EPOCHS | {CHECKPOINT}
#: The kinds of row the fold keeps as keyed sums (users are also kept one by one).
SETS = ("rulings", "banked_rulings", "confirms", "users", "tournaments", "tournament_entries",
        "tournament_clock_moves", "tournament_desk_actions", "tournament_bounties", "promotion_awards")
_SET_OF = {RULING: "rulings", BANKED_RULING: "banked_rulings", CONFIRM: "confirms"}


def link_of(line: dict[str, Any], key: bytes | None = None) -> str:
    """The line's keyed seal: over everything it says but its own link."""
    return keyed_digest({**{k: v for k, v in line.items() if k != "link"}, "witness": 1}, key)


#: The encoder of every stored line, built once (``json.dumps`` given these settings builds a new
#: encoder at each call). ``encode`` keeps no state between calls.
_LINE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)


def spelled(line: dict[str, Any]) -> str:
    """A line's JSON as the witness stores it, without the line's end: compact, keys sorted.

    >>> spelled({"n": 2, "kind": "append", "at": "2026-11-27T22:00:00Z"})
    '{"at":"2026-11-27T22:00:00Z","kind":"append","n":2}'
    """
    return _LINE.encode(line)


def encode(line: dict[str, Any]) -> bytes:
    """A line as the witness stores it: compact JSON, keys sorted, one text line."""
    return (_LINE.encode(line) + "\n").encode()


def chain(lines: list[dict[str, Any]], n: int, prev: str, at: str, key: bytes) -> list[dict[str, Any]]:
    """``lines`` numbered from ``n + 1`` and linked from ``prev``, each stamped ``at``."""
    out = []
    for act in lines:
        n += 1
        line = {**act, "n": n, "at": at, "prev": prev}
        line["link"] = prev = link_of(line, key)
        out.append(line)
    return out


@dataclass
class Seen:
    """What the witness's lines add up to (see the module). ``checking``: each line's place in the
    chain and its link are checked (verify); a server process checks the place only (a gap or a
    line out of order is a rewritten witness) and trusts the links, which verify checks.
    ``detail``: every row's seal and line are kept too, so that a full verify names each row that
    does not match (its memory grows with the history, the default's does not)."""

    key: bytes
    checking: bool = True
    detail: bool = False
    n: int = 0
    link: str = ""
    at: str = ""
    tables: dict[int, tuple[int, str, int]] = field(default_factory=dict)  # id -> (seq, digest, line)
    banked: dict[int, tuple[int, str, int]] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)
    pending: set[int] = field(default_factory=set)
    sums: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    rows: dict[tuple[str, int], tuple[str, int]] = field(default_factory=dict)  # detail: (of, id) -> (digest, line)
    checkpoint: dict[str, Any] | None = None  # the last checkpoint or epoch: {n, at, link, kind}
    epochs: list[dict[str, Any]] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)  # lines an adopt says are not in this witness
    broken: list[str] = field(default_factory=list)
    began: int = 0  # the first line folded

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """The state a checkpoint or an epoch carries."""
        return {"tables": {str(k): [v[0], v[1]] for k, v in sorted(self.tables.items())},
                "banked": {str(k): [v[0], v[1]] for k, v in sorted(self.banked.items())},
                "users": {str(k): v for k, v in sorted(self.users.items())},
                "pending": sorted(self.pending),
                "sums": {k: sum_text(self.sums.get(k, 0)) for k in SETS},
                "counts": {k: self.counts.get(k, 0) for k in SETS}}

    def load(self, state: dict[str, Any], here: int) -> None:
        """Take a checkpoint's or an epoch's state (``here``: its line). A state written before
        issue 30 kept each ruling and confirmation whole: their sums are made from them."""
        self.tables = {int(k): (int(v[0]), str(v[1]), here) for k, v in (state.get("tables") or {}).items()}
        self.banked = {int(k): (int(v[0]), str(v[1]), here) for k, v in (state.get("banked") or {}).items()}
        self.users = {int(k): str(v) for k, v in (state.get("users") or {}).items()}
        self.pending = {int(x) for x in state.get("pending") or ()}
        self.sums = {k: int(v, 16) for k, v in (state.get("sums") or {}).items()}
        self.counts = {k: int(v) for k, v in (state.get("counts") or {}).items()}
        if "sums" not in state:
            for kind in ("rulings", "banked_rulings", "confirms"):
                for row_id, digest in (state.get(kind) or {}).items():
                    self._member(kind, int(row_id), str(digest), "", here)
        if self.detail:
            self.rows = {k: v for k, v in self.rows.items() if k[0] == "users"}
            self.rows.update({("users", k): (v, here) for k, v in self.users.items()})

    def clone(self, detail: bool = False) -> Seen:
        """A copy to fold lines into without touching this one (a checkpoint about to be written), or
        to keep as the fold stood at one line (verify); ``detail`` copies every row's seal too."""
        return Seen(self.key, checking=False, detail=detail, n=self.n, link=self.link, at=self.at,
                    tables=dict(self.tables), banked=dict(self.banked), users=dict(self.users),
                    pending=set(self.pending), sums=dict(self.sums), counts=dict(self.counts),
                    rows=dict(self.rows) if detail else {}, checkpoint=self.checkpoint, epochs=list(self.epochs),
                    gaps=list(self.gaps), began=self.began)

    # ------------------------------------------------------------------ folding a line
    def take(self, line: dict[str, Any]) -> None:
        """Seen one line in (checking its place and, when ``checking``, its link)."""
        n, kind = line.get("n"), line.get("kind")
        if not isinstance(n, int):
            self.broken.append(f"the witness holds a line after line {self.n} without a number")
            return
        fresh = self.n == 0
        if not fresh and (n != self.n + 1 or not same(line.get("prev"), self.link)):
            if kind == ADOPT and n > self.n:  # a witness begun anew: the lines before are elsewhere
                self.gaps.append(f"lines {self.n + 1} to {n - 1} (adopted at line {n}: {line.get('source')})")
            else:
                self.broken.append(f"the witness's line {n} does not follow line {self.n}: lines were removed, "
                                   "inserted or reordered in the witness")
        elif fresh and n != 1 and kind not in RESUME:
            self.broken.append(f"the witness begins at line {n}, which is no checkpoint: its earlier lines were removed")
        if self.checking and not same(line.get("link"), link_of(line, self.key)):
            self.broken.append(f"the witness's line {n} was changed (its link does not match)")
        if fresh:
            self.began = n
        self.n, self.link, self.at = n, str(line.get("link", "")), str(line.get("at", ""))
        if kind in RESUME:
            self._resume(line, n, fresh)
        elif kind in (APPEND, BANKED_APPEND):
            logs = self.tables if kind == APPEND else self.banked
            table_id, seq = int(line["table"]), int(line["seq"])
            if seq >= logs.get(table_id, (0, "", 0))[0]:
                logs[table_id] = (seq, str(line["digest"]), n)
        elif kind in (TABLE, BANKED_TABLE):
            logs, table_id = (self.tables if kind == TABLE else self.banked), int(line["table"])
            if table_id in logs and self.checking:
                self.broken.append(f"{'table' if kind == TABLE else 'banked table'} #{table_id} was set up again "
                                   f"(witness line {n}) under the id of a table the witness saw at line "
                                   f"{logs[table_id][2]}: that table was deleted")
            logs[table_id] = (0, "", n)
        elif kind in _SET_OF:
            row_id = int(line["ruling"])
            self._member(_SET_OF[kind], row_id, line.get("digest"), line.get("was") or "", n)
            if kind == RULING and line.get("pending"):
                self.pending.add(row_id)
            elif kind == CONFIRM:
                self.pending.discard(row_id)
        elif kind == ROW:
            of, row_id, digest = str(line["of"]), int(line["id"]), line.get("digest")
            self._member(of, row_id, digest, line.get("was") or "", n)
            if of == "users":
                if digest:
                    self.users[row_id] = str(digest)
                else:
                    self.users.pop(row_id, None)

    def _resume(self, line: dict[str, Any], n: int, fresh: bool) -> None:
        kind = line["kind"]
        state = line.get("state") or {}
        if kind == CHECKPOINT and not fresh and self.checking and state != self.state():
            self.broken.append(f"the witness's checkpoint at line {n} does not add up to the lines before it")
        self.load(state, n)
        self.checkpoint = {"n": n, "at": line.get("at"), "link": line.get("link"), "kind": kind}
        if kind in EPOCHS:
            self.epochs.append({k: line.get(k) for k in ("n", "at", "kind", "source", "by")})

    def _member(self, of: str, row_id: int, digest: Any, was: str, n: int) -> None:
        if self.detail and self.checking:
            seen = self.rows.get((of, row_id), ("", 0))
            if seen[0] != was:
                self.broken.append(
                    f"{of.replace('_', ' ')} #{row_id}: line {n} replaces a seal the witness never saw for it"
                    + (f" (it saw another at line {seen[1]}: that row was deleted and its id taken again)"
                       if seen[0] else ""))
        self.sums[of] = (self.sums.get(of, 0) + set_member(of, row_id, digest, self.key)
                         - set_member(of, row_id, was, self.key))
        self.counts[of] = self.counts.get(of, 0) + (1 if digest else 0) - (1 if was else 0)
        if self.detail:
            if digest:
                self.rows[(of, row_id)] = (str(digest), n)
            else:
                self.rows.pop((of, row_id), None)

    @property
    def head(self) -> dict[str, Any]:
        return {"n": self.n, "link": self.link, "at": self.at}


def parse(raw: bytes) -> dict[str, Any] | None:
    """A stored line read back (None for one that is no record)."""
    try:
        line = json.loads(raw)
    except ValueError:
        return None
    return line if isinstance(line, dict) else None
