"""The room's witness: a record the database cannot forget and the instance folder cannot silently
reset (issues 20 and 30).

The seals (:mod:`floor.seals`, :mod:`floor.sealed`) catch a row edited in place, but not rows taken
away or put back as they were: a log cut back to an earlier head that was once valid, a ruling or
a whole table deleted, a user's row put back from before a demotion, an old backup put back over
the live database. What catches those is a record kept where a rollback of the database does not
reach, which the database in turn keeps a record of:

- :mod:`floor.witness.lines`: the lines (one keyed chain over the room) and their fold;
- :mod:`floor.witness.store`: where the lines live (files on one host, or a PostgreSQL database of
  their own shared by several hosts), and how a reader resumes at the last checkpoint;
- :mod:`floor.witness.anchor`: the write path, anchored in the database (write ahead, checkpoints,
  epochs);
- :mod:`floor.witness.room`: what a server process knows, and the checks it makes when it serves;
- :mod:`floor.witness.collector`: checkpoints sent off the machine (syslog).

docs/record.md tells the operator's side: the collector, several hosts, keys, restoring, moving
to a new machine, and what ``flask verify`` checks.
"""

from __future__ import annotations

from flask import Flask

from floor.witness.anchor import WitnessCheckpoint, WitnessReach, database_state, epoch, note, require_sound, set_rows
from floor.witness.lines import (ADOPT, APPEND, BANKED_APPEND, BANKED_RULING, BANKED_TABLE, CHECKPOINT, CONFIRM,
                                 EPOCHS, RESTORE, ROW, RULING, SETS, START, TABLE, UPGRADE, Seen)
from floor.witness.room import (RELOAD, RolledBack, Room, check_not_behind, room, room_record, ruling_problems, seen,
                                user_witnessed)
from floor.witness.store import WitnessLost

__all__ = ["WitnessCheckpoint", "WitnessReach", "database_state", "epoch", "note", "set_rows", "ADOPT", "APPEND",
           "BANKED_APPEND", "BANKED_RULING", "BANKED_TABLE", "CHECKPOINT", "CONFIRM", "EPOCHS", "RESTORE", "ROW",
           "RULING", "SETS", "START", "TABLE", "UPGRADE", "Seen", "RELOAD", "RolledBack", "Room", "check_not_behind",
           "init_app", "room", "room_record", "ruling_problems", "seen", "user_witnessed", "WitnessLost"]


def init_app(app: Flask) -> None:
    """The app's witness (its store, this process's tally), and the check before each process's
    first request (:func:`floor.witness.anchor.require_sound`)."""
    app.extensions["floor_witness"] = Room(app)
    app.before_request(require_sound)
