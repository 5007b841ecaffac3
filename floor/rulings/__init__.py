"""Rulings: the dispute walk, issuing, the stored record, its PDF (blueprint ``rulings``).

- :mod:`floor.rulings.views`   the routes under ``/rulings``
- :mod:`floor.rulings.walk`    the decision tree's questions one at a time, and the preview
- :mod:`floor.rulings.issuing` resolve with the rules, store sealed, apply to a table's log
- :mod:`floor.rulings.stored`  reading a stored ruling (words, seats, house rules, API form)

The package imports none of its modules while it initialises (they import each other as
``from floor.rulings import ...``, which would read this package back half-made); :func:`init_app`
imports and registers them (tests/test_structure.py checks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the rulings' pages (the walk, the stored record, its PDF)."""
    from floor.rulings.stored import headline_of
    from floor.rulings.views import bp

    app.register_blueprint(bp)
    # a ruling in words wherever rulings are listed (never its outcome code: that is evidence)
    app.add_template_filter(headline_of, "headline")
