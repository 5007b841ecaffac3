"""The JSON API of the contract, under ``/api/``: one blueprint (``api``), its routes by subject.

- :mod:`floor.api.common`  the blueprint (the role check, errors and reading the input: :mod:`floor.jsonapi`)
- :mod:`floor.api.health`  ``GET /api/health``
- :mod:`floor.api.hands`   ``POST /api/hands/evaluate``
- :mod:`floor.api.tables`  tables, their log (a page at a time) and their rulings
- :mod:`floor.api.rulings` ``POST /api/rulings``, ``GET /api/rulings/<id>``
- :mod:`floor.api.findings` ``POST /api/findings``: what a checker outside the app flagged
- :mod:`floor.api.players`  players as records: find, create, ban, their night (issue 31)
- :mod:`floor.api.lists`    waiting lists per game and stakes: join, call, seat, remove (issue 31)
- :mod:`floor.api.promotions` ``GET /api/promotions``, ``POST /api/promotions/<id>/award``
"""

from __future__ import annotations

from flask import Flask

from floor.api import findings, hands, health, lists, players, promotions, rotation, rulings, tables  # noqa: F401  (their routes join the blueprint)
from floor.api.common import bp

__all__ = ["bp", "init_app"]


def init_app(app: Flask) -> None:
    """Register the JSON API."""
    app.register_blueprint(bp)
