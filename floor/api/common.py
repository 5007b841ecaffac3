"""The JSON API's blueprint (``api``, under ``/api/``), which every module of the package adds its
routes to. What the routes share (the role check, errors, reading the input) is :mod:`floor.jsonapi`,
as every JSON route of the app does.
"""

from __future__ import annotations

from flask import Blueprint

from floor.extensions import csrf

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)  # checked by hand in api_role: bearer clients need no token, session clients do
