"""Banked tables (blueprint ``banked``, ``/banked``): the banked joker game's tables, boxes against
the dealer. Routes in :mod:`floor.banked.views`, records in :mod:`floor.banked.models`."""

from __future__ import annotations

from floor.banked.views import bp

__all__ = ["bp"]
