"""Times in the card room's own time zone, on pages and prints.

Every time is stored in UTC (:func:`floor.models.utcnow`); the card room's zone is the room's
setting (asked once by ``init-db``, changed by a director at ``/director/settings``: see
:mod:`floor.room`), else ``FLOOR_TIMEZONE`` (an IANA name such as ``Europe/London``;
``instance/config.py`` or the environment), else the machine's own zone. Templates show times
through the ``localtime`` filter: ``{{ ruling.issued_at|localtime }}`` gives ``2026-11-22 02:14 GMT``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask


def zone() -> ZoneInfo:
    from floor.room import zone_name  # not at import: floor.room imports the models and the auth checks

    return ZoneInfo(zone_name())


def local(moment: datetime | str | None, fmt: str = "%Y-%m-%d %H:%M %Z") -> str:
    """A stored UTC time in the card room's zone, formatted ('' for no time). A JSON row's time
    (an ISO text, UTC as stored) is read first, so pages built from the API's rows show it too."""
    at = in_room(moment)
    return at.strftime(fmt) if at is not None else ""


def local_iso(moment: datetime | str | None) -> str:
    """A stored UTC time as ISO 8601 in the card room's zone, with its offset ('' for no time): what
    a spreadsheet reads, at the same wall-clock time the pages show.

    >>> from unittest import mock
    >>> with mock.patch("floor.localtime.zone", lambda: ZoneInfo("Asia/Kolkata")):
    ...     local_iso("2026-11-24T20:00:00")
    '2026-11-25T01:30:00+05:30'
    """
    at = in_room(moment)
    return at.isoformat(timespec="seconds") if at is not None else ""


def utc_text(moment: datetime | None) -> str | None:
    """A stored UTC time as the JSON API writes every time: ISO 8601 to the second, marked ``Z``
    (a client never reads it as its own local time); None for no time.

    >>> utc_text(datetime(2026, 11, 27, 2, 14, 5, 123456))
    '2026-11-27T02:14:05Z'
    >>> utc_text(None) is None
    True
    """
    return moment.isoformat(timespec="seconds") + "Z" if moment is not None else None


def in_room(moment: datetime | str | None) -> datetime | None:
    """A stored UTC time (a datetime without a zone, or the ISO text of a JSON row) as an aware time
    in the card room's zone; None for no time."""
    if not moment:
        return None
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.removesuffix("Z"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone())


def init_app(app: Flask) -> None:
    name = app.config.get("FLOOR_TIMEZONE")
    try:
        if name:
            ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise RuntimeError(f"FLOOR_TIMEZONE: unknown time zone {name!r}; use an IANA name such as "
                           "'Europe/London' or 'America/Las_Vegas'") from None
    app.jinja_env.filters["localtime"] = local
