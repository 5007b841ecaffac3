"""``GET /api/health``: the version, and whether the database takes a write (no login: for monitors).

A read alone is not enough: a database that is read-only (a remount after a disk error, a replica,
a permission) or full answers ``SELECT 1`` but refuses every tap. So the check writes and commits
one row (``HealthProbe``): 503 with ``database: "read-only or full"`` when that fails.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app, jsonify
from sqlalchemy import text
from sqlalchemy.orm import Mapped, mapped_column

from floor.api.common import bp
from floor.extensions import DbModel, db
from floor.models import utcnow


class HealthProbe(DbModel):
    """One row that ``GET /api/health`` writes each time: a database that answers reads but cannot
    take a write (read-only, disk full) is not healthy for a card room that logs every tap."""

    __tablename__ = "health_probe"

    id: Mapped[int] = mapped_column(primary_key=True)
    checked_at: Mapped[datetime] = mapped_column(default=utcnow)


def _probe() -> str:
    """"ok", "unavailable" (no answer) or "read-only or full" (answers, takes no write)."""
    try:
        db.session.execute(text("SELECT 1"))
    except Exception as exc:  # report, never raise: a monitor wants an answer
        current_app.logger.warning("health check: database did not answer: %s", exc)
        db.session.rollback()
        return "unavailable"
    try:
        probe = db.session.get(HealthProbe, 1)
        if probe is None:
            db.session.add(HealthProbe(id=1, checked_at=utcnow()))
        else:
            probe.checked_at = utcnow()
        db.session.commit()
    except Exception as exc:
        current_app.logger.warning("health check: database refused a write: %s", exc)
        db.session.rollback()
        return "read-only or full"
    return "ok"


@bp.get("/health")
def health() -> Any:
    """The version, and whether the database answers and takes a write (no login: for monitors)."""
    database = _probe()
    status = 200 if database == "ok" else 503
    return jsonify(status="ok" if status == 200 else "degraded", version=current_app.config["FLOOR_VERSION"],
                   database=database), status
