"""Printed rule summaries (blueprint ``prints``, ``/rules``): :mod:`floor.prints.views` renders what
:mod:`rules.reports.summary` says about a profile, as a page and as a cached PDF."""

from __future__ import annotations

from flask import Flask

from floor.prints.views import bp

__all__ = ["bp", "init_app"]


def init_app(app: Flask) -> None:
    """Register the printed rule summaries."""
    app.register_blueprint(bp)
