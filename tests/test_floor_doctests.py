"""The examples in the docstrings of floor/ modules that need no app run as tests too (pytest's
--doctest-modules reads rules/ and tests/ only: floor/ imports Flask and the database)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["floor.tapids", "floor.localtime", "floor.rulings.stored", "floor.rulings.printed",
           "floor.tournament.eliminations", "floor.tournament.models"]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
