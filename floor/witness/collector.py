"""Sealed checkpoints leave the machine: the room's collector is syslog (issue 30).

Whoever can write the database and the instance folder can roll both back together to an earlier
moment at which they agreed: nothing on the machine can tell. What can is a record kept elsewhere,
by someone else: each checkpoint's line number, time and link (the line's keyed seal, which covers
the state of every table and sealed row at that line) is sent, as it is written, to the room's
collector, and printed on each ruling and on the shift report. ``flask verify --checkpoints FILE``
reads the collector's file and proves that the witness holds every checkpoint collected and that
the database extends each (:mod:`floor.verify_record`).

Decided: **syslog**, to the address ``FLOOR_CHECKPOINT_SYSLOG`` (``tcp://host:port``,
``udp://host:port``, or a local socket such as ``/dev/log``, which rsyslog or journald forwards).
Why, against a file on another host and a webhook:

- every Linux host already runs a syslog daemon, and forwarding it to a central log host is what a
  regulated room's IT does for every other system (its own retention, its own access rights, its
  own clock): the checkpoints land where the auditor already looks, apart from the app's people;
- it needs no service of ours on the other side (a webhook needs a receiver and its retries) and no
  shared file system (whose locks and mounts fail in ways a card room cannot diagnose at 2 a.m.);
- a checkpoint is one short line (no table's state: the link vouches for it), far inside syslog's
  message size, over TCP when delivery matters.

A checkpoint that cannot be sent is logged as an error and stays in the witness and the database;
``flask checkpoint --send-all`` sends them again. The message: ``floor-checkpoint {json}``, the
JSON being ``{"n", "at", "link", "kind"}``.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import socket
from typing import Any
from urllib.parse import urlsplit

from flask import current_app

TAG = "floor-checkpoint"


def summary(line: dict[str, Any]) -> dict[str, Any]:
    """What leaves the machine of a checkpoint line."""
    return {"n": line["n"], "at": line["at"], "link": line["link"], "kind": line["kind"]}


def message(line: dict[str, Any]) -> str:
    """The collector's line for a checkpoint.

    >>> message({"n": 7, "at": "2026-11-24T02:00:00Z", "link": "ab" * 32, "kind": "checkpoint", "state": {}})[:40]
    'floor-checkpoint {"at":"2026-11-24T02:00'
    """
    return f"{TAG} {json.dumps(summary(line), sort_keys=True, separators=(',', ':'))}"


def _handler(address: str) -> logging.handlers.SysLogHandler:
    if address.startswith(("tcp://", "udp://")):
        parts = urlsplit(address)
        kind = socket.SOCK_STREAM if parts.scheme == "tcp" else socket.SOCK_DGRAM
        return logging.handlers.SysLogHandler(address=(parts.hostname or "localhost", parts.port or 514),
                                              facility=logging.handlers.SysLogHandler.LOG_AUTHPRIV, socktype=kind)
    return logging.handlers.SysLogHandler(address=address, facility=logging.handlers.SysLogHandler.LOG_AUTHPRIV)


def send(line: dict[str, Any]) -> bool:
    """Send a checkpoint to the room's collector; False (and an error in the app's log) when it
    could not go, or when no collector is configured (verify notes that)."""
    address = current_app.config.get("FLOOR_CHECKPOINT_SYSLOG")
    if not address:
        return False
    record = logging.LogRecord("floor.checkpoint", logging.INFO, __file__, 0, message(line), None, None)
    try:
        handler = _handler(str(address))
        try:
            handler.emit(record) if handler.socktype == socket.SOCK_DGRAM else _emit_stream(handler, record)
        finally:
            handler.close()
    except OSError as exc:
        current_app.logger.error("checkpoint %s could not be sent to the collector %s: %s", line["n"], address, exc)
        return False
    return True


def _emit_stream(handler: logging.handlers.SysLogHandler, record: logging.LogRecord) -> None:
    """SysLogHandler.emit reports a failure on stderr and carries on; here it must be known."""
    text = handler.format(record) + "\n"
    payload = f"<{handler.encodePriority(handler.facility, handler.mapPriority(record.levelname))}>{text}".encode()
    handler.socket.sendall(payload)  # type: ignore[attr-defined]  # (made by SysLogHandler's __init__)


def collected(text: str) -> list[dict[str, Any]]:
    """The checkpoints in a collector's file: every line holding ``floor-checkpoint {...}`` (the
    syslog daemon's own prefix before it), or a bare JSON object with ``n`` and ``link``.

    >>> collected('Nov 24 02:00:01 host floor: <134>floor-checkpoint {"at":"x","kind":"checkpoint","link":"ab","n":7}\\n')
    [{'at': 'x', 'kind': 'checkpoint', 'link': 'ab', 'n': 7}]
    """
    out = []
    for raw in text.splitlines():
        start = raw.find(TAG + " ")
        body = raw[start + len(TAG) + 1:] if start >= 0 else raw.strip()
        if not body.startswith("{"):
            continue
        try:
            data = json.loads(body[:body.rfind("}") + 1])
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("n"), int) and isinstance(data.get("link"), str):
            out.append(data)
    return out
