"""A lower bound for issue 34's tap: everything a tap reads, checks, writes and answers, written as
plainly as this stack allows, to measure what any implementation of the tap would cost here.

One Flask route of a bare ``Flask`` app (no extensions, no hooks, no ORM, no login library) on a
``sqlite3`` connection held open with the app's pragmas (WAL, ``synchronous=FULL``). Per request,
as the app's tap does:

- the bearer token's keyed digest, the user's row read by it, the row's seal checked (a seal found
  good for the very same values is not computed again, as :func:`floor.seals.seal_holds` does);
- the table's row and the rotation's question in one statement (as ``floor.rotation.table_to_tap``);
- the expected version checked, the event read and applied by the engine (``rules.jackpot``) to the
  state kept for that version and head;
- the payload spelled once, the entry's seal chained to the head, the head's seal over the setup;
- in one transaction: the table's head moved on ``WHERE version`` (409 otherwise), the entry
  inserted, the witness's record moved on; the commit;
- the witness's line, linked to the one before by a keyed digest, appended under ``flock``;
- the answer: the entry and the table with its state (``to_dict``, legal moves included), by orjson,
  with the app's security headers;
- around them the tap's own small checks: the body's NUL characters, the payload's size, the head's
  seal (checked once for the values read), the log never behind what the witness saw.

Left out, as being the app's and not the tap's: the CSRF, session and limiter decisions (a bearer
request has no cookie: the app skips most of them too), the error pages, a state replayed from the
log (the state is always kept here). It is a bench's yardstick, never served: it refuses nothing
but a stale version, and keeps no tap ids.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from floor.keys import token_key
from floor.seals import canonical, entry_content, head_content, keyed_digest, spelled, spelled_with
from floor.security import HEADERS
from rules import jackpot
from rules.jackpot.events import parse_event

_SCHEMA = """
CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT, role INTEGER, active INTEGER,
                    token_digest TEXT UNIQUE, row_seal TEXT);
CREATE TABLE tables (id INTEGER PRIMARY KEY, name TEXT, event_id INTEGER, setup TEXT, version INTEGER,
                     created_at TEXT, head_digest TEXT, head_seal TEXT);
CREATE TABLE log (id INTEGER PRIMARY KEY, table_id INTEGER, seq INTEGER, payload TEXT, logged_by_id INTEGER,
                  logged_at TEXT, prev_digest TEXT, digest TEXT, tap_id TEXT, UNIQUE (table_id, seq));
CREATE TABLE witness_reach (id INTEGER PRIMARY KEY, n INTEGER, link TEXT, pending TEXT);
CREATE TABLE rotations (id INTEGER PRIMARY KEY, ended_at TEXT);
CREATE TABLE dealer_assignments (id INTEGER PRIMARY KEY, dealer_id INTEGER, start TEXT, until TEXT);
"""

_TABLE_AND_BOUND = (
    "SELECT id, name, event_id, setup, version, head_digest, head_seal, "
    "(EXISTS (SELECT 1 FROM rotations WHERE ended_at IS NULL) OR EXISTS (SELECT 1 FROM dealer_assignments "
    "WHERE dealer_id = ? AND start <= ? AND until > ?)) FROM tables WHERE id = ?")


#: The answer's headers: the app's own (every answer of the app carries them).
_HEADERS = [(name, value) for _, name, value in HEADERS]


class LeanTap:
    """The yardstick's app, its database, its witness files and a dealer's token; ``client`` posts
    to ``/tables/1/events`` as the bench posts a tap."""

    def __init__(self, folder: str | Path, setup: dict[str, Any]) -> None:
        from flask import Flask, request

        folder = Path(folder)
        self.key = key = os.urandom(32)
        self.con = con = sqlite3.connect(str(folder / "lean.sqlite"), isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.executescript(_SCHEMA)
        token = os.urandom(24).hex()
        self.headers = {"Authorization": f"Bearer {token}"}
        user_seal = keyed_digest({"users": 1, "role": 1, "active": True, "token": _token_digest(key, token)}, key)
        con.execute("INSERT INTO users VALUES (1, 'dealer', 1, 1, ?, ?)", (_token_digest(key, token), user_seal))
        setup_text = canonical(setup)
        con.execute("INSERT INTO tables VALUES (1, 'Lean', NULL, ?, 0, ?, '', '')",
                    (setup_text, datetime.now(UTC).isoformat()))
        con.execute("INSERT INTO witness_reach VALUES (1, 0, '', '[]')")
        states: dict[tuple[int, int, str], Any] = {(1, 0, ""): jackpot.replay_state(setup, [])}
        sealed_good: set[tuple[Any, ...]] = set()
        heads_good: set[tuple[Any, ...]] = set()
        witnessed: dict[int, int] = {}
        witness: dict[str, Any] = {"n": 0, "link": ""}
        lock_fd = os.open(folder / "lean-witness.lock", os.O_RDWR | os.O_CREAT, 0o600)
        live = str(folder / "lean-witness.log")

        app = Flask("lean-tap")

        @app.post("/tables/<int:table_id>/events")
        def tap(table_id: int) -> Any:
            scheme, _, token = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer":
                return {"error": "Unauthorized"}, 401
            user = con.execute("SELECT id, username, role, active, token_digest, row_seal FROM users "
                               "WHERE token_digest = ?", (_token_digest(key, token.strip()),)).fetchone()
            if user is None or not user[3]:
                return {"error": "Unauthorized"}, 401
            if user not in sealed_good:
                content = {"users": user[0], "role": user[2], "active": bool(user[3]), "token": user[4]}
                if not hmac.compare_digest(user[5], keyed_digest(content, key)):
                    return {"error": "Unauthorized"}, 401
                sealed_good.add(user)
            now = datetime.now(UTC).replace(tzinfo=None)
            row = con.execute(_TABLE_AND_BOUND, (user[0], now.isoformat(), now.isoformat(), table_id)).fetchone()
            if row is None:
                return {"error": "Not found"}, 404
            _, name, event_id, setup_text, version, head, head_seal, bound = row
            if version < witnessed.get(table_id, 0):  # never a log cut back behind the witness
                return {"error": "Rolled back"}, 503
            if (table_id, version, head, head_seal) not in heads_good:  # the head's seal, checked once
                if not hmac.compare_digest(head_seal, keyed_digest(spelled_with(
                        head_content(table_id, version, head, None), {"setup": setup_text}), key)) and version:
                    return {"error": "Seal broken"}, 503
            raw = request.get_data()
            if b"\x00" in raw or b"\\u0000" in raw:
                return {"error": "Bad request"}, 400
            data = request.get_json()
            expected = data.pop("expected_version", None)
            if expected is not None and expected != version:
                return {"error": "Conflict", "version": version}, 409
            before = states[(table_id, version, head)]
            parsed = parse_event(data)
            payload = parsed.to_dict()
            after = jackpot.apply(before, parsed)
            text = spelled(payload)
            if len(text) > 65_536:
                return {"error": "Too long"}, 422
            seq, logged_at = version + 1, now
            digest = keyed_digest(spelled_with(entry_content(table_id, seq, payload, user[0], logged_at, head),
                                               {"event": text}), key)
            new_seal = keyed_digest(spelled_with(head_content(table_id, seq, digest, None),
                                                 {"setup": setup_text}), key)
            line = {"kind": "append", "table": table_id, "seq": seq, "digest": digest, "n": witness["n"] + 1}
            line_text = canonical(line)
            link = hmac.new(key, (witness["link"] + line_text).encode(), hashlib.sha256).hexdigest()
            con.execute("BEGIN IMMEDIATE")
            try:
                moved = con.execute("UPDATE tables SET version = ?, head_digest = ?, head_seal = ? "
                                    "WHERE id = ? AND version = ?", (seq, digest, new_seal, table_id, version))
                if moved.rowcount != 1:
                    raise LookupError("moved")
                con.execute("INSERT INTO log (table_id, seq, payload, logged_by_id, logged_at, prev_digest, digest) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, seq, text, user[0], logged_at.isoformat(),
                                                             head, digest))
                con.execute("UPDATE witness_reach SET n = ?, link = ?, pending = ? WHERE id = 1",
                            (line["n"], link, "[" + line_text + "]"))
                fcntl.flock(lock_fd, fcntl.LOCK_EX)  # the witness's lock, held from before the commit
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
            try:
                fd = os.open(live, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
                try:
                    os.write(fd, (line_text[:-1] + f', "link": "{link}"}}\n').encode())
                finally:
                    os.close(fd)
            finally:
                fcntl.flock(lock_fd, fcntl.LOCK_UN)
            witness["n"], witness["link"] = line["n"], link
            witnessed[table_id] = seq
            heads_good.add((table_id, seq, digest, new_seal))
            states[(table_id, seq, digest)] = after
            entry = {"seq": seq, "index": seq - 1, "event": payload, "logged_by": user[1],
                     "logged_at": logged_at.isoformat(timespec="seconds") + "Z"}
            body = {"entry": entry, "id": table_id, "name": name, "event_id": event_id, "version": seq,
                    "profile": after.profile.name, "setup": orjson.loads(setup_text), "state": after.to_dict(),
                    "rulings_url": f"/api/tables/{table_id}/rulings"}
            response = app.response_class(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)
                                          + b"\n", status=201, mimetype="application/json")
            response.headers.extend(_HEADERS)
            return response

        self.client = app.test_client()
        self.version = 0

    def request(self, entry: dict[str, Any]) -> float:
        """One tap of ``entry``'s event (the app's tap logged it at the same version): its CPU time.
        The state answered must be the app's (``entry["state"]``, when given): a yardstick that
        drifted from the app's work would measure something else."""
        import time

        body = {**entry["event"], "expected_version": self.version}
        start = time.process_time()
        response = self.client.post("/tables/1/events", json=body, headers=self.headers)
        spent = time.process_time() - start
        assert response.status_code == 201, response.data
        assert "state" not in entry or orjson.loads(response.data)["state"] == entry["state"], "the yardstick drifted"
        self.version += 1
        return spent


def _token_digest(key: bytes, token: str) -> str:
    """A token's digest as the app takes it (``floor.models.token_digest``, which reads the key from
    the app): the keyed HMAC of the token's SHA-256, with the tokens' key derived from the seal key."""
    return hmac.digest(token_key(key), hashlib.sha256(token.encode()).hexdigest().encode(), "sha256").hex()
