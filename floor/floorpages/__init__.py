"""The floor person's pages (blueprint ``floorpages``, ``/floor``): :mod:`floor.floorpages.views`;
the overview's live updates :mod:`floor.floorpages.live`; a table's past hands
:mod:`floor.floorpages.history`; the line-ups, moves and players' nights :mod:`floor.floorpages.lineups`; the floor manager's shift
report :mod:`floor.floorpages.shift`; the promotions' pools and awards :mod:`floor.floorpages.promotions`;
must-move games, seat changes and the dealers' rotation :mod:`floor.floorpages.cashfloor`."""

from __future__ import annotations

from flask import Flask

from floor.floorpages import (  # noqa: F401 (lineups', waiting's and cashfloor's routes join the blueprint)
    cashfloor, history, lineups, live, promotions, shift, waiting)
from floor.floorpages.views import bp

live.register(bp)
history.register(bp)
shift.register(bp)
promotions.register(bp)

__all__ = ["bp", "init_app"]


def init_app(app: Flask) -> None:
    """Register the floor person's pages."""
    app.register_blueprint(bp)
