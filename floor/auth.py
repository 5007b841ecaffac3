"""Accounts: log in and out, the role checks every page and API route goes through.

Pages use the session (Flask-Login); API clients send ``Authorization: Bearer <token>``, a
per-user token issued by ``flask --app floor create-user`` or ``api-token``. A browser page that
calls the API with its session cookie must send the CSRF token in ``X-CSRFToken`` (the API is
exempt from the form check only for bearer-token clients, which no other site can forge).
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, Length

from floor.extensions import db, login
from floor.models import Role, User, token_digest

bp = Blueprint("auth", __name__)

F = TypeVar("F", bound=Callable[..., Any])

HOME = {Role.dealer: "dealer.index", Role.floor: "disputes.index", Role.director: "director.index"}


@login.user_loader
def load_user(user_id: str) -> User | None:
    user = db.session.get(User, int(user_id)) if user_id.isdigit() else None
    return user if user is not None and user.active else None


@login.request_loader
def load_user_from_token(req: Any) -> User | None:
    header = req.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    user = db.session.scalars(db.select(User).where(User.token_digest == token_digest(token.strip()))).first()
    if user is not None and user.active:
        g.bearer = True
        return user
    return None


def require_role(minimum: Role) -> Callable[[], Any]:
    """A ``before_request`` hook for a blueprint: every view in it needs at least ``minimum``."""

    def check() -> Any:
        if not current_user.is_authenticated:
            return login.unauthorized()
        if not current_user.may(minimum):
            abort(403, description=f"This page is for the {minimum.name} role and above; "
                                   f"you are logged in as a {current_user.role.name}.")
        return None

    return check


def role_required(minimum: Role) -> Callable[[F], F]:
    """The same check as :func:`require_role`, for a single view."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            refused = require_role(minimum)()
            return refused if refused is not None else view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


class LoginForm(FlaskForm):
    username = StringField("User name", validators=[DataRequired(), Length(max=80)])
    password = PasswordField("Password", validators=[DataRequired()])
    remember = BooleanField("Keep me logged in on this device")


def _safe_next(target: str | None) -> str | None:
    """Only a path on this site: never an open redirect to another host."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


@bp.route("/")
def home() -> Any:
    """Send each role to its home page; strangers to the login page."""
    if not current_user.is_authenticated:
        return redirect(url_for("auth.login"))
    return redirect(url_for(HOME[current_user.role]))


@bp.route("/login", methods=["GET", "POST"], endpoint="login")
def login_page() -> Any:
    """Log in with user name and password."""
    form = LoginForm()
    if form.validate_on_submit():
        user = db.session.scalars(db.select(User).where(User.username == form.username.data.strip())).first()
        if user is None or not user.active or not user.check_password(form.password.data):
            flash("Unknown user name or wrong password.", "error")
            return render_template("auth/login.html", form=form), 401
        login_user(user, remember=form.remember.data)
        return redirect(_safe_next(request.args.get("next")) or url_for(HOME[user.role]))
    status = 400 if form.is_submitted() else 200
    return render_template("auth/login.html", form=form), status



@bp.route("/logout", methods=["POST"])
def logout() -> Any:
    """Log out (a POST, so that no link on another site can do it)."""
    logout_user()
    flash("Logged out.", "info")
    return redirect(url_for("auth.login"))


def init_app(app: Flask) -> None:
    @app.context_processor
    def inject_roles() -> dict[str, Any]:
        return {"Role": Role}
