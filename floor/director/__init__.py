"""The director's pages (blueprint ``director``, ``/director``): :mod:`floor.director.views`, with
their forms in :mod:`floor.director.forms`.

The package imports none of its modules while it initialises (they import each other as
``from floor.director import ...``, which would read this package back half-made); :func:`init_app`
imports and registers them (tests/test_structure.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the director's pages."""
    from floor.director.views import bp

    app.register_blueprint(bp)
