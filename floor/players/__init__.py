"""The card room's players as records (issue 31): a record per person (name, optional card number,
note, a ban with its reason and end), found by name or card, created by the floor on the spot.

Everything that names a player points at the record: a seat (the setup's and a ``sit``'s
``player_id``, written into the event before the rules read it: :func:`service.amend_sit`), a
tournament entry and a bounty (``player_id`` beside the sealed name). A banned player is refused at
a seat and an entry, with the reason. The player's night (:mod:`floor.players.night`) is read from
the tables' sealed logs. Decisions: docs/players.md.

- :mod:`floor.players.models`   the rows: :class:`~floor.players.models.Player`, a waiting list and its entries
- :mod:`floor.players.service`  finding, creating, banning, naming a seat's or an entry's player
- :mod:`floor.players.night`    a player's night from the logs
- :mod:`floor.players.lists`    waiting lists per game and stakes
- :mod:`floor.players.cashfloor` must-move games and seat-change requests
- the JSON routes: :mod:`floor.api.players`, :mod:`floor.api.lists`
"""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Hook the cash-game floor on the table log: a seat opening honours a seat change or calls a
    must-move player (called by the app factory)."""
    from floor import tables
    from floor.players import cashfloor, lists

    if cashfloor.after_append not in tables.AFTER_APPEND:
        tables.AFTER_APPEND.append(cashfloor.after_append)
    if cashfloor.seat_opened not in lists.SEAT_OPENED:
        lists.SEAT_OPENED.append(cashfloor.seat_opened)
