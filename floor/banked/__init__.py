"""Banked tables (blueprint ``banked``, ``/banked``): the banked joker game's tables, boxes against
the dealer. Routes in :mod:`floor.banked.views`, records in :mod:`floor.banked.models`; the floor's disputes in :mod:`floor.banked.rulings`."""

from __future__ import annotations

from floor.banked import rulings  # noqa: F401  (its routes join the blueprint)
from floor.banked.views import bp

__all__ = ["bp"]
