"""Logging in and out, and the home page that sends each role to its own pages."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, Length

from floor.extensions import db
from floor.models import Role, User

bp = Blueprint("auth", __name__)

#: Where each role lands after logging in.
HOME = {Role.dealer: "dealer.index", Role.floor: "floorpages.index", Role.director: "director.index"}


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
