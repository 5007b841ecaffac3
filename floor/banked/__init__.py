"""Banked tables (blueprint ``banked``, ``/banked``): the banked joker game's tables, boxes against
the dealer. Routes in :mod:`floor.banked.views`, records in :mod:`floor.banked.models`; the floor's disputes in :mod:`floor.banked.rulings`.

The package imports none of its modules while it initialises (they import each other as
``from floor.banked import ...``, which would read this package back half-made); :func:`init_app`
imports and registers them (tests/test_structure.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the banked tables' pages, with the floor's dispute routes joined to them."""
    from floor.banked import rulings  # noqa: F401  (its routes join the blueprint)
    from floor.banked.views import bp
    from rules.banked.disputes import OUTCOME_WORDS

    app.register_blueprint(bp)
    # a banked ruling's outcome in the floor's words wherever rulings are listed
    app.add_template_filter(lambda code: OUTCOME_WORDS.get(str(code), str(code)), "banked_outcome")
