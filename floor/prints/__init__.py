"""Printed rule summaries (blueprint ``prints``, ``/rules``): :mod:`floor.prints.views` renders what
:mod:`rules.reports.summary` says about a profile, as a page and as a cached PDF."""

from __future__ import annotations

from floor.prints.views import bp

__all__ = ["bp"]
