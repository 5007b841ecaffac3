"""The director's pages (blueprint ``director``, ``/director``): :mod:`floor.director.views`, with
their forms in :mod:`floor.director.forms`."""

from __future__ import annotations

from floor.director.views import bp

__all__ = ["bp"]
