"""The floor person's pages (blueprint ``floorpages``, ``/floor``): :mod:`floor.floorpages.views`."""

from __future__ import annotations

from floor.floorpages import lineups  # noqa: F401 (its routes join the blueprint)
from floor.floorpages.views import bp

__all__ = ["bp"]
