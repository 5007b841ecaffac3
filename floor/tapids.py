"""A tap is sent once (DESIGN part four): every posted event may carry ``tap_id``, a UUID the
tablet makes when the dealer taps. The same ``tap_id`` posted again at the same table is answered
with what the first post did (the log entry, or the dealer's report for the floor), never logged
twice and never told "not logged".

Why a tablet sends a tap again: the network dropped after the server logged it but before the
answer arrived, the page was reloaded while the tap was on its way, the tap waited in a second
tab or for a login that had ended. In each case the tablet cannot know whether the first post was
logged; the tap id lets the server say. The id is stored with what the tap made, in a column
unique per table (:class:`floor.models.ChainedEntry`, :class:`floor.models.FloorCall`), so even two
posts of the same tap at the same moment make one entry: the second fails on that constraint and is
answered, like a later repeat, with the first one's entry.

The id is not part of an entry's seal: it names the request, not what happened at the table; an
entry's event, place, author and time are sealed as before (docs/pages.md has the reasoning).

>>> read({"type": "deal", "tap_id": "6F9619FF-8B86-D011-B42D-00C04FC964FF"})
'6f9619ff-8b86-d011-b42d-00c04fc964ff'
>>> read({"event": {"type": "deal"}}) is None
True
>>> read({"tap_id": "tap 1"})
Traceback (most recent call last):
...
ValueError: 'tap_id' must be a UUID, as the tablet makes one per tap (got 'tap 1')
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, TypeVar

from floor.extensions import db

__all__ = ["read", "strip", "find"]

Model = TypeVar("Model")


def read(data: Mapping[str, Any]) -> str | None:
    """The tap id a posted body carries (beside the event, or inside ``{"event": {...}}``), in the
    one spelling stored (lower-case, hyphens); None when it carries none. Raises ``ValueError`` for
    anything but a UUID."""
    inner = data.get("event")
    value = data.get("tap_id")
    if value is None and isinstance(inner, Mapping):
        value = inner.get("tap_id")
    if value is None or value == "":
        return None
    try:
        if not isinstance(value, str):
            raise ValueError
        return str(uuid.UUID(value))
    except ValueError:
        raise ValueError(f"'tap_id' must be a UUID, as the tablet makes one per tap (got {str(value)[:40]!r})") from None


def strip(event: Mapping[str, Any]) -> dict[str, Any]:
    """The event without the tap id (which is the request's, not the event's: never logged in it).

    >>> strip({"type": "pass", "seat": 2, "tap_id": "x"})
    {'type': 'pass', 'seat': 2}
    """
    return {k: v for k, v in event.items() if k != "tap_id"}


def find(model: type[Model], table_id: int, tap_id: str | None) -> Model | None:
    """What the tap ``tap_id`` made at the table (a log entry of either kind of table, a floor
    call: any model with ``table_id`` and ``tap_id``), or None."""
    if tap_id is None:
        return None
    column = getattr(model, "tap_id")
    return db.session.scalars(db.select(model).where(getattr(model, "table_id") == table_id,
                                                     column == tap_id)).first()
