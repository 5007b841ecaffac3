"""The dealer's tablet (blueprint ``dealer``, ``/dealer``): the routes in :mod:`floor.dealer.views`,
the table panel they and the API render in :mod:`floor.dealer.panel`, what an idle tablet polls
:mod:`floor.dealer.live`."""

from __future__ import annotations

from floor.dealer import live
from floor.dealer.views import bp

live.register(bp)

__all__ = ["bp"]
