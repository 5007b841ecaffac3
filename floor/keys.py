"""The installation's own keys, kept in ``instance/`` (never in git, readable by the owner only).

- ``instance/secret_key``: signs the session cookies (unless ``FLOOR_SECRET_KEY`` or the config sets one);
- ``instance/seal_key``: the HMAC key of the seals of the rulings and of the tables' hash chains
  (:mod:`floor.seals`); whoever can rewrite the database but cannot read this file cannot forge a
  seal. Back it up with the database (``flask --app floor backup`` copies it next to the dump);
  without it the history cannot be verified.

Each key is made on first use. Several server processes may start at the same moment, so the file
is created exclusively (``O_EXCL``): the first process writes it, the others read what it wrote.
"""

from __future__ import annotations

import os
import secrets
import time


def instance_key(instance_path: str, name: str) -> str:
    """The key in ``instance/<name>`` (64 hex digits), created on first use.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = instance_key(d, "k")
    ...     first == instance_key(d, "k") and len(first) == 64
    True
    """
    path = os.path.join(instance_path, name)
    for _ in range(50):
        try:
            with open(path, encoding="ascii") as fh:
                key = fh.read().strip()
            if key:
                return key
            time.sleep(0.01)  # another process created the file and is writing it
            continue
        except FileNotFoundError:
            pass
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # another process won the race: read its key
        key = secrets.token_hex(32)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key + "\n")
        return key
    raise RuntimeError(f"{path} stays empty: remove it and start again")
