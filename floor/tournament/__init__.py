"""The tournament floor (issue 13): structure and clock, the seating draw, balancing, eliminations,
payouts. Two blueprints: ``tournament`` (pages under ``/tournament/``) and ``tournament_api``
(JSON under ``/api/events``); :func:`init_app` registers both and the hooks that tie the
tournament to the hand log (:mod:`floor.tournament.floorwork`)."""

from __future__ import annotations

from flask import Flask

from floor import tables
from floor.tournament import floorwork
from floor.tournament.api import api
from floor.tournament.views import bp

__all__ = ["bp", "api", "init_app"]


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.register_blueprint(api)
    if floorwork.amend_deal not in tables.AMENDERS:
        tables.AMENDERS.append(floorwork.amend_deal)
    if floorwork.after_append not in tables.AFTER_APPEND:
        tables.AFTER_APPEND.append(floorwork.after_append)
