"""``GET /api/health``: the version, and whether the database answers (no login: for monitors)."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify
from sqlalchemy import text

from floor.api.common import bp
from floor.extensions import db


@bp.get("/health")
def health() -> Any:
    """The version, and whether the database answers (no login: for monitors)."""
    try:
        db.session.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:  # report, never raise: a monitor wants an answer
        current_app.logger.warning("health check: database did not answer: %s", exc)
        database = "unavailable"
    status = 200 if database == "ok" else 503
    return jsonify(status="ok" if status == 200 else "degraded", version=current_app.config["FLOOR_VERSION"],
                   database=database), status
