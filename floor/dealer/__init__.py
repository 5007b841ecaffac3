"""The dealer's tablet (blueprint ``dealer``, ``/dealer``): the routes in :mod:`floor.dealer.views`,
the table panel they render in :mod:`floor.dealer.panel`, the tap that logs an event and answers
with the panel in :mod:`floor.dealer.taps`, what an idle tablet polls :mod:`floor.dealer.live`."""

from __future__ import annotations

from floor.dealer import live, taps
from floor.dealer.views import bp

live.register(bp)
taps.register(bp)

__all__ = ["bp"]
