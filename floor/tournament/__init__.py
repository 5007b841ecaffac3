"""The tournament floor (issues 13, 21): structure and clock, the seating draw, balancing,
eliminations, late registration, re-entries, rebuys and add-ons, bounties, payouts. Two blueprints:
``tournament`` (pages under ``/tournament/``, :mod:`floor.tournament.views`) and ``tournament_api``
(JSON under ``/api/events``, :mod:`floor.tournament.api`); :func:`init_app` registers both and the
hooks that tie the tournament to the hand log (:mod:`floor.tournament.floorwork`).

The package imports none of its modules while it initialises (they import each other as
``from floor.tournament import service``, which would read this package back half-made): the
modules are imported when the app registers them (tests/test_structure.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the pages, the API and the hooks on the table log (called by the app factory)."""
    from floor import tables
    from floor.tournament import deal_views, floorwork  # noqa: F401 (deal_views adds the deal page to bp)
    from floor.tournament.api import api
    from floor.tournament.views import bp

    app.register_blueprint(bp)
    app.register_blueprint(api)
    if floorwork.amend_deal not in tables.AMENDERS:
        tables.AMENDERS.append(floorwork.amend_deal)
    if floorwork.after_append not in tables.AFTER_APPEND:
        tables.AFTER_APPEND.append(floorwork.after_append)
    if floorwork.desk_only not in tables.POSTED_CHECKS:
        tables.POSTED_CHECKS.append(floorwork.desk_only)
