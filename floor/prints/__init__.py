"""Printed rule summaries (blueprint ``prints``, ``/rules``): :mod:`floor.prints.views` renders what
:mod:`rules.reports.summary` says about a profile, as a page and as a PDF kept once made
(:mod:`floor.prints.stored`), with the decision tree drawn by :mod:`floor.prints.diagrams`.

The package imports none of its modules while it initialises: the banked tables' summary takes the
diagrams and the stored print (services) without loading these pages; :func:`init_app` imports
and registers them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the printed rule summaries."""
    from floor.prints.views import bp

    app.register_blueprint(bp)
