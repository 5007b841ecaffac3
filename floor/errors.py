"""Error pages: plain words for people, JSON for API clients; never a stack trace."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def render_error(status: int, title: str, message: str) -> Any:
    """The error as a page for people or JSON for API clients."""
    if wants_json():
        return jsonify(error=title, message=message, status=status), status
    return render_template("error.html", status=status, title=title, message=message), status


_render = render_error  # the earlier private name


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> Any:
        return render_error(400, "Form expired or forged", f"{exc.description} Reload the page and try again.")

    from floor.seals import SealBroken
    from floor.witness import RolledBack, WitnessLost

    @app.errorhandler(SealBroken)
    def seal_broken(exc: SealBroken) -> Any:
        # the stored record does not match its seals: serve nothing from it (issue 20)
        from floor.extensions import db

        db.session.rollback()
        app.logger.error("refused on %s %s: %s", request.method, request.path, exc)
        return render_error(409, "The record does not match its seals", str(exc))

    @app.errorhandler(RolledBack)
    def rolled_back(exc: RolledBack) -> Any:
        # the database is behind the room's witness: serve nothing from it (issue 20)
        from floor.extensions import db

        db.session.rollback()
        app.logger.error("refused on %s %s: %s", request.method, request.path, exc)
        return render_error(409, "The record was rolled back", str(exc))

    @app.errorhandler(WitnessLost)
    def witness_lost(exc: WitnessLost) -> Any:
        # the room's witness is missing, cut back or not the database's: serve nothing (issue 30)
        from floor.extensions import db

        db.session.rollback()
        app.logger.error("refused on %s %s: %s", request.method, request.path, exc)
        return render_error(503, "The room's record is not whole", str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        return render_error(exc.code or 500, exc.name, exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Any:
        # Logged with its traceback for the operator; the person at the table sees plain words.
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return render_error(500, "Internal Server Error",
                            "Something went wrong on our side; nothing was saved. Call the floor if it persists.")
