"""What the benchmarks share: an app on a throwaway SQLite file, the event that keeps a log
growing, and a percentile. Imported by the scripts beside it (``python bench/bench_x.py`` puts
this folder first on ``sys.path``).

The app is imported by :func:`bench_app`, not here: ``bench_server.py`` takes only the event and
the percentile, and importing the app costs half a second of CPU it never used."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def bench_app(folder: str | Path) -> Flask:
    """The app on ``folder/bench.sqlite`` (instance files in ``folder/instance``), tables created."""
    from floor import create_app
    from floor.extensions import db

    folder = Path(folder)
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}"},
                     instance_path=str(folder / "instance"))
    with app.app_context():
        db.create_all()
    return app


def next_event(state: dict[str, Any]) -> dict[str, Any]:
    """A legal event that keeps the log growing: deals that everyone passes (the pot carries over)."""
    if state["phase"] == "between_deals":
        return {"type": "deal"}
    return {"type": "pass", "seat": state["to_act"]}


def percentile(samples: list[float], p: float) -> float:
    """The ``p``-th percentile of ``samples`` (nearest rank).

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50), percentile([5.0, 1.0, 3.0, 2.0, 4.0], 99)
    (3.0, 5.0)
    """
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]
