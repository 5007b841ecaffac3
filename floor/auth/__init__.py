"""Accounts: the login pages (:mod:`floor.auth.views`, blueprint ``auth``) and the role checks
every page and API route goes through (:mod:`floor.auth.access`)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from floor.models import Role

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """The login blueprint, and ``Role`` in every template (``current_user.may(Role.floor)``)."""
    from floor.auth import access  # noqa: F401  (registers the login loaders)
    from floor.auth.views import bp

    app.register_blueprint(bp)

    @app.context_processor
    def inject_roles() -> dict[str, Any]:
        return {"Role": Role}
