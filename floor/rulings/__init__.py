"""Rulings: the dispute walk, issuing, the stored record, its PDF (blueprint ``rulings``).

- :mod:`floor.rulings.views`   the routes under ``/rulings``
- :mod:`floor.rulings.walk`    the decision tree's questions one at a time, and the preview
- :mod:`floor.rulings.issuing` resolve with the rules, store sealed, apply to a table's log
- :mod:`floor.rulings.stored`  reading a stored ruling (words, seats, house rules, API form)
"""

from __future__ import annotations

from floor.rulings.views import bp

__all__ = ["bp"]
