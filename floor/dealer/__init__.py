"""The dealer's tablet (blueprint ``dealer``, ``/dealer``): the routes in :mod:`floor.dealer.views`,
the table panel they render in :mod:`floor.dealer.panel`, the tap that logs an event and answers
with the panel in :mod:`floor.dealer.taps`, what an idle tablet polls :mod:`floor.dealer.live`."""

from __future__ import annotations

from flask import Flask

from floor.dealer import live, panel, taps
from floor.dealer.views import bp

live.register(bp)
taps.register(bp)
bp.add_app_template_filter(panel.rule_words, "rule_words")  # rule ids in words on the tablet

__all__ = ["bp", "init_app"]


def init_app(app: Flask) -> None:
    """Register the dealer's tablet."""
    app.register_blueprint(bp)
