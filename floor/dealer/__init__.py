"""The dealer's tablet (blueprint ``dealer``, ``/dealer``): the routes in :mod:`floor.dealer.views`,
the table panel they and the API render in :mod:`floor.dealer.panel`."""

from __future__ import annotations

from floor.dealer.views import bp

__all__ = ["bp"]
