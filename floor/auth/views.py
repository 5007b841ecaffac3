"""Logging in and out, a director's password reset, and the home page that sends each role home.

What holds against guessing (issue 11):

- every failed login counts against the user name; after ``FLOOR_LOCKOUT_FAILURES`` (5) in a row
  the account refuses logins, even with the right password, for ``FLOOR_LOCKOUT_MINUTES`` (15), or
  until a director resets its password. The count is in the users table: every server process
  sees it;
- each client address may try ``FLOOR_LOGIN_LIMIT`` (10 per minute) logins (Flask-Limiter, 429),
  counted in the database (:mod:`floor.ratelimit`) so that every server process counts the same;
- the failures are counted by one atomic UPDATE each: parallel attempts all count;
- the answer is the same words and takes about as long whether the name exists, is locked, or the
  password is wrong: an unknown name is checked against a dummy hash made the way real ones are;
- user names ignore case ("Dealer1" logs in dealer1: a tablet capitalises the first letter);
- logging out, and any password change, ends every session of the user (``User.end_sessions``).

Decided: the lock protects the password before availability. Anyone may lock a name by typing
it wrong five times; the address throttle bounds how fast, and a director's reset (or 15 minutes)
lifts it. Logging out ends the user's sessions on every device, not only this one: a session
cookie is signed, not stored, so "this session only" would need a session table for little gain
(dealers have one account each).
"""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_user, logout_user
from flask_wtf import FlaskForm
from sqlalchemy import case, or_
from sqlalchemy import update as sa_update
from werkzeug.security import check_password_hash, generate_password_hash
from wtforms import BooleanField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length

from floor.auth.access import role_required, safe_next
from floor.extensions import db, limiter, rows_changed
from floor.models import Role, User, utcnow
from floor.sealed import user_problem

bp = Blueprint("auth", __name__)

#: Where each role lands after logging in.
HOME = {Role.dealer: "dealer.index", Role.floor: "floorpages.index", Role.director: "director.index"}

REFUSED = "Unknown user name or wrong password."


class LoginForm(FlaskForm):
    # No capital letter, spelling fix or completion of a name on a tablet's keyboard.
    username = StringField("User name", validators=[DataRequired(), Length(max=80)],
                           render_kw={"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"})
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)])
    remember = BooleanField("Keep me logged in on this device")


class ResetPasswordForm(FlaskForm):
    password = PasswordField("New password", validators=[DataRequired(), Length(min=8, max=200)])
    confirm = PasswordField("New password again", validators=[EqualTo("password", message="The passwords differ.")])


@functools.cache
def _dummy_hash() -> str:
    """A hash made like a real account's (Werkzeug's default method), for names nobody has."""
    return generate_password_hash("no such user: the same work as a real check")


@bp.route("/")
def home() -> Any:
    """Send each role to its home page; strangers to the login page."""
    if not current_user.is_authenticated:
        return redirect(url_for("auth.login"))
    return redirect(url_for(HOME[current_user.role]))


def _login_limit() -> str:
    return str(current_app.config.get("FLOOR_LOGIN_LIMIT", "10 per minute"))


def check_login(username: str, password: str) -> User | None:
    """The user these credentials log in, or None; counts a failure against an existing name."""
    user = User.named(username)
    if user is None:
        check_password_hash(_dummy_hash(), password)  # as long as a real check
        return None
    now = utcnow()
    locked = user.locked_until is not None and user.locked_until > now
    good = user.check_password(password)  # always checked: a locked account answers as slowly
    # Both the count and the lock are single UPDATE statements on the row, each reading the row as
    # it is then (never the value this request read before hashing): eight wrong passwords sent at
    # once count eight, and a right one racing them finds the lock they set (issue 20).
    not_locked = or_(User.locked_until.is_(None), User.locked_until <= now)
    if good and not locked and user.active:
        cleared = rows_changed(sa_update(User).where(User.id == user.id, not_locked)
                               .values(failed_logins=0, locked_until=None)
                               .execution_options(synchronize_session=False))
        db.session.commit()
        return user if cleared else None
    if not locked:
        failures = current_app.config["FLOOR_LOCKOUT_FAILURES"]
        until = now + timedelta(minutes=current_app.config["FLOOR_LOCKOUT_MINUTES"])
        reaches = User.failed_logins + 1 >= failures
        locked_now = db.session.execute(
            sa_update(User).where(User.id == user.id, not_locked)
            .values(failed_logins=case((reaches, 0), else_=User.failed_logins + 1),
                    locked_until=case((reaches, until), else_=User.locked_until))
            .returning(User.locked_until).execution_options(synchronize_session=False)).scalar()
        db.session.commit()
        if locked_now == until:
            current_app.logger.warning("login: %s locked after repeated failures (from %s)",
                                       user.username, request.remote_addr)
    return None


@bp.route("/login", methods=["GET", "POST"], endpoint="login")
@limiter.limit(_login_limit, methods=["POST"],
               error_message="Too many login attempts from this device: wait a minute, then try again.")
def login_page() -> Any:
    """Log in with user name and password."""
    form = LoginForm()
    if form.validate_on_submit():
        user = check_login(form.username.data, form.password.data)
        if user is None:
            flash(f"{REFUSED} After {current_app.config['FLOOR_LOCKOUT_FAILURES']} wrong tries in a row a user "
                  f"name is locked for {current_app.config['FLOOR_LOCKOUT_MINUTES']} minutes; a director can "
                  "reset its password.", "error")
            return render_template("auth/login.html", form=form), 401
        problem = user_problem(user)
        if problem is not None:  # a row changed outside the app decides nothing (issue 30)
            current_app.logger.error("login refused: %s", problem)
            flash(f"Not logged in: {problem}", "error")
            return render_template("auth/login.html", form=form), 403
        session.clear()  # nothing of the session before the login carries over (session fixation)
        login_user(user, remember=form.remember.data)
        return redirect(safe_next(request.args.get("next")) or url_for(HOME[user.role]))
    status = 400 if form.is_submitted() else 200
    return render_template("auth/login.html", form=form), status


@bp.route("/logout", methods=["POST"])
def logout() -> Any:
    """Log out (a POST, so that no link on another site can do it). Every session of the user ends,
    on every device: a cookie copied from this one no longer logs anybody in."""
    if current_user.is_authenticated:
        current_user.end_sessions()
        db.session.commit()
    logout_user()
    session.clear()
    flash("Logged out.", "info")
    return redirect(url_for("auth.login"))


@bp.route("/director/users/<int:user_id>/password", methods=["GET", "POST"])
@role_required(Role.director)
def reset_password(user_id: int) -> Any:
    """A director sets a new password for an account (a forgotten one, or a locked account): the
    lockout is lifted and every session of that account ends. Tell the user the new password."""
    user = db.get_or_404(User, user_id)
    form = ResetPasswordForm()
    if form.validate_on_submit():
        user.set_password(form.password.data)
        db.session.commit()
        current_app.logger.info("password of %s reset by %s", user.username, current_user.username)
        flash(f"New password set for {user.username}; their other sessions are logged out.", "success")
        if user.id == current_user.id:
            login_user(user)  # the director's own session follows the new nonce
        return redirect(url_for("director.user_edit", user_id=user.id))
    status = 400 if form.is_submitted() else 200
    return render_template("auth/reset_password.html", user=user, form=form), status
